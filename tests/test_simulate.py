"""``tapete.simulate`` and the ``tapete simulate`` command, for every registered game, then what
only one game's results show."""

from __future__ import annotations

import json

import numpy as np
import pytest

import tapete
from tapete._options import spec
from tapete.cli import main
from tapete.errors import InvalidOptionError
from tapete.registry import GAMES

#: The option set each game's batch is checked with (short matches where a game has long ones).
BATCHES = {
    "escoba": {"variant": "escoba", "players": 4},
    "mosca": {"players": 5},
    "musta_maija": {"players": 3, "match": "first_to_losses", "match_losses": 2},
    "burako": {"players": 4, "match": "single_hand", "max_turns": 40},
}
KEYS = ("returns", "scores", "deals", "decisions", "finished")


def bot_choices(seed: int):
    """The random bot's stream of game ``seed`` (rust/tapete-core/src/play.rs): SplitMix64 from
    ``seed ^ BOT_SEED_XOR`` (docs/design.md §5), written out here."""
    x = seed ^ 0xD1B54A32D192ED03
    while True:
        x = (x + 0x9E3779B97F4A7C15) % 2**64
        z = x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % 2**64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % 2**64
        yield z ^ (z >> 31)


def batch(name: str, games: int, seed: int, threads: int = 0) -> dict[str, np.ndarray]:
    return tapete.simulate(GAMES[name].native(**BATCHES[name]), games=games, seed=seed, threads=threads)


def test_every_game_has_a_batch_option_set():
    assert set(BATCHES) == set(GAMES)


@pytest.mark.parametrize("name", list(GAMES))
def test_results_do_not_depend_on_threads_or_chunks(name):
    one, two = batch(name, 60, 42, threads=1), batch(name, 60, 42, threads=2)
    first, second = batch(name, 20, 42), batch(name, 40, 62)
    n = GAMES[name].native(**BATCHES[name]).num_players
    for key in KEYS:
        assert np.array_equal(one[key], two[key])
        assert np.array_equal(one[key], np.concatenate([first[key], second[key]]))
    assert one["returns"].shape == one["scores"].shape == (60, n)
    assert np.allclose(one["returns"].sum(axis=1), 0.0), "returns are zero-sum"
    assert (one["deals"] >= 1).all() and (one["decisions"] > 0).all() and one["finished"].all()


@pytest.mark.parametrize("name", list(GAMES))
def test_the_batch_plays_the_games_stepping_plays(name):
    """Game i of a batch is new_state(seed + i) played by the random bot's stream."""
    game = GAMES[name].native(**BATCHES[name])
    result = tapete.simulate(game, games=3, seed=7, threads=1)
    for i in range(3):
        state, choices, decisions = game.new_state(seed=7 + i), bot_choices(7 + i), 0
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[next(choices) % len(legal)])
            decisions += 1
        assert result["decisions"][i] == decisions
        assert list(result["returns"][i]) == state.returns()
        assert list(result["scores"][i]) == state.scores()
        assert result["deals"][i] == state.deals()


def test_simulate_rejects_bad_arguments():
    game = tapete.Escoba()
    for bad in (
        {"games": -1},
        {"games": 2**40},
        {"games": 2**60},
        {"games": 1, "threads": 2**40},
        {"games": 1.5},
        {"games": 10, "threads": -1},
        {"games": 10, "seed": -1},
    ):
        with pytest.raises(InvalidOptionError):
            tapete.simulate(game, **bad)
    with pytest.raises(InvalidOptionError):
        tapete.simulate(game, games=10, bots="minimax")
    for info in GAMES.values():
        with pytest.raises(InvalidOptionError):
            tapete.simulate(info.reference(), games=10)  # the batch loop is native only


def test_simulate_flags_matches_cut_off_at_the_decision_cap():
    # no side can ever lead by 10**9 points, so the match runs until the cap of 1,000,000 decisions
    endless = tapete.simulate(tapete.Escoba(win_margin=10**9), games=1, seed=3)
    assert endless["finished"].tolist() == [False]
    assert endless["decisions"].tolist() == [1_000_000]
    assert endless["returns"].tolist() == [[0.0, 0.0]]


# -- what one game's results show ----------------------------------------------------------------


def test_partners_share_the_result():
    """docs/rules/escoba.md §1.1 and docs/rules/burako.md §1: seats 0 and 2 are partners."""
    for name in ("escoba", "burako"):
        r = batch(name, 40, 3)
        assert np.array_equal(r["returns"][:, 0], r["returns"][:, 2])
        assert np.array_equal(r["scores"][:, 1], r["scores"][:, 3])


def test_mosca_returns_are_net_chips_plus_a_share_of_the_pot():
    """docs/rules/mosca.md §6: returns = net chips + an equal share of the pot left, so the pot
    left, 5 * (return - (balance - 100)), is the same for every seat and never negative."""
    r = batch("mosca", 60, 3)
    pot = 5 * (r["returns"] - (r["scores"] - 100))
    assert np.allclose(pot, pot[:, :1]) and (pot[:, 0] > -1e-9).all()
    assert (r["deals"] == 10).all()  # match_deals = 2N


def test_musta_maija_one_hand_one_loser():
    """docs/rules/musta_maija.md §5: -1 for the loser, +1/3 for each other seat; scores count losses."""
    r = tapete.simulate(tapete.MustaMaija(players=4), games=100, seed=42)
    assert ((r["returns"] == -1.0).sum(axis=1) == 1).all()
    assert (r["scores"].sum(axis=1) == 1).all() and (r["deals"] == 1).all()
    assert np.array_equal(r["returns"] == -1.0, r["scores"] == 1)


# -- the command ---------------------------------------------------------------------------------


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


@pytest.mark.parametrize("name", list(GAMES))
def test_cli_table_for_every_game(capsys, name):
    assert main(["simulate", name, "--games", "200", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "win rate" in out and "decisions/s" in out
    assert main(["simulate", name, "--games", "10", "--variant", "nonsense", "--quiet"]) == 2
    # the error names what is wrong: the unknown preset, or (a game without presets) the option
    assert ("nonsense" if spec(name).presets else '"variant"') in capsys.readouterr().err


def test_cli_shows_chips_and_loss_rates(capsys):
    assert main(["simulate", "mosca", "--games", "300", "--players", "5", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "mean chips" in out and "mean net chips" in out
    assert main(["simulate", "mosca", "--games", "300", "--players", "3", "--json", "--seed", "4"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["game"] == "mosca(players=3)" and len(summary["seats"]) == 3
    assert abs(sum(seat["mean_return"] for seat in summary["seats"])) < 1e-9
    assert main(["simulate", "musta_maija", "--games", "2000", "--players", "4", "--seed", "1", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    rates = [seat["loss_rate"] for seat in summary["seats"]]
    assert len(rates) == 4 and abs(sum(rates) - 1) < 1e-9  # exactly one loser per game
    assert summary["draws"] == 0
