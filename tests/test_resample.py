"""``state.resample(p, seed)`` for every registered game, its option sets and both engines
(docs/design.md §10), written once:

* it reads nothing hidden: paired states (same view of p; other hidden cards, RNG state) built
  independently of the resampler (``tests/games/<game>.py``'s ``paired_state``) give
  byte-identical resamples for the same seed;
* it stays in p's information set: the same view and observation of p, a state the engine's own
  JSON reader accepts, and other seeds place the hidden cards differently;
* it is consistent with the past: the current deal, rebuilt from the resample's hidden cards by
  ``tests/resample_support/<game>.py`` and replayed, reaches the same view of p;
* the native and reference engines draw byte-identical resamples;
* a bad seat or seed raises a typed error and leaves the state as it was.

Uniformity over enumerable positions and each game's own inferences are in
``tests/test_resample_<game>.py``; the sampler itself in ``tests/test_resample_sampler.py``.
"""

from __future__ import annotations

import importlib
import json
import random
from typing import Any

import pytest

from games import assert_same_sight
from resample_support.proofs import replayed
from tapete import errors
from tapete.registry import GAMES
from test_games import MORE_CASES, ids, make

STATES = 6


@pytest.fixture(params=MORE_CASES, ids=ids(MORE_CASES))
def more_case(request: pytest.FixtureRequest, engine: Any) -> tuple[Any, Any, str]:
    return make(request, engine)


def positions(game: Any, tag: str, count: int = STATES) -> list[Any]:
    """Mid-match states from random play (some of them a deal or two in), never terminal: the last
    state before the end when the match ends first."""
    rng = random.Random(f"resample/{tag}/{game}")
    found = []
    for _ in range(count):
        state = game.new_state(seed=rng.randrange(2**64))
        for _ in range(rng.randrange(150)):
            ahead = state.clone()
            ahead.apply(rng.choice(state.legal_actions()))
            if ahead.is_terminal():
                break
            state = ahead
        found.append(state)
    return found


def reachable(game: Any, state: Any) -> bool:
    """Whether ``state``'s current deal, rebuilt by ``tests/resample_support/<game>.py``, replays
    its actions legally: a genuine member of an information set, not only a state with the same
    view (renaming hidden cards can give a hand that a past play says it never held)."""
    support = importlib.import_module(f"resample_support.{game.name}")
    reference = GAMES[game.name].reference(**game.options)
    try:
        start, actions = support.rebuild_deal(reference.state_from_json(state.to_json()))
    except (AssertionError, errors.TapeteError):  # no deal the helper rebuilds explains the state
        return False
    for action in actions:
        if action not in start.legal_actions():
            return False
        start.apply(action)
    return True


def test_resample_reads_nothing_hidden(more_case: tuple[Any, Any, str]) -> None:
    """Pairs built two ways: the game's own ``paired_state`` (hidden cards renamed, a fresh RNG),
    kept when the renamed deal still replays legally, and another resample of the state."""
    game, own, _ = more_case
    rng = random.Random(f"resample-pair/{game}")
    compared = 0
    for state in positions(game, "pair"):
        doc = json.loads(state.to_json())
        for seat in range(game.num_players):
            pairs = [state.resample(seat, rng.randrange(2**64))]
            made = own.paired_state(game, doc, seat, rng)
            if made is not None and reachable(game, made[1]):
                pairs.append(made[1])
            for other in pairs:
                assert_same_sight(other, state, seat)
                seed = rng.randrange(2**64)
                assert other.resample(seat, seed).to_json() == state.resample(seat, seed).to_json()
                compared += 1
    assert compared > 0


def test_resample_stays_in_the_information_set(more_case: tuple[Any, Any, str]) -> None:
    game, _, _ = more_case
    moved = 0
    for state in positions(game, "set"):
        for seat in range(game.num_players):
            draws = {state.resample(seat, seed).to_json() for seed in range(4)}
            for text in draws:
                again = game.state_from_json(text)
                assert again.to_json() == text
                assert_same_sight(again, state, seat)
                assert again.current_player() == state.current_player()
                if state.current_player() == seat:
                    assert again.legal_actions() == state.legal_actions()
            moved += len(draws) > 1
    # Not vacuous: somewhere the hidden cards (or the RNG state) do move.
    assert moved > 0


def test_resample_is_consistent_with_the_past(more_case: tuple[Any, Any, str]) -> None:
    game, _, _ = more_case
    support = importlib.import_module(f"resample_support.{game.name}")
    reference = GAMES[game.name].reference(**game.options)
    rng = random.Random(f"resample-past/{game}")
    for state in positions(game, "past", 4):
        for seat in range(game.num_players):
            resampled = state.resample(seat, rng.randrange(2**64))
            # the deal is rebuilt on the reference engine (the helpers read its fields)
            rebuilt = support.rebuild_deal(reference.state_from_json(resampled.to_json()))
            assert replayed(rebuilt).view(seat) == state.view(seat)


def test_native_and_reference_resample_alike(more_case: tuple[Any, Any, str]) -> None:
    game, _, engine = more_case
    if engine != "native":
        pytest.skip("compared from the native side")
    reference = GAMES[game.name].reference(**game.options)
    rng = random.Random(f"resample-diff/{game}")
    for state in positions(game, "diff"):
        twin = reference.state_from_json(state.to_json())
        for seat in range(game.num_players):
            seed = rng.randrange(2**64)
            assert twin.resample(seat, seed).to_json() == state.resample(seat, seed).to_json()


def test_bad_resample_arguments_are_refused(more_case: tuple[Any, Any, str]) -> None:
    game, _, _ = more_case
    state = positions(game, "bad", 1)[0]
    before = state.to_json()
    for player in (-1, game.num_players, "0", 1.5, None):
        with pytest.raises(errors.InvalidPlayerError):
            state.resample(player, 0)
    for seed in (-1, 2**64, "7", 2.0, None):
        with pytest.raises(errors.TapeteError):
            state.resample(0, seed)
    assert state.to_json() == before


@pytest.mark.parametrize("name", list(GAMES))
def test_resample_of_a_finished_match_keeps_its_result(name: str, engine: Any) -> None:
    info = GAMES[name]
    cls = info.native if engine.name == "native" else info.reference
    game = cls(**info.option_sets[0])
    rng = random.Random(f"resample-end/{name}")
    state = game.new_state(seed=1)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    for seat in range(game.num_players):
        again = state.resample(seat, 5)
        assert again.is_terminal() and again.returns() == state.returns()
        assert again.view(seat) == state.view(seat)
