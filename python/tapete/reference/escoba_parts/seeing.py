"""What the state shows (docs/escoba_engine.md §8, §10): its canonical JSON object, the view of a seat,
the observation tensor and the text for people."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import numpy as np

from ...cards import card_str
from .captures import PILE0, _build_value, _item_str
from .cards import _slot
from .scoring import _decl

if TYPE_CHECKING:
    from ..escoba import EscobaState

# -- serialisation -------------------------------------------------------------------------


def as_dict(state: EscobaState) -> dict[str, Any]:
    return {
        "deal": state._deal,
        "deal_points": [list(p) for p in state._deal_points],
        "dealer": state._dealer,
        "game": "escoba",
        "hands": [sorted(h) for h in state._hands],
        "history": list(state._history),
        "last_capturer": state._last_capturer,
        "loser": state._loser,
        "options": state._o,
        "pending": state._pending,
        "piles": [sorted(p) for p in state._piles],
        "rng": str(state._rng.state),
        "scores": list(state._scores),
        "selection": list(state._selection),
        "stock": list(state._stock),
        "sweeps": list(state._sweeps),
        "table": sorted(state._table),
        "terminal": state._terminal,
        "to_move": state._to_move,
        "version": 1,
        "winner": state._winner,
        **({"declarations": [list(d) for d in state._decls]} if state._o["tuzzoli"] or state.game.knocks else {}),
        **({"knock_state": list(state._knock_state)} if state.game.knocks else {}),
        **({"matta_value": state._matta_value} if state.game.matta is not None else {}),
        **({"ks_sweeps": list(state._ks_sweeps)} if state._o["maresciallo_penalty"] else {}),
        **({"twin_sweeps": list(state._twin_sweeps)} if state.game.twins else {}),
        **({"builds": [list(b) for b in state._builds]} if state._o["builds"] else {}),
        **({"in_play": sum(1 << t for t in state._in_play)} if state.game.eliminate else {}),
        **({"pile_tops": list(state._tops)} if state._o["steal"] else {}),
        **({"sweep_streak": list(state._streak)} if state._o["max_consecutive_sweeps"] is not None else {}),
        **(
            {"claim": state._claim, "claimant": state._claimant, "claimed": [sorted(c) for c in state._claimed]}
            if state._o["fidasse"]
            else {}
        ),
    }


# -- what a seat sees (docs/escoba_engine.md §10) -------------------------------------------------------


def scope(state: EscobaState) -> list[int]:
    return [state._sweeps.count(s) for s in range(state.game.num_sides)]


def view(state: EscobaState, seat: int) -> dict[str, Any]:
    """What ``seat`` may see (docs/escoba_engine.md §10)."""
    p = seat

    def text(cards: Iterable[int]) -> list[str]:
        return [card_str(c) for c in sorted(cards)]

    hidden = state._hidden_from(p)

    def pile_text(pile: set[int]) -> list[str]:  # a hidden claim card is a face-down "??"
        return text(pile - hidden) + ["??"] * len(pile & hidden)

    return {
        "player": p,
        "current_player": state._rules_current_player(),
        "dealer": state._dealer,
        "deal": state._deal,
        "hand": text(state._hands[p]),
        "hand_sizes": [len(h) for h in state._hands],
        "table": text(state._table),
        "piles": [pile_text(pile) for pile in state._piles],
        # docs/rules/escoba.md §2.21: the top card of every pile is public
        **({"pile_tops": [card_str(t) if t != -1 else None for t in state._tops]} if state._o["steal"] else {}),
        "scope": state._scope(),
        "stock_size": len(state._stock),
        "pending": card_str(state._pending) if state._pending != -1 else None,
        "selection": [_item_str(x) for x in state._selection],
        "scores": list(state._scores),
        "deal_points": [list(x) for x in state._deal_points],
        "last_capturer": state._last_capturer,
        "terminal": state._terminal,
        "winner": state._winner,
        "loser": state._loser,
        # tuzzoli are announced, not shown (docs/rules/escoba.md §2.8): the seat, the kind and its points
        **(
            {
                "declarations": [
                    {"seat": seat, "declaration": _decl(kind, state._o)[0], "points": _decl(kind, state._o)[1]}
                    for seat, kind, _ in state._decls
                ]
            }
            if state._o["tuzzoli"] or state.game.knocks
            else {}
        ),
        # a knocked hand (docs/rules/escoba.md §2.7), an open last hand (docs/rules/escoba.md §2.23):
        # played face up
        **({"shown": [text(state._shown(s)) for s in range(state.game.num_players)]} if state.game.show else {}),
        **({"matta_value": state._matta_value} if state.game.matta is not None else {}),
        **(
            {
                "ks_sweeps": [
                    sum(1 for i in state._ks_sweeps if state._sweeps[i] == s) for s in range(state.game.num_sides)
                ]
            }
            if state._o["maresciallo_penalty"]
            else {}
        ),
        **(
            {
                "twin_sweeps": [
                    sum(1 for i in state._twin_sweeps if state._sweeps[i] == s) for s in range(state.game.num_sides)
                ]
            }
            if state.game.twins
            else {}
        ),
        # builds are public (docs/rules/escoba.md §2.20)
        **(
            {"builds": [{"cards": text(b), "value": _build_value(b)} for b in state._builds]}
            if state._o["builds"]
            else {}
        ),
        **({"in_play": sorted(state._in_play)} if state.game.eliminate else {}),
        # docs/rules/escoba.md §1.5: each side's run of sweeps is public
        **({"sweep_streak": list(state._streak)} if state._o["max_consecutive_sweeps"] is not None else {}),
        **(state._fidasse_view(hidden) if state._o["fidasse"] else {}),
    }


def observation(state: EscobaState, seat: int) -> np.ndarray:
    """What ``seat`` may see as floats (docs/escoba_engine.md §10): the blocks every game has, then each
    option's block in a fixed order."""
    p = seat
    n, S = state.game.num_players, state.game.num_sides
    C = state.game.slots  # one slot per card id of the pack
    obs = np.zeros(state.game.observation_shape, dtype=np.float32)

    def cards_at(offset: int, cards: Iterable[int]) -> None:
        for c in cards:  # a slot counts the copies (1 but with the double pack)
            obs[offset + _slot(c, C)] += 1.0

    cards_at(0, state._hands[p])
    cards_at(C, state._table)
    hidden = state._hidden_from(p)
    for s in range(S):
        cards_at(2 * C + C * s, state._piles[s] - hidden)
    base = 2 * C + C * S
    obs[base : base + S] = state._scope()
    obs[base + S] = len(state._stock)
    if state._pending != -1:
        cards_at(base + S + 1, [state._pending])
    if state._claim != -1 and state._claimant == p:  # the claimant knows its card
        cards_at(base + S + 1, [state._claim])
    cards_at(base + S + 1 + C, [x for x in state._selection if x < PILE0])
    base += S + 1 + 2 * C
    obs[base + p] = 1.0
    obs[base + n + state._dealer] = 1.0
    if not state._terminal:
        obs[base + 2 * n + state._to_move] = 1.0
    obs[base + 3 * n : base + 4 * n] = [len(h) for h in state._hands]
    obs[base + 4 * n : base + 4 * n + S] = state._scores
    base += 4 * n + S
    if state._o["tuzzoli"] or state.game.knocks:
        for seat, kind, _ in state._decls:
            obs[base + state.game.side_of(seat)] += _decl(kind, state._o)[1]
        base += S
    if state.game.eliminate:
        for t in state._in_play:
            obs[base + t] = 1.0
        base += n
    if state.game.show:
        for seat in range(n):
            cards_at(base + C * seat, state._shown(seat))
        obs[base + C * n] = state._matta_value
        base += C * n + 1
    if state._o["steal"]:  # docs/rules/escoba.md §2.21: every pile top is public; then the piles selected
        for s, top in enumerate(state._tops):
            if top != -1:
                obs[base + C * s + _slot(top, C)] = 1.0
        for x in state._selection:
            if x >= PILE0:
                obs[base + C * S + x - PILE0] = 1.0
        base += (C + 1) * S
    if state._o["maresciallo_penalty"]:
        for i in state._ks_sweeps:
            obs[base + state._sweeps[i]] += 1.0
        base += S
    if state.game.twins:  # the double pack refuses fidasse and builds: this block is the last
        for i in state._twin_sweeps:
            obs[base + state._sweeps[i]] += 1.0
        base += S
    if state._o["fidasse"]:  # face-down cards per side as p sees them, the seat of an open claim
        for s in range(S):
            obs[base + s] = len(state._piles[s] & hidden)
        if state._claim != -1:
            obs[base + S + state._claimant] = 1.0
        base += S + n
    if state._o["builds"]:
        for b in state._builds:  # each card in a build carries the build's value
            for c in b:
                obs[base + _slot(c)] = _build_value(b)
        base += C
    cap = state._o["max_consecutive_sweeps"]
    if cap is not None:  # each side's sweep streak over the cap, at most 1
        obs[base : base + S] = [min(k / cap, 1.0) for k in state._streak]
    return obs


# -- for people ----------------------------------------------------------------------------


def describe(state: EscobaState) -> str:
    g, o = state.game, state._o
    n, S = g.num_players, g.num_sides

    def text(cards: Iterable[int]) -> str:
        return " ".join(card_str(c) for c in sorted(cards)) or "-"

    lines = [f"{g.name} ({o['variant']}), deal {state._deal}, dealer: seat {state._dealer}"]
    for seat in range(n):
        mark = "  <- to move" if seat == state.current_player() else ""
        team = f" (side {g.side_of(seat)})" if g.teams else ""
        lines.append(f"  seat {seat}{team}: {text(state._hands[seat])}{mark}")
    lines.append(f"  table: {text(state._table)}")
    for b in state._builds:
        lines.append(f"  build of {_build_value(b)}: {text(b)}")
    if state._pending != -1:
        lines.append(f"  playing {card_str(state._pending)}, taking so far: {text(state._selection)}")
    lines.append(f"  stock: {len(state._stock)} cards")
    scope = state._scope()
    for s in range(S):
        who = f"side {s}" if g.teams else f"seat {s}"
        lines.append(
            f"  {who}: pile {len(state._piles[s])} cards, {scope[s]} scope, score {state._scores[s]}"
            + (" (last capturer)" if state._last_capturer == s else "")
        )
    if state._terminal:
        if state._winner != -1:
            lines.append(f"  match over: side {state._winner} wins")
        elif state._loser != -1:
            lines.append(f"  match over: side {state._loser} loses")
        else:
            lines.append("  match over: drawn")
    return "\n".join(lines)
