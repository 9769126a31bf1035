"""Resampling (docs/escoba_engine.md §12): a state in a seat's information set, every card hidden
from the seat placed again by the shared sampler, the private action details rewritten.

The places, in slot order: each seat's hand (slot = seat; none for the resampling seat or a shown
hand), the stock (slot ``n``, in the sampler's order, top first), then with fidasse the open claim
of another seat (slot ``n + 1``) and each other seat's trusted claims of this deal (slot
``n + 2 + seat``, in the order of its ``CLAIM``s).
"""

from __future__ import annotations

from typing import Any

from .._resample import place
from .._rng import SplitMix64
from .captures import _captures, _pile_captures, _val
from .cards import CLAIM0, KNOCK, NO_KNOCK, TAKE0, _rank, card_of
from .dealing import deal_shape, seats_after, start_deal
from .scoring import _knock_best

KNOCKED, DECLINED, UNDECIDED = 2, 1, 0
#: Draws at most this many placements when a draw must replay the deal (docs/escoba_engine.md §12).
MAX_TRIES = 4096


def plays_this_deal(state: Any) -> int:
    """Cards dealt to hands this deal that have left them (plays, the pending card, claims)."""
    itc = deal_shape(state)[0]
    dealt = max(state.game.size - itc - len(state._stock), 0)
    return max(dealt - sum(len(h) for h in state._hands), 0)


def start_of_plays(state: Any, plays: int) -> int | None:
    """Where the last ``plays`` card plays of the history begin (a knock decision belongs to the
    turn it opens); None when the history holds fewer (a ``setup`` position)."""
    h = state._history
    i, left = len(h), plays
    while left > 0:
        if i == 0:
            return None
        i -= 1
        left -= card_of(h[i]) is not None
    while i > 0 and h[i - 1] in (KNOCK, NO_KNOCK):
        i -= 1
    return i


def turn_order(state: Any) -> list[int]:
    """The seats in play in turn order from the dealer's left."""
    return seats_after(state, state._dealer)


def rebuilt_deal(state: Any) -> tuple[Any, int] | None:
    """This deal's start rebuilt from the state's cards, and where its actions begin in the
    history: each hand as dealt (the cards its seat played in that hand of the deal, plus what it
    holds), the table, the stock. None when the history does not hold the whole deal (a ``setup``
    position), at the end of the match, and on the double pack (no inference reads it)."""
    if state._terminal or state.game.twins:
        return None
    i0 = start_of_plays(state, plays_this_deal(state))
    # the first deal starts the history, unless a ``setup`` position did
    if i0 is None or (state._deal == 1 and any(card_of(a) is not None for a in state._history[:i0])):
        return None
    order = turn_order(state)
    m = max(len(order), 1)
    itc, cph = deal_shape(state)
    per_round = max(m * cph, 1)
    rounds = max(state.game.size - itc, 0) // per_round
    got: list[set[int]] = [set() for _ in range((rounds + 1) * m)]
    j = 0
    for a in state._history[i0:]:
        c = card_of(a)
        if c is not None:
            got[min(j // per_round, rounds) * m + j % m].add(c)
            j += 1
    now = min(j // per_round, rounds)
    for q in range(len(order)):
        got[now * m + q] |= set(state._hands[order[q]])

    def deal_round(r: int) -> list[int]:
        left = [sorted(got[r * m + q]) for q in range(m)]
        out = []
        for k in range(cph):
            out += [hand[k] for hand in left if k < len(hand)]
        return out

    deck = deal_round(0)
    placed = set().union(*got) | set(state._stock)
    table = sorted(set(state.game.pack) - placed)
    # the void check reads the first table cards: Kings and Aces last
    deck += [c for c in table if _rank(c) not in (1, 13)]
    deck += [c for c in table if _rank(c) == 1] + [c for c in table if _rank(c) == 13]
    for r in range(1, now + 1):
        deck += deal_round(r)
    deck += state._stock
    if len(deck) != state.game.size:
        return None
    st = state.clone()
    del st._history[i0:]
    st._claim = st._claimant = -1
    start_deal(st, deck)
    return st, i0


def has_capture(st: Any, card: int) -> bool:
    """``Captures(card, T) != {}`` on the table of ``st`` for its mover (the piles, the builds)."""
    if st._o["steal"]:
        return bool(_pile_captures(card, list(st._table), st._piles_ctx(), st._o))
    return bool(_captures(card, list(st._table), st._o, st._matta(), st._builds))


def revealed(state: Any, p: int, pool: set[int]) -> list[set[int]]:
    """Per seat, the hidden cards its hand cannot hold by what the rules reveal
    (docs/escoba_engine.md §12): under ``capture_obligation=any_card`` a trail of this hand says no
    playable card of it captured; under ``forbid_ace_first_play`` an Ace as the deal's first play
    says the hand held only Aces. Read by replaying this deal from its rebuilt start; only the
    table, the seats and the actions are read from the replay, and they are public."""
    o, n = state._o, state.game.num_players
    out: list[set[int]] = [set() for _ in range(n)]
    if o["capture_obligation"] != "any_card" and not o["forbid_ace_first_play"] and not o["tuzzoli"]:
        return out
    rebuilt = rebuilt_deal(state)
    if rebuilt is None:
        return out
    st, i0 = rebuilt
    per_round = max(len(turn_order(state)) * deal_shape(state)[1], 1)
    this_round = plays_this_deal(state) // per_round * per_round
    j = 0
    turn = None
    mark = 0  # where this hand's declarations begin (the deal's first hand: at 0)
    for a in state._history[i0:]:
        # A declined knock is no one's to see: the replay declines for itself wherever its hands
        # qualify, and skips the history's own, so that nothing hidden steers it.
        if a == NO_KNOCK:
            continue
        if a != KNOCK:
            while NO_KNOCK in st.legal_actions():
                st._history.append(NO_KNOCK)
                st._apply(NO_KNOCK)
        before, stock = len(st._decls), len(st._stock)
        if a < TAKE0:
            seat, c = st._to_move, a
            if seat != p and j >= this_round:
                first = st._is_first_play()
                if first and o["forbid_ace_first_play"] and _rank(c) == 1:
                    out[seat] |= {x for x in pool if _rank(x) != 1}
                captures: set[int] = set()
                # docs/rules/escoba.md §2.1: with ace_may_trail an Ace trails whatever the hand holds
                free = o["ace_may_trail"] and o["ace_takes_all"] and _val(c, st._matta()) == 1
                if o["capture_obligation"] == "any_card" and not free:
                    # Aces were unplayable when the first play was no Ace (the played card says so:
                    # the hand itself is hidden)
                    exempt = o["forbid_ace_first_play"] and first and _rank(c) != 1
                    captures = {x for x in pool if not (exempt and _rank(x) == 1) and has_capture(st, x)}
                turn = (seat, c, captures)
        j += card_of(a) is not None
        st._history.append(a)
        st._apply(a)
        if len(st._stock) != stock:
            mark = before
        if turn is not None and st._pending == -1:
            seat, c, captures = turn
            if c in st._table:
                out[seat] |= captures
            turn = None
    # docs/rules/escoba.md §2.8: buongioco and napoli are three cards of A, 2, 3
    for seat, kind, _ in st._decls[mark:]:
        if seat != p and kind in (3, 4):
            out[seat] |= {x for x in pool if _rank(x) > 3}
    return out


def resample_into(state: Any, p: int, seed: int, out: Any) -> None:
    """``out`` (a clone of ``state``) becomes a state in ``p``'s information set drawn with ``seed``."""
    rng = SplitMix64(seed)
    if not state._terminal:
        place_hidden(state, p, rng, out)
    out._rng = SplitMix64(rng.next())


def place_hidden(state: Any, p: int, rng: SplitMix64, out: Any) -> None:
    g = state.game
    n = g.num_players
    fid = state._o["fidasse"]
    slots = n + 2 + n if fid else n + 1
    caps = [0] * slots
    cards: list[int] = []
    for s in range(n):
        if s != p and not state._shown(s):
            caps[s] = len(state._hands[s])
            cards += list(state._hands[s])
    caps[n] = len(state._stock)
    cards += state._stock
    is_open = state._claim != -1 and state._claimant != p
    if fid:
        caps[n + 1] = int(is_open)
        if is_open:
            cards.append(state._claim)
        for s in range(n):
            if s != p:
                caps[n + 2 + s] = len(state._claimed[s])
                cards += list(state._claimed[s])
    cards.sort()
    every = sum(1 << i for i, c in enumerate(caps) if c > 0)
    forbid = revealed(state, p, set(cards))
    allowed = [every & ~sum(1 << s for s in range(n) if c in forbid[s]) for c in cards]
    # with declarations or builds a play may reveal more than card masks say: a draw that does not
    # replay the deal to the same view is drawn again
    check = state._o["tuzzoli"] or state._o["builds"]
    for _ in range(MAX_TRIES):
        out._copy_from(state)
        placed = place(cards, allowed, caps, rng)
        if placed is None:
            return
        for s in range(n):
            if caps[s]:
                out._hands[s] = g.bag(placed[s])
        out._stock = list(placed[n])
        if fid:
            rewrite_claims(state, p, placed[n + 1 :], out)
        if g.knocks:
            rewrite_knocks(state, p, out)
        if not check or replays_to(out, state, p):
            return


def replays_to(state: Any, seen: Any, p: int) -> bool:
    """Whether this deal, rebuilt from ``state``'s cards, replays legally to ``seen``'s view of ``p``."""
    rebuilt = rebuilt_deal(state)
    if rebuilt is None:
        return True
    st, i0 = rebuilt
    for a in state._history[i0:]:
        if a not in st.legal_actions():
            return False
        st._history.append(a)
        st._apply(a)
    st._scores = list(state._scores)
    return st._view(p) == seen._view(p)


def rewrite_claims(state: Any, p: int, drawn: list[list[int]], out: Any) -> None:
    """The other seats' face-down claims take the drawn cards, in the order of their ``CLAIM``s this
    deal (the last ``CLAIM`` of each hidden card, docs/escoba_engine.md §10)."""
    h = state._history
    n = state.game.num_players

    def last_claim(c: int) -> int | None:
        hits = [i for i, a in enumerate(h) if a == CLAIM0 + c]
        return hits[-1] if hits else None

    if drawn[0]:
        c = drawn[0][0]
        i = last_claim(state._claim)
        if i is not None:
            out._history[i] = CLAIM0 + c
        out._claim = c
    others = [s for s in range(n) if s != p]
    for s in others:
        out._piles[state.game.side_of(s)] -= state._claimed[s]
        out._claimed[s] = set()
    for s in others:
        idx = sorted(i for c in state._claimed[s] if (i := last_claim(c)) is not None)
        side = state.game.side_of(s)
        for i, c in zip(idx, drawn[1 + s]):
            out._history[i] = CLAIM0 + c
            out._claimed[s].add(c)
            out._piles[side].add(c)


def rewrite_knocks(state: Any, p: int, out: Any) -> None:
    """Knocks (docs/rules/escoba.md §2.7): a declined knock is no one's to see, so each other seat's
    decision of this hand follows its drawn hand: a seat that has played this hand declined
    (``NO_KNOCK`` before its first play) iff the hand it held then qualifies; a seat yet to play
    is undecided."""
    order = turn_order(state)
    m = max(len(order), 1)
    plays = max(m * deal_shape(state)[1] - sum(len(h) for h in state._hands), 0)
    rs = start_of_plays(state, plays)
    if rs is None:
        return
    played: dict[int, set[int]] = {s: set() for s in range(state.game.num_players)}
    t = 0
    for a in state._history[rs:]:
        c = card_of(a)
        if c is not None:
            played[order[t % m]].add(c)
            t += 1
    decline = dict.fromkeys(range(state.game.num_players), False)
    for q, s in enumerate(order):
        if s == p or state._knock_state[s] == KNOCKED:
            continue
        hand = played[s] | set(out._hands[s])
        decline[s] = q < t and len(hand) == 3 and _knock_best(hand, state._o)[0] != 0
        out._knock_state[s] = DECLINED if decline[s] else UNDECIDED
    history = out._history[:rs]
    t = 0
    for a in state._history[rs:]:
        if a == NO_KNOCK and order[t % m] != p and t < m:
            continue
        if card_of(a) is not None:
            if t < m and decline[order[t % m]]:
                history.append(NO_KNOCK)
            t += 1
        history.append(a)
    out._history = history
