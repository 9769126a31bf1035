//! Builds (docs/rules/escoba.md §2.20, `granja`): public, beside the loose table cards.

use std::fmt::Write as _;

use serde_json::{Map, Value};

use crate::cards::{Card, CardSet};
use crate::error::Result;
use crate::games::escoba::builds::{self, build_value, Builds, MAX_BUILDS, MAX_BUILD_VALUE};
use crate::games::escoba::feature::{Feature, Layout, ReadAt, SetupAt, Spec};
use crate::games::escoba::options::{Deck, EscobaOptions};
use crate::games::escoba::text::{ascending_set, card_list, claim, lists, push_texts, Seen, ST};
use crate::games::escoba::EscobaState;

pub struct BuildsPart;

impl Feature<EscobaState> for BuildsPart {
    state_key! {
        "builds", ReadAt::Table,
        |st| lists(st.builds.as_slice().iter().map(|s| s.iter().map(|c| c.0)))
    }
    fn enabled(&self, o: &EscobaOptions) -> bool {
        o.builds
    }
    fn validate(&self, o: &EscobaOptions) -> Result<()> {
        builds::validate(o)
    }
    fn observe(&self, w: &mut Layout<'_, EscobaState>) {
        if let Some(b) = w.block(w.cards) {
            // each card in a build carries the build's value
            for &bl in b.st.builds.as_slice() {
                let v = build_value(bl) as f32;
                for c in bl {
                    b.out[b.slot(c)] = v;
                }
            }
        }
    }
    fn read(&self, st: &mut EscobaState, m: &Map<String, Value>, seen: &mut Seen) -> Result<()> {
        st.builds = read_builds(&m["builds"], seen, true, st.cfg.opts.deck)?;
        Ok(())
    }
    fn setup_at(&self) -> SetupAt {
        SetupAt::Table
    }
    fn setup(
        &self,
        on: bool,
        st: &mut EscobaState,
        spec: &Spec<'_>,
        seen: &mut Seen,
    ) -> Result<()> {
        let Some(b) = spec("builds") else {
            return Ok(());
        };
        if !on {
            return Err(ST.err("setup key builds needs option builds".into()));
        }
        st.builds = read_builds(b, seen, false, st.cfg.opts.deck)?;
        Ok(())
    }
    fn view(&self, st: &EscobaState, _: usize, s: &mut String) {
        s.push_str(",\"builds\":[");
        for (i, &b) in st.builds.as_slice().iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            s.push_str("{\"cards\":");
            push_texts(s, b);
            let _ = write!(s, ",\"value\":{}}}", build_value(b));
        }
        s.push(']');
    }
}

/// Builds given as a list of card lists: each of at least 2 cards worth at most 10 in all.
/// `canonical` (state JSON) also asks for ascending ids and builds ascending by their lowest
/// card.
fn read_builds(v: &Value, seen: &mut Seen, canonical: bool, pack: Deck) -> Result<Builds> {
    let list = ST.list(v, "builds")?;
    if list.len() > MAX_BUILDS {
        return Err(ST.err(format!(
            "builds may list at most {MAX_BUILDS} builds, got {}",
            list.len()
        )));
    }
    let mut out = Builds::EMPTY;
    let mut last: Option<Card> = None;
    for (i, b) in list.iter().enumerate() {
        let what = format!("builds[{i}]");
        let cards = if canonical {
            let set = ascending_set(b, &what, pack)?;
            set.iter().collect::<Vec<_>>()
        } else {
            card_list(b, &what, true, pack)?
        };
        claim(seen, &cards, &what)?;
        let set: CardSet = cards.into_iter().collect();
        if set.len() < 2 || build_value(set) > MAX_BUILD_VALUE {
            return Err(ST.err(format!(
                "{what} must hold at least 2 cards worth at most {MAX_BUILD_VALUE} in all, got [{set}]"
            )));
        }
        if canonical && last >= set.first() {
            return Err(ST.err("builds must be ascending by their lowest card".into()));
        }
        last = set.first();
        out.insert(set);
    }
    Ok(out)
}
