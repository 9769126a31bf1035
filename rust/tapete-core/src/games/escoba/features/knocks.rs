//! Knocks (`KNOCK`/`NO_KNOCK`, docs/rules/escoba.md §2.7): each seat's decision on the hand it
//! holds, offered on the first turn of a hand with something to declare.

use serde_json::{Map, Value};

use crate::error::Result;
use crate::games::escoba::feature::{Feature, ReadAt};
use crate::games::escoba::knock::{self, DECLINED, KNOCKED, UNDECIDED};
use crate::games::escoba::options::EscobaOptions;
use crate::games::escoba::text::{ints, Seen, ST};
use crate::games::escoba::{EscobaState, MAX_DECLS, MAX_SEATS};

pub struct Knocks;

impl Feature<EscobaState> for Knocks {
    state_key! { "knock_state", ReadAt::Late, |st| ints(&st.knocks.states[..st.cfg.n]) }
    fn enabled(&self, o: &EscobaOptions) -> bool {
        knock::enabled(o)
    }
    fn read(&self, st: &mut EscobaState, m: &Map<String, Value>, _: &mut Seen) -> Result<()> {
        let v = ST.list_of(&m["knock_state"], "knock_state", st.cfg.n)?;
        for (seat, x) in v.iter().enumerate() {
            st.knocks.states[seat] =
                ST.int(x, &format!("knock_state[{seat}]"), 0, KNOCKED as i64)? as u8;
        }
        Ok(())
    }
    fn new_deal(&self, st: &mut EscobaState) {
        st.knocks.states = [UNDECIDED; MAX_SEATS];
    }
    fn new_hand(&self, st: &mut EscobaState) {
        st.knocks.states = [UNDECIDED; MAX_SEATS];
    }
}

impl EscobaState {
    /// Whether the mover must first choose `KNOCK` or `NO_KNOCK`: the first turn of a hand that
    /// has something to declare.
    #[inline]
    pub fn knock_turn(&self) -> bool {
        if !self.cfg.knocks || self.terminal || self.pending >= 0 {
            return false;
        }
        let s = self.to_move as usize;
        self.knocks.states[s] == UNDECIDED
            && self.hands[s].len() == 3
            && knock::best(self.opts(), self.hands[s]).0 != 0
    }

    /// `KNOCK` records the hand's best declaration, fixes the matta's value if the hand holds it
    /// and shows the hand; `NO_KNOCK` only records the decision. The same seat then plays.
    pub(crate) fn decide_knock(&mut self, knock: bool) {
        let seat = self.to_move as usize;
        if !knock {
            self.knocks.states[seat] = DECLINED;
            return;
        }
        let (kind, value) = knock::best(self.opts(), self.hands[seat]);
        if kind != 0 && (self.decls.n as usize) < MAX_DECLS {
            self.decls.list[self.decls.n as usize] = [seat as u8, kind, self.n_sweeps];
            self.decls.n += 1;
        }
        if self.matta().in_set(self.hands[seat]) {
            self.matta.value = value;
        }
        self.knocks.states[seat] = KNOCKED;
    }
}
