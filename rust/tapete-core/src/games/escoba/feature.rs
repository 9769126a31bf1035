//! One interface for each optional part of the game (knocks, fidasse, piles, builds, …): its
//! state JSON keys and their reading, its view keys, its observation block, what it hides from
//! or shows to a seat, its option checks and its deal hook. The state, the view and the
//! observation walk the parts a game plays, in the contract's order (docs/escoba_engine.md §8–§10).
//!
//! The interface is generic over the state `S` so that it stands below the state's file: the
//! parts (`features/`) implement it for `EscobaState`, which holds them as `Parts`.

use serde_json::{Map, Value};

use super::options::EscobaOptions;
use super::text::Seen;
use crate::cards::{Card, CardSet};
use crate::error::Result;

/// Where `state_from_json` reads a part's keys: the order of its checks fixes which error a bad
/// state reports first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadAt {
    /// After the table (cards that `seen` must count next to it).
    Table,
    /// After the pending card, before the selection.
    Cards,
    /// After the sweeps.
    Sweeps,
    /// After the history.
    Late,
}

/// Where `setup` reads a part's keys (docs/escoba_engine.md §9).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetupAt {
    /// After the table.
    Table,
    /// After the piles.
    Piles,
    /// After the dealer and the seat to move.
    Seats,
}

/// The keys of a `setup` spec, by name; absent and null are alike.
pub type Spec<'a> = dyn Fn(&str) -> Option<&'a Value> + 'a;

/// An optional part of the game over the state `S`.
pub trait Feature<S>: Sync {
    /// Whether a game with options `o` plays with this part.
    fn enabled(&self, o: &EscobaOptions) -> bool;
    /// Refuses options of this part that clash with each other or with other parts.
    fn validate(&self, _o: &EscobaOptions) -> Result<()> {
        Ok(())
    }
    /// Lays out the part's observation blocks: the same walk sizes them (when `w` only counts)
    /// and writes them.
    fn observe(&self, _w: &mut Layout<'_, S>) {}
    /// Its state JSON keys, in the order `state_from_json` names them.
    fn keys(&self) -> &'static [&'static str] {
        &[]
    }
    /// Its state JSON keys with their values as JSON text.
    fn to_json(&self, _st: &S, _out: &mut Vec<(&'static str, String)>) {}
    /// When `read` runs in `state_from_json`.
    fn read_at(&self) -> ReadAt {
        ReadAt::Late
    }
    /// Reads and checks its keys of a state JSON (`m` holds them all).
    fn read(&self, _st: &mut S, _m: &Map<String, Value>, _seen: &mut Seen) -> Result<()> {
        Ok(())
    }
    /// When `setup` runs.
    fn setup_at(&self) -> SetupAt {
        SetupAt::Seats
    }
    /// Reads its keys of a `setup` spec; called for every part, `on` when the game plays it (a
    /// key of a part the game does not play is refused).
    fn setup(&self, _on: bool, _st: &mut S, _spec: &Spec<'_>, _seen: &mut Seen) -> Result<()> {
        Ok(())
    }
    /// View keys that follow `piles`. In the three view methods `p` is a seat, or
    /// `view::NOBODY` for the public view (no seat's private information).
    fn view_piles(&self, _st: &S, _p: usize, _s: &mut String) {}
    /// View keys after the fixed ones.
    fn view(&self, _st: &S, _p: usize, _s: &mut String) {}
    /// Cards of the piles or the table that seat `p` may not see (face down to it).
    fn hidden_from(&self, _st: &S, _p: usize) -> CardSet {
        CardSet::EMPTY
    }
    /// Cards of `seat`'s hand that every seat sees (face up).
    fn shown(&self, _st: &S, _seat: usize) -> CardSet {
        CardSet::EMPTY
    }
    /// A card `p` played face down and not yet resolved: it shares the pending card's slots.
    fn held(&self, _st: &S, _p: usize) -> Option<Card> {
        None
    }
    /// Resets its state for a new deal.
    fn new_deal(&self, _st: &mut S) {}
    /// Resets its state for a new hand of the deal.
    fn new_hand(&self, _st: &mut S) {}
}

/// A part of the game as the state holds it.
pub type Part<S> = &'static dyn Feature<S>;

/// The parts a game plays, in each order of the contract (docs/escoba_engine.md §8–§10).
pub struct Parts<S: 'static> {
    /// In `state_from_json`'s key list order.
    pub keys: Vec<Part<S>>,
    /// In the observation's block order.
    pub obs: Vec<Part<S>>,
    /// In the view's key order.
    pub view: Vec<Part<S>>,
    /// In the order `state_from_json` and `setup` read them.
    pub read: Vec<Part<S>>,
    /// Every part, played or not, in `setup`'s order.
    pub all: &'static [Part<S>],
}

impl<S> std::fmt::Debug for Parts<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Parts({})", self.keys.len())
    }
}

/// The observation's layout, walked block by block: it only counts when sizing, and writes
/// the state `st` as seat `p` sees it otherwise.
pub struct Layout<'a, S> {
    /// Card slots per card block: 40, or 52 with `italian52`.
    pub cards: usize,
    pub seats: usize,
    pub sides: usize,
    at: usize,
    fill: Option<(&'a mut [f32], &'a S, usize)>,
}

/// One block of the observation being written.
pub struct Block<'b, S> {
    pub out: &'b mut [f32],
    pub st: &'b S,
    pub p: usize,
    cards: usize,
}

impl<S> Block<'_, S> {
    /// The slot of `c` in a card block: 10·suit + rank index in a 40-card pack, the id in 52.
    #[inline]
    pub fn slot(&self, c: Card) -> usize {
        slot(self.cards, c)
    }
    /// Marks the cards of `set` in the card block at `base`.
    pub fn put(&mut self, base: usize, set: CardSet) {
        for c in set {
            self.out[base + slot(self.cards, c)] = 1.0;
        }
    }
}

/// The slot of `c` in a card block of `cards` slots.
#[inline]
pub fn slot(cards: usize, c: Card) -> usize {
    if cards == 52 {
        return c.0 as usize;
    }
    let r = c.0 % 13;
    10 * (c.0 / 13) as usize + if r < 7 { r as usize } else { r as usize - 3 }
}

impl<'a, S> Layout<'a, S> {
    /// A walk that only counts.
    pub fn sizing(cards: usize, seats: usize, sides: usize) -> Self {
        Layout {
            cards,
            seats,
            sides,
            at: 0,
            fill: None,
        }
    }
    /// A walk that writes `st` as seat `p` sees it into `out`.
    pub fn writing(
        cards: usize,
        seats: usize,
        sides: usize,
        out: &'a mut [f32],
        st: &'a S,
        p: usize,
    ) -> Self {
        Layout {
            cards,
            seats,
            sides,
            at: 0,
            fill: Some((out, st, p)),
        }
    }
    /// The next `len` slots: the block to write, or `None` when only counting.
    pub fn block(&mut self, len: usize) -> Option<Block<'_, S>> {
        let at = self.at;
        self.at += len;
        let cards = self.cards;
        self.fill.as_mut().map(|(out, st, p)| Block {
            out: &mut out[at..at + len],
            st: *st,
            p: *p,
            cards,
        })
    }
    /// Slots laid out so far.
    pub fn len(&self) -> usize {
        self.at
    }
}
