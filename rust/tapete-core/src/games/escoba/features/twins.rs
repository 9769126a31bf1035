//! The double pack's twin sweeps (docs/escoba_engine.md §1a): the sweeps that took the played
//! card's twin, public, which score 3.

use serde_json::{Map, Value};

use super::{observe_marked, view_marked};
use crate::error::Result;
use crate::games::escoba::feature::{Feature, Layout, ReadAt};
use crate::games::escoba::options::EscobaOptions;
use crate::games::escoba::text::{ints, Seen, ST};
use crate::games::escoba::{twins, EscobaState};

pub struct TwinSweeps;

impl Feature<EscobaState> for TwinSweeps {
    state_key! { "twin_sweeps", ReadAt::Sweeps, |st| ints(st.twin_sweeps()) }
    fn enabled(&self, o: &EscobaOptions) -> bool {
        o.deck.copies() == 2
    }
    fn validate(&self, o: &EscobaOptions) -> Result<()> {
        twins::validate(o)
    }
    fn observe(&self, w: &mut Layout<'_, EscobaState>) {
        observe_marked(w, |st| st.sweeps_per_side(st.twin_sweeps()));
    }
    fn read(&self, st: &mut EscobaState, m: &Map<String, Value>, _: &mut Seen) -> Result<()> {
        // ascending indices of the sweeps that took the played card's twin
        let mut last = -1i64;
        for x in ST.list(&m["twin_sweeps"], "twin_sweeps")? {
            let i = ST.int(x, "twin_sweeps entry", last + 1, st.n_sweeps as i64 - 1)?;
            st.twin.sweeps |= 1u128 << i;
            last = i;
        }
        Ok(())
    }
    fn view(&self, st: &EscobaState, _: usize, s: &mut String) {
        view_marked(st, "twin_sweeps", st.sweeps_per_side(st.twin_sweeps()), s);
    }
}
