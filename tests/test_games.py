"""The tests every game passes, written once (OpenSpiel's RandomSimTest; docs/design.md §7): for
every registered game, its main option sets and both engines, through the public API.

* the API contract over random playouts: legal actions sorted and non-empty until the end, the
  legal mask, notation round trips, every sampled legal action applies to a clone, returns only
  at the end, views and observations of every seat, the JSON round trip, the game's own
  conservation invariants and end of match;
* bad input: each raises its typed error and leaves the state unchanged, the generic table and
  the game's own (options, game strings, setups, decks, state JSON, positions);
* JSON, pickle and copy round trips, ``key()``, clone independence, game strings, the game's sizes;
* no leaks: paired states with the same view of seat p and different hidden cards and RNG state
  give seat p the same view, observation and seat object history, and the same public view.

What only one game has lives in ``tests/games/<game>.py`` (its data: see tests/games/__init__.py),
in ``tests/test_<game>.py`` (its own API and scenarios) and in its rules and differential tests.
The native bulk sweep of thousands of playouts per option set runs in Rust
(``rust/tapete-core/tests/playouts/<game>.rs``, on ``tapete_core::testing::random_sim_test``).
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

from games import (
    assert_different_sight,
    assert_notation_round_trips,
    assert_refused,
    assert_same_sight,
    canonical,
    walk,
)
from tapete import errors
from tapete.registry import GAMES

PLAYOUTS = {
    "native": int(os.environ.get("TAPETE_API_GAMES", "8")),
    "reference": int(os.environ.get("TAPETE_API_GAMES_REF", "2")),
}


def own_module(name: str) -> Any:
    """The game's module in tests/games/."""
    return importlib.import_module(f"games.{name}")


def ids(cases: list[tuple[str, Any]]) -> list[str]:
    return [f"{name}-{json.dumps(data, sort_keys=True, separators=(',', ':'), default=repr)}" for name, data in cases]


CASES = [(name, options) for name, info in GAMES.items() for options in info.option_sets]
#: The registry's option sets and the game's own more (tests/games/<game>.py), for playouts and leaks.
MORE_CASES = CASES + [
    (name, options)
    for name in GAMES
    for options in own_module(name).MORE_OPTION_SETS
    if options not in GAMES[name].option_sets
]


def make(request: pytest.FixtureRequest, engine: Any) -> tuple[Any, Any, str]:
    name, options = request.param
    info = GAMES[name]
    cls = info.native if engine.name == "native" else info.reference
    return cls(**options), own_module(name), engine.name


@pytest.fixture(params=CASES, ids=ids(CASES))
def case(request: pytest.FixtureRequest, engine: Any) -> tuple[Any, Any, str]:
    """(game, its tests/games module, engine name) for one game, option set and engine."""
    return make(request, engine)


@pytest.fixture(params=MORE_CASES, ids=ids(MORE_CASES))
def more_case(request: pytest.FixtureRequest, engine: Any) -> tuple[Any, Any, str]:
    """As ``case``, over the game's own more option sets too."""
    return make(request, engine)


def game_class(name: str, engine: Any) -> Any:
    info = GAMES[name]
    return info.native if engine.name == "native" else info.reference


def own_table(attribute: str) -> Any:
    """A parametrization of (game, row) over every row of a table in the tests/games modules."""
    rows = [(name, i, row) for name in GAMES for i, row in enumerate(getattr(own_module(name), attribute))]
    return [pytest.param(name, row, id=f"{name}-{i}") for name, i, row in rows]


# -- the API contract over random playouts -------------------------------------------------------


def check_position(game: Any, own: Any, state: Any, rng: random.Random) -> None:
    text = state.to_json()
    assert game.state_from_json(text).to_json() == text
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
    illegal = sorted(set(range(num)) - set(legal))
    for action in rng.sample(illegal, min(2, len(illegal))):
        assert_refused(state, "apply", action, errors.IllegalActionError)


def test_random_playouts_keep_the_api_contract(more_case: tuple[Any, Any, str]) -> None:
    game, own, engine = more_case
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
    """The same seed and actions give the same game throughout; another seed another deal."""
    game, _, _ = case
    a, b, c = game.new_state(seed=11), game.new_state(seed=11), game.new_state(seed=12)
    assert a.to_json() == b.to_json() and a == b
    assert a.to_json() != c.to_json()
    rng = random.Random(5)
    while not a.is_terminal():
        action = rng.choice(a.legal_actions())
        a.apply(action)
        b.apply(action)
        assert a.to_json() == b.to_json()


def test_every_action_id_round_trips_through_its_notation(case: tuple[Any, Any, str]) -> None:
    game, _, _ = case
    rng = random.Random(f"notation/{game}")
    for _ in range(3):
        assert_notation_round_trips(walk(game, rng.randrange(2**64), rng, 60), game.num_distinct_actions)


def test_apply_accepts_notation(case: tuple[Any, Any, str]) -> None:
    """A game played by action ids and the same game played by their texts are the same."""
    game, _, _ = case
    rng = random.Random(f"apply text/{game}")
    a, b = game.new_state(seed=9), game.new_state(seed=9)
    while not a.is_terminal():
        action = rng.choice(a.legal_actions())
        a.apply(action)
        b.apply(b.action_to_string(action))
    assert a.to_json() == b.to_json() and a.history() == b.history()


def test_the_game_has_the_sizes_of_its_document(engine: Any) -> None:
    for name in GAMES:
        for options, players, actions, shape in own_module(name).ATTRIBUTES:
            game = game_class(name, engine)(**options)
            assert game.name == name and game.num_players == players
            assert game.num_distinct_actions == actions and tuple(game.observation_shape) == shape
            obs = game.new_state(seed=0).observation(0)
            assert obs.dtype == np.float32 and obs.shape == shape


# -- bad input -----------------------------------------------------------------------------------


OUT_OF_RANGE = (-1, "num", 10**6, 2**64, -(2**70))


def bad_state_calls(state: Any, game: Any) -> list[tuple[str, Any, type[errors.TapeteError], str | None]]:
    """(method, argument, the error it must raise, what its message says) for a non-terminal state."""
    n, num = game.num_players, game.num_distinct_actions
    legal = set(state.legal_actions())
    illegal = next(a for a in range(num) if a not in legal)
    calls: list[tuple[str, Any, type[errors.TapeteError], str | None]] = [
        ("apply", illegal, errors.IllegalActionError, None)
    ]
    for action in (num if a == "num" else a for a in OUT_OF_RANGE):
        calls.append(("apply", action, errors.IllegalActionError, f"out of range: expected 0..{num - 1}"))
        calls.append(("action_to_string", action, errors.IllegalActionError, f"out of range: expected 0..{num - 1}"))
    # not an int (a bool is no action id either), bytes of a legal action's text included
    text = state.action_to_string(min(legal)).encode()
    for action in (True, None, 1.5, [1], text):
        calls.append(("apply", action, errors.IllegalActionError, None))
    for text in ("xyzzy", "", "\ud800"):
        for method in ("apply", "string_to_action", "play"):
            calls.append((method, text, errors.InvalidNotationError, None))
    for argument in (5, None, b"x"):
        calls.append(("string_to_action", argument, errors.InvalidNotationError, None))
        calls.append(("play", argument, errors.InvalidNotationError, None))
    for seat in (-1, n, 99, "0", 1.0, None, True):
        calls.append(("view", seat, errors.InvalidPlayerError, None))
        calls.append(("observation", seat, errors.InvalidPlayerError, None))
    return calls


def test_bad_input_raises_its_typed_error_and_changes_nothing(case: tuple[Any, Any, str]) -> None:
    game, _, _ = case
    state = walk(game, 3, random.Random(f"bad/{game}"), 30)
    if state.is_terminal():
        state = game.new_state(seed=3)
    for method, argument, error, match in bad_state_calls(state, game):
        assert_refused(state, method, argument, error, match)


@pytest.mark.parametrize("name,bad", own_table("BAD_INPUTS"))
def test_the_games_own_bad_input_raises_and_changes_nothing(engine: Any, name: str, bad: Any) -> None:
    state = bad.state(game_class(name, engine))
    for refusal in bad.refusals:
        assert_refused(state, refusal.method, refusal.argument, refusal.error, refusal.match)


@pytest.mark.parametrize(
    "text",
    ["", "{", "[]", "5", '"x"', "{}", "null", 5, None, ["{}"], b"{}", "\ud800", "x" * 100_000],
    ids=lambda t: repr(t)[:20],
)
def test_bad_state_json_is_invalid_state(case: tuple[Any, Any, str], text: Any) -> None:
    game, _, _ = case
    with pytest.raises(errors.InvalidStateError):
        game.state_from_json(text)


def test_tampered_state_json_is_refused(case: tuple[Any, Any, str]) -> None:
    """Cut short, each key removed, an unknown key added, a wrong game, version or options, bad
    fields every game has, and the game's own tampering (tests/games/<game>.py ``bad_json``)."""
    game, own, _ = case
    state = game.new_state(seed=4)
    state.apply(state.legal_actions()[0])
    good = state.to_json()
    doc = json.loads(good)
    tampered = [{k: v for k, v in doc.items() if k != key} for key in doc]
    tampered += [{**doc, "extra": 1}, {**doc, "version": 2}, {**doc, "version": True}]
    tampered += [{**doc, "game": other} for other in [*GAMES, "chess"] if other != game.name]
    tampered += [{**doc, "options": {**doc["options"], "players": doc["options"]["players"] + 1}}]
    tampered += [{**doc, "options": {**doc["options"], "bogus": 1}}]
    tampered += [{**doc, **change} for change in ({"rng": -5}, {"rng": "abc"}, {"to_move": 7})]
    tampered += [{**doc, **change} for change in ({"history": "x"}, {"terminal": "no"})]
    tampered += [{**doc, **change} for change in own.bad_json(doc)]
    for bad in [good[:-1]] + [canonical(d) for d in tampered]:
        with pytest.raises(errors.InvalidStateError):
            game.state_from_json(bad)
    assert game.state_from_json(good).to_json() == good


@pytest.mark.parametrize("seed", [-1, 2**64, "1", 1.5, 1.0, True, None, [1]], ids=repr)
def test_bad_seeds_are_invalid_state(case: tuple[Any, Any, str], seed: Any) -> None:
    game, _, _ = case
    with pytest.raises(errors.InvalidStateError):
        game.new_state(seed=seed)


def test_bad_decks_are_invalid_state(case: tuple[Any, Any, str]) -> None:
    """A full pack in any order deals; one short, a card too many or twice, a name that is no
    card, a string, a number, and the game's own bad packs (tests/games/<game>.py) do not."""
    game, own, _ = case
    pack = own.deck(game.options)
    shuffled = list(pack)
    random.Random(1).shuffle(shuffled)
    for full in (pack, shuffled):
        assert game.new_state(seed=0, deck=full).to_json()
    bad = [pack[:-1], pack[:-1] + [pack[0]], pack + [pack[0]], pack[:-1] + ["Zz"], " ".join(map(str, pack)), 5]
    for deck in bad + own.bad_decks(pack):
        with pytest.raises(errors.InvalidStateError):
            game.new_state(seed=0, deck=deck)


@pytest.mark.parametrize(
    "options",
    [
        {"no_such_option": 1},
        {"players": "four"},
        {"players": "2"},
        {"players": 99},
        {"players": 2.0},
        {"players": True},
    ],
    ids=repr,
)
def test_bad_options_are_invalid_option(engine: Any, options: dict[str, Any]) -> None:
    for name in GAMES:
        with pytest.raises(errors.InvalidOptionError):
            game_class(name, engine)(**options)


@pytest.mark.parametrize("name,options", own_table("BAD_OPTIONS"))
def test_the_games_own_bad_options_are_invalid_option(engine: Any, name: str, options: dict[str, Any]) -> None:
    with pytest.raises(errors.InvalidOptionError) as info:
        game_class(name, engine)(**options)
    assert len(str(info.value)) > 10, "the message says what is wrong"


def test_bad_game_strings_are_invalid_option(engine: Any) -> None:
    import tapete
    from tapete import reference

    load = tapete.load if engine.name == "native" else reference.load
    for name in GAMES:
        texts = [f"{name}(players=)", f"{name}(x=1)", f"{name}(players=2,players=2)", f"{name}(players=2"]
        texts += [f"{name}(players=" + "9" * 5000 + ")", f"{name}(players=" + "[" * 3000 + "]" * 3000 + ")"]
        for text in texts + own_module(name).BAD_GAME_STRINGS:
            with pytest.raises(errors.InvalidOptionError):
                load(text)


@pytest.mark.parametrize("name,row", own_table("BAD_SETUPS"))
def test_impossible_setups_are_invalid_state(
    engine: Any, name: str, row: tuple[dict[str, Any], dict[str, Any]]
) -> None:
    options, kwargs = row
    game = game_class(name, engine)(**options)
    with pytest.raises(errors.InvalidStateError):
        game.setup(**kwargs)


# -- round trips, copies and identity ------------------------------------------------------------


def test_json_pickle_copy_and_key_round_trip(case: tuple[Any, Any, str]) -> None:
    game, _, _ = case
    rng = random.Random(f"round trips/{game}")
    for _ in range(6):
        state = walk(game, rng.randrange(2**64), rng)
        text = state.to_json()
        back = game.state_from_json(text)
        assert back.to_json() == text and back == state
        key = state.key()
        for other in (pickle.loads(pickle.dumps(state)), copy.copy(state), copy.deepcopy(state), state.clone()):
            assert type(other) is type(state) and other.to_json() == text and other == state
            assert other.key() == key
            if not state.is_terminal():  # copies are independent of the original
                other.apply(other.legal_actions()[-1])
                assert state.to_json() == text and other.to_json() != text and other.key() != key
        assert isinstance(key, str) and hash(key) == hash(state.key())
        doc = json.loads(text)
        del doc["history"]
        assert key == canonical(doc), "the key is the canonical JSON without the history"
        with pytest.raises(TypeError):
            hash(state)  # states are mutable: key() is their hashable identity


def test_games_pickle_print_and_load(case: tuple[Any, Any, str]) -> None:
    game, _, engine = case
    import tapete
    from tapete import reference

    back = pickle.loads(pickle.dumps(game))
    assert back == game and hash(back) == hash(game) and back.options == game.options
    assert type(game)(**game.options) == game
    loaded = (tapete if engine == "native" else reference).load(str(game))
    assert loaded == game and str(loaded) == str(game)
    assert copy.deepcopy(game) == game


@pytest.mark.parametrize("name", list(GAMES))
def test_game_strings_round_trip(engine: Any, name: str) -> None:
    """The game's own strings (tests/games/<game>.py) read, print and read again the same, through
    the loader and the parser of either engine's classes; printed forms are what the docs show."""
    import tapete
    from tapete import reference
    from tapete._gamestring import parse_game

    own = own_module(name)
    cls = game_class(name, engine)
    load = tapete.load if engine.name == "native" else reference.load
    for text in own.GAME_STRINGS:
        game = load(text)
        assert parse_game(text, {name: cls}).options == game.options
        again = load(str(game))
        assert again.options == game.options and str(again) == str(game) and again == game
        assert type(game)(**game.options) == game
    for given, printed in own.PRINTED:  # a game string or options
        assert str(load(given) if isinstance(given, str) else cls(**given)) == printed


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


def test_paired_states_give_a_seat_the_same_view(more_case: tuple[Any, Any, str]) -> None:
    """Same view of seat p, different hidden cards and RNG state: the same view and observation,
    seat object history and public view (tests/test_secrecy.py pairs by resampling too).
    Not vacuous: a seat whose own hand changed sees the difference in its view and observation."""
    game, own, _ = more_case
    rng = random.Random(f"noleak/{game}")
    checked = changed = 0
    for _ in range(15):
        state = walk(game, rng.randrange(2**64), rng, 150)
        if state.is_terminal():
            continue
        doc = json.loads(state.to_json())
        for seat in range(game.num_players):
            pair = own.paired_state(game, doc, seat, rng)
            if pair is None:
                continue
            new, other = pair
            assert_same_sight(other, state, seat)
            assert other.for_seat(seat).history() == state.for_seat(seat).history() == state.view(seat)["history"]
            assert other.public_view() == state.public_view()
            checked += 1
            for s in range(game.num_players):
                if s != seat and new[own.HELD][s] != doc[own.HELD][s]:
                    assert_different_sight(other, state, s)
                    changed += 1
                elif s != seat and other.view(s) != state.view(s):
                    assert not np.array_equal(other.observation(s), state.observation(s))
    assert checked > 0 and changed > 0
