//! What a seat knows of the history, and resampling in its information set
//! (docs/mosca_engine.md §10, §11): the current deal's actions located in the history, the
//! inferences its tricks allow, the hidden places refilled by the shared sampler, and the other
//! seats' exchange masks and turn-up slots rewritten to match.

use std::fmt::Write as _;

use super::notation::{LEAVE, PLAY0, TAKE0};
use super::options::ExchangeLimit;
use super::rules::suit_mask;
use super::{MoscaState, Phase, MAX_SEATS};
use crate::cards::{Card, CardSet};
use crate::resample::Merged;
use crate::rng::SplitMix64;

/// Where the current deal's actions lie in the history: its declarations (one per seat of the
/// deal, in order from the mano), the dealer's turn-up step, then its trick cards.
pub(super) struct DealLog {
    /// Index in the history of the deal's first action.
    pub start: usize,
    /// The seats dealt in, in order from the mano.
    pub order: [u8; MAX_SEATS],
    pub m: usize,
    /// How many of them have declared.
    pub declared: usize,
    /// Index of the turn-up step, once made.
    pub turnup_at: Option<usize>,
    /// Index of the first trick card.
    pub tricks_at: usize,
}

impl DealLog {
    pub(super) fn of(x: &MoscaState) -> DealLog {
        let n = x.cfg.n;
        let dealer = x.dealer as usize;
        // At the end of the match seats eliminated at the last deal's end keep its fields.
        let dealt =
            |s: usize| !x.eliminated[s] || x.declarations[s] != -1 || !x.hands[s].is_empty();
        let mut order = [0u8; MAX_SEATS];
        let mut m = 0;
        for k in 1..=n {
            let s = (dealer + k) % n;
            if dealt(s) {
                order[m] = s as u8;
                m += 1;
            }
        }
        let declared = order[..m]
            .iter()
            .filter(|&&s| x.declarations[s as usize] != -1)
            .count();
        let stepped = x.declarations[dealer] == 1
            && x.cfg.opts.dealer_may_take_turnup
            && x.phase != Phase::Turnup;
        let len = declared + stepped as usize + x.played.len() as usize;
        let start = x.history.len().saturating_sub(len);
        DealLog {
            start,
            order,
            m,
            declared,
            turnup_at: stepped.then_some(start + declared),
            tricks_at: start + declared + stepped as usize,
        }
    }

    /// The seat that made the current deal's history entry `i`, for its declarations and turn-up
    /// step.
    fn actor(&self, x: &MoscaState, i: usize) -> Option<usize> {
        if i >= self.start && i < self.start + self.declared {
            Some(self.order[i - self.start] as usize)
        } else if self.turnup_at == Some(i) {
            Some(x.dealer as usize)
        } else {
            None
        }
    }
}

/// `p`'s record of the history (docs/mosca_engine.md §10): ids as applied, except an exchange
/// mask or turn-up slot that is not `p`'s own in the current deal (every one for `None`, the
/// public view).
pub(super) fn push_view_history(x: &MoscaState, p: Option<usize>, s: &mut String) {
    let log = DealLog::of(x);
    s.push('[');
    for (i, &a) in x.history.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        let a = a as u32;
        let own = p.is_some() && log.actor(x, i) == p;
        if a > PLAY0 && a < TAKE0 && !own {
            s.push_str("\"play x");
            for _ in 0..(a - PLAY0).count_ones() {
                s.push_str(" ??");
            }
            s.push('"');
        } else if (TAKE0..LEAVE).contains(&a) && !own {
            s.push_str("\"take turnup ??\"");
        } else {
            let _ = write!(s, "{a}");
        }
    }
    s.push(']');
}

/// Five cards of one suit.
#[inline]
fn is_mosca(h: CardSet) -> bool {
    h.len() == 5 && (0..4).any(|suit| h.bits() & !suit_mask(suit) == 0)
}

/// The positions in ascending `of` of the cards of `sub`, as a bit mask.
#[inline]
fn slots_of(of: CardSet, sub: CardSet) -> u32 {
    let mut mask = 0;
    for (i, c) in of.iter().enumerate() {
        if sub.contains(c) {
            mask |= 1 << i;
        }
    }
    mask
}

/// The cards a hand could not hold when its seat played `c` to `trick`
/// (docs/rules/mosca.md §4.3): the led suit when it did not follow, the cards that would have
/// headed it when it followed low, the trumps it was bound to play when it neither followed nor
/// trumped, the trumps that overtrump when it trumped low.
fn refused(x: &MoscaState, trick: &[Card], c: Card) -> u64 {
    let Some(&first) = trick.first() else {
        return 0;
    };
    let st = &x.cfg.strength;
    let d = x.cfg.duties;
    let trump = x.trump();
    let led = first.suit();
    let w = trick[st.trick_winner(trick, trump)];
    let beat = st.beating(w, trump);
    let beats = beat >> c.0 & 1 != 0;
    if c.suit() == led {
        return if d.head && !beats {
            suit_mask(led) & beat
        } else {
            0
        };
    }
    let mut f = suit_mask(led);
    if d.trump {
        let trumps = suit_mask(trump);
        if c.suit() == trump {
            if d.overtrump && !beats {
                f |= trumps & beat;
            }
        } else if d.undertrump {
            f |= trumps;
        } else {
            f |= trumps & beat;
        }
    }
    f
}

/// The current deal's tricks replayed from the history: the cards each seat played, and the
/// cards each seat's hand cannot hold now (what it refused, docs/rules/mosca.md §4.3). `None`
/// when the history does not fit the state (a state read from edited JSON).
fn read_tricks(x: &MoscaState, log: &DealLog) -> Option<([CardSet; MAX_SEATS], [u64; MAX_SEATS])> {
    let mut played_by = [CardSet::EMPTY; MAX_SEATS];
    let mut refuse = [0u64; MAX_SEATS];
    let mut active = [0usize; MAX_SEATS];
    let mut a = 0;
    for &s in &log.order[..log.m] {
        if x.declarations[s as usize] == 1 {
            active[a] = s as usize;
            a += 1;
        }
    }
    let cards = x.history.get(log.tricks_at..)?;
    if cards.len() != x.played.len() as usize || (a == 0 && !cards.is_empty()) {
        return None;
    }
    let mut lead = 0;
    let mut trick = [Card(0); MAX_SEATS];
    let mut k = 0;
    for &id in cards {
        let c = Card(id);
        if id >= 52 || !x.played.contains(c) {
            return None;
        }
        let s = active[(lead + k) % a];
        refuse[s] |= refused(x, &trick[..k], c);
        played_by[s].insert(c);
        trick[k] = c;
        k += 1;
        if k == a {
            let w = x.cfg.strength.trick_winner(&trick[..k], x.trump());
            lead = (lead + w) % a;
            k = 0;
        }
    }
    Some((played_by, refuse))
}

/// No place (a place of size 0 is left out).
const NONE: u8 = u8::MAX;

/// A place's index among the sampler's places, or [`NONE`].
#[derive(Clone, Copy, PartialEq, Eq)]
struct Place(u8);

impl Default for Place {
    fn default() -> Place {
        Place(NONE)
    }
}
/// The most places: two per seat, the discards of five seats, the turn-up discard, the talon.
const MAX_PLACES: usize = 4 * MAX_SEATS;
/// Rejected draws after which the checks are given up: a state read from edited JSON may allow
/// no placement; a reachable state's draws are accepted far sooner.
const MAX_ATTEMPTS: u32 = 100_000;

/// The epoch of each declared seat's turn (the reshuffles before it, docs/mosca_engine.md §4)
/// and the talon's; `None` when the counts do not fit the state.
fn epochs(x: &MoscaState, log: &DealLog) -> Option<([u8; MAX_SEATS], u8)> {
    let reshuffles = x.cfg.opts.exchange_limit == ExchangeLimit::Reshuffle;
    let mut talon = x.cfg.opts.deck as i32 - 5 * log.m as i32 - 1;
    let mut pile = 0i32;
    let mut e = 0u8;
    let mut ep = [0u8; MAX_SEATS];
    let turn = |talon: &mut i32, pile: &mut i32, e: &mut u8| {
        if reshuffles && *talon == 0 && *pile > 0 {
            *e += 1;
            *talon = *pile;
            *pile = 0;
        }
    };
    for &s in &log.order[..log.declared] {
        turn(&mut talon, &mut pile, &mut e);
        ep[s as usize] = e;
        let k = x.exchanged[s as usize] as i32;
        talon -= k;
        pile += k;
    }
    if x.phase == Phase::Declare {
        turn(&mut talon, &mut pile, &mut e);
    }
    (talon == x.talon().len() as i32 && pile == x.discard_pile.len() as i32).then_some((ep, e))
}

/// The places of the current deal hidden from the seat, as the sampler's places.
#[derive(Default)]
struct Places {
    /// Per seat: its hand, or its dealt cards kept and its drawn cards (an exchange from a
    /// reshuffled talon); its exchange discards in the discard pile.
    hand: [Place; MAX_SEATS],
    kept: [Place; MAX_SEATS],
    drawn: [Place; MAX_SEATS],
    pile: [Place; MAX_SEATS],
    turnup_discard: Place,
    talon: Place,
    caps: [u16; MAX_PLACES],
    count: usize,
}

impl Places {
    fn add(&mut self, cap: usize) -> Place {
        if cap == 0 {
            return Place(NONE);
        }
        self.caps[self.count] = cap as u16;
        self.count += 1;
        Place((self.count - 1) as u8)
    }
    fn bit(place: Place) -> u32 {
        if place.0 == NONE {
            0
        } else {
            1 << place.0
        }
    }
}

/// A placement: each seat's hand after its exchange (before the turn-up step; the cards played
/// back in), its dealt cards kept (when placed apart), its exchange discards, and the turn-up
/// discard.
struct Placed {
    after: [CardSet; MAX_SEATS],
    kept: [CardSet; MAX_SEATS],
    discards: [CardSet; MAX_SEATS],
    turnup_discard: Option<Card>,
}

/// The deal's mosca checks hold for `pl` (docs/mosca_engine.md §12): no seat was dealt a mosca
/// (for an exchange from the first talon, some choice of the drawn cards gives a dealt hand that
/// is none) and, with `mosca_after_exchange` once the tricks began, no active seat held one then.
fn moscas_ok(
    x: &MoscaState,
    seats: &[bool; MAX_SEATS],
    two: &[bool; MAX_SEATS],
    pl: &Placed,
    (first, second): (bool, bool),
) -> bool {
    let dealer = x.dealer as usize;
    for s in 0..x.cfg.n {
        if !seats[s] {
            continue;
        }
        if second && x.declarations[s] == 1 {
            let mut h2 = pl.after[s];
            if x.turnup_taken && s == dealer {
                if let Some(c) = pl.turnup_discard {
                    h2.remove(c);
                }
                h2.insert(Card(x.turnup));
            }
            if is_mosca(h2) {
                return false;
            }
        }
        if !first {
            continue;
        }
        let d = pl.discards[s];
        let bad = if two[s] {
            is_mosca(pl.kept[s].union(d))
        } else {
            let h1 = pl.after[s];
            match x.exchanged[s] {
                0 => is_mosca(h1),
                5 => is_mosca(d),
                _ => (0..4).any(|suit| {
                    let m = suit_mask(suit);
                    d.bits() & !m == 0 && h1.bits() & !m == 0
                }),
            }
        };
        if bad {
            return false;
        }
    }
    true
}

/// The cards `placed` puts in `place` (`starts`: where each place begins).
fn cards_at(placed: &[u16], starts: &[usize], place: Place) -> CardSet {
    if place.0 == NONE {
        return CardSet::EMPTY;
    }
    let i = place.0 as usize;
    placed[starts[i]..starts[i + 1]]
        .iter()
        .map(|&c| Card(c as u8))
        .collect()
}

/// docs/mosca_engine.md §12, written into `out`.
pub(super) fn resample_into(x: &MoscaState, p: usize, seed: u64, out: &mut MoscaState) {
    out.clone_from(x);
    let mut rng = SplitMix64::new(seed);
    let log = DealLog::of(x);
    // Earlier deals' private details: nothing of them is left in the state.
    for a in &mut out.history[..log.start] {
        let id = *a as u32;
        if id > PLAY0 && id < TAKE0 {
            *a = (PLAY0 + (1 << (id - PLAY0).count_ones()) - 1) as u8;
        } else if (TAKE0..LEAVE).contains(&id) {
            *a = TAKE0 as u8;
        }
    }
    let n = x.cfg.n;
    let dealer = x.dealer as usize;
    let turnup = Card(x.turnup);
    let (Some((played_by, refuse)), Some((ep, last))) = (read_tricks(x, &log), epochs(x, &log))
    else {
        // A history that does not fit the state (edited JSON): only the RNG is drawn afresh.
        out.rng = SplitMix64::new(rng.next_u64());
        return;
    };
    let mut seats = [false; MAX_SEATS];
    let mut two = [false; MAX_SEATS];
    for &s in &log.order[..log.m] {
        let s = s as usize;
        seats[s] = s != p;
        two[s] = x.exchanged[s] > 0 && ep[s] >= 1;
    }
    // A taken turn-up stays where everyone knows it is: in the dealer's hand until played.
    let kept_turnup = x.turnup_taken && !x.played.contains(turnup);
    let own_td = if x.turnup_taken && dealer == p {
        CardSet::single(Card(x.turnup_discard as u8))
    } else {
        CardSet::EMPTY
    };
    let own_discards = x.discarded[p].minus(own_td);
    // p's discards left the discard pile at a reshuffle: where they went is hidden.
    let own_out = if x.exchanged[p] > 0 && ep[p] < last {
        own_discards
    } else {
        CardSet::EMPTY
    };
    let not_turnup = |c: CardSet| c.minus(CardSet::single(turnup));
    let own_after = if two[p] {
        not_turnup(x.hands[p].union(played_by[p])).union(own_td)
    } else {
        CardSet::EMPTY
    };

    let mut pl_ = Places::default();
    for s in 0..n {
        if two[s] {
            let k = x.exchanged[s] as usize;
            pl_.kept[s] = pl_.add(5 - k);
            pl_.drawn[s] = pl_.add(k);
        } else if seats[s] {
            let keep = (kept_turnup && s == dealer) as usize;
            pl_.hand[s] = pl_.add(x.hands[s].len() as usize - keep);
        }
    }
    for s in 0..n {
        if seats[s] && ep[s] == last {
            pl_.pile[s] = pl_.add(x.exchanged[s] as usize);
        }
    }
    if x.turnup_taken && dealer != p && !two[dealer] {
        pl_.turnup_discard = pl_.add(1);
    }
    pl_.talon = pl_.add(x.talon().len());
    let places = pl_;

    // Only public facts shape the draw: a state read from edited JSON whose hidden hands break
    // the inferences finds no placement, and falls back below (it never reads those hands).
    let first = x.phase != Phase::End || log.declared > 0;
    let second = x.cfg.opts.mosca_after_exchange
        && (x.phase == Phase::Trick || (x.phase == Phase::End && !x.played.is_empty()));
    let mut checks = (first, second);
    // A two-place dealer's turn-up discard is drawn after the placement: its refusals are
    // checked then.
    let late_refusal = x.turnup_taken && dealer != p && two[dealer];

    // The cards to place and where each may go.
    let mut others_played = CardSet::EMPTY;
    for s in 0..n {
        if seats[s] && two[s] {
            others_played = others_played.union(not_turnup(played_by[s]));
        }
    }
    let hidden = x.cfg.deck.minus(
        x.hands[p]
            .union(x.played)
            .union(x.discarded[p])
            .union(CardSet::single(turnup)),
    );
    let items = hidden.union(others_played).union(own_out).union(own_after);
    let mut own_out_to = 0u32;
    for s in 0..n {
        if seats[s] && two[s] && ep[s] == ep[p] + 1 {
            own_out_to |= Places::bit(places.drawn[s]);
        }
    }
    if ep[p] + 1 == last {
        own_out_to |= Places::bit(places.talon);
    }
    let all = (1u32 << places.count) - 1;
    let own_places = Places::bit(places.kept[p]) | Places::bit(places.drawn[p]);
    let refused_by_any = (0..n)
        .filter(|&s| seats[s])
        .fold(0u64, |r, s| r | refuse[s]);
    let mut cards = [0u16; 52];
    let mut allowed = [0u32; 52];
    let mut k = 0;
    for c in items {
        let mut a = if own_after.contains(c) {
            own_places
        } else if others_played.contains(c) {
            let b = (0..n)
                .find(|&b| seats[b] && two[b] && played_by[b].contains(c))
                .unwrap_or(p);
            let mut a = Places::bit(places.kept[b]) | Places::bit(places.drawn[b]);
            if own_out.contains(c) {
                a &= own_out_to;
            }
            a
        } else if own_out.contains(c) {
            own_out_to
        } else {
            all & !own_places
        };
        if !others_played.contains(c) && refused_by_any >> c.0 & 1 != 0 {
            for s in 0..n {
                if seats[s] && refuse[s] >> c.0 & 1 != 0 {
                    a &= !Places::bit(places.hand[s]);
                    if !(late_refusal && s == dealer) {
                        a &= !(Places::bit(places.kept[s]) | Places::bit(places.drawn[s]));
                    }
                }
            }
        }
        cards[k] = c.0 as u16;
        allowed[k] = a;
        k += 1;
    }

    let mut placed = [0u16; 52];
    let mut starts = [0usize; MAX_PLACES + 1];
    for i in 0..places.count {
        starts[i + 1] = starts[i] + places.caps[i] as usize;
    }
    let mut pl = Placed {
        after: [CardSet::EMPTY; MAX_SEATS],
        kept: [CardSet::EMPTY; MAX_SEATS],
        discards: [CardSet::EMPTY; MAX_SEATS],
        turnup_discard: None,
    };
    let mut hands = [CardSet::EMPTY; MAX_SEATS];
    let own_mask = log
        .order
        .iter()
        .take(log.declared)
        .position(|&s| s as usize == p)
        .and_then(|j| x.history.get(log.start + j))
        .map_or(0, |&a| (a as u32).saturating_sub(PLAY0));
    let merged = Merged::new(&allowed[..k], &places.caps[..places.count]);
    let mut attempts = 0u32;
    let mut strict = true;
    // Rejection keeps the draw uniform over the placements the checks allow.
    let accepted = loop {
        attempts += 1;
        if attempts > MAX_ATTEMPTS {
            if !strict {
                break false;
            }
            strict = false;
            checks = (false, false);
            attempts = 0;
        }
        if !merged
            .as_ref()
            .is_some_and(|m| m.place(&cards[..k], &mut rng, &mut placed[..k]))
        {
            continue;
        }
        let at = |place: Place| cards_at(&placed, &starts, place);
        for s in 0..n {
            if two[s] {
                pl.kept[s] = at(places.kept[s]);
                pl.after[s] = pl.kept[s].union(at(places.drawn[s]));
            } else if seats[s] {
                let mut h = at(places.hand[s]);
                if kept_turnup && s == dealer {
                    h.insert(turnup);
                }
                hands[s] = h;
                pl.after[s] = not_turnup(h.union(played_by[s]));
            }
            pl.discards[s] = if s == p {
                own_discards
            } else {
                at(places.pile[s])
            };
        }
        // The exchange discards of an epoch before the last: the talon it built, dealt out
        // among the seats that exchanged in it.
        let mut fits = true;
        for e in 1..=last {
            let mut built = if e == last {
                at(places.talon)
            } else {
                CardSet::EMPTY
            };
            for s in 0..n {
                if two[s] && ep[s] == e {
                    built = built.union(pl.after[s].minus(pl.kept[s]));
                }
            }
            let mut caps = [0u16; MAX_SEATS];
            let mut who = [0usize; MAX_SEATS];
            let mut m = 0;
            for s in 0..n {
                if seats[s] && x.exchanged[s] > 0 && ep[s] + 1 == e {
                    caps[m] = x.exchanged[s] as u16;
                    who[m] = s;
                    m += 1;
                }
            }
            let mut ids = [0u16; 52];
            let mut full = [0u32; 52];
            let mut c = 0;
            let rest = if ep[p] + 1 == e {
                built.minus(own_discards)
            } else {
                built
            };
            for card in rest {
                ids[c] = card.0 as u16;
                full[c] = (1 << m) - 1;
                c += 1;
            }
            let mut got = [0u16; 52];
            if m == 0 {
                fits &= c == 0;
                continue;
            }
            let dealt = Merged::new(&full[..c], &caps[..m])
                .is_some_and(|mg| mg.place(&ids[..c], &mut rng, &mut got[..c]));
            if !dealt {
                fits = false;
                continue;
            }
            let mut o = 0;
            for i in 0..m {
                let cap = caps[i] as usize;
                pl.discards[who[i]] = got[o..o + cap].iter().map(|&id| Card(id as u8)).collect();
                o += cap;
            }
        }
        if !fits {
            continue;
        }
        pl.turnup_discard = if !x.turnup_taken {
            None
        } else if dealer == p {
            own_td.first()
        } else if two[dealer] {
            let open = pl.after[dealer].minus(played_by[dealer]);
            open.iter()
                .nth(rng.below(open.len().max(1) as u64) as usize)
        } else {
            at(places.turnup_discard).first()
        };
        for s in 0..n {
            if seats[s] && two[s] {
                let mut h = pl.after[s].minus(played_by[s]);
                if s == dealer {
                    if let Some(c) = pl.turnup_discard {
                        h.remove(c);
                    }
                    if kept_turnup {
                        h.insert(turnup);
                    }
                }
                hands[s] = h;
            } else if seats[s] && s == dealer {
                if let Some(c) = pl.turnup_discard {
                    pl.after[s].insert(c);
                }
            }
        }
        if strict {
            if late_refusal && hands[dealer].bits() & refuse[dealer] != 0 {
                continue;
            }
            if two[p] {
                let dealt = pl.kept[p].union(own_discards);
                if slots_of(dealt, own_discards) != own_mask || (checks.0 && is_mosca(dealt)) {
                    continue;
                }
            }
            if !moscas_ok(x, &seats, &two, &pl, checks) {
                continue;
            }
        }
        break true;
    };
    if !accepted {
        out.rng = SplitMix64::new(rng.next_u64());
        return;
    }

    // Write the places back.
    let mut pile = if ep[p] == last {
        own_discards
    } else {
        CardSet::EMPTY
    };
    for s in 0..n {
        if seats[s] {
            out.hands[s] = hands[s];
            out.discarded[s] = pl.discards[s];
            if ep[s] == last {
                pile = pile.union(pl.discards[s]);
            }
        }
    }
    out.discard_pile = pile;
    if let Some(c) = pl.turnup_discard {
        out.turnup_discard = c.0 as i8;
        out.discarded[dealer].insert(c);
    }
    let size = x.talon().len();
    if places.talon.0 != NONE {
        let from = starts[places.talon.0 as usize];
        for i in 0..size {
            out.talon[i] = placed[from + i] as u8;
        }
    }
    out.talon_pos = 0;
    out.talon_len = size as u8;

    // The other seats' exchange masks: from their dealt cards where placed apart; else which of
    // their cards they drew is drawn here.
    for j in 0..log.declared {
        let s = log.order[j] as usize;
        let k = x.exchanged[s] as u32;
        let at = log.start + j;
        if s == p || k == 0 || at >= out.history.len() {
            continue;
        }
        let d = pl.discards[s];
        if two[s] {
            out.history[at] = (PLAY0 + slots_of(pl.kept[s].union(d), d)) as u8;
            continue;
        }
        let h1 = pl.after[s];
        // Each of h1's cards as a bit, by slot.
        let mut bit = [0u64; 8];
        for (b, c) in bit.iter_mut().zip(h1) {
            *b = 1 << c.0;
        }
        let dealt = |t: u32| -> CardSet {
            let mut drawn = 0;
            let mut rest = t;
            while rest != 0 {
                drawn |= bit[rest.trailing_zeros() as usize];
                rest &= rest - 1;
            }
            CardSet(h1.bits() & !drawn | d.bits())
        };
        // The k-subsets of h1's slots, ascending, that leave a dealt hand that is no mosca (all
        // of them if none does).
        let mut sized = [0u32; 32];
        let mut fitting = [0u32; 32];
        let (mut ns, mut nf) = (0, 0);
        for t in 0..32u32 {
            if t.count_ones() == k {
                sized[ns] = t;
                ns += 1;
                if !(checks.0 && is_mosca(dealt(t))) {
                    fitting[nf] = t;
                    nf += 1;
                }
            }
        }
        let pick = if nf > 0 { &fitting[..nf] } else { &sized[..ns] };
        if let Some(&t) = pick.get(rng.below(pick.len().max(1) as u64) as usize) {
            out.history[at] = (PLAY0 + slots_of(dealt(t), d)) as u8;
        }
    }
    // The dealer's turn-up slot follows from the placement.
    if let (Some(at), Some(c)) = (log.turnup_at, pl.turnup_discard) {
        if dealer != p && at < out.history.len() && out.history[at] as u32 != LEAVE {
            let slot = slots_of(pl.after[dealer], CardSet::single(c)).trailing_zeros();
            out.history[at] = (TAKE0 + slot) as u8;
        }
    }
    out.rng = SplitMix64::new(rng.next_u64());
}
