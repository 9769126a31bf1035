//! Scopa a fidasse (docs/rules/escoba.md §2.19): a sweep claimed with a face-down card, on trust.
//!
//! `CLAIM(c)` plays `c` face down and takes the question to the opponents in play order;
//! `TRUST` passes it on, the first `DOUBT` shows the card. A trusted claim card stays face down
//! (hidden from every other seat) in the claimant's pile until the end-of-deal scoring.

use std::fmt::Write as _;

use serde_json::{Map, Value};

use crate::cards::{Card, CardSet};
use crate::error::Result;
use crate::game::Action;
use crate::games::escoba::feature::{Feature, Layout, ReadAt};
use crate::games::escoba::notation::{CLAIM, DOUBT, TRUST};
use crate::games::escoba::options::{refuse_clashes, EscobaOptions};
use crate::games::escoba::text::{ascending_set, claim, in_pack, lists, Seen, ST};
use crate::games::escoba::{knock, rules, EscobaState, MAX_SEATS};

/// Option clashes: a claim is a face-down sweep, which the public pile tops of `steal`, the shown
/// hands of knocks and the public `Ks` sweeps of `maresciallo_penalty` would give away.
fn validate(o: &EscobaOptions) -> Result<()> {
    if !o.fidasse {
        return Ok(());
    }
    refuse_clashes(
        "fidasse=true (docs/rules/escoba.md §2.19)",
        &[
            ("steal", o.steal),
            ("knocks", knock::enabled(o)),
            ("last_hand_open", o.last_hand_open),
            ("maresciallo_penalty", o.maresciallo_penalty),
        ],
    )
}

impl EscobaState {
    /// The play about to be made is the last of the deal: the stock is empty and the mover's
    /// card (in hand or pending) is the only one left.
    pub(crate) fn is_last_play(&self) -> bool {
        let mover = self.to_move as usize;
        let held = self.hands[mover].len() + u32::from(self.pending >= 0);
        self.stock_pos as usize == self.cfg.pack
            && held == 1
            && (0..self.n()).all(|s| s == mover || self.hands[s].is_empty())
    }

    /// With fidasse, `O(c)` drops the capture of the whole (non-empty) table except on the last
    /// play (docs/rules/escoba.md §2.19): that table, else `None`.
    #[inline]
    pub(crate) fn sweep_filter(&self) -> Option<CardSet> {
        (self.opts().fidasse && !self.table.is_empty() && !self.is_last_play())
            .then_some(self.table)
    }

    /// `CLAIM(c)` is legal for every card in hand when the table is not empty and this is not
    /// the last play.
    pub(crate) fn claims_allowed(&self) -> bool {
        self.opts().fidasse
            && self.pending < 0
            && self.fidasse.claim < 0
            && self.sweep_filter().is_some()
    }

    /// The next opponent of the claimant after `seat` in play order, before coming back round
    /// to the claimant.
    fn next_asked(&self, seat: usize) -> Option<usize> {
        let n = self.n();
        let claimant = self.fidasse.claimant as usize;
        let side = self.side(claimant);
        (1..n)
            .map(|k| (seat + k) % n)
            .take_while(|&s| s != claimant)
            .find(|&s| self.side(s) != side && self.elimination.in_play >> s & 1 != 0)
    }

    /// A claim is real iff the whole table is one of `Captures(c, T)` (docs/rules/escoba.md §2.19).
    fn claim_is_real(&self, c: Card) -> bool {
        let mut real = false;
        rules::for_each_capture(self.opts(), self.matta(), c, self.table, |cards, _| {
            real |= cards == self.table;
        });
        real
    }

    /// Applies `CLAIM(c)`, `TRUST` or `DOUBT` (known legal; the history is already written).
    pub(crate) fn apply_fidasse(&mut self, a: Action) {
        if (CLAIM..TRUST).contains(&a) {
            let seat = self.to_move as usize;
            let c = Card((a - CLAIM) as u8);
            self.hands[seat].remove(c);
            self.fidasse.claim = c.0 as i8;
            self.fidasse.claimant = seat as i8;
            self.to_move = self.next_asked(seat).unwrap_or(seat) as i8;
            return;
        }
        let c = Card(self.fidasse.claim as u8);
        let claimant = self.fidasse.claimant as usize;
        let side = self.side(claimant);
        if a == TRUST {
            if let Some(next) = self.next_asked(self.to_move as usize) {
                self.to_move = next as i8;
                return;
            }
            self.fidasse.claimed[claimant].insert(c);
            self.claim_stands(c, side);
        } else if a == DOUBT {
            let doubter = self.side(self.to_move as usize);
            if self.claim_is_real(c) {
                self.scores[doubter] = self.scores[doubter].saturating_sub(1);
                self.claim_stands(c, side);
            } else {
                // cancelled: the card is shown and trails, the claimant's side loses a point
                self.table.insert(c);
                self.scores[side] = self.scores[side].saturating_sub(1);
                self.no_sweep(side);
            }
        }
        self.fidasse.claim = -1;
        self.fidasse.claimant = -1;
        self.to_move = claimant as i8;
        self.advance();
    }

    fn claim_stands(&mut self, c: Card, side: usize) {
        self.piles[side] = self.piles[side].union(self.table);
        self.piles[side].insert(c);
        self.table = CardSet::EMPTY;
        self.last_capturer = side as i8;
        self.sweep(side, c, false);
    }

    /// Legal actions while a claim waits for an answer.
    pub(crate) fn answer_actions() -> [Action; 2] {
        [TRUST, DOUBT]
    }

    /// `TRUST` or `DOUBT`.
    pub(crate) fn is_answer(a: Action) -> bool {
        a == TRUST || a == DOUBT
    }
}

pub struct Fidasse;

impl Feature<EscobaState> for Fidasse {
    fn enabled(&self, o: &EscobaOptions) -> bool {
        o.fidasse
    }
    fn validate(&self, o: &EscobaOptions) -> Result<()> {
        validate(o)
    }
    fn observe(&self, w: &mut Layout<'_, EscobaState>) {
        let (n, ns) = (w.seats, w.sides);
        if let Some(b) = w.block(ns + n) {
            // face-down cards per side as `p` sees them, then the seat of an open claim
            let st = b.st;
            let hidden = self.hidden_from(st, b.p);
            for s in 0..ns {
                b.out[s] = st.piles[s].inter(hidden).len() as f32;
            }
            if st.fidasse.claim >= 0 {
                b.out[ns + st.fidasse.claimant as usize] = 1.0;
            }
        }
    }
    fn keys(&self) -> &'static [&'static str] {
        &["claim", "claimant", "claimed"]
    }
    fn to_json(&self, st: &EscobaState, out: &mut Vec<(&'static str, String)>) {
        out.push(("claim", st.fidasse.claim.to_string()));
        out.push(("claimant", st.fidasse.claimant.to_string()));
        let claimed = st.fidasse.claimed[..st.cfg.n].iter();
        out.push(("claimed", lists(claimed.map(|s| s.iter().map(|c| c.0)))));
    }
    fn read_at(&self) -> ReadAt {
        ReadAt::Cards
    }
    fn read(&self, st: &mut EscobaState, m: &Map<String, Value>, seen: &mut Seen) -> Result<()> {
        let (n, pack) = (st.cfg.n, st.cfg.opts.deck);
        st.fidasse.claim = ST.int(&m["claim"], "claim", -1, 51)? as i8;
        st.fidasse.claimant = ST.int(&m["claimant"], "claimant", -1, n as i64 - 1)? as i8;
        if (st.fidasse.claim >= 0) != (st.fidasse.claimant >= 0) {
            return Err(ST.err("claim and claimant are both set or both -1".into()));
        }
        if st.fidasse.claim >= 0 {
            let c = in_pack(Card(st.fidasse.claim as u8), "claim", pack)?;
            claim(seen, &[c], "claim")?;
        }
        for (seat, h) in ST.list_of(&m["claimed"], "claimed", n)?.iter().enumerate() {
            let set = ascending_set(h, &format!("claimed[{seat}]"), pack)?;
            if !set.is_subset(st.piles[st.cfg.side_of[seat] as usize]) {
                return Err(ST.err(format!(
                    "claimed[{seat}] must be cards of the pile of seat {seat}'s side"
                )));
            }
            if (0..seat).any(|t| !st.fidasse.claimed[t].inter(set).is_empty()) {
                return Err(ST.err(format!("claimed[{seat}] repeats another seat's card")));
            }
            st.fidasse.claimed[seat] = set;
        }
        Ok(())
    }
    fn view(&self, st: &EscobaState, p: usize, s: &mut String) {
        let hidden = self.hidden_from(st, p);
        s.push_str(",\"claim\":");
        if st.fidasse.claim >= 0 {
            let c = Card(st.fidasse.claim as u8);
            let card = if hidden.contains(c) {
                "??".to_string()
            } else {
                c.to_string()
            };
            let _ = write!(
                s,
                "{{\"seat\":{},\"card\":\"{card}\"}}",
                st.fidasse.claimant
            );
        } else {
            s.push_str("null");
        }
    }
    /// The other seats' trusted claims and an open claim of another seat.
    fn hidden_from(&self, st: &EscobaState, p: usize) -> CardSet {
        let mut h = CardSet::EMPTY;
        for s in (0..st.cfg.n).filter(|&s| s != p) {
            h = h.union(st.fidasse.claimed[s]);
        }
        if st.fidasse.claim >= 0 && st.fidasse.claimant as usize != p {
            h.insert(Card(st.fidasse.claim as u8));
        }
        h
    }
    /// The claimant knows the card it claimed with.
    fn held(&self, st: &EscobaState, p: usize) -> Option<Card> {
        (st.fidasse.claim >= 0 && st.fidasse.claimant as usize == p)
            .then_some(Card(st.fidasse.claim as u8))
    }
    fn new_deal(&self, st: &mut EscobaState) {
        st.fidasse.claimed = [CardSet::EMPTY; MAX_SEATS];
    }
}
