"""The decision cap (docs/design.md §8), the same on both engines for every game: a match still
running after ``tapete.MAX_DECISIONS`` decisions is over and unfinished (``is_truncated()``), with
returns all 0, no seat to act, no legal action, and every move refused with the state unchanged.

A million real decisions would take minutes on the reference engine, so the states here carry a
history padded to the cap: state JSON keeps the history without replaying it (docs/design.md §4).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import tapete
from tapete import TERMINAL, _core
from tapete.errors import IllegalActionError
from tapete.reference import _base
from tapete.registry import GAMES

ENGINES = ("native", "reference")
CAP = tapete.MAX_DECISIONS


def game_of(name: str, engine: str, options: dict[str, Any]) -> Any:
    info = GAMES[name]
    return (info.native if engine == "native" else info.reference)(**options)


def with_history(game: Any, state: Any, length: int) -> Any:
    """``state`` whose history is padded at the front, with its own first action, to ``length``."""
    d = json.loads(state.to_json())
    history = d["history"]
    d["history"] = [history[0]] * (length - len(history)) + history
    return game.state_from_json(json.dumps(d, sort_keys=True, separators=(",", ":")))


def started(game: Any, seed: int, moves: int) -> Any:
    """A dealt state after ``moves`` random legal moves (the match still running)."""
    rng = random.Random(seed)
    s = game.new_state(seed)
    for _ in range(moves):
        s.apply(rng.choice(s.legal_actions()))
        assert not s.is_terminal()
    return s


def test_one_cap_for_both_engines() -> None:
    assert CAP == _core.MAX_DECISIONS == _base.MAX_HISTORY == 1_000_000


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_match_reaching_the_cap_is_over_unfinished(name: str) -> None:
    out = {}
    for engine in ENGINES:
        g = game_of(name, engine, {})
        s = with_history(g, started(g, 5, 3), CAP - 1)
        assert not s.is_truncated() and not s.is_terminal()
        seat = s.current_player()
        before_scores = s.scores()
        last = s.legal_actions()[0]
        s.apply(last)
        if s.is_terminal() and not s.is_truncated():  # pragma: no cover - the rules ended it
            pytest.skip("the last move ended the match by the rules")
        assert s.is_truncated() and s.is_terminal()
        assert s.current_player() == TERMINAL
        assert s.legal_actions() == [] and not s.legal_mask().any()
        assert s.returns() == [0.0] * g.num_players
        assert len(s.history()) == CAP and s.history()[-1] == last
        assert seat in range(g.num_players) and len(before_scores) == g.num_players
        text = s.to_json()
        for action in (last, g.num_distinct_actions - 1, s.action_to_string(last)):
            with pytest.raises(IllegalActionError, match="cut at 1000000 decisions"):
                s.apply(action)
            assert s.to_json() == text
        back = g.state_from_json(text)
        assert back.is_truncated() and back.current_player() == TERMINAL
        assert "truncated" in repr(s)
        out[engine] = (text, [json.dumps(s.view(p), sort_keys=True) for p in range(g.num_players)])
    assert out["native"] == out["reference"]


@pytest.mark.parametrize("engine", ENGINES)
def test_play_is_refused_at_the_cap(engine: str) -> None:
    g = game_of("escoba", engine, {"normal_captures": False})
    s = with_history(g, started(g, 2, 2), CAP)
    text = s.to_json()
    move = s.action_to_string(s.history()[-1])
    with pytest.raises(IllegalActionError, match="cut at 1000000 decisions"):
        s.play(move)
    assert s.to_json() == text


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("engine", ENGINES)
def test_a_match_the_rules_ended_is_never_truncated(name: str, engine: str) -> None:
    g = game_of(name, engine, {})
    rng = random.Random(9)
    s = g.new_state(9)
    while not s.is_terminal():
        s.apply(rng.choice(s.legal_actions()))
    returns = s.returns()
    assert any(r != 0 for r in returns) or name == "mosca"  # a Mosca match may end level
    long = with_history(g, s, CAP)
    assert long.is_terminal() and not long.is_truncated()
    assert long.returns() == returns


@pytest.mark.parametrize("engine", ENGINES)
def test_under_the_cap_a_never_ending_option_set_plays_on(engine: str) -> None:
    """Escoba with no capture allowed never ends by the rules (docs/rules/escoba.md); one move
    short of the cap it is still running, with a seat to act."""
    g = game_of("escoba", engine, {"normal_captures": False})
    s = with_history(g, started(g, 4, 4), CAP - 1)
    assert not s.is_terminal() and not s.is_truncated() and s.current_player() != TERMINAL
