//! Resampling (docs/escoba_engine.md §12): a state in a seat's information set, every card hidden
//! from the seat placed again by the shared sampler, the private action details rewritten.
//!
//! The places, in slot order: each seat's hand (slot = seat; none for the resampling seat or a
//! shown hand), the stock (slot `n`, in the sampler's order, top first), then with fidasse the
//! open claim of another seat (slot `n + 1`) and each other seat's trusted claims of this deal
//! (slot `n + 2 + seat`, in the order of its `CLAIM`s).

use super::*;
use crate::resample::{place, MAX_SLOTS};
use knock::{DECLINED, KNOCKED, UNDECIDED};
use values::{rank_mask, ACES};

/// `PLAY(c)` or `CLAIM(c)`: a card leaving a hand.
#[inline]
fn card_of(a: u8) -> Option<Card> {
    let a = a as u32;
    if a < TAKE {
        Some(Card(a as u8))
    } else if (CLAIM..CLAIM + 52).contains(&a) {
        Some(Card((a - CLAIM) as u8))
    } else {
        None
    }
}

/// Draws at most this many placements when a draw must replay the deal (docs/escoba_engine.md §12).
pub const MAX_TRIES: usize = 4096;

#[inline]
fn is_knock(a: u8) -> bool {
    a as u32 == KNOCK || a as u32 == NO_KNOCK
}

impl EscobaState {
    /// Cards dealt to hands this deal that have left them (plays, the pending card, claims).
    fn plays_this_deal(&self) -> usize {
        let itc = self.deal_shape().0;
        let dealt = self.cfg.pack.saturating_sub(itc + self.stock().len());
        let held: usize = (0..self.n()).map(|s| self.hand_len(s) as usize).sum();
        dealt.saturating_sub(held)
    }

    /// Where the last `plays` card plays of the history begin (a knock decision belongs to the
    /// turn it opens); `None` when the history holds fewer (a `setup` position).
    fn start_of_plays(&self, plays: usize) -> Option<usize> {
        let h = &self.history;
        let (mut i, mut left) = (h.len(), plays);
        while left > 0 {
            i = i.checked_sub(1)?;
            left -= card_of(h[i]).is_some() as usize;
        }
        while i > 0 && is_knock(h[i - 1]) {
            i -= 1;
        }
        Some(i)
    }

    /// The seats in play in turn order from the dealer's left, and how many.
    fn turn_order(&self) -> ([usize; MAX_SEATS], usize) {
        let mut order = [0; MAX_SEATS];
        let mut m = 0;
        for s in elimination::seats_after(self.elimination.in_play, self.dealer as usize, self.n())
        {
            order[m] = s;
            m += 1;
        }
        (order, m.max(1))
    }

    /// Per seat, the hidden cards its hand cannot hold by what the rules reveal
    /// (docs/escoba_engine.md §12): under `capture_obligation=any_card` a trail of this hand says no playable card of it
    /// captured; under `forbid_ace_first_play` an Ace as the deal's first play says the hand held
    /// only Aces. Read by replaying this deal from its rebuilt start; only the table, the seats and
    /// the actions are read from the replay, and they are public.
    fn revealed(&self, p: usize, pool: CardSet, out: &mut [CardSet; MAX_SEATS]) {
        let o = self.opts();
        if o.capture_obligation != Obligation::AnyCard && !o.forbid_ace_first_play && !o.tuzzoli {
            return;
        }
        let Some((mut st, i0)) = self.rebuilt_deal() else {
            return;
        };
        let per_round = self.turn_order().1 * self.deal_shape().1;
        let this_round = self.plays_this_deal() / per_round.max(1) * per_round;
        let mut j = 0;
        let mut turn: Option<(usize, Card, CardSet)> = None;
        // where this hand's declarations begin (the deal's first hand: at 0)
        let mut mark = 0;
        for &a in &self.history[i0..] {
            // A declined knock is no one's to see: the replay declines for itself wherever its
            // hands qualify, and skips the history's own, so that nothing hidden steers it.
            if a as u32 == NO_KNOCK {
                continue;
            }
            if a as u32 != KNOCK {
                while st.is_legal(NO_KNOCK) {
                    st.apply_unchecked(NO_KNOCK);
                }
            }
            let (before, pos) = (st.decls.n, st.stock_pos);
            if (a as u32) < TAKE {
                let (seat, c) = (st.to_move as usize, Card(a));
                if seat != p && j >= this_round {
                    let first = st.is_first_play();
                    if first && o.forbid_ace_first_play && ACES.contains(c) {
                        out[seat] = out[seat].union(pool.minus(ACES));
                    }
                    let mut captures = CardSet::EMPTY;
                    // docs/rules/escoba.md §2.1: with ace_may_trail an Ace trails whatever the hand holds
                    let free = o.ace_may_trail && o.ace_takes_all && st.matta().val(c) == 1;
                    if o.capture_obligation == Obligation::AnyCard && !free {
                        // Aces were unplayable when the first play was no Ace (the played card
                        // says so: the hand itself is hidden)
                        let exempt = o.forbid_ace_first_play && first && !ACES.contains(c);
                        let ctx = st.piles_ctx();
                        for x in pool {
                            if !(exempt && ACES.contains(x))
                                && rules::has_capture_in(
                                    o,
                                    st.matta(),
                                    x,
                                    st.table,
                                    st.beside(&ctx),
                                )
                            {
                                captures.insert(x);
                            }
                        }
                    }
                    turn = Some((seat, c, captures));
                }
            }
            j += card_of(a).is_some() as usize;
            st.apply_unchecked(a as Action);
            if st.stock_pos != pos {
                mark = before;
            }
            if let Some((seat, c, captures)) = turn {
                if st.pending < 0 {
                    if st.table.contains(c) {
                        out[seat] = out[seat].union(captures);
                    }
                    turn = None;
                }
            }
        }
        // docs/rules/escoba.md §2.8: buongioco and napoli are three cards of A, 2, 3
        let low = CardSet(rank_mask(1) | rank_mask(2) | rank_mask(3));
        for d in &st.decls.list[mark as usize..st.decls.n as usize] {
            let seat = d[0] as usize;
            if seat != p && (d[1] == 3 || d[1] == 4) {
                out[seat] = out[seat].union(pool.minus(low));
            }
        }
    }

    /// This deal's start rebuilt from this state's cards, and where its actions begin in the
    /// history: each hand as dealt (the cards its seat played in that hand of the deal, plus what
    /// it holds), the table, the stock. `None` when the history does not hold the whole deal (a
    /// `setup` position), at the end of the match, and on the double pack (no inference reads it).
    fn rebuilt_deal(&self) -> Option<(EscobaState, usize)> {
        if self.terminal || self.cfg.twins {
            return None;
        }
        let i0 = self.start_of_plays(self.plays_this_deal())?;
        // the first deal starts the history, unless a `setup` position did
        if self.deal == 1 && self.history[..i0].iter().any(|&a| card_of(a).is_some()) {
            return None;
        }
        let (order, m) = self.turn_order();
        let (itc, cph) = self.deal_shape();
        let per_round = m * cph;
        let pack = self.cfg.pack;
        let rounds = pack.saturating_sub(itc) / per_round.max(1);
        let mut got = vec![CardSet::EMPTY; (rounds + 1) * m];
        let mut j = 0;
        for &a in &self.history[i0..] {
            if let Some(c) = card_of(a) {
                got[(j / per_round).min(rounds) * m + j % m].insert(c);
                j += 1;
            }
        }
        let now = (j / per_round).min(rounds);
        for q in 0..m {
            got[now * m + q] = got[now * m + q].union(self.hands[order[q]]);
        }
        let mut deck = [0u8; MAX_PACK];
        let mut at = 0;
        let deal_round = |deck: &mut [u8; MAX_PACK], at: &mut usize, r: usize| {
            let mut left: [CardSet; MAX_SEATS] = [CardSet::EMPTY; MAX_SEATS];
            left[..m].copy_from_slice(&got[r * m..r * m + m]);
            for _ in 0..cph {
                for l in left.iter_mut().take(m) {
                    if let Some(c) = l.first() {
                        l.remove(c);
                        deck[*at] = c.0;
                        *at += 1;
                    }
                }
            }
        };
        deal_round(&mut deck, &mut at, 0);
        let mut placed: CardSet = got.iter().fold(CardSet::EMPTY, |a, &b| a.union(b));
        self.stock().iter().for_each(|&c| placed.insert(Card(c)));
        let table = self.opts().deck.mask().minus(placed);
        // the void check reads the first table cards: Kings and Aces last
        let kings = table.inter(values::KINGS);
        let aces = table.inter(ACES).minus(kings);
        for c in table
            .minus(kings)
            .minus(aces)
            .iter()
            .chain(aces)
            .chain(kings)
        {
            deck[at] = c.0;
            at += 1;
        }
        for r in 1..=now {
            deal_round(&mut deck, &mut at, r);
        }
        for &c in self.stock() {
            deck[at] = c;
            at += 1;
        }
        if at != pack {
            return None;
        }
        let mut st = self.clone();
        st.history.truncate(i0);
        st.fidasse.claim = -1;
        st.fidasse.claimant = -1;
        st.start_deal(Some(deck));
        Some((st, i0))
    }

    /// `resample_into` (docs/escoba_engine.md §12).
    fn resample_to(&self, p: usize, seed: u64, out: &mut EscobaState) {
        let mut rng = SplitMix64::new(seed);
        if self.terminal {
            out.clone_from(self);
        } else {
            self.place_hidden(p, &mut rng, out);
        }
        out.rng = SplitMix64::new(rng.next_u64());
    }

    fn place_hidden(&self, p: usize, rng: &mut SplitMix64, out: &mut EscobaState) {
        let n = self.n();
        let fid = self.opts().fidasse;
        let slots = if fid { n + 2 + n } else { n + 1 };
        let mut caps = [0u16; MAX_SLOTS];
        let mut hidden = [CardSet::EMPTY; MAX_SEATS];
        for s in (0..n).filter(|&s| s != p) {
            if self.shown(s).is_empty() {
                hidden[s] = self.hands[s];
                caps[s] = self.hand_len(s) as u16;
            }
        }
        caps[n] = self.stock().len() as u16;
        let open = self.fidasse.claim >= 0 && self.fidasse.claimant as usize != p;
        if fid {
            caps[n + 1] = open as u16;
            for s in (0..n).filter(|&s| s != p) {
                caps[n + 2 + s] = self.fidasse.claimed[s].len() as u16;
            }
        }
        // the hidden cards, ascending, a twin twice
        let mut cards = [0u16; MAX_PACK];
        let mut k = 0;
        {
            let mut count = [0u8; 64];
            for (s, &h) in hidden.iter().enumerate().take(n) {
                for c in h {
                    count[c.0 as usize] += 1;
                }
                for c in self.twin.hands[s].inter(h) {
                    count[c.0 as usize] += 1;
                }
            }
            for &c in self.stock() {
                count[c as usize] += 1;
            }
            if fid {
                if open {
                    count[self.fidasse.claim as usize] += 1;
                }
                for s in (0..n).filter(|&s| s != p) {
                    for c in self.fidasse.claimed[s] {
                        count[c.0 as usize] += 1;
                    }
                }
            }
            for (id, &x) in count.iter().enumerate() {
                for _ in 0..x {
                    cards[k] = id as u16;
                    k += 1;
                }
            }
        }
        let every = caps[..slots]
            .iter()
            .enumerate()
            .fold(0u32, |m, (i, &c)| if c > 0 { m | 1 << i } else { m });
        let mut allowed = [every; MAX_PACK];
        let mut forbid = [CardSet::EMPTY; MAX_SEATS];
        let pool: CardSet = cards[..k].iter().map(|&c| Card(c as u8)).collect();
        self.revealed(p, pool, &mut forbid);
        for (a, &c) in allowed[..k].iter_mut().zip(&cards[..k]) {
            for (s, f) in forbid.iter().enumerate().take(n) {
                if f.contains(Card(c as u8)) {
                    *a &= !(1 << s);
                }
            }
        }
        let mut placed = [0u16; MAX_PACK];
        // with declarations or builds a play may reveal more than card masks say: a draw that
        // does not replay the deal to the same view is drawn again
        let check = self.opts().tuzzoli || self.opts().builds;
        for _ in 0..MAX_TRIES {
            out.clone_from(self);
            if !place(
                &cards[..k],
                &allowed[..k],
                &caps[..slots],
                rng,
                &mut placed[..k],
            ) {
                return;
            }
            // write the places back
            let mut at = 0;
            for (s, &cap) in caps.iter().enumerate().take(n) {
                let len = cap as usize;
                if len == 0 {
                    continue;
                }
                out.hands[s] = CardSet::EMPTY;
                out.twin.hands[s] = CardSet::EMPTY;
                for &c in &placed[at..at + len] {
                    out.give_card(s, Card(c as u8));
                }
                at += len;
            }
            let pos = out.stock_pos as usize;
            for (i, &c) in placed[at..at + caps[n] as usize].iter().enumerate() {
                out.stock[pos + i] = c as u8;
            }
            at += caps[n] as usize;
            if fid {
                self.rewrite_claims(p, open, &placed[at..k], out);
            }
            if self.cfg.knocks {
                self.rewrite_knocks(p, out);
            }
            if !check || out.replays_to(self, p) {
                return;
            }
        }
    }

    /// Whether this deal, rebuilt from `self`'s cards, replays legally to `seen`'s view of `p`.
    fn replays_to(&self, seen: &EscobaState, p: usize) -> bool {
        let Some((mut st, i0)) = self.rebuilt_deal() else {
            return true;
        };
        for &a in &self.history[i0..] {
            if !st.is_legal(a as Action) {
                return false;
            }
            st.apply_unchecked(a as Action);
        }
        st.scores = self.scores;
        st.view_json(p) == seen.view_json(p)
    }

    /// The other seats' face-down claims take the drawn cards, in the order of their `CLAIM`s
    /// this deal (the last `CLAIM` of each hidden card, docs/escoba_engine.md §10).
    fn rewrite_claims(&self, p: usize, open: bool, drawn: &[u16], out: &mut EscobaState) {
        let h = &self.history;
        let last_claim = |c: Card| h.iter().rposition(|&a| a as u32 == CLAIM + c.0 as u32);
        let mut at = 0;
        if open {
            let c = drawn[0] as u8;
            if let Some(i) = last_claim(Card(self.fidasse.claim as u8)) {
                out.history[i] = (CLAIM + c as u32) as u8;
            }
            out.fidasse.claim = c as i8;
            at = 1;
        }
        let others = (0..self.n()).filter(|&s| s != p);
        for s in others.clone() {
            let side = self.side(s);
            out.piles[side] = out.piles[side].minus(self.fidasse.claimed[s]);
            out.fidasse.claimed[s] = CardSet::EMPTY;
        }
        for s in others {
            // this seat's claim entries in the history, in order
            let mut idx = [0usize; 64];
            let mut m = 0;
            for c in self.fidasse.claimed[s] {
                if let Some(i) = last_claim(c) {
                    idx[m] = i;
                    m += 1;
                }
            }
            idx[..m].sort_unstable();
            let side = self.side(s);
            for &i in &idx[..m] {
                let c = Card(drawn[at] as u8);
                at += 1;
                out.history[i] = (CLAIM + c.0 as u32) as u8;
                out.fidasse.claimed[s].insert(c);
                out.piles[side].insert(c);
            }
        }
    }

    /// Knocks (docs/rules/escoba.md §2.7): a declined knock is no one's to see, so each other
    /// seat's decision of this hand follows its drawn hand: a seat that has played this hand
    /// declined (`NO_KNOCK` before its first play) iff the hand it held then qualifies; a seat
    /// yet to play is undecided.
    fn rewrite_knocks(&self, p: usize, out: &mut EscobaState) {
        let (order, m) = self.turn_order();
        let held: usize = (0..self.n()).map(|s| self.hand_len(s) as usize).sum();
        let plays = (m * self.deal_shape().1).saturating_sub(held);
        let Some(rs) = self.start_of_plays(plays) else {
            return;
        };
        // each seat's cards played this hand
        let mut played = [CardSet::EMPTY; MAX_SEATS];
        let mut t = 0;
        for &a in &self.history[rs..] {
            if let Some(c) = card_of(a) {
                played[order[t % m]].insert(c);
                t += 1;
            }
        }
        let mut decline = [false; MAX_SEATS];
        for (q, &s) in order.iter().enumerate().take(m) {
            if s == p || self.knocks.states[s] == KNOCKED {
                continue;
            }
            let hand = played[s].union(out.hands[s]);
            decline[s] = q < t && hand.len() == 3 && knock::best(self.opts(), hand).0 != 0;
            out.knocks.states[s] = if decline[s] { DECLINED } else { UNDECIDED };
        }
        out.history.truncate(rs);
        let mut t = 0;
        for &a in &self.history[rs..] {
            if a as u32 == NO_KNOCK {
                let s = order[t % m];
                if s != p && t < m {
                    continue;
                }
            }
            if card_of(a).is_some() {
                let s = order[t % m];
                if t < m && decline[s] {
                    out.history.push(NO_KNOCK as u8);
                }
                t += 1;
            }
            out.history.push(a);
        }
    }
}

/// The state's `resample_into` (docs/escoba_engine.md §12), as every game folder provides it.
pub(super) fn resample_into(x: &EscobaState, p: usize, seed: u64, out: &mut EscobaState) {
    x.resample_to(p, seed, out)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::game::Game;

    /// A mid-deal state: `plays` legal actions from a fresh deal, each the first legal one.
    fn mid_deal(options: serde_json::Value, seed: u64, plays: usize) -> EscobaState {
        let g = EscobaGame::from_options(&options).unwrap();
        let mut s = g.new_state(seed);
        for _ in 0..plays {
            let a = s.legal_actions()[0];
            s.apply(a).unwrap();
        }
        s
    }

    /// docs/escoba_engine.md §12: the resampled state keeps what seat 0 sees (its hand, the table,
    /// the sizes) and refills the hidden places with the same cards.
    #[test]
    fn resample_keeps_the_view_and_the_cards() {
        let s = mid_deal(json!({"variant": "scopa"}), 5, 7);
        let mut out = s.clone();
        for seed in 0..50 {
            s.resample_into(0, seed, &mut out);
            assert_eq!(out.view_json(0), s.view_json(0));
            assert_eq!(out.hands[0], s.hands[0]);
            let hidden = |x: &EscobaState| {
                let mut u = x.hands[1];
                x.stock().iter().for_each(|&c| u.insert(Card(c)));
                u
            };
            assert_eq!(hidden(&out), hidden(&s));
            assert_eq!(out.stock().len(), s.stock().len());
        }
    }

    /// Speed (docs/escoba_engine.md §12): `cargo test --release -p tapete-core resample_speed --
    /// --ignored --nocapture`.
    #[test]
    #[ignore]
    fn resample_speed() {
        let s = mid_deal(json!({"variant": "scopa"}), 11, 9);
        let mut out = s.clone();
        let n = 1_000_000u64;
        let t = std::time::Instant::now();
        for seed in 0..n {
            s.resample_into(seed as usize % 2, seed, &mut out);
        }
        let ns = t.elapsed().as_nanos() as f64 / n as f64;
        println!("scopa 2 players, mid-deal: {ns:.0} ns per resample_into");
        let t = std::time::Instant::now();
        for _ in 0..n {
            out.clone_from(std::hint::black_box(&s));
        }
        let ns = t.elapsed().as_nanos() as f64 / n as f64;
        println!("of which the copy: {ns:.0} ns");
        let cards: Vec<u16> = (0..33).collect();
        let allowed = vec![3u32; 33];
        let mut placed = vec![0u16; 33];
        let mut rng = SplitMix64::new(1);
        let t = std::time::Instant::now();
        for _ in 0..n {
            place(&cards, &allowed, &[3, 30], &mut rng, &mut placed);
        }
        let ns = t.elapsed().as_nanos() as f64 / n as f64;
        println!("of which the sampler (33 cards, 2 places): {ns:.0} ns");
    }
}
