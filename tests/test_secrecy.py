"""Secrecy of what the engines hand out beside the view (docs/design.md §11): the seat object a bot
is handed (``state.for_seat(p)``) and the public view (``state.public_view()``), for every
registered game, its option sets and both engines.

Paired states: the same ``view(p)``, different hidden cards, RNG and private action details. Two
kinds, built independently: the game's own re-deal of the hidden cards in the state JSON
(``tests/games/<game>.py``, which keeps the history as it is) and ``state.resample(p, seed)``,
which also rewrites other seats' private action details (a fidasse claim, a Mosca exchange, a
Burako add), the very thing ``history()`` gives away. For each pair, seat ``p``'s seat object
(view, observation, history, legal actions and their notation) and the public view must be equal.

The seat object itself: nothing it exposes reaches the state, its JSON, its full history, its
picture or its key; it cannot be pickled or copied; its history is ``view(p)["history"]``.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from typing import Any

import numpy as np
import pytest

from secrecy_pairs import CONFIGS, SCALE, resampled_pairs
from test_games import CASES, ids, make

#: What a seat object offers, on both engines (docs/bots.md §2): seat-safe and public only.
SEAT_METHODS = {
    "seat", "game", "num_players", "num_distinct_actions", "observation_shape", "view", "public_view",
    "observation", "history", "current_player", "is_terminal", "is_truncated", "returns", "scores", "deals",
    "legal_actions", "legal_mask", "action_to_string", "string_to_action", "resample",
}  # fmt: skip
#: Besides, the native seat object runs the native bots on the state it keeps in Rust (trusted
#: code; tests/test_bots.py holds their choices to the view).
NATIVE_ONLY = {"bot_act"}
REFEREE_ONLY = ("to_json", "key", "clone", "apply", "play", "_state", "state", "__dict__", "for_seat")


@pytest.fixture(params=CASES, ids=ids(CASES))
def case(request: pytest.FixtureRequest, engine: Any) -> tuple[Any, Any, str]:
    return make(request, engine)


def positions(game: Any, rng: random.Random, count: int, depth: int) -> list[Any]:
    """Unfinished states after random play, a few deals in where the match lasts."""
    found = []
    for _ in range(count):
        state = game.new_state(seed=rng.randrange(2**64))
        for _ in range(rng.randrange(depth)):
            ahead = state.clone()
            ahead.apply(rng.choice(state.legal_actions()))
            if ahead.is_terminal():
                break
            state = ahead
        found.append(state)
    return found


def seat_sight(state: Any, seat: int) -> dict[str, Any]:
    """Everything the seat object of ``seat`` shows, and the public view."""
    own = state.for_seat(seat)
    legal = own.legal_actions()
    return {
        "view": own.view(),
        "observation": np.asarray(own.observation()).tolist(),
        "history": own.history(),
        "legal": legal,
        "mask": [int(i) for i in np.flatnonzero(own.legal_mask())],
        "notation": [own.action_to_string(a) for a in range(own.num_distinct_actions)],
        "to_move": own.current_player(),
        "scores": own.scores(),
        "deals": own.deals(),
        "public_view": own.public_view(),
        "state_public_view": state.public_view(),
    }


def pairs(game: Any, own: Any, state: Any, seat: int, rng: random.Random) -> list[Any]:
    """States paired with ``state`` for ``seat``: a resample, and the game's own re-deal."""
    found = [state.resample(seat, rng.randrange(2**64))]
    redealt = own.paired_state(game, json.loads(state.to_json()), seat, rng)
    if redealt is not None:
        found.append(redealt[1])
    return found


def test_paired_states_give_a_seat_the_same_seat_object_and_public_view(case: tuple[Any, Any, str]) -> None:
    """Not vacuous: every game hides other hands here, so a pair differs in its JSON, and where
    the full history differs (other seats' private details) the seat object's does not."""
    game, own, engine = case
    rng = random.Random(f"secrecy/{engine}/{game}")
    checked = differ = 0
    for state in positions(game, rng, 4 if engine == "native" else 2, 150):
        for seat in range(game.num_players):
            expected = seat_sight(state, seat)
            assert expected["history"] == state.view(seat)["history"]
            for other in pairs(game, own, state, seat, rng):
                assert other.view(seat) == state.view(seat)
                assert seat_sight(other, seat) == expected
                checked += 1
                differ += other.to_json() != state.to_json()
    assert checked and differ


def test_the_seat_history_is_the_views_item_for_item(case: tuple[Any, Any, str]) -> None:
    """Over a whole random match: the seat object's history is ``view(p)["history"]`` with its
    items' types (ids, or the masked texts each contract names), as long as the view's, and
    the public view's history masks every private detail some seat's view masks."""
    game, _, engine = case
    rng = random.Random(f"seat-history/{engine}/{game}")
    state = game.new_state(seed=rng.randrange(2**64))
    steps = 0
    while not state.is_terminal() and steps < (300 if engine == "native" else 80):
        public = state.public_view()["history"]
        for seat in range(game.num_players):
            history = state.for_seat(seat).history()
            seen = state.view(seat)["history"]
            assert [(type(x), x) for x in history] == [(type(x), x) for x in seen]
            assert len(public) == len(seen)
            for mine, shown in zip(seen, public, strict=True):
                assert shown == mine or isinstance(shown, str) and "?" in shown
        state.apply(rng.choice(state.legal_actions()))
        steps += 1


def test_the_public_view_holds_no_seats_own_holdings(case: tuple[Any, Any, str]) -> None:
    """The view's keys, ``player`` and each seat's own holdings null (each game's contract)."""
    game, own, _ = case
    rng = random.Random(f"public-keys/{game}")
    for state in positions(game, rng, 2, 100):
        public = state.public_view()
        assert set(public) == set(state.view(0)) == own.view_keys(game.options)
        assert public["player"] is None
        for key in own.OWN_VIEW_KEYS:
            assert public[key] is None, key
        json.dumps(public)


def test_a_seat_object_reaches_nothing_beyond_its_seat(case: tuple[Any, Any, str]) -> None:
    game, _, engine = case
    state = game.new_state(seed=5)
    for _ in range(7):
        if not state.is_terminal():
            state.apply(state.legal_actions()[-1])
    p = max(state.current_player(), 0)
    seat = state.for_seat(p)
    public = {name for name in dir(seat) if not name.startswith("_")}
    assert public == SEAT_METHODS | (NATIVE_ONLY if engine == "native" else set())
    for name in REFEREE_ONLY:
        assert not hasattr(seat, name), name
    with pytest.raises(TypeError):
        pickle.dumps(seat)
    with pytest.raises(TypeError):
        copy.copy(seat)
    with pytest.raises(TypeError):
        copy.deepcopy(seat)
    assert str(seat) == repr(seat) == f"<SeatState {game.name} seat={p} to_move={state.current_player()}>"
    with pytest.raises(AttributeError):
        seat.seat = 1 - p
    assert seat.seat == p and seat.game == game
    assert (seat.num_players, seat.num_distinct_actions) == (game.num_players, game.num_distinct_actions)
    assert tuple(seat.observation_shape) == tuple(game.observation_shape)
    # a copy of the moment: the state moving on does not change what the seat object knows
    before = seat.view()
    if not state.is_terminal():
        state.apply(state.legal_actions()[0])
        assert seat.view() == before


def test_only_the_seat_to_act_knows_the_legal_actions(case: tuple[Any, Any, str]) -> None:
    """Another seat's legal actions would show the mover's hand: a seat not to act gets none, and
    reads the notation in a form that names no card of the mover's hand."""
    game, _, _ = case
    rng = random.Random(f"legal/{game}")
    for state in positions(game, rng, 3, 60):
        mover = state.current_player()
        for seat in range(game.num_players):
            own = state.for_seat(seat)
            if seat == mover:
                assert own.legal_actions() == state.legal_actions()
                assert [own.action_to_string(a) for a in own.legal_actions()] == [
                    state.action_to_string(a) for a in state.legal_actions()
                ]
            else:
                assert own.legal_actions() == [] and not own.legal_mask().any()
            for a in range(game.num_distinct_actions):
                assert own.string_to_action(own.action_to_string(a)) == a


# -- the configurations of every output toward a seat (tests/secrecy_pairs.py) --------------------


def engine_game(text: str, engine: Any) -> Any:
    import tapete
    from tapete import reference

    return tapete.load(text) if engine.name == "native" else reference.load(text)


def native_bots(seed: int) -> list[Any]:
    from tapete import bots

    return [bots.Random(seed), bots.Heuristic(seed), bots.ISMCTS(iterations=24, seed=seed)]


def reference_bots(seed: int) -> list[Any]:
    from tapete.reference import ismcts

    return [ismcts.Random(seed), ismcts.ISMCTS(iterations=6, seed=seed)]


@pytest.mark.parametrize("text", CONFIGS)
def test_paired_states_give_the_same_seat_history_public_view_and_bot_choices(text: str, engine: Any) -> None:
    """Pairs by resampling at random depths of a match, the seat to act's: its seat object's
    history and everything else it shows, the public view, what a ``FunctionBot``'s function is
    called with, and every bot's action and root statistics with the same seed. Counts the pairs
    whose full ``history()`` differs: what a bot handed the state could read."""
    from tapete import bots

    game = engine_game(text, engine)
    rng = random.Random(f"configs/{engine.name}/{text}")
    count = (24 if engine.name == "native" else 3) * SCALE
    make_bots = native_bots if engine.name == "native" else reference_bots
    full_history_differs = 0
    for a, b, p in resampled_pairs(game, rng, count, mover=True):
        assert seat_sight(a, p) == seat_sight(b, p)
        for p_seat in range(game.num_players):  # the public view is every seat's to see
            if p_seat != p:
                assert b.public_view() == a.public_view()
        seen: list[Any] = []

        def last(view: dict[str, Any], legal: list[int], seen: list[Any] = seen) -> int:
            seen.append((view, legal))
            return legal[-1]

        function = bots.FunctionBot(last)
        assert function.act(a.for_seat(p)) == function.act(b.for_seat(p))
        assert seen[0] == seen[1]
        seed = rng.randrange(2**64)
        for bot_a, bot_b in zip(make_bots(seed), make_bots(seed), strict=True):
            assert bot_a.act(a.for_seat(p)) == bot_b.act(b.for_seat(p)), type(bot_a).__name__
            assert getattr(bot_a, "stats", None) == getattr(bot_b, "stats", None)
        full_history_differs += a.history() != b.history()
    if any(hidden in text for hidden in ("fidasse", "mosca", "burako")):
        assert full_history_differs > 0, "the pairs reach other seats' private action details"


# -- the secrecy table of docs/design.md §11 -------------------------------------------------------


def secrecy_table() -> dict[str, dict[str, str]]:
    """docs/design.md §11 read back: object -> method or field name -> its class."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / "design.md").read_text()
    section = text[text.index("## 11. Secrecy") :]
    table: dict[str, dict[str, str]] = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or cells[0] in ("object", "---"):
            continue
        kind = cells[2].split()[0].rstrip(",")
        for name in re.findall(r"`([^`]+)`", cells[1]):
            name = re.sub(r"^(?:repr|str)\((\w+)\)$", r"__\1__", name)
            table.setdefault(cells[0], {})[re.split(r"[(.\s]", name)[0] or name] = kind
    return table


def test_the_secrecy_table_names_every_method_of_a_state_a_seat_object_and_a_game(engine: Any) -> None:
    import tapete

    table = secrecy_table()
    for name, info in tapete.registry.GAMES.items():
        game = info.native() if engine.name == "native" else info.reference()
        state = game.new_state(1)
        # the reference's game objects carry their rules' own tables besides (all public)
        checked = [("state", state), ("seat object", state.for_seat(0))]
        for what, thing in checked + ([("game", game)] if engine.name == "native" else []):
            names = {n for n in dir(thing) if not n.startswith("_")}
            assert names <= set(table[what]), (name, what, names - set(table[what]))
    # the seat object offers nothing referee-only
    assert all(table["seat object"][n] in ("seat-safe", "public") for n in SEAT_METHODS | NATIVE_ONLY)
    assert table["state"]["to_json"] == table["state"]["history"] == table["state"]["key"] == "referee-only"


class Recorder:
    """A state that notes every method the server's frames call on it."""

    def __init__(self, state: Any, calls: set[str]) -> None:
        self._state, self._calls = state, calls

    def __getattr__(self, name: str) -> Any:
        self._calls.add(name)
        return getattr(self._state, name)


def test_the_servers_frames_read_only_seat_safe_and_public_methods() -> None:
    pytest.importorskip("starlette")
    import tapete
    from tapete.server import protocol

    table = secrecy_table()["state"]
    fields = {"id": "t", "game": "g", "game_name": "escoba", "seats": ["human"] * 2, "moves": 0}
    calls: set[str] = set()
    for text in CONFIGS:
        state = tapete.load(text).new_state(3)
        for _ in range(30):
            recorded = Recorder(state, calls)
            for seat in range(state.for_seat(0).num_players):
                protocol.seat_message(recorded, seat, fields)
            protocol.spectator_message(recorded, fields)
            if state.is_terminal():
                break
            state.apply(state.legal_actions()[0])
    assert calls and all(table[name] in ("seat-safe", "public") for name in calls), calls
