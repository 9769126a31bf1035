"""La Mosca: what a seat knows of the history, and resampling in its information set
(docs/mosca_engine.md §10, §11). The native engine's ``games/mosca/resample.rs`` implements the
same steps and the same random draws.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._resample import place_merged
from ._rng import SplitMix64

if TYPE_CHECKING:
    from .mosca import MoscaState

__all__ = ["DealLog", "view_history", "resample_into"]

PASS, PLAY0, TAKE0, LEAVE = 52, 53, 85, 90


def _suit(card: int) -> int:
    return card // 13


def _is_mosca(cards: set[int]) -> bool:
    """Five cards of one suit."""
    return len(cards) == 5 and len({_suit(c) for c in cards}) == 1


def _slots_of(of: set[int], sub: set[int]) -> int:
    """The positions in ascending ``of`` of the cards of ``sub``, as a bit mask."""
    return sum(1 << i for i, c in enumerate(sorted(of)) if c in sub)


class DealLog:
    """Where the current deal's actions lie in the history: its declarations (one per seat of the
    deal, in order from the mano), the dealer's turn-up step, then its trick cards."""

    def __init__(self, x: MoscaState) -> None:
        n = x.game.num_players
        dealer = x._dealer
        # At the end of the match seats eliminated at the last deal's end keep its fields.
        self.order = [
            s
            for s in ((dealer + k) % n for k in range(1, n + 1))
            if not x._eliminated[s] or x._declarations[s] != -1 or x._hands[s]
        ]
        self.declared = sum(1 for s in self.order if x._declarations[s] != -1)
        stepped = x._declarations[dealer] == 1 and x._o["dealer_may_take_turnup"] and x._phase != "turnup"
        length = self.declared + int(stepped) + len(x._played)
        self.start = max(0, len(x._history) - length)
        self.turnup_at = self.start + self.declared if stepped else None
        self.tricks_at = self.start + self.declared + int(stepped)
        self.dealer = dealer

    def actor(self, i: int) -> int | None:
        """The seat that made the current deal's history entry ``i``, for its declarations and
        turn-up step."""
        if self.start <= i < self.start + self.declared:
            return self.order[i - self.start]
        if i == self.turnup_at:
            return self.dealer
        return None


def view_history(x: MoscaState, p: int | None) -> list[Any]:
    """``p``'s record of the history (docs/mosca_engine.md §10): ids as applied, except an
    exchange mask or turn-up slot that is not ``p``'s own in the current deal (every one for
    None, the public view)."""
    log = DealLog(x)
    out: list[Any] = []
    for i, a in enumerate(x._history):
        own = p is not None and log.actor(i) == p
        if PLAY0 < a < TAKE0 and not own:
            out.append("play x" + " ??" * bin(a - PLAY0).count("1"))
        elif TAKE0 <= a < LEAVE and not own:
            out.append("take turnup ??")
        else:
            out.append(a)
    return out


def _refused(x: MoscaState, trick: list[int], c: int) -> set[int]:
    """The cards a hand could not hold when its seat played ``c`` to ``trick``
    (docs/rules/mosca.md §4.3): the led suit when it did not follow, the cards that would have
    headed it when it followed low, the trumps it was bound to play when it neither followed nor
    trumped, the trumps that overtrump when it trumped low."""
    from .mosca import _beats, _winning_index

    if not trick:
        return set()
    o = x._o
    ace, trump = o["ace_rank"], x._trump
    led = _suit(trick[0])
    w = trick[_winning_index(trick, trump, ace)]
    deck = range(52)
    beat = {y for y in deck if _beats(y, w, trump, ace)}
    if _suit(c) == led:
        return {y for y in beat if _suit(y) == led} if o["must_head"] and c not in beat else set()
    f = {y for y in deck if _suit(y) == led}
    if o["must_trump"]:
        trumps = {y for y in deck if _suit(y) == trump}
        if _suit(c) == trump:
            if o["must_overtrump"] and c not in beat:
                f |= trumps & beat
        else:
            f |= trumps if o["must_undertrump"] else trumps & beat
    return f


def _read_tricks(x: MoscaState, log: DealLog) -> tuple[dict[int, set[int]], dict[int, set[int]]] | None:
    """The current deal's tricks replayed from the history: the cards each seat played, and the
    cards each seat's hand cannot hold now. None when the history does not fit the state."""
    from .mosca import _winning_index

    active = [s for s in log.order if x._declarations[s] == 1]
    played_by: dict[int, set[int]] = {s: set() for s in range(x.game.num_players)}
    refuse: dict[int, set[int]] = {s: set() for s in range(x.game.num_players)}
    if log.tricks_at > len(x._history):
        return None
    cards = x._history[log.tricks_at :]
    if len(cards) != len(x._played) or (not active and cards):
        return None
    lead, trick = 0, list[int]()
    for c in cards:
        if c >= 52 or c not in x._played:
            return None
        s = active[(lead + len(trick)) % len(active)]
        refuse[s] |= _refused(x, trick, c)
        played_by[s].add(c)
        trick.append(c)
        if len(trick) == len(active):
            lead = (lead + _winning_index(trick, x._trump, x._o["ace_rank"])) % len(active)
            trick = []
    return played_by, refuse


#: Rejected draws after which the checks are given up (as the native engine's MAX_ATTEMPTS).
MAX_ATTEMPTS = 100_000


def _epochs(x: MoscaState, log: DealLog) -> tuple[dict[int, int], int] | None:
    """The epoch of each declared seat's turn (the reshuffles before it, docs/mosca_engine.md §4)
    and the talon's; None when the counts do not fit the state."""
    reshuffles = x._o["exchange_limit"] == "reshuffle_discards_when_empty"
    talon = x.game.deck_size - 5 * len(log.order) - 1
    pile, e = 0, 0
    ep = {s: 0 for s in range(x.game.num_players)}
    for s in log.order[: log.declared] + [None]:
        if s is None and x._phase != "declare":
            break
        if reshuffles and talon == 0 and pile > 0:
            e, talon, pile = e + 1, pile, 0
        if s is None:
            break
        ep[s] = e
        talon -= x._exchanged[s]
        pile += x._exchanged[s]
    if talon != len(x._talon) or pile != len(x._discard_pile):
        return None
    return ep, e


def _moscas_ok(
    x: MoscaState,
    seats: list[int],
    two: dict[int, bool],
    after: dict[int, set[int]],
    kept: dict[int, set[int]],
    discards: dict[int, set[int]],
    td: int | None,
    checks: tuple[bool, bool],
) -> bool:
    """The deal's mosca checks hold for the placement (docs/mosca_engine.md §12)."""
    first, second = checks
    dealer = x._dealer
    for s in seats:
        if second and x._declarations[s] == 1:
            h2 = set(after[s])
            if x._turnup_taken and s == dealer:
                h2.discard(td)
                h2.add(x._turnup)
            if _is_mosca(h2):
                return False
        if not first:
            continue
        d = discards[s]
        if two[s]:
            bad = _is_mosca(kept[s] | d)
        elif x._exchanged[s] == 0:
            bad = _is_mosca(after[s])
        elif x._exchanged[s] == 5:
            bad = _is_mosca(d)
        else:
            bad = any(all(_suit(c) == suit for c in d | after[s]) for suit in range(4))
        if bad:
            return False
    return True


def resample_into(x: MoscaState, p: int, seed: int, out: MoscaState) -> None:
    """docs/mosca_engine.md §12, written into ``out`` (a clone of ``x``)."""
    rng = SplitMix64(seed)
    log = DealLog(x)
    n = x.game.num_players
    # Earlier deals' private details: nothing of them is left in the state.
    for i in range(log.start):
        a = out._history[i]
        if PLAY0 < a < TAKE0:
            out._history[i] = PLAY0 + (1 << bin(a - PLAY0).count("1")) - 1
        elif TAKE0 <= a < LEAVE:
            out._history[i] = TAKE0
    dealer, turnup = x._dealer, x._turnup
    tricks, epochs = _read_tricks(x, log), _epochs(x, log)
    if tricks is None or epochs is None:
        # A history that does not fit the state (edited JSON): only the RNG is drawn afresh.
        out._rng = SplitMix64(rng.next())
        return
    played_by, refuse = tricks
    ep, last = epochs
    seats = [s for s in range(n) if s in log.order and s != p]
    two = {s: s in log.order and x._exchanged[s] > 0 and ep[s] >= 1 for s in range(n)}
    # A taken turn-up stays where everyone knows it is: in the dealer's hand until played.
    kept_turnup = x._turnup_taken and turnup not in x._played
    own_td = {x._turnup_discard} if x._turnup_taken and dealer == p else set()
    own_discards = set(x._discarded[p]) - own_td
    # p's discards left the discard pile at a reshuffle: where they went is hidden.
    own_out = own_discards if x._exchanged[p] > 0 and ep[p] < last else set()
    own_after = ((set(x._hands[p]) | played_by[p]) - {turnup}) | own_td if two[p] else set()

    caps: list[int] = []

    def add(cap: int) -> int | None:
        if cap == 0:
            return None
        caps.append(cap)
        return len(caps) - 1

    hand_at: dict[int, int | None] = {s: None for s in range(n)}
    kept_at: dict[int, int | None] = {s: None for s in range(n)}
    drawn_at: dict[int, int | None] = {s: None for s in range(n)}
    pile_at: dict[int, int | None] = {s: None for s in range(n)}
    for s in range(n):
        if two[s]:
            kept_at[s] = add(5 - x._exchanged[s])
            drawn_at[s] = add(x._exchanged[s])
        elif s in seats:
            hand_at[s] = add(len(x._hands[s]) - int(kept_turnup and s == dealer))
    for s in seats:
        if ep[s] == last:
            pile_at[s] = add(x._exchanged[s])
    td_at = add(1) if x._turnup_taken and dealer != p and not two[dealer] else None
    talon_at = add(len(x._talon))

    def bit(place: int | None) -> int:
        return 0 if place is None else 1 << place

    # Only public facts shape the draw: a state read from edited JSON whose hidden hands break
    # the inferences finds no placement, and falls back below (it never reads those hands).
    first = x._phase != "end" or log.declared > 0
    second = x._o["mosca_after_exchange"] and (x._phase == "trick" or (x._phase == "end" and bool(x._played)))
    checks = (first, second)
    # A two-place dealer's turn-up discard is drawn after the placement: its refusals are
    # checked then.
    late_refusal = x._turnup_taken and dealer != p and two[dealer]

    # The cards to place and where each may go.
    others_played = set().union(*(played_by[s] - {turnup} for s in seats if two[s]))
    hidden = set(x.game.pack) - (set(x._hands[p]) | x._played | x._discarded[p] | {turnup})
    items = sorted(hidden | others_played | own_out | own_after)
    own_out_to = sum(bit(drawn_at[s]) for s in seats if two[s] and ep[s] == ep[p] + 1)
    if ep[p] + 1 == last:
        own_out_to |= bit(talon_at)
    every = (1 << len(caps)) - 1
    own_places = bit(kept_at[p]) | bit(drawn_at[p])
    allowed = []
    for c in items:
        if c in own_after:
            a = own_places
        elif c in others_played:
            b = next(b for b in seats if two[b] and c in played_by[b])
            a = bit(kept_at[b]) | bit(drawn_at[b])
            if c in own_out:
                a &= own_out_to
        elif c in own_out:
            a = own_out_to
        else:
            a = every & ~own_places
        if c not in others_played:
            for s in seats:
                if c in refuse[s]:
                    a &= ~bit(hand_at[s])
                    if not (late_refusal and s == dealer):
                        a &= ~(bit(kept_at[s]) | bit(drawn_at[s]))
        allowed.append(a)

    own_mask = 0
    if p in log.order[: log.declared]:
        at_p = log.start + log.order.index(p)
        if at_p < len(x._history):
            own_mask = max(0, x._history[at_p] - PLAY0)

    attempts, strict = 0, True
    # Rejection keeps the draw uniform over the placements the checks allow.
    while True:
        attempts += 1
        if attempts > MAX_ATTEMPTS:
            if not strict:
                # Nothing fits (edited JSON): only the RNG is drawn afresh.
                out._rng = SplitMix64(rng.next())
                return
            strict, checks, attempts = False, (False, False), 0
        slots = place_merged(items, allowed, caps, rng)
        if slots is None:
            continue

        def at(place: int | None, slots: list[list[int]] = slots) -> set[int]:
            return set() if place is None else set(slots[place])

        after: dict[int, set[int]] = {}
        kept: dict[int, set[int]] = {}
        hands: dict[int, set[int]] = {}
        discards: dict[int, set[int]] = {}
        for s in range(n):
            if two[s]:
                kept[s] = at(kept_at[s])
                after[s] = kept[s] | at(drawn_at[s])
            elif s in seats:
                h = at(hand_at[s])
                if kept_turnup and s == dealer:
                    h.add(turnup)
                hands[s] = h
                after[s] = (h | played_by[s]) - {turnup}
            discards[s] = set(own_discards) if s == p else at(pile_at[s])
        # The exchange discards of an epoch before the last: the talon it built, dealt out among
        # the seats that exchanged in it.
        fits = True
        for e in range(1, last + 1):
            built = at(talon_at) if e == last else set()
            for s in range(n):
                if two[s] and ep[s] == e:
                    built |= after[s] - kept[s]
            who = [s for s in seats if x._exchanged[s] > 0 and ep[s] + 1 == e]
            rest = sorted(built - own_discards) if ep[p] + 1 == e else sorted(built)
            if not who:
                fits = fits and not rest
                continue
            got = place_merged(rest, [(1 << len(who)) - 1] * len(rest), [x._exchanged[s] for s in who], rng)
            if got is None:
                fits = False
                continue
            for s, cards in zip(who, got):
                discards[s] = set(cards)
        if not fits:
            continue
        td: int | None
        if not x._turnup_taken:
            td = None
        elif dealer == p:
            td = x._turnup_discard
        elif two[dealer]:
            open_cards = sorted(after[dealer] - played_by[dealer])
            td = open_cards[rng.below(max(1, len(open_cards)))]
        else:
            td = slots[td_at][0]  # type: ignore[index]
        for s in seats:
            if two[s]:
                h = after[s] - played_by[s]
                if s == dealer:
                    h.discard(td)
                    if kept_turnup:
                        h.add(turnup)
                hands[s] = h
            elif s == dealer and td is not None:
                after[s].add(td)
        if strict:
            if late_refusal and hands[dealer] & refuse[dealer]:
                continue
            if two[p]:
                dealt_p = kept[p] | own_discards
                if _slots_of(dealt_p, own_discards) != own_mask or (checks[0] and _is_mosca(dealt_p)):
                    continue
            if not _moscas_ok(x, seats, two, after, kept, discards, td, checks):
                continue
        break

    # Write the places back.
    pile = set(own_discards) if ep[p] == last else set()
    for s in seats:
        out._hands[s] = hands[s]
        out._discarded[s] = set(discards[s])
        if ep[s] == last:
            pile |= discards[s]
    out._discard_pile = pile
    if td is not None:
        out._turnup_discard = td
        out._discarded[dealer].add(td)
    out._talon = list(slots[talon_at]) if talon_at is not None else []

    # The other seats' exchange masks: from their dealt cards where placed apart; else which of
    # their cards they drew is drawn here.
    for j in range(log.declared):
        s = log.order[j]
        k = x._exchanged[s]
        at_s = log.start + j
        if s == p or k == 0 or at_s >= len(out._history):
            continue
        d = discards[s]
        if two[s]:
            out._history[at_s] = PLAY0 + _slots_of(kept[s] | d, d)
            continue
        ordered = sorted(after[s])

        def dealt(t: int, ordered: list[int] = ordered, d: set[int] = d) -> set[int]:
            return {c for i, c in enumerate(ordered) if not t >> i & 1} | d

        sized = [t for t in range(32) if bin(t).count("1") == k]
        fitting = [t for t in sized if not (checks[0] and _is_mosca(dealt(t)))] or sized
        t = fitting[rng.below(len(fitting))]
        out._history[at_s] = PLAY0 + _slots_of(dealt(t), d)
    # The dealer's turn-up slot follows from the placement.
    at_turnup = log.turnup_at
    if at_turnup is not None and td is not None and dealer != p and at_turnup < len(out._history):
        if out._history[at_turnup] != LEAVE:
            out._history[at_turnup] = TAKE0 + _slots_of(after[dealer], {td}).bit_length() - 1
    out._rng = SplitMix64(rng.next())
