"""The PettingZoo adapter (docs/envs.md §6): PettingZoo's own api_test and seed_test on every
game, rewards at the end only, dead steps, caps as truncations, illegal actions refused."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

import tapete  # noqa: E402
from tapete.envs import pettingzoo_env  # noqa: E402
from tapete.registry import GAMES  # noqa: E402


def _small(name):
    return GAMES[name].native(**GAMES[name].bench)


@pytest.mark.parametrize("name", list(GAMES))
def test_passes_pettingzoos_api_test(name):
    from pettingzoo.test import api_test

    api_test(pettingzoo_env(_small(name)), num_cycles=200)


@pytest.mark.parametrize("name", list(GAMES))
def test_passes_pettingzoos_seed_test(name):
    from pettingzoo.test import seed_test

    seed_test(lambda: pettingzoo_env(_small(name)), num_cycles=50)


def _play(env, seed, rng):
    env.reset(seed=seed)
    steps, ended = 0, None
    for _agent in env.agent_iter(max_iter=100_000):
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            ended = ended or (terminated, truncated, dict(env.rewards))
            env.step(None)
            continue
        assert reward == 0.0  # rewards only at the end
        assert obs["action_mask"].any()
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    return steps, ended


def test_a_whole_match_and_its_dead_steps():
    env = pettingzoo_env("escoba(players=3)")
    rng = np.random.default_rng(0)
    steps, (terminated, truncated, rewards) = _play(env, 4, rng)
    assert terminated and not truncated and steps > 0
    assert sum(rewards.values()) == 0.0 and any(rewards.values())  # zero-sum, decided
    assert env.agents == []


def test_only_the_agent_to_move_has_a_mask_and_others_stay_hidden():
    env = pettingzoo_env("escoba")
    env.reset(seed=1)
    mover = env.agent_selection
    other = next(a for a in env.possible_agents if a != mover)
    assert env.observe(mover)["action_mask"].any()
    assert not env.observe(other)["action_mask"].any()
    assert not np.array_equal(env.observe(mover)["observation"], env.observe(other)["observation"])


def test_caps_are_truncations():
    env = pettingzoo_env("escoba", max_decisions=4)
    _, (terminated, truncated, rewards) = _play(env, 0, np.random.default_rng(0))
    assert truncated and not terminated and not any(rewards.values())
    # docs/burako_engine.md §9: undecided after hand max_hands; no hand scores 10**6
    env = pettingzoo_env(tapete.Burako(max_hands=1, target=10**6))
    _, (terminated, truncated, _) = _play(env, 0, np.random.default_rng(0))
    assert truncated and not terminated


def test_illegal_actions_raise_and_change_nothing():
    env = pettingzoo_env("escoba")
    env.reset(seed=2)
    before = env.state.to_json()
    mask = env.observe(env.agent_selection)["action_mask"]
    for bad in (int(np.flatnonzero(mask == 0)[0]), -1, 10**6, 1.5, "x", None):
        with pytest.raises(tapete.IllegalActionError):
            env.step(bad)
    assert env.state.to_json() == before
    with pytest.raises(tapete.InvalidOptionError):
        env.observe("player_7")
    with pytest.raises(tapete.InvalidOptionError):
        pettingzoo_env("escoba", max_decisions=0)
    fresh = pettingzoo_env("escoba")
    with pytest.raises(tapete.InvalidStateError):
        fresh.step(0)
    with pytest.raises(tapete.InvalidOptionError):
        fresh.reset(seed=-1)
