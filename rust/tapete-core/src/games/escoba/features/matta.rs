//! The matta (docs/rules/escoba.md §2.7): the wild card's capture value in this deal, public,
//! fixed by the knock of the hand that holds it.

use std::fmt::Write as _;

use serde_json::{Map, Value};

use crate::error::Result;
use crate::games::escoba::feature::{Feature, ReadAt};
use crate::games::escoba::options::EscobaOptions;
use crate::games::escoba::text::{Seen, ST};
use crate::games::escoba::EscobaState;

pub struct MattaPart;

impl Feature<EscobaState> for MattaPart {
    state_key! { "matta_value", ReadAt::Late, |st| st.matta.value.to_string() }
    fn enabled(&self, o: &EscobaOptions) -> bool {
        o.matta.is_some()
    }
    fn read(&self, st: &mut EscobaState, m: &Map<String, Value>, _: &mut Seen) -> Result<()> {
        st.matta.value = ST.int(&m["matta_value"], "matta_value", 1, 10)? as u8;
        Ok(())
    }
    fn view(&self, st: &EscobaState, _: usize, s: &mut String) {
        let _ = write!(s, ",\"matta_value\":{}", st.matta.value);
    }
    fn new_deal(&self, st: &mut EscobaState) {
        st.matta.value = st.cfg.matta.value;
    }
}
