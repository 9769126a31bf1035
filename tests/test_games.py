"""The tests every game passes, written once (OpenSpiel's RandomSimTest; docs/design.md §7): for
every registered game, its main option sets and both engines, through the public API.

* the API contract over random playouts: legal actions sorted and non-empty until the end, the
  legal mask, notation round trips, every sampled legal action applies to a clone, returns only
  at the end, views and observations of every seat, the game's own conservation invariants;
* the bad-input table: each bad input raises its typed error and leaves the state unchanged;
* JSON, pickle and copy round trips, ``key()``, clone independence, game strings;
* no leaks: paired states with the same view of seat p and different hidden cards and RNG state
  give seat p the same view and observation.

What only one game has lives in ``tests/games/<game>.py`` (``view_keys(options)``,
``own_invariants(game, state, doc)``, ``paired_state(game, doc, seat, rng)``: its hidden cards
and RNG state dealt again) and in its own rules and differential tests. The
native bulk sweep of thousands of playouts per option set runs in Rust
(``rust/tapete-core/tests/<game>_playouts.rs``, on ``tapete_core::testing::random_sim_test``).
"""

from __future__ import annotations

import copy
import importlib
import json
import os
import pickle
import random
from typing import Any

import numpy as np
import pytest

from tapete.errors import (
    IllegalActionError,
    InvalidNotationError,
    InvalidOptionError,
    InvalidPlayerError,
    InvalidStateError,
    TapeteError,
)
from tapete.registry import GAMES

PLAYOUTS = {
    "native": int(os.environ.get("TAPETE_API_GAMES", "8")),
    "reference": int(os.environ.get("TAPETE_API_GAMES_REF", "2")),
}
CASES = [(name, options) for name, info in GAMES.items() for options in info.option_sets]
IDS = [f"{name}-{json.dumps(options, sort_keys=True, separators=(',', ':'))}" for name, options in CASES]


def support(name: str) -> Any:
    """The game's module in tests/games/."""
    return importlib.import_module(f"games.{name}")


@pytest.fixture(params=CASES, ids=IDS)
def case(request: pytest.FixtureRequest, engine: Any) -> tuple[Any, Any, str]:
    """(game, its tests/games module, engine name) for one game, option set and engine."""
    name, options = request.param
    info = GAMES[name]
    cls = info.native if engine.name == "native" else info.reference
    return cls(**options), support(name), engine.name


def walk(game: Any, seed: int, rng: random.Random, max_steps: int = 400) -> Any:
    """A state after a random number of random actions from a seeded deal."""
    state = game.new_state(seed=seed)
    for _ in range(rng.randrange(max_steps)):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def canonical(doc: Any) -> str:
    return json.dumps(doc, sort_keys=True, separators=(",", ":"))


# -- the API contract over random playouts -------------------------------------------------------


def check_position(game: Any, own: Any, state: Any, rng: random.Random) -> None:
    text = state.to_json()
    doc = json.loads(text)
    own.own_invariants(game, state, doc)
    n, num = game.num_players, game.num_distinct_actions
    legal = state.legal_actions()
    mask = state.legal_mask()
    assert mask.dtype == np.bool_ and mask.shape == (num,)
    assert list(np.flatnonzero(mask)) == legal
    assert len(state.scores()) == n and len(state.returns()) == n
    for seat in range(n):
        view = state.view(seat)
        assert set(view) == own.view_keys(game.options)
        json.dumps(view)  # JSON-ready
        obs = state.observation(seat)
        assert obs.dtype == np.float32 and obs.shape == game.observation_shape and np.isfinite(obs).all()
    if state.is_terminal():
        assert legal == [] and state.current_player() == -1
        assert abs(sum(state.returns())) < 1e-9, "returns are zero-sum"
        return
    assert legal and legal == sorted(set(legal)) and 0 <= legal[0] and legal[-1] < num
    assert 0 <= state.current_player() < n
    assert all(r == 0 for r in state.returns()), "returns are 0 until the end"
    for action in legal:
        assert state.string_to_action(state.action_to_string(action)) == action
    for action in rng.sample(legal, min(3, len(legal))):
        child = state.clone()
        child.apply(action)
        assert child.history() == state.history() + [action]
        assert state.to_json() == text, "applying to a clone changed the original"


def test_random_playouts_keep_the_api_contract(case: tuple[Any, Any, str]) -> None:
    game, own, engine = case
    rng = random.Random(f"playouts/{game}")
    for _ in range(PLAYOUTS[engine]):
        state = game.new_state(seed=rng.randrange(2**64))
        deals = state.deals()
        for step in range(100_000):
            check_position(game, own, state, rng) if step % 4 == 0 or state.is_terminal() else None
            assert state.deals() >= deals
            deals = state.deals()
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        else:
            pytest.fail(f"{game}: no end after 100,000 actions")


def test_same_seed_same_game(case: tuple[Any, Any, str]) -> None:
    game, _, _ = case
    a, b, c = game.new_state(seed=11), game.new_state(seed=11), game.new_state(seed=12)
    assert a.to_json() == b.to_json() and a == b
    assert a.to_json() != c.to_json()


# -- bad input -----------------------------------------------------------------------------------


def bad_state_calls(state: Any, game: Any) -> list[tuple[str, Any, type[TapeteError]]]:
    """(method, argument, the error it must raise) for a non-terminal state."""
    n, num = game.num_players, game.num_distinct_actions
    legal = set(state.legal_actions())
    illegal = next(a for a in range(num) if a not in legal)
    calls: list[tuple[str, Any, type[TapeteError]]] = [
        ("apply", illegal, IllegalActionError),
        ("apply", "xyzzy", InvalidNotationError),
        ("string_to_action", "xyzzy", InvalidNotationError),
        ("string_to_action", 5, InvalidNotationError),
        ("play", 5, InvalidNotationError),
        ("action_to_string", num, IllegalActionError),
        ("action_to_string", -1, IllegalActionError),
    ]
    for action in (-1, num, 2**64, -(2**70), True, None, 1.5, [1], b"7d"):
        calls.append(("apply", action, IllegalActionError))
    for seat in (-1, n, 99, "0", 1.0, None, True):
        calls.append(("view", seat, InvalidPlayerError))
        calls.append(("observation", seat, InvalidPlayerError))
    return calls


def test_bad_input_raises_its_typed_error_and_changes_nothing(case: tuple[Any, Any, str]) -> None:
    game, _, _ = case
    state = walk(game, 3, random.Random(f"bad/{game}"), 30)
    if state.is_terminal():
        state = game.new_state(seed=3)
    before = state.to_json()
    for method, argument, error in bad_state_calls(state, game):
        with pytest.raises(error):
            getattr(state, method)(argument)
        assert state.to_json() == before, f"{method}({argument!r}) changed the state"


@pytest.mark.parametrize(
    "text", ["{", "[]", "5", '"x"', "{}", "null", 5, None, ["{}"], "x" * 100_000], ids=lambda t: repr(t)[:20]
)
def test_bad_state_json_is_invalid_state(case: tuple[Any, Any, str], text: Any) -> None:
    game, _, _ = case
    with pytest.raises(InvalidStateError):
        game.state_from_json(text)


def test_tampered_state_json_is_refused(case: tuple[Any, Any, str]) -> None:
    """Each key removed, an unknown key added, a wrong game, version or options."""
    game, _, _ = case
    doc = json.loads(game.new_state(seed=5).to_json())
    tampered = [{k: v for k, v in doc.items() if k != key} for key in doc]
    tampered += [{**doc, "extra": 1}, {**doc, "game": "chess"}, {**doc, "version": 2}, {**doc, "version": True}]
    tampered += [{**doc, "options": {**doc["options"], "players": doc["options"]["players"] + 1}}]
    for bad in tampered:
        with pytest.raises(InvalidStateError):
            game.state_from_json(canonical(bad))


@pytest.mark.parametrize("seed", [-1, 2**64, "1", 1.5, True, None, [1]], ids=repr)
def test_bad_seeds_are_invalid_state(case: tuple[Any, Any, str], seed: Any) -> None:
    game, _, _ = case
    with pytest.raises(InvalidStateError):
        game.new_state(seed=seed)


@pytest.mark.parametrize(
    "options",
    [{"no_such_option": 1}, {"players": "four"}, {"players": 99}, {"players": 2.0}, {"players": True}],
    ids=repr,
)
def test_bad_options_are_invalid_option(engine: Any, options: dict[str, Any]) -> None:
    for info in GAMES.values():
        cls = info.native if engine.name == "native" else info.reference
        with pytest.raises(InvalidOptionError):
            cls(**options)


# -- round trips, copies and identity ------------------------------------------------------------


def test_json_pickle_copy_and_key_round_trip(case: tuple[Any, Any, str]) -> None:
    game, _, _ = case
    rng = random.Random(f"round trips/{game}")
    for _ in range(6):
        state = walk(game, rng.randrange(2**64), rng)
        text = state.to_json()
        back = game.state_from_json(text)
        assert back.to_json() == text and back == state
        for other in (pickle.loads(pickle.dumps(state)), copy.copy(state), copy.deepcopy(state), state.clone()):
            assert type(other) is type(state) and other.to_json() == text and other == state
            assert other.key() == state.key()
        key = state.key()
        assert isinstance(key, str) and hash(key) == hash(state.key())
        doc = json.loads(text)
        del doc["history"]
        assert key == canonical(doc), "the key is the canonical JSON without the history"
        with pytest.raises(TypeError):
            hash(state)  # states are mutable: key() is their hashable identity
        if not state.is_terminal():
            child = state.clone()
            child.apply(child.legal_actions()[0])
            assert state.to_json() == text and child.key() != key


def test_games_pickle_print_and_load(case: tuple[Any, Any, str]) -> None:
    game, _, engine = case
    import tapete
    from tapete import reference

    back = pickle.loads(pickle.dumps(game))
    assert back == game and hash(back) == hash(game) and back.options == game.options
    loaded = (tapete if engine == "native" else reference).load(str(game))
    assert loaded == game and str(loaded) == str(game)
    assert copy.deepcopy(game) == game


def test_native_and_reference_read_each_others_states(case: tuple[Any, Any, str]) -> None:
    game, _, engine = case
    if engine != "native":
        pytest.skip("once per option set")
    info = GAMES[game.name]
    other = info.reference(**game.options)
    rng = random.Random(f"cross/{game}")
    for _ in range(3):
        state = walk(game, rng.randrange(2**64), rng, 60)
        text = state.to_json()
        assert other.state_from_json(text).to_json() == text
        assert other.state_from_json(text).key() == state.key()


# -- no leaks ------------------------------------------------------------------------------------


def test_paired_states_give_a_seat_the_same_view(case: tuple[Any, Any, str]) -> None:
    """Same view of seat p, different hidden cards and RNG state: the same view and observation.
    Not vacuous: a seat whose own hand changed does see a difference."""
    game, own, _ = case
    rng = random.Random(f"noleak/{game}")
    checked = changed = 0
    for _ in range(15):
        state = walk(game, rng.randrange(2**64), rng, 60)
        if state.is_terminal():
            continue
        doc = json.loads(state.to_json())
        for seat in range(game.num_players):
            pair = own.paired_state(game, doc, seat, rng)
            if pair is None:
                continue
            other = pair[1]
            assert other.view(seat) == state.view(seat)
            assert np.array_equal(other.observation(seat), state.observation(seat))
            checked += 1
            for s in range(game.num_players):
                if s != seat and other.view(s) != state.view(s):
                    assert not np.array_equal(other.observation(s), state.observation(s))
                    changed += 1
    assert checked > 0 and changed > 0
