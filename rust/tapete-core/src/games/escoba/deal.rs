//! Dealing (docs/escoba_engine.md §5): the first dealer, the deal with its void check and
//! escoba de mano, and the hands declared as they are dealt.

use super::*;

impl EscobaState {
    /// The first play of the deal (docs/escoba_engine.md §3).
    pub(super) fn is_first_play(&self) -> bool {
        let (itc, cph) = self.deal_shape();
        let k = self.elimination.in_play.count_ones() as usize;
        self.pending < 0
            && self.stock().len() == self.cfg.pack.saturating_sub(itc + k * cph)
            && (0..self.n())
                .all(|s| self.elimination.in_play >> s & 1 == 0 || self.hand_len(s) == cph as u32)
    }

    /// `(initial_table_cards, cards_per_hand)` of this deal: the options' with every seat in
    /// play, else the elimination shape for the players left (docs/rules/escoba.md §2.11).
    pub(super) fn deal_shape(&self) -> (usize, usize) {
        let o = self.opts();
        let k = self.elimination.in_play.count_ones() as usize;
        if k < self.n() {
            let (t, c) = elimination::deal_shape(o.elimination_deal, k as u8);
            (t as usize, c as usize)
        } else {
            (o.initial_table_cards as usize, o.cards_per_hand as usize)
        }
    }

    pub(super) fn choose_first_dealer(&mut self) {
        let n = self.n() as u64;
        self.dealer = match self.opts().first_dealer {
            FirstDealer::Random => self.rng.below(n) as u8,
            FirstDealer::DealUntilKd => {
                let len = self.cfg.pack;
                let mut p = self.opts().deck.ids();
                self.rng.shuffle(&mut p[..len]);
                let i = p[..len].iter().position(|&c| c == KD).unwrap_or(0);
                (i as u64 % n) as u8
            }
        };
    }

    /// Steps 2–5 of docs/escoba_engine.md §5 with the current dealer.
    pub(super) fn start_deal(&mut self, deck: Option<[u8; MAX_PACK]>) {
        let len = self.cfg.pack;
        let n = self.n();
        let (itc, cph) = self.deal_shape();
        let d = self.dealer as usize;
        let in_play = self.elimination.in_play;
        // docs/rules/escoba.md §2.11: under elimination the void check reads the first 4 table cards only
        let void_cards = if self.opts().target_mode == TargetMode::Eliminate {
            itc.min(4)
        } else {
            itc
        };
        let mut given = deck;
        loop {
            let pack = match given.take() {
                Some(p) => p,
                None => {
                    let mut p = self.opts().deck.ids();
                    self.rng.shuffle(&mut p[..len]);
                    p
                }
            };
            self.hands = [CardSet::EMPTY; MAX_SEATS];
            self.table = CardSet::EMPTY;
            self.twin = twins_play::Planes::default();
            self.builds.clear();
            let mut i = 0usize;
            for _ in 0..cph {
                for seat in elimination::seats_after(in_play, d, n) {
                    if i < len {
                        self.give_card(seat, Card(pack[i]));
                        i += 1;
                    }
                }
            }
            let first_table = i;
            for _ in 0..itc {
                if i < len {
                    let c = Card(pack[i]);
                    if self.table.contains(c) {
                        self.twin.table.insert(c);
                    }
                    self.table.insert(c);
                    i += 1;
                }
            }
            self.stock = pack;
            self.stock_pos = i as u8;
            let checked: CardSet = pack[first_table..(first_table + void_cards).min(len)]
                .iter()
                .map(|&c| Card(c))
                .collect();
            let o = self.opts();
            let void = o
                .void_deal_min_kings
                .is_some_and(|k| checked.inter(rules::KINGS).len() >= k as u32)
                || o.void_deal_min_aces
                    .is_some_and(|k| checked.inter(rules::ACES).len() >= k as u32);
            if !void {
                break;
            }
        }
        self.piles = [CardSet::EMPTY; MAX_SIDES];
        self.n_sweeps = 0;
        for i in 0..self.cfg.parts.read.len() {
            let f = self.cfg.parts.read[i];
            f.new_deal(self);
        }
        self.last_capturer = -1;
        self.pending = -1;
        self.selection = CardSet::EMPTY;
        let k = rules::escoba_de_mano_sweeps(self.opts(), self.table);
        if k > 0 {
            let seat = match self.opts().escoba_de_mano_to {
                ManoTo::Dealer => d,
                ManoTo::Eldest => elimination::next_in(in_play, d, n),
            };
            let side = self.side(seat);
            self.piles[side] = self.piles[side].union(self.table);
            self.table = CardSet::EMPTY;
            self.last_capturer = side as i8;
            for _ in 0..k {
                self.push_sweep(side);
            }
        }
        self.to_move = elimination::next_in(in_play, d, n) as i8;
        self.declare_hands();
    }

    /// The mandatory tuzzoli of every hand just dealt, in play order (docs/escoba_engine.md §5).
    pub(super) fn declare_hands(&mut self) {
        if !self.opts().tuzzoli {
            return;
        }
        let n = self.n();
        let d = self.dealer as usize;
        let hybrids = self.opts().tuzzoli_hybrids;
        for k in 1..=n {
            let seat = (d + k) % n;
            let kind = rules::tuzzoli(self.hands[seat], hybrids);
            if kind > 0 && (self.decls.n as usize) < MAX_DECLS {
                self.decls.list[self.decls.n as usize] = [seat as u8, kind, self.n_sweeps];
                self.decls.n += 1;
            }
        }
    }
}
