//! Maresciallo's penalty (docs/rules/escoba.md §2.18): the sweeps made by playing `Ks`, public,
//! which score −4 each.

use serde_json::{Map, Value};

use super::{observe_marked, view_marked};
use crate::error::Result;
use crate::games::escoba::feature::{Feature, Layout, ReadAt};
use crate::games::escoba::maresciallo::KS;
use crate::games::escoba::options::EscobaOptions;
use crate::games::escoba::text::{ints, Seen, ST};
use crate::games::escoba::EscobaState;

pub struct Maresciallo;

impl Feature<EscobaState> for Maresciallo {
    state_key! { "ks_sweeps", ReadAt::Sweeps, |st| ints(st.ks_sweeps()) }
    fn enabled(&self, o: &EscobaOptions) -> bool {
        o.maresciallo_penalty
    }
    fn observe(&self, w: &mut Layout<'_, EscobaState>) {
        observe_marked(w, |st| st.sweeps_per_side(st.ks_sweeps()));
    }
    fn read(&self, st: &mut EscobaState, m: &Map<String, Value>, _: &mut Seen) -> Result<()> {
        // each Ks makes at most one sweep, and it lies in the sweeper's pile
        let ks = ST.list(&m["ks_sweeps"], "ks_sweeps")?;
        let copies = st.cfg.opts.deck.copies();
        if ks.len() > copies {
            return Err(ST.err(format!(
                "ks_sweeps may list at most {copies} sweep(s) (one per Ks), got {}",
                ks.len()
            )));
        }
        for x in ks {
            let i = ST.int(x, "ks_sweeps entry", 0, st.n_sweeps as i64 - 1)? as usize;
            if !st.piles[st.sweeps[i] as usize].contains(KS) {
                return Err(ST.err(format!(
                    "ks_sweeps: sweep {i} was made by playing Ks, so Ks must be in side {}'s pile",
                    st.sweeps[i]
                )));
            }
            st.maresciallo.ks_sweeps |= 1u128 << i;
        }
        Ok(())
    }
    fn view(&self, st: &EscobaState, _: usize, s: &mut String) {
        view_marked(st, "ks_sweeps", st.sweeps_per_side(st.ks_sweeps()), s);
    }
    fn new_deal(&self, st: &mut EscobaState) {
        st.maresciallo.ks_sweeps = 0;
    }
}
