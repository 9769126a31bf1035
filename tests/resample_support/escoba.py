"""Escoba's rebuild of the current deal (docs/escoba_engine.md §12), for the resampling tests: from
a state, the deal's start with the same cards and the deal's actions, so that replaying them shows
the state's hidden cards were dealt and played consistently with everything that was seen.

Written apart from the engines' own rebuild (``escoba_parts/resample.py``): it reads the deal off
the state's JSON, multisets included (the double pack), and plays the actions with the checked
``apply``; of the engine it shares only the action ids' layout (``card_of``) and the deal.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from tapete.reference.escoba import Escoba
from tapete.reference.escoba_parts.cards import card_of
from tapete.reference.escoba_parts.dealing import start_deal

KNOCKS = (217, 218)


def _reference(state: Any) -> Any:
    """The state on the reference engine (a native state goes through its JSON)."""
    if isinstance(getattr(state, "game", None), Escoba):
        return state
    return Escoba(**json.loads(state.to_json())["options"]).state_from_json(state.to_json())


def rebuild_deal(state: Any) -> tuple[Any, list[int]] | None:
    """(the current deal's start, the deal's actions), on the reference engine; None for a state
    whose history does not hold the whole deal (a ``setup`` position) or a finished match."""
    s = _reference(state)
    doc = json.loads(s.to_json())
    if doc["terminal"]:
        return None
    o, n = doc["options"], len(doc["hands"])
    seats = sorted(s._in_play)
    m = len(seats)
    order = [(doc["dealer"] + k) % n for k in range(1, n + 1) if (doc["dealer"] + k) % n in seats]
    itc, cph = (o["initial_table_cards"], o["cards_per_hand"])
    if m < n:
        from tapete.reference.escoba_parts.options import elimination_deal_shape

        itc, cph = elimination_deal_shape(o["elimination_deal"], m)
    size = s.game.size
    held = sum(len(h) for h in doc["hands"])
    plays = max(size - itc - len(doc["stock"]) - held, 0)
    # the deal's actions: back over its plays, and a knock decision that opens the first turn
    h = doc["history"]
    i, left = len(h), plays
    while left:
        if i == 0:
            return None
        i -= 1
        left -= card_of(h[i]) is not None
    while i and h[i - 1] in KNOCKS:
        i -= 1
    if doc["deal"] == 1 and any(card_of(a) is not None for a in h[:i]):
        return None  # a setup position: the deal began before the history
    actions = h[i:]
    per_round = m * cph
    hands: list[list[list[int]]] = [[[] for _ in range(m)] for _ in range(size // per_round + 1)]
    j = 0
    for a in actions:
        c = card_of(a)
        if c is not None:
            hands[j // per_round][j % m].append(c)
            j += 1
    now = j // per_round
    for q, seat in enumerate(order):
        hands[now][q] += doc["hands"][seat]
    deck: list[int] = []

    def deal(r: int) -> None:
        for k in range(cph):
            deck.extend(sorted(hands[r][q])[k] for q in range(m) if k < len(hands[r][q]))

    deal(0)
    used = Counter(c for r in hands for hand in r for c in hand) + Counter(doc["stock"])
    table = sorted((Counter(s.game.pack) - used).elements())
    deck += sorted(table, key=lambda c: (c % 13 in (0, 12), c % 13 == 12, c))  # Kings, Aces last: no void
    for r in range(1, now + 1):
        deal(r)
    deck += doc["stock"]
    assert len(deck) == size
    start = s.clone()
    del start._history[i:]
    start._claim = start._claimant = -1
    start_deal(start, deck)
    # fidasse's lost doubts come off the scores during the deal: start from the scores before them
    trial = start.clone()
    for a in actions:
        trial.apply(a)
    start._scores = [x - (y - x) for x, y in zip(s._scores, trial._scores)]
    return start, actions
