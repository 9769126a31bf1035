"""tapete.simulate and the ``tapete simulate`` command."""

from __future__ import annotations

import json

import numpy as np
import pytest

import tapete
from tapete.cli import main
from tapete.errors import InvalidOptionError


def test_simulate_is_deterministic_and_independent_of_threads_and_chunks():
    game = tapete.Escoba(variant="escoba", players=4)
    one = tapete.simulate(game, games=300, seed=42, threads=1)
    two = tapete.simulate(game, games=300, seed=42, threads=2)
    first, second = tapete.simulate(game, games=100, seed=42), tapete.simulate(game, games=200, seed=142)
    for key in ("returns", "scores", "deals", "decisions"):
        assert np.array_equal(one[key], two[key])
        assert np.array_equal(one[key], np.concatenate([first[key], second[key]]))
    assert one["returns"].shape == (300, 4)
    assert np.allclose(one["returns"].sum(axis=1), 0.0)
    # teams (docs/rules/escoba.md §1.1): partners always share the result
    assert np.array_equal(one["returns"][:, 0], one["returns"][:, 2])
    assert (one["deals"] >= 1).all() and (one["decisions"] > 0).all()


def test_simulate_matches_stepping_the_same_seed():
    """The batch loop plays the same matches as new_state(seed + i) stepped with the same bot."""
    game = tapete.Escoba()
    result = tapete.simulate(game, games=5, seed=7, threads=1)
    for i in range(5):
        state = game.new_state(seed=7 + i)
        rng = (7 + i) ^ 0xD1B54A32D192ED03  # the bot's SplitMix64 (rust/tapete-core/src/play.rs)
        decisions = 0
        while not state.is_terminal():
            rng = (rng + 0x9E3779B97F4A7C15) % 2**64
            z = rng
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % 2**64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % 2**64
            z ^= z >> 31
            legal = state.legal_actions()
            state.apply(legal[z % len(legal)])
            decisions += 1
        assert result["decisions"][i] == decisions
        assert list(result["returns"][i]) == state.returns()
        assert list(result["scores"][i]) == state.scores()


def test_simulate_rejects_bad_arguments():
    with pytest.raises(InvalidOptionError):
        tapete.simulate(tapete.Escoba(), games=-1)
    with pytest.raises(InvalidOptionError):
        tapete.simulate(tapete.Escoba(), games=10, bots="minimax")
    with pytest.raises(InvalidOptionError):
        tapete.simulate(tapete.reference.Escoba(), games=10)


def test_cli_prints_the_same_results_for_the_same_seed(capsys):
    argv = ["simulate", "escoba", "--games", "2000", "--seed", "5", "--variant", "scopa_15", "--json"]
    assert main(argv) == 0
    first = json.loads(capsys.readouterr().out)
    assert main(argv) == 0
    second = json.loads(capsys.readouterr().out)
    first.pop("throughput"), second.pop("throughput")
    assert first == second
    assert first["games"] == 2000 and len(first["seats"]) == 2
    rates = [seat["win_rate"] for seat in first["seats"]]
    assert abs(sum(rates) + first["draws"] / 2000 - 1) < 1e-9  # two players: one wins unless drawn


def test_cli_table_and_errors(capsys):
    assert main(["simulate", "escoba", "--games", "500", "--players", "3", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "win rate" in out and "decisions/s" in out
    assert main(["simulate", "escoba", "--games", "10", "--variant", "nonsense", "--quiet"]) == 2
    assert "nonsense" in capsys.readouterr().err


def test_simulate_musta_maija_is_deterministic_and_one_seat_loses():
    game = tapete.MustaMaija(players=4)
    one = tapete.simulate(game, games=300, seed=42, threads=1)
    two = tapete.simulate(game, games=300, seed=42, threads=2)
    first, second = tapete.simulate(game, games=100, seed=42), tapete.simulate(game, games=200, seed=142)
    for key in ("returns", "scores", "deals", "decisions"):
        assert np.array_equal(one[key], two[key])
        assert np.array_equal(one[key], np.concatenate([first[key], second[key]]))
    assert one["returns"].shape == (300, 4)
    assert np.allclose(one["returns"].sum(axis=1), 0.0)
    # one hand, one loser: -1 for the loser, +1/3 for each other seat; scores count hands lost
    assert ((one["returns"] == -1.0).sum(axis=1) == 1).all()
    assert (one["scores"].sum(axis=1) == 1).all() and (one["deals"] == 1).all()
    assert np.array_equal(one["returns"] == -1.0, one["scores"] == 1)


def test_simulate_musta_maija_matches_stepping_the_same_seed():
    game = tapete.MustaMaija(players=3, match="first_to_losses", match_losses=2)
    result = tapete.simulate(game, games=4, seed=3, threads=1)
    for i in range(4):
        state = game.new_state(seed=3 + i)
        rng = (3 + i) ^ 0xD1B54A32D192ED03  # the bot's SplitMix64 (rust/tapete-core/src/play.rs)
        decisions = 0
        while not state.is_terminal():
            rng = (rng + 0x9E3779B97F4A7C15) % 2**64
            z = rng
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % 2**64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % 2**64
            z ^= z >> 31
            legal = state.legal_actions()
            state.apply(legal[z % len(legal)])
            decisions += 1
        assert result["decisions"][i] == decisions
        assert list(result["returns"][i]) == state.returns()
        assert list(result["scores"][i]) == state.scores()
        assert max(state.scores()) == 2


def test_cli_musta_maija_table_shows_how_often_each_seat_loses(capsys):
    assert main(["simulate", "musta_maija", "--games", "2000", "--players", "4", "--seed", "1", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    rates = [seat["loss_rate"] for seat in summary["seats"]]
    assert len(rates) == 4 and abs(sum(rates) - 1) < 1e-9  # exactly one loser per game
    assert summary["draws"] == 0
    assert main(["simulate", "musta_maija", "--games", "300", "--quiet"]) == 0
    assert "loss rate" in capsys.readouterr().out
    with pytest.raises(InvalidOptionError):
        tapete.simulate(tapete.reference.MustaMaija(), games=10)


def test_simulate_mosca_conserves_chips_and_matches_stepping():
    game = tapete.Mosca(players=5)
    one = tapete.simulate(game, games=200, seed=3, threads=1)
    two = tapete.simulate(game, games=200, seed=3, threads=2)
    for key in ("returns", "scores", "deals", "decisions"):
        assert np.array_equal(one[key], two[key])
    assert one["returns"].shape == (200, 5)
    assert np.allclose(one["returns"].sum(axis=1), 0.0)
    # docs/rules/mosca.md §6: returns = net chips + an equal share of the pot left, so the pot left is
    # 5 * (return - (balance - 100)) and never negative
    pot = 5 * (one["returns"] - (one["scores"] - 100))
    assert np.allclose(pot, pot[:, :1]) and (pot[:, 0] > -1e-9).all()
    assert (one["deals"] == 10).all()  # match_deals = 2N
    state = game.new_state(seed=3)
    rng = 3 ^ 0xD1B54A32D192ED03
    while not state.is_terminal():
        rng = (rng + 0x9E3779B97F4A7C15) % 2**64
        z = rng
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % 2**64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % 2**64
        z ^= z >> 31
        legal = state.legal_actions()
        state.apply(legal[z % len(legal)])
    assert list(one["scores"][0]) == state.scores()
    assert list(one["returns"][0]) == state.returns()


def test_cli_mosca_prints_chip_results_per_seat(capsys):
    assert main(["simulate", "mosca", "--games", "300", "--players", "5", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "mean chips" in out and "mean net chips" in out and "decisions/s" in out
    assert main(["simulate", "mosca", "--games", "300", "--players", "3", "--json", "--seed", "4"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["game"] == "mosca(players=3)" and len(summary["seats"]) == 3
    assert abs(sum(seat["mean_return"] for seat in summary["seats"])) < 1e-9
    assert main(["simulate", "mosca", "--games", "10", "--players", "9", "--quiet"]) == 2
    assert "players" in capsys.readouterr().err


def test_simulate_burako_is_deterministic_and_matches_stepping():
    game = tapete.Burako(players=4, match="single_hand", max_turns=40)
    one = tapete.simulate(game, games=60, seed=3, threads=1)
    two = tapete.simulate(game, games=60, seed=3, threads=2)
    for key in ("returns", "scores", "deals", "decisions"):
        assert np.array_equal(one[key], two[key])
    assert one["returns"].shape == (60, 4)
    assert np.allclose(one["returns"].sum(axis=1), 0.0)
    # partners share the result and the score (docs/rules/burako.md §1: teams {0,2} and {1,3})
    assert np.array_equal(one["returns"][:, 0], one["returns"][:, 2])
    assert np.array_equal(one["scores"][:, 1], one["scores"][:, 3])
    assert (one["deals"] == 1).all()
    for i in range(3):
        state = game.new_state(seed=3 + i)
        rng = (3 + i) ^ 0xD1B54A32D192ED03  # the bot's SplitMix64 (rust/tapete-core/src/play.rs)
        decisions = 0
        while not state.is_terminal():
            rng = (rng + 0x9E3779B97F4A7C15) % 2**64
            z = rng
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % 2**64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % 2**64
            z ^= z >> 31
            legal = state.legal_actions()
            state.apply(legal[z % len(legal)])
            decisions += 1
        assert one["decisions"][i] == decisions
        assert list(one["returns"][i]) == state.returns()
        assert list(one["scores"][i]) == state.scores()


def test_simulate_burako_matches_and_cli(capsys):
    game = tapete.load("burako(variant=standard,players=2,max_hands=3,max_turns=30)")
    result = tapete.simulate(game, games=40, seed=1)
    assert (result["deals"] >= 1).all() and (result["deals"] <= 3).all()
    assert main(["simulate", "burako", "--players", "4", "--games", "50", "--quiet"]) == 0
    assert "win rate" in capsys.readouterr().out
    with pytest.raises(InvalidOptionError):
        tapete.simulate(tapete.reference.Burako(), games=10)


def test_simulate_flags_matches_cut_off_at_the_decision_cap():
    # no side can ever lead by 10**9 points, so the match runs until the cap of 1,000,000 decisions
    endless = tapete.simulate(tapete.Escoba(win_margin=10**9), games=1, seed=3)
    assert endless["finished"].tolist() == [False]
    assert endless["decisions"].tolist() == [1_000_000]
    assert endless["returns"].tolist() == [[0.0, 0.0]]
    normal = tapete.simulate(tapete.Escoba(), games=20, seed=3)
    assert normal["finished"].dtype == bool and normal["finished"].all()
