//! Hands played face up: a knocked hand (docs/rules/escoba.md §2.7) and, with `last_hand_open`,
//! every hand of the last hand (docs/rules/escoba.md §2.23).

use crate::cards::CardSet;
use crate::games::escoba::feature::{Feature, Layout};
use crate::games::escoba::knock::{self, KNOCKED};
use crate::games::escoba::options::EscobaOptions;
use crate::games::escoba::text::push_texts;
use crate::games::escoba::EscobaState;

pub struct Shown;

impl Feature<EscobaState> for Shown {
    fn enabled(&self, o: &EscobaOptions) -> bool {
        knock::enabled(o) || o.last_hand_open
    }
    fn observe(&self, w: &mut Layout<'_, EscobaState>) {
        let (cn, n) = (w.cards, w.seats);
        if let Some(mut b) = w.block(cn * n + 1) {
            let st = b.st;
            for s in 0..n {
                b.put(cn * s, st.shown(s));
            }
            b.out[cn * n] = if st.cfg.matta.bit != 0 {
                st.matta.value as f32
            } else {
                0.0
            };
        }
    }
    fn view(&self, st: &EscobaState, _: usize, s: &mut String) {
        s.push_str(",\"shown\":[");
        for seat in 0..st.cfg.n {
            if seat > 0 {
                s.push(',');
            }
            push_texts(s, st.shown(seat));
        }
        s.push(']');
    }
    fn shown(&self, st: &EscobaState, seat: usize) -> CardSet {
        let last_open = st.opts().last_hand_open && st.stock().is_empty();
        if last_open || st.knocks.states.get(seat) == Some(&KNOCKED) {
            st.hands[seat]
        } else {
            CardSet::EMPTY
        }
    }
}
