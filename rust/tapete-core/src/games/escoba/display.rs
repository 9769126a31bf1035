//! The state as a picture for people (`Display`).

use std::fmt::{self, Write as _};

use super::{builds, EscobaState};

/// A readable picture of the table for people.
impl fmt::Display for EscobaState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let o = self.opts();
        let n = self.n();
        let mut s = String::new();
        let _ = writeln!(
            s,
            "escoba ({}) - deal {}, dealer seat {}, target {}",
            o.variant.as_str(),
            self.deal,
            self.dealer,
            o.target
        );
        for seat in 0..n {
            let mark = if !self.terminal && self.to_move as usize == seat {
                " <- to move"
            } else {
                ""
            };
            let h = self.hands[seat];
            let _ = writeln!(
                s,
                "  seat {seat} (side {}): {}{mark}",
                self.side(seat),
                if h.is_empty() {
                    "-".to_string()
                } else {
                    h.to_string()
                }
            );
        }
        let _ = writeln!(
            s,
            "  table: {}",
            if self.table.is_empty() {
                "-".to_string()
            } else {
                self.table.to_string()
            }
        );
        for &bl in self.builds.as_slice() {
            let _ = writeln!(s, "  build of {}: {bl}", builds::build_value(bl));
        }
        if let Some(p) = self.pending() {
            let _ = writeln!(s, "  playing {p}, taking so far: {}", self.selection);
        }
        let _ = writeln!(s, "  stock: {} cards", self.stock().len());
        for side in 0..self.cfg.sides {
            let sw = self
                .sweeps()
                .iter()
                .filter(|&&x| x as usize == side)
                .count();
            let _ = writeln!(
                s,
                "  side {side}: pile {} cards, sweeps {sw}, score {}",
                self.piles[side].len(),
                self.scores[side]
            );
        }
        if self.terminal {
            let end = match (self.winner(), self.loser()) {
                (Some(w), _) => format!("side {w} wins"),
                (_, Some(l)) => format!("side {l} loses"),
                _ => "drawn".to_string(),
            };
            let _ = writeln!(s, "  match over: {end}");
        }
        f.write_str(s.trim_end())
    }
}
