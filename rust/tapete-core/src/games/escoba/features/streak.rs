//! `max_consecutive_sweeps` (docs/rules/escoba.md §1.5): each side's streak of sweeps this deal,
//! public, which the cap reads.

use serde_json::{Map, Value};

use crate::error::Result;
use crate::games::escoba::feature::{Feature, Layout, ReadAt};
use crate::games::escoba::options::EscobaOptions;
use crate::games::escoba::text::{ints, Seen, ST};
use crate::games::escoba::EscobaState;
use crate::json::push_ints;

pub struct Streak;

impl Feature<EscobaState> for Streak {
    state_key! { "sweep_streak", ReadAt::Sweeps, |st| ints(&st.streak.runs[..st.cfg.sides]) }
    fn enabled(&self, o: &EscobaOptions) -> bool {
        o.max_consecutive_sweeps.is_some()
    }
    fn observe(&self, w: &mut Layout<'_, EscobaState>) {
        if let Some(b) = w.block(w.sides) {
            // each side's streak against the cap, at most 1
            let st = b.st;
            let cap = st.cfg.opts.max_consecutive_sweeps.unwrap_or(1);
            for s in 0..st.cfg.sides {
                b.out[s] = (st.streak.runs[s] as f64 / cap as f64).min(1.0) as f32;
            }
        }
    }
    fn read(&self, st: &mut EscobaState, m: &Map<String, Value>, _: &mut Seen) -> Result<()> {
        // a side's streak counts its plays, at most the pack
        let v = ST.list_of(&m["sweep_streak"], "sweep_streak", st.cfg.sides)?;
        for (side, x) in v.iter().enumerate() {
            st.streak.runs[side] = ST.int(x, "sweep_streak entry", 0, st.cfg.pack as i64)? as u32;
        }
        Ok(())
    }
    fn view(&self, st: &EscobaState, _: usize, s: &mut String) {
        s.push_str(",\"sweep_streak\":");
        push_ints(s, st.streak.runs[..st.cfg.sides].iter());
    }
    fn new_deal(&self, st: &mut EscobaState) {
        st.streak.runs = Default::default();
    }
}
