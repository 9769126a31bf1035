//! What a seat sees (docs/burako_engine.md §11): its view and its observation tensor; and the
//! picture of the table for people (`Display`).

use std::fmt::{self, Write as _};

use serde_json::{json, Value};

use crate::json::tile_texts;
use crate::obs::Sink;
use crate::tiles::{tile_text, TileCounts, TileType};

use super::{team, BurakoState, Kind, A_REDRAW, M_MAX, PHASE_DRAW, PHASE_MELD};

fn opt_tile(x: i8) -> Value {
    if x < 0 {
        Value::Null
    } else {
        Value::from(tile_text(x as u8))
    }
}

/// View of seat `p` (docs/burako_engine.md §11); the public view for `None` (no `player`,
/// `rack`, `buffer` or `drawn`, every hidden add masked).
pub(super) fn view_json(st: &BurakoState, p: Option<usize>) -> String {
    let n = st.n();
    let min = st.opts().meld.canasta_min;
    let mover = !st.terminal && p == Some(st.to_move as usize);
    let melds: Vec<Value> = (0..2)
        .map(|t| {
            Value::from(
                st.team_melds(t)
                    .iter()
                    .map(|m| {
                        json!({"kind": m.kind.as_str(), "tiles": tile_texts(m.tiles),
                               "pure": m.pure, "canasta": m.is_canasta(min)})
                    })
                    .collect::<Vec<_>>(),
            )
        })
        .collect();
    let pozo: Vec<String> = if st.opts().pozo_top_only {
        st.pozo()
            .last()
            .map(|&t| vec![tile_text(t)])
            .unwrap_or_default()
    } else {
        st.pozo().iter().map(|&t| tile_text(t)).collect()
    };
    let rack_sizes: Vec<u32> = (0..n)
        .map(|s| {
            let buffer = !st.terminal && s == st.to_move as usize;
            st.rack_len[s] as u32 + if buffer { st.buffer_len as u32 } else { 0 }
        })
        .collect();
    const STATUS: [&str; 3] = ["untaken", "direct", "indirect"];
    let v = json!({
        "player": p,
        "current_player": if st.terminal { -1 } else { st.to_move as i64 },
        "mano": st.mano,
        "hand": st.hand,
        "phase": if st.phase == PHASE_DRAW { "draw" } else { "meld" },
        "turns": st.turns,
        "rack": p.map(|p| tile_texts(st.racks[p])),
        "buffer": match p {
            None => Value::Null,
            Some(_) if mover => tile_texts(st.buffer),
            Some(_) => json!([]),
        },
        "rack_sizes": rack_sizes,
        "melds": melds,
        "pozo": pozo,
        "pozo_size": st.pozo_len,
        "stock_size": st.stock_len,
        "muertos_left": st.muertos_left(),
        "muerto_status": st.muerto_status.iter().map(|&x| STATUS[x as usize]).collect::<Vec<_>>(),
        "drawn": if mover { opt_tile(st.drawn) } else { Value::Null },
        "must_use": opt_tile(st.must_use),
        "no_discard": opt_tile(st.no_discard),
        "cancels": st.cancels,
        "totals": st.totals,
        "hand_scores": st.hand_scores,
        "terminal": st.terminal,
        "winner": st.winner,
        "history": super::resample::view_history(st, p),
    });
    v.to_string()
}

impl BurakoState {
    /// Writes the observation of seat `p` (docs/burako_engine.md §11) into `out`.
    pub(super) fn fill_observation<O: Sink + ?Sized>(&self, p: usize, out: &mut O) {
        let n = self.n();
        let counts = |out: &mut O, at: usize, c: TileCounts| {
            let mut types = c.types();
            while types != 0 {
                let t = types.trailing_zeros() as TileType;
                out.set(at + t as usize, c.get(t) as f32);
                types &= types - 1;
            }
        };
        counts(out, 0, self.racks[p]);
        if self.to_move as usize == p && !self.terminal {
            counts(out, 53, self.buffer);
        }
        let my = team(p);
        let min = self.opts().meld.canasta_min;
        for (bi, tm) in [my, 1 - my].into_iter().enumerate() {
            let base = 106 + bi * M_MAX * 57;
            for (k, m) in self.team_melds(tm).iter().enumerate() {
                let o = base + k * 57;
                out.set(o, (m.kind == Kind::Run) as u8 as f32);
                out.set(o + 1, (m.kind == Kind::Pierna) as u8 as f32);
                counts(out, o + 2, m.tiles);
                out.set(o + 55, m.pure as u8 as f32);
                out.set(o + 56, m.is_canasta(min) as u8 as f32);
            }
        }
        if !self.opts().pozo_top_only {
            counts(out, 4096, self.pozo_counts);
        }
        if self.pozo_len > 0 {
            out.set(4149 + self.pozo[self.pozo_len as usize - 1] as usize, 1.0);
        }
        out.set(4202, self.pozo_len as f32);
        out.set(4203, self.stock_len as f32);
        for j in 0..n {
            let s = (p + j) % n;
            let mut size = self.rack_len[s] as u32;
            if s == self.to_move as usize {
                size += self.buffer_len as u32;
            }
            out.set(4204 + j, size as f32);
        }
        let b = 4204 + n;
        for (bi, tm) in [my, 1 - my].into_iter().enumerate() {
            out.set(b + 3 * bi + self.muerto_status[tm] as usize, 1.0);
        }
        out.set(b + 6, (self.turns == 0) as u8 as f32);
        out.set(
            b + 7,
            (!self.terminal && self.phase == PHASE_MELD && self.legal_one(A_REDRAW)) as u8 as f32,
        );
        out.set(b + 8, self.cancels as f32);
        out.set(b + 9, self.turns as f32);
        out.set(b + 10, self.hand_scores.len() as f32);
        out.set(b + 11, self.totals[my] as f32);
        out.set(b + 12, self.totals[1 - my] as f32);
        out.set(b + 13 + (self.mano as usize + n - p) % n, 1.0);
    }
}

fn tiles_text(c: TileCounts) -> String {
    let v: Vec<String> = c.to_vec().into_iter().map(tile_text).collect();
    v.join(" ")
}

impl fmt::Display for BurakoState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "Burako, hand {} (mano seat {}), turn {}, totals {} / {}{}",
            self.hand,
            self.mano,
            self.turns + 1,
            self.totals[0],
            self.totals[1],
            if self.terminal {
                match self.winner {
                    -1 => ", over: a draw".to_string(),
                    w => format!(", over: team {w} wins"),
                }
            } else {
                format!(
                    ", seat {} to {}",
                    self.to_move,
                    if self.phase == PHASE_DRAW {
                        "draw"
                    } else {
                        "meld or discard"
                    }
                )
            }
        );
        for p in 0..self.n() {
            let _ = writeln!(
                s,
                "  seat {p} (team {}) rack: {}",
                team(p),
                tiles_text(self.racks[p])
            );
        }
        if self.buffer_len > 0 {
            let _ = writeln!(
                s,
                "  pending meld of seat {}: {}",
                self.to_move,
                tiles_text(self.buffer)
            );
        }
        let min = self.opts().meld.canasta_min;
        const MUERTO: [&str; 3] = [
            "muerto not taken",
            "muerto taken directly",
            "muerto taken indirectly",
        ];
        for t in 0..2 {
            let _ = writeln!(
                s,
                "  team {t} melds ({}):",
                MUERTO[self.muerto_status[t] as usize]
            );
            for (k, m) in self.team_melds(t).iter().enumerate() {
                let _ = writeln!(
                    s,
                    "    [{k}] {} {}{}: {}",
                    if m.pure { "pure" } else { "impure" },
                    m.kind.as_str(),
                    if m.is_canasta(min) { " CANASTA" } else { "" },
                    tiles_text(m.tiles)
                );
            }
        }
        let pozo: Vec<String> = self.pozo().iter().map(|&t| tile_text(t)).collect();
        let _ = writeln!(s, "  pozo (top last): {}", pozo.join(" "));
        let _ = write!(
            s,
            "  stock: {} tiles, muertos left: {}",
            self.stock_len,
            self.muertos_left()
        );
        f.write_str(&s)
    }
}
