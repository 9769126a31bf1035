//! Rubamazzo piles (docs/rules/escoba.md §2.21): the top card of each side's pile, public, which a
//! card of its value steals with the whole pile.

use std::fmt::Write as _;

use serde_json::{Map, Value};

use crate::error::Result;
use crate::games::escoba::feature::{Feature, Layout, ReadAt, SetupAt, Spec};
use crate::games::escoba::options::EscobaOptions;
use crate::games::escoba::piles::{self, PILE_BIT};
use crate::games::escoba::text::{card_of, ints, Seen, ST};
use crate::games::escoba::EscobaState;

pub struct Steal;

impl Feature<EscobaState> for Steal {
    state_key! { "pile_tops", ReadAt::Cards, |st| ints(&st.steal.tops[..st.cfg.sides]) }
    fn enabled(&self, o: &EscobaOptions) -> bool {
        o.steal
    }
    fn validate(&self, o: &EscobaOptions) -> Result<()> {
        piles::validate(o)
    }
    fn observe(&self, w: &mut Layout<'_, EscobaState>) {
        let (cn, ns) = (w.cards, w.sides);
        if let Some(b) = w.block((cn + 1) * ns) {
            // the top of every pile, then the piles selected so far
            let st = b.st;
            for s in 0..ns {
                if let Some(t) = st.pile_top(s) {
                    b.out[cn * s + b.slot(t)] = 1.0;
                }
            }
            let mut sel = st.selection.0 >> PILE_BIT;
            while sel != 0 {
                b.out[cn * ns + sel.trailing_zeros() as usize] = 1.0;
                sel &= sel - 1;
            }
        }
    }
    fn read(&self, st: &mut EscobaState, m: &Map<String, Value>, _: &mut Seen) -> Result<()> {
        read_pile_tops(st, m.get("pile_tops"), false)
    }
    fn setup_at(&self) -> SetupAt {
        SetupAt::Piles
    }
    fn setup(&self, _: bool, st: &mut EscobaState, spec: &Spec<'_>, _: &mut Seen) -> Result<()> {
        read_pile_tops(st, spec("pile_tops"), true)
    }
    fn view_piles(&self, st: &EscobaState, _: usize, s: &mut String) {
        s.push_str(",\"pile_tops\":[");
        for side in 0..st.cfg.sides {
            if side > 0 {
                s.push(',');
            }
            match st.pile_top(side) {
                Some(c) => {
                    let _ = write!(s, "\"{c}\"");
                }
                None => s.push_str("null"),
            }
        }
        s.push(']');
    }
    fn new_deal(&self, st: &mut EscobaState) {
        st.steal.tops.fill(-1);
    }
}

/// `pile_tops`: with `steal`, one entry per side, the top card of a non-empty pile (one of its
/// cards) and null (−1 in a state JSON) for an empty one; without `steal` absent.
fn read_pile_tops(s: &mut EscobaState, v: Option<&Value>, allow_text: bool) -> Result<()> {
    let ns = s.cfg.sides;
    let Some(v) = v else {
        if s.cfg.opts.steal && s.piles[..ns].iter().any(|p| !p.is_empty()) {
            return Err(ST.err(
                "pile_tops must name the top card of every non-empty pile (option steal)".into(),
            ));
        }
        return Ok(());
    };
    if !s.cfg.opts.steal {
        return Err(ST.err("pile_tops is only kept with option steal".into()));
    }
    for (side, x) in ST.list_of(v, "pile_tops", ns)?.iter().enumerate() {
        let what = format!("pile_tops[{side}]");
        let empty = x.is_null() || (!allow_text && ST.int(x, &what, -1, 51)? == -1);
        if empty {
            if !s.piles[side].is_empty() {
                return Err(ST.err(format!(
                    "{what}: the non-empty pile {side} needs its top card"
                )));
            }
            continue;
        }
        let c = card_of(x, &what, allow_text, s.cfg.opts.deck)?;
        if !s.piles[side].contains(c) {
            return Err(ST.err(format!("{what}: {c} is not a card of pile {side}")));
        }
        s.steal.tops[side] = c.0 as i8;
    }
    Ok(())
}
