"""The OpenSpiel adapter (docs/envs.md §7): every game registered and loadable by its game
string, OpenSpiel's random_sim_test, TERMINAL at the end, and OpenSpiel's Python algorithms
(external-sampling MCCFR, the Python MCTS bot) running on it."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import tapete  # noqa: E402
from tapete.openspiel import register  # noqa: E402
from tapete.registry import GAMES  # noqa: E402

SMALL = "tapete_escoba(cards_per_hand=1,initial_table_cards=0,game=single_deal)"


@pytest.fixture(scope="module", autouse=True)
def registered():
    names = register()
    assert register() == names  # a second call changes nothing
    return names


def test_every_game_is_registered(registered):
    assert registered == [f"tapete_{name}" for name in GAMES]
    assert set(registered) <= set(pyspiel.registered_names())


def test_game_strings_keep_presets_and_options():
    g = pyspiel.load_game("tapete_escoba(variant=escoba)")
    assert g.tapete == tapete.Escoba(variant="escoba")  # the preset's deck stands
    g = pyspiel.load_game("tapete_escoba(players=4,target=11)")
    assert g.tapete == tapete.Escoba(players=4, target=11) and g.num_players() == 4
    g = pyspiel.load_game('tapete_escoba(options={"capture_kinds":["match"]})')
    assert g.tapete == tapete.Escoba(capture_kinds=["match"])
    with pytest.raises(tapete.InvalidOptionError):
        pyspiel.load_game("tapete_escoba(players=9)")


@pytest.mark.parametrize("name", list(GAMES))
def test_random_sim_test(name):
    params = ",".join(f"{k}={v}" for k, v in GAMES[name].bench.items())
    pyspiel.random_sim_test(pyspiel.load_game(f"tapete_{name}({params})"), num_sims=2, serialize=False, verbose=False)


def test_terminal_is_openspiels_terminal_and_states_follow_the_engine():
    g = pyspiel.load_game(SMALL)
    s = g.new_initial_state()
    rng = np.random.default_rng(0)
    while not s.is_terminal():
        assert s.current_player() == s.tapete.current_player()
        assert s.legal_actions() == s.tapete.legal_actions()
        assert np.array_equal(s.observation_tensor(s.current_player()), s.tapete.observation(s.current_player()))
        s.apply_action(int(rng.choice(s.legal_actions())))
    assert s.current_player() == pyspiel.PlayerId.TERMINAL == -4
    assert s.returns() == s.tapete.returns() and sum(s.returns()) == 0
    # each new_initial_state is a new deal, repeatable from the game's seed
    a, b = pyspiel.load_game(SMALL), pyspiel.load_game(SMALL)
    deals = [a.new_initial_state().tapete.to_json() for _ in range(3)]
    assert deals == [b.new_initial_state().tapete.to_json() for _ in range(3)]
    assert len(set(deals)) == 3


def test_external_sampling_mccfr_runs():
    from open_spiel.python.algorithms import external_sampling_mccfr as es

    g = pyspiel.load_game(SMALL)
    solver = es.ExternalSamplingSolver(g, es.AverageType.SIMPLE)
    for _ in range(20):
        solver.iteration()
    policy = solver.average_policy()
    s = g.new_initial_state()
    probs = policy.action_probabilities(s)
    assert set(probs) == set(s.legal_actions())
    assert abs(sum(probs.values()) - 1.0) < 1e-9


def test_pythons_mcts_bot_plays_where_the_cpp_bots_cannot():
    # docs/envs.md §7: OpenSpiel's C++ MCTSBot and ISMCTSBot crash on games registered from
    # Python; the Python bots run
    from open_spiel.python.algorithms import mcts

    g = pyspiel.load_game(SMALL)
    bot = mcts.MCTSBot(g, 2.0, 16, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)))
    s = g.new_initial_state()
    while not s.is_terminal():
        s.apply_action(bot.step(s))
    assert s.returns() in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])


def test_pythons_ismcts_bot_with_resample():
    from open_spiel.python.algorithms import ismcts, mcts

    g = pyspiel.load_game(SMALL)
    s = g.new_initial_state()
    bot = ismcts.ISMCTSBot(g, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)), 1.0, 16)
    while not s.is_terminal():
        s.apply_action(bot.step(s))
    assert sum(s.returns()) == 0
