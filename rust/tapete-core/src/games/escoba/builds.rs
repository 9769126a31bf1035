//! Builds (docs/rules/escoba.md §2.20, `granja`): cards played on a table item to make one item of their total.
//!
//! A build lives beside the loose table cards and is named by its lowest card; the capture search
//! sees it as one item of its value, named by that card (docs/escoba_engine.md §3a).

use crate::cards::{Card, CardSet};
use crate::error::GameError;

use super::options::{refuse_clashes, EscobaOptions};
use super::values::value;

/// At most 20 builds: each holds at least 2 of the 40 cards.
pub const MAX_BUILDS: usize = 20;
/// The largest build value (docs/rules/escoba.md §2.20: `B ≤ 10`).
pub const MAX_BUILD_VALUE: u32 = 10;

/// The builds on the table, ascending by their lowest card.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Builds {
    n: u8,
    b: [CardSet; MAX_BUILDS],
}

/// The value of a build: the sum of its cards' capture values.
#[inline]
pub fn build_value(b: CardSet) -> u32 {
    b.iter().map(|c| value(c) as u32).sum()
}

/// Option clashes: a build adds plain values (docs/rules/escoba.md §2.20), so it refuses reduced values and the
/// matta; a pile item or a face-down claim has no build rules.
pub fn validate(o: &EscobaOptions) -> Result<(), GameError> {
    if !o.builds {
        return Ok(());
    }
    if o.value_modulus.is_some() {
        return Err(GameError::InvalidOption(
            "option builds adds plain values (docs/rules/escoba.md §2.20): value_modulus must be null with builds"
                .into(),
        ));
    }
    refuse_clashes(
        "builds=true (docs/rules/escoba.md §2.20)",
        &[
            ("matta", o.matta.is_some()),
            ("steal", o.steal),
            ("fidasse", o.fidasse),
        ],
    )
}

impl Builds {
    pub const EMPTY: Builds = Builds {
        n: 0,
        b: [CardSet::EMPTY; MAX_BUILDS],
    };

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }
    /// The builds, ascending by lowest card.
    #[inline]
    pub fn as_slice(&self) -> &[CardSet] {
        &self.b[..self.n as usize]
    }
    /// The name (lowest card) of every build.
    #[inline]
    pub fn names(&self) -> CardSet {
        let mut s = CardSet::EMPTY;
        for b in self.as_slice() {
            if let Some(c) = b.first() {
                s.insert(c);
            }
        }
        s
    }
    /// Every card in a build.
    pub fn cards(&self) -> CardSet {
        self.as_slice()
            .iter()
            .fold(CardSet::EMPTY, |a, &b| a.union(b))
    }
    /// The names of the builds of value `v`.
    #[inline]
    pub fn names_of_value(&self, v: u32) -> CardSet {
        let mut s = CardSet::EMPTY;
        for &b in self.as_slice() {
            if build_value(b) == v {
                if let Some(c) = b.first() {
                    s.insert(c);
                }
            }
        }
        s
    }
    fn index_of(&self, name: Card) -> Option<usize> {
        self.as_slice().iter().position(|b| b.first() == Some(name))
    }
    /// The build named `name`, if any.
    pub fn get(&self, name: Card) -> Option<CardSet> {
        self.index_of(name).map(|i| self.b[i])
    }
    /// Adds a build (kept ascending by lowest card); false when full.
    pub fn insert(&mut self, b: CardSet) -> bool {
        if self.n as usize >= MAX_BUILDS {
            return false;
        }
        let first = b.first();
        let at = self
            .as_slice()
            .iter()
            .position(|x| x.first() > first)
            .unwrap_or(self.n as usize);
        self.b.copy_within(at..self.n as usize, at + 1);
        self.b[at] = b;
        self.n += 1;
        true
    }
    fn remove_at(&mut self, i: usize) -> CardSet {
        let b = self.b[i];
        self.b.copy_within(i + 1..self.n as usize, i);
        self.n -= 1;
        self.b[self.n as usize] = CardSet::EMPTY;
        b
    }
    /// Removes the builds named in `names`; returns their cards.
    pub fn take(&mut self, names: CardSet) -> CardSet {
        let mut got = CardSet::EMPTY;
        for name in names {
            if let Some(i) = self.index_of(name) {
                got = got.union(self.remove_at(i));
            }
        }
        got
    }
    /// Puts `c` on item `on`: a build (then renamed by its new lowest card) or a loose card.
    pub fn build(&mut self, table: &mut CardSet, c: Card, on: Card) {
        let mut b = match self.index_of(on) {
            Some(i) => self.remove_at(i),
            None => {
                table.remove(on);
                CardSet::single(on)
            }
        };
        b.insert(c);
        self.insert(b);
    }
    pub fn clear(&mut self) {
        *self = Builds::EMPTY;
    }
}

/// The value of table item `t`: a loose card, or the build it names.
#[inline]
pub fn item_value(builds: &Builds, t: Card) -> u32 {
    match builds.get(t) {
        Some(b) => build_value(b),
        None => value(t) as u32,
    }
}

/// The build outcomes of playing `p` from `hand` (which holds `p`), ascending by item: `p` on
/// item `t` is legal iff the total `B' ≤ 10` and the rest of the hand holds a card of value
/// `B'` (docs/rules/escoba.md §2.20). `can_capture` says `p` has a capture, for `build_only_if_no_capture`.
pub fn for_each_build<F: FnMut(Card)>(
    o: &EscobaOptions,
    p: Card,
    table: CardSet,
    builds: &Builds,
    hand: CardSet,
    can_capture: bool,
    mut f: F,
) {
    if !o.builds || (o.build_only_if_no_capture && can_capture) {
        return;
    }
    let mut held = [false; 11];
    for q in hand.minus(CardSet::single(p)) {
        held[value(q) as usize] = true;
    }
    let vp = value(p) as u32;
    for t in table.union(builds.names()) {
        let total = vp + item_value(builds, t);
        if total <= MAX_BUILD_VALUE && held[total as usize] {
            f(t);
        }
    }
}

#[cfg(test)]
mod tests {
    //! TV-74 and the engine rules of docs/rules/escoba.md §2.20 (expected values from the rules file).
    use crate::game::{Game, State};
    use serde_json::json;

    use super::super::notation::BUILD_ON;
    use super::super::rules::{capture_options_in, Beside};
    use super::super::EscobaGame;
    use super::*;

    fn c(s: &str) -> Card {
        Card::parse(s).unwrap()
    }
    fn set(s: &str) -> CardSet {
        s.split_whitespace().map(c).collect()
    }
    fn granja() -> EscobaGame {
        EscobaGame::from_options(&json!({"variant": "granja"})).unwrap()
    }
    fn builds(list: &[&str]) -> Builds {
        let mut b = Builds::EMPTY;
        for s in list {
            assert!(b.insert(set(s)));
        }
        b
    }
    /// Granja's capture options of `played` from `hand` on `table`, beside the builds `on`: the
    /// captures and the cards a build may go on.
    fn options_in(
        played: &str,
        table: &str,
        on: &[&str],
        hand: &str,
    ) -> (Vec<Vec<Card>>, Vec<Card>) {
        let g = granja();
        let b = builds(on);
        capture_options_in(
            g.options(),
            c(played),
            set(table),
            Beside::of_builds(&b),
            set(hand),
        )
    }

    #[test]
    fn tv74_build_needs_a_card_of_the_total() {
        let (outs, ons) = options_in("2d", "3h 5s", &[], "2d 5c");
        assert_eq!(outs, vec![Vec::<Card>::new()]);
        assert_eq!(ons, vec![c("3h")]);
        let (_, ons) = options_in("2d", "3h 5s", &[], "2d Kc");
        assert!(ons.is_empty());
    }

    #[test]
    fn tv74_a_five_takes_the_build_and_the_five_together() {
        let (outs, ons) = options_in("5c", "5s", &["2d 3h"], "5c Jc");
        assert_eq!(outs, vec![vec![c("2d"), c("5s")]]);
        assert!(ons.is_empty());
        let g = granja();
        let spec = json!({"hands": [["5c", "Jc"], ["Jh", "Qh"]], "table": ["5s"],
                          "builds": [["3h", "2d"]], "dealer": 1});
        let mut s = g.setup(&spec).unwrap();
        s.apply(c("5c").0 as u32).unwrap();
        assert_eq!(s.pile(0), set("5c 2d 3h 5s"));
        assert!(s.builds().is_empty() && s.table().is_empty());
        assert_eq!(s.sweeps(), &[0]);
    }

    #[test]
    fn build_move_protocol_and_renaming() {
        let g = granja();
        let spec =
            json!({"hands": [["2d", "5c"], ["Ac", "6c"]], "table": ["3h", "5s"], "dealer": 1});
        let mut s = g.setup(&spec).unwrap();
        s.apply(c("2d").0 as u32).unwrap();
        let on3h = BUILD_ON + c("3h").0 as u32;
        assert_eq!(s.legal_actions(), vec![104, on3h]);
        assert!(s.apply(BUILD_ON + c("5s").0 as u32).is_err());
        s.apply(on3h).unwrap();
        assert_eq!(s.builds().as_slice(), &[set("2d 3h")]);
        assert_eq!(s.table(), set("5s"));
        // seat 1: Ac onto the build makes 6 (6c held); the build is renamed Ac
        s.play_move("Ac on 2d").unwrap();
        assert_eq!(s.builds().as_slice(), &[set("Ac 2d 3h")]);
        assert_eq!(item_value(s.builds(), c("Ac")), 6);
    }

    #[test]
    fn a_build_is_never_a_sum_item() {
        let (outs, _) = options_in("Qc", "4h", &["2d 3h"], "Qc");
        assert_eq!(outs, vec![Vec::<Card>::new()]);
    }
}
