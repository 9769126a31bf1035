"""La Mosca: the current deal rebuilt from a (resampled) reference state, for the consistency
proof of resampling (docs/mosca_engine.md §12).

``rebuild_deal(state)`` gives a state the deal passed through and the deal's actions since, so that
replaying them must be legal at every step and reach the same views: the deal's start (right after
the ante, the deal and the mosca check) when its discards were never reshuffled; else the turn at
which the talon was last rebuilt, reached from the deal's start by ``replay_deal``, which plays the
whole deal and sets each rebuilt talon to the order the state implies (the engine's own reshuffle
draws from the stream, which a resampled state replaces) after checking it holds exactly the
discards the engine reshuffled.

Each exchange's drawn cards are found from the state alone: after a reshuffle, the cards of the
seat's hand (played cards and the turn-up discard back in) that the previous epoch's seats
discarded; from the first talon, the subset (tried in order) that gives a dealt hand fitting the
mask in the history. The talon of each epoch is then the cards drawn in it, seat after seat in
declaration order, on top of what is left of it.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

from tapete.reference.mosca import MoscaState, _is_mosca, _mosca_winners, _winning_index
from tapete.reference.mosca_resample import PLAY0, TAKE0, DealLog

__all__ = ["rebuild_deal", "replay_deal"]


def _dealt_hand(
    after: set[int], discards: set[int], mask: int, drawn_from: set[int] | None
) -> tuple[set[int], list[int]]:
    """The dealt hand and the cards drawn that fit an exchange of ``discards`` by ``mask``: the
    drawn cards are ``after & drawn_from`` when given, else a subset of ``after`` tried in order."""
    k = len(discards)
    options = (
        [tuple(sorted(after & drawn_from))] if drawn_from is not None else itertools.combinations(sorted(after), k)
    )
    for drawn in options:
        assert len(drawn) == k, f"{len(drawn)} cards drawn for {k} exchanged"
        dealt = (after - set(drawn)) | discards
        if not _is_mosca(dealt) and {c for i, c in enumerate(sorted(dealt)) if mask >> i & 1} == discards:
            return dealt, list(drawn)
    raise AssertionError(f"no dealt hand fits the exchange mask {mask} of {sorted(discards)}")


def _plan(x: MoscaState) -> tuple[dict[str, Any], list[int], dict[int, list[int]], list[int]]:
    """The deal's start (a state JSON object), its actions, the talon of each epoch from the first
    rebuilt one, and the history index at which each rebuilt talon appears."""
    assert x._phase != "end", "a finished match has no deal to rebuild"
    log = DealLog(x)
    history = x._history
    n = x.game.num_players
    dealer, turnup = x._dealer, x._turnup
    # who played which card, from the tricks
    played_by: dict[int, set[int]] = {s: set() for s in log.order}
    active = [s for s in log.order if x._declarations[s] == 1]
    lead, trick = 0, list[int]()
    for c in history[log.tricks_at :]:
        played_by[active[(lead + len(trick)) % len(active)]].add(c)
        trick.append(c)
        if len(trick) == len(active):
            lead = (lead + _winning_index(trick, x._trump, x._o["ace_rank"])) % len(active)
            trick = []
    # the epochs: each seat's turn after how many reshuffles
    reshuffles = x._o["exchange_limit"] == "reshuffle_discards_when_empty"
    talon, pile, e = x.game.deck_size - 5 * len(log.order) - 1, 0, 0
    epoch: dict[int, int] = {}
    rebuilt_at: list[int] = []
    for j, s in enumerate(log.order[: log.declared] + ([-1] if x._phase == "declare" else [])):
        if reshuffles and talon == 0 and pile > 0:
            e, talon, pile = e + 1, pile, 0
            rebuilt_at.append(log.start + j)
        if s >= 0:
            epoch[s] = e
            talon, pile = talon - x._exchanged[s], pile + x._exchanged[s]
    assert talon == len(x._talon) and pile == len(x._discard_pile)
    last = e
    own_discards = {s: set(x._discarded[s]) - ({x._turnup_discard} if s == dealer else set()) for s in range(n)}
    records = {
        ep: set().union(*(own_discards[s] for s in epoch if epoch[s] == ep and x._exchanged[s]))
        for ep in range(last + 1)
    }
    hands: dict[int, set[int]] = {}
    drawn_in: dict[int, list[int]] = {ep: [] for ep in range(last + 1)}
    for j, s in enumerate(log.order):
        after = set(x._hands[s]) | played_by[s]
        if s == dealer and x._turnup_taken:
            after.discard(turnup)
            after.add(x._turnup_discard)
        if j < log.declared and x._exchanged[s]:
            mask = history[log.start + j] - PLAY0
            source = records[epoch[s] - 1] if epoch[s] >= 1 else None
            hands[s], drawn = _dealt_hand(after, own_discards[s], mask, source)
            drawn_in[epoch[s]] += drawn
        else:
            hands[s] = after
    if log.turnup_at is not None and x._turnup_taken:
        after = (set(x._hands[dealer]) | played_by[dealer]) - {turnup} | {x._turnup_discard}
        assert sorted(after)[history[log.turnup_at] - TAKE0] == x._turnup_discard, "turn-up slot"
    assert not _mosca_winners([hands.get(s, set()) for s in range(n)], log.order, x._trump, x._o)
    talons = {ep: drawn_in[ep] + (list(x._talon) if ep == last else []) for ep in range(last + 1)}
    for ep in range(1, last + 1):
        assert set(talons[ep]) == records[ep - 1], f"the talon rebuilt at reshuffle {ep} is the discards before it"
    start = json.loads(x.to_json())
    start.update(
        hands=[sorted(hands.get(s, set())) for s in range(n)],
        talon=talons[0],
        discard_pile=[],
        discarded=[[] for _ in range(n)],
        declarations=[-1] * n,
        exchanged=[0] * n,
        turnup_taken=False,
        turnup_discard=-1,
        played=[],
        trick=[],
        trick_number=0,
        leader=-1,
        tricks_won=[0] * n,
        phase="declare",
        to_move=log.order[0],
        terminal=False,
        history=history[: log.start],
    )
    return start, list(history[log.start :]), {ep: talons[ep] for ep in range(1, last + 1)}, rebuilt_at


def _set_talon(state: MoscaState, talon: list[int]) -> MoscaState:
    """``state`` with its talon (just rebuilt by a reshuffle) in the order ``talon``, after checking
    it holds the same cards."""
    assert sorted(state._talon) == sorted(talon), "the engine reshuffled other cards"
    d = json.loads(state.to_json())
    d["talon"] = talon
    return state.game.state_from_json(json.dumps(d))


def replay_deal(state: MoscaState, until: int | None = None) -> MoscaState:
    """The current deal of ``state`` played again from its rebuilt start, every action checked
    legal, each rebuilt talon set to the order ``state`` implies; stops before history index
    ``until`` when given."""
    start, actions, talons, rebuilt_at = _plan(state)
    s: Any = state.game.state_from_json(json.dumps(start))
    first = len(start["history"])
    for i, a in enumerate(actions, first):
        if i in rebuilt_at:
            s = _set_talon(s, talons[rebuilt_at.index(i) + 1])
        if until is not None and i == until:
            return s
        assert a in s.legal_actions(), f"action {a} at {i} is not legal in the rebuilt deal"
        s.apply(a)
    if len(start["history"]) + len(actions) in rebuilt_at:  # the actor's turn began with one
        s = _set_talon(s, talons[len(rebuilt_at)])
    return s


def rebuild_deal(state: MoscaState) -> tuple[MoscaState, list[int]]:
    """A state ``state``'s current deal passed through and the actions since (see the module's
    text): its start, or the turn at which its talon was last rebuilt."""
    start, actions, _, rebuilt_at = _plan(state)
    if not rebuilt_at:
        return state.game.state_from_json(json.dumps(start)), actions
    at = rebuilt_at[-1]
    s = replay_deal(state, until=at) if at < len(state._history) else replay_deal(state)
    return s, list(state._history[at:])
