"""Differential test of ``play(text)``: the native engine and the reference take or refuse the same
written moves, with the same error type, and reach the same JSON.

For every preset, positions are dealt and stepped with random legal actions (both engines in
lockstep). At each position the written moves are drawn from the legal outcomes (the canonical
text and other spellings the notation allows: items in another order, other letter case, more
spaces) and from near-misses: a captured set with an item added, removed or swapped for another
table item, the played card swapped for another card of the hand, a card that is not on the table,
the played card's own id named as taken (its twin in the double pack), an item named twice, and
malformed text (docs/escoba_engine.md §4, docs/rules/escoba.md §6.2). A refused move must leave
both states unchanged.

``TAPETE_PLAY_SWEEP=1`` plays more deals, every allowed player count and more moves per position.
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

import tapete
from tapete import reference
from tapete.cards import card_str
from tapete.testing import ESCOBA_PRESETS, escoba_player_counts

SWEEP = os.environ.get("TAPETE_PLAY_SWEEP") == "1"
GAMES = 6 if SWEEP else 1  # dealt matches per preset and player count
MAX_STEPS = 400 if SWEEP else 60  # actions stepped per match
STRIDE = 1 if SWEEP else 3  # written moves are tried at every STRIDE-th position
PER_POSITION = 80 if SWEEP else 24  # written moves tried per position (the legal ones first)

PILE0 = reference.escoba.TAKE_PILE0 - reference.escoba.TAKE0


def _item(x: int) -> str:
    return f"pile{x - PILE0}" if x >= PILE0 else card_str(x)


def _write(card: int, items: list[int] | tuple[int, ...]) -> str:
    return card_str(card) + "".join(" " + w for w in (["x"] if items else []) + [_item(x) for x in items])


def _spellings(rng: random.Random, card: int, items: tuple[int, ...]) -> list[str]:
    """The same capture written otherwise: items in another order, upper case, more spaces."""
    out = []
    if len(items) > 1:
        out.append(_write(card, items[::-1]))
        shuffled = list(items)
        rng.shuffle(shuffled)
        out.append(_write(card, shuffled))
    out.append(_write(card, items).upper())
    out.append("  " + _write(card, items).replace(" ", "  \t") + " ")
    return out


def _written_moves(ref: Any, rng: random.Random) -> tuple[list[str], list[str]]:
    """(the legal moves written out, near-misses), read from the reference state at the start of
    a turn; at any other position (a pending card, a knock or a claim to answer, the end) the
    mover's hand still gives texts, which both engines must refuse alike."""
    seat = ref.current_player()
    if seat < 0:
        return [], ["7d", "Ac x 2c"]
    hand = sorted(set(ref._hands[seat]))
    table = list(ref._table)
    items = sorted(set(table) | {b[0] for b in ref._builds})
    piles = [PILE0 + s for s in range(ref.game.num_sides)] if ref.game.options["steal"] else []
    outside = [c for c in ref.game.pack if c not in set(table) and c not in hand]
    legal: list[str] = []
    near: list[str] = []
    start = ref._pending == -1 and ref._claim == -1 and not ref._knock_turn()
    for card in hand:
        outcomes = ref._outcomes_of(card) if start else {}
        others = [h for h in hand if h != card]
        for o in outcomes:
            if isinstance(o, reference.escoba.BuildOn):
                legal.append(f"{card_str(card)} on {card_str(o.item)}")
                legal.append(f"{card_str(card)} ON {card_str(o.item)}".upper())
                near.append(f"{card_str(card)} on {card_str(rng.choice(outside or hand))}")
                if others:
                    near.append(f"{card_str(rng.choice(others))} on {card_str(o.item)}")
                continue
            taken = () if o in (reference.escoba.TRAIL, reference.escoba.SELF) else tuple(o)
            legal.append(_write(card, taken))
            legal += _spellings(rng, card, taken)
            rest = [x for x in items + piles if x not in taken or table.count(x) > taken.count(x)]
            if rest:
                near.append(_write(card, sorted(taken + (rng.choice(rest),))))
            if taken:
                drop = rng.randrange(len(taken))
                near.append(_write(card, taken[:drop] + taken[drop + 1 :]))
                near.append(_write(card, taken + (taken[drop],)))  # an item named twice
                if rest:
                    near.append(_write(card, sorted(taken[:drop] + taken[drop + 1 :] + (rng.choice(rest),))))
            elif items:
                near.append(_write(card, [rng.choice(items)]))  # a trail written as a capture
            if others:
                near.append(_write(rng.choice(others), taken))
            if outside:
                near.append(_write(card, sorted(taken + (rng.choice(outside),))))
            near.append(_write(card, sorted(taken + (card,))))  # the played card named as taken
        if not outcomes:  # not a start of turn, or a card that may not be played now
            near.append(_write(card, ()))
            if items:
                near.append(_write(card, [rng.choice(items)]))
        if ref.game.options["fidasse"]:
            near.append(f"claim {card_str(card)}")
    if outside:
        near.append(_write(rng.choice(outside), items[:1]))  # a card not in the hand
    if hand:
        near += [f"{card_str(hand[0])} x", f"{card_str(hand[0])} y {card_str(hand[-1])}"]
    near += ["", "x", "11d", "7d on"]
    return legal, near


def _outcome(state: Any, text: str) -> tuple[str | None, str]:
    """play(text) on a clone: (the error type or None, the JSON after)."""
    s = state.clone()
    before = s.to_json()
    try:
        s.play(text)
    except Exception as error:  # the type is what is compared
        after = s.to_json()
        assert after == before, f"a refused play({text!r}) changed the state ({type(error).__name__}: {error})"
        return type(error).__name__, after
    return None, s.to_json()


def _check_position(native: Any, ref: Any, rng: random.Random, where: str) -> int:
    legal, near = _written_moves(ref, rng)
    rng.shuffle(near)
    texts = list(dict.fromkeys(legal + near))[: max(PER_POSITION, len(set(legal)))]
    for text in texts:
        got_native, got_ref = _outcome(native, text), _outcome(ref, text)
        assert got_native[0] == got_ref[0], f"{where}: play({text!r}) error {got_native[0]} (native) vs {got_ref[0]}"
        assert got_native[1] == got_ref[1], f"{where}: play({text!r}) leads to different states"
    return len(texts)


def _players(variant: str) -> tuple[int, ...]:
    counts = escoba_player_counts(variant)
    return counts if SWEEP else counts[:1]


@pytest.mark.parametrize("variant", ESCOBA_PRESETS)
def test_play_text_agrees(variant):
    tried = 0
    for players in _players(variant):
        native_game = tapete.Escoba(variant=variant, players=players)
        ref_game = reference.Escoba(variant=variant, players=players)
        for game in range(GAMES):
            rng = random.Random(f"{variant}/{players}/{game}")
            native, ref = native_game.new_state(seed=game), ref_game.new_state(seed=game)
            for step in range(MAX_STEPS):
                if step % STRIDE == 0 or native.is_terminal():
                    where = f"{variant} players={players} seed={game} history={ref.history()}"
                    tried += _check_position(native, ref, rng, where)
                if native.is_terminal():
                    break
                action = rng.choice(ref.legal_actions())
                native.apply(action)
                ref.apply(action)
    assert tried > 0


def test_play_under_maresciallo_80_checks_the_twin_rule():
    # docs/rules/escoba.md §2.18: 5s may take its twin 5s only by sweeping the whole table, so the
    # twin is no match; 2c + 3c = 5 is the only capture, and "5s x 5s" is refused
    hands = [
        ["5s", "Kc", "Kh", "Qc", "Qh"],
        ["Jc", "Jh", "Js", "Jd", "Qs"],
        ["6c", "6h", "6s", "6d", "7c"],
        ["7h", "7s", "4c", "4h", "4s"],
    ]
    states = [
        engine.Escoba(variant="maresciallo_80").setup(hands=hands, table=["5s", "2c", "3c"], dealer=3, to_move=0)
        for engine in (tapete, reference)
    ]
    for text in ("5s x 2c 3c", "5s x 3c 2c", "5s x 5s", "5s x 5s 2c 3c", "5s"):
        native, ref = (_outcome(s, text) for s in states)
        assert native == ref, text
    assert _outcome(states[1], "5s x 2c 3c")[0] is None
    assert _outcome(states[1], "5s x 5s")[0] == "IllegalActionError"
