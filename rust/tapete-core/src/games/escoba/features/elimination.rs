//! `target_mode=eliminate` (docs/rules/escoba.md §2.11): the seats still in the match, public.

use serde_json::{Map, Value};

use crate::error::Result;
use crate::games::escoba::feature::{Feature, Layout, ReadAt, SetupAt, Spec};
use crate::games::escoba::options::{EscobaOptions, TargetMode};
use crate::games::escoba::text::{Seen, ST};
use crate::games::escoba::EscobaState;
use crate::json::push_ints;

pub struct Elimination;

impl Feature<EscobaState> for Elimination {
    state_key! { "in_play", ReadAt::Late, |st| st.elimination.in_play.to_string() }
    fn enabled(&self, o: &EscobaOptions) -> bool {
        o.target_mode == TargetMode::Eliminate
    }
    fn observe(&self, w: &mut Layout<'_, EscobaState>) {
        if let Some(b) = w.block(w.seats) {
            for s in 0..b.st.cfg.n {
                b.out[s] = (b.st.elimination.in_play >> s & 1) as f32;
            }
        }
    }
    fn read(&self, st: &mut EscobaState, m: &Map<String, Value>, _: &mut Seen) -> Result<()> {
        let n = st.cfg.n;
        let mask = ST.int(&m["in_play"], "in_play", 1, (1i64 << n) - 1)? as u8;
        if st.terminal {
            // the winner's seats, or (a draw) at least two seats
            let ok = if st.winner >= 0 {
                (0..n).all(|p| (mask >> p & 1 != 0) == (st.cfg.side_of[p] as i8 == st.winner))
            } else {
                mask.count_ones() >= 2
            };
            if !ok {
                return Err(ST.err(format!(
                    "in_play {mask} does not fit a finished match (the winner's seats, else 2 or more)"
                )));
            }
            st.elimination.in_play = mask;
        } else {
            let mover = st.to_move.max(0) as usize;
            st.elimination.in_play = check_in_play(st, mask, st.dealer as usize, mover)?;
        }
        Ok(())
    }
    fn setup_at(&self) -> SetupAt {
        SetupAt::Seats
    }
    fn setup(&self, on: bool, st: &mut EscobaState, spec: &Spec<'_>, _: &mut Seen) -> Result<()> {
        let Some(v) = spec("in_play") else {
            return Ok(());
        };
        if !on {
            return Err(ST.err("setup key in_play needs target_mode=eliminate".into()));
        }
        let mut mask = 0u8;
        for x in ST.list(v, "in_play")? {
            mask |= 1 << ST.int(x, "in_play entry", 0, st.cfg.n as i64 - 1)?;
        }
        st.elimination.in_play = check_in_play(st, mask, st.dealer as usize, st.to_move as usize)?;
        Ok(())
    }
    fn view(&self, st: &EscobaState, _: usize, s: &mut String) {
        s.push_str(",\"in_play\":");
        push_ints(
            s,
            (0..st.cfg.n).filter(|&p| st.elimination.in_play >> p & 1 != 0),
        );
    }
}

/// `mask` as the seats in play: at least two, holding the dealer and the mover, the others
/// without cards.
fn check_in_play(s: &EscobaState, mask: u8, dealer: usize, mover: usize) -> Result<u8> {
    let n = s.cfg.n;
    if mask.count_ones() < 2 || mask >> dealer & 1 == 0 || mask >> mover & 1 == 0 {
        return Err(ST.err(format!(
            "in_play must hold at least 2 seats, the dealer {dealer} and the seat to move {mover}"
        )));
    }
    if (0..n).any(|p| mask >> p & 1 == 0 && !s.hands[p].is_empty()) {
        return Err(ST.err("a seat out of play holds cards".into()));
    }
    Ok(mask)
}
