"""What the generic tests (tests/test_games.py) need to know of each game: one module per game,
and the helpers every test of the public API shares (tests/test_games.py, tests/test_<game>.py).

Each ``tests/games/<game>.py`` provides:

* ``view_keys(options)``, ``own_invariants(game, state, doc)`` (checked at positions of random
  playouts, the end included), ``paired_state(game, doc, seat, rng)`` and ``HELD`` (the JSON key of
  the seats' private cards) for the no-leak test; ``OWN_VIEW_KEYS``, the view's keys that only
  its seat sees (null in the public view);
* ``MORE_OPTION_SETS``: option sets the playouts and the no-leak test run besides the registry's;
* ``ATTRIBUTES``: ``(options, num_players, num_distinct_actions, observation_shape)`` from the
  game's engine document;
* ``GAME_STRINGS`` that read, print and read again the same, and ``PRINTED``: (a game string or
  options, the game string printed);
* the game's own bad input: ``BAD_OPTIONS``, ``BAD_GAME_STRINGS``, ``BAD_SETUPS`` (options, setup
  arguments), ``deck(options)`` (a full pack) and ``bad_decks(deck)``, ``bad_json(doc)`` (changes
  to a state's JSON), and ``BAD_INPUTS``: positions (options, setup arguments, actions applied)
  with the calls each must refuse, as :class:`Refusal` rows.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest


def canonical(doc: Any) -> str:
    """The canonical JSON text (sorted keys, no spaces) of a state document."""
    return json.dumps(doc, sort_keys=True, separators=(",", ":"))


def tamper(text: str, **changes: Any) -> str:
    """A state's JSON text with some keys replaced."""
    doc = json.loads(text)
    doc.update(changes)
    return canonical(doc)


def walk(game: Any, seed: int, rng: random.Random, max_steps: int = 400) -> Any:
    """A state after a random number of random actions from a seeded deal."""
    state = game.new_state(seed=seed)
    for _ in range(rng.randrange(max_steps)):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def assert_refused(state: Any, method: str, argument: Any, error: type[Exception], match: str | None = None) -> None:
    """``state.method(argument)`` raises ``error`` (its message matching ``match``) and leaves the
    state as it was."""
    before = state.to_json()
    with pytest.raises(error, match=match):
        getattr(state, method)(argument)
    assert state.to_json() == before, f"{method}({argument!r}) changed the state"


def assert_same_sight(a: Any, b: Any, seat: int) -> None:
    """Seat ``seat`` cannot tell ``a`` from ``b``: the same view and observation."""
    assert a.view(seat) == b.view(seat)
    assert np.array_equal(a.observation(seat), b.observation(seat))


def assert_different_sight(a: Any, b: Any, seat: int) -> None:
    """Seat ``seat`` tells ``a`` from ``b`` in its view and in its observation."""
    assert a.view(seat) != b.view(seat)
    assert not np.array_equal(a.observation(seat), b.observation(seat))


def assert_not_shown(view: dict[str, Any], names: Any) -> None:
    """None of the card names appears anywhere in the view's JSON text."""
    text = json.dumps(view)
    shown = [name for name in names if name in text]
    assert not shown, f"hidden cards in the view: {shown}"


def assert_notation_round_trips(state: Any, num_actions: int) -> None:
    """Every action id prints to a text that reads back to it, in any letter case."""
    for action in range(num_actions):
        text = state.action_to_string(action)
        assert state.string_to_action(text) == action
        assert state.string_to_action(text.upper()) == action


def dealt_hands_tampering(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """Changes to the JSON of a game of dealt hands (``hands``, ``dealer``) it must refuse: a
    dealer off the table, a card twice in a hand, a hand's cards gone."""
    hands = doc["hands"]
    return [{"dealer": -3}, {"hands": [hands[0] + [hands[0][0]]] + hands[1:]}, {"hands": [[]] + hands[1:]}]


@dataclass(frozen=True)
class Refusal:
    """``state.method(argument)`` must raise ``error`` (message matching ``match``)."""

    method: str
    argument: Any
    error: type[Exception]
    match: str | None = None


@dataclass(frozen=True)
class BadInputs:
    """A position (``cls(**options).setup(**setup)``, then ``moves`` applied) and what it refuses."""

    setup: dict[str, Any]
    refusals: list[Refusal]
    options: dict[str, Any] = field(default_factory=dict)
    moves: list[Any] = field(default_factory=list)

    def state(self, cls: Any) -> Any:
        state = cls(**self.options).setup(**self.setup)
        for move in self.moves:
            state.apply(move)
        return state
