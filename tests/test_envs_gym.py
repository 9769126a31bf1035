"""The Gymnasium adapters (docs/envs.md §5): Gymnasium's own checker, masks, penalties, caps
reported as truncated, and the vector env's same-step auto-reset."""

from __future__ import annotations

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

import tapete  # noqa: E402
from tapete.envs import gymnasium_env, gymnasium_vector_env  # noqa: E402
from tapete.registry import GAMES  # noqa: E402


@pytest.mark.parametrize("name", list(GAMES))
def test_passes_gymnasiums_env_checker(name):
    from gymnasium.utils.env_checker import check_env

    env = gymnasium_env(GAMES[name].native(**GAMES[name].bench))
    check_env(env, skip_render_check=True)


def test_plays_whole_matches_with_the_mask():
    env = gymnasium_env("escoba", seat=1)
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=3)
    assert env.observation_space.contains(obs) and info["seat"] == 1
    ends = 0
    total = 0.0
    for _ in range(2000):
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        assert env.observation_space.contains(obs)
        if terminated or truncated:
            # rewards only at the end: the learner's return, as the match's returns say
            assert reward == info["returns"][1]
            total += reward
            ends += 1
            obs, info = env.reset()
        else:
            assert reward == 0.0
    assert ends >= 5


def test_illegal_action_penalty_or_raise():
    env = gymnasium_env("escoba")
    obs, _ = env.reset(seed=1)
    before = env.unwrapped._env.state(0).to_json()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs2, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert "not legal" in info["illegal_action"]
    assert env.unwrapped._env.state(0).to_json() == before
    with pytest.raises(tapete.InvalidOptionError):
        env.step(0)  # the episode is over
    strict = gymnasium_env("escoba", illegal_action="raise")
    obs, _ = strict.reset(seed=1)
    with pytest.raises(tapete.IllegalActionError):
        strict.step(illegal)
    with pytest.raises(tapete.InvalidOptionError):
        gymnasium_env("escoba", illegal_action="ignore")


def test_a_cap_is_truncated_not_terminated():
    env = gymnasium_env("escoba", max_decisions=3)
    obs, _ = env.reset(seed=0)
    for _ in range(2):
        obs, reward, terminated, truncated, _ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        if terminated or truncated:
            break
    assert truncated and not terminated and reward == 0.0


def test_vector_env_same_step_autoreset():
    from gymnasium.vector import AutoresetMode

    env = gymnasium_vector_env("escoba(cards_per_hand=1,initial_table_cards=0,game=single_deal)", 8, seat="random")
    assert env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    obs, info = env.reset(seed=2)
    assert env.observation_space.contains(obs)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(200):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
        obs, reward, terminated, truncated, info = env.step(actions)
        assert env.observation_space.contains(obs)
        done = terminated | truncated
        if done.any():
            assert np.array_equal(info["_final_obs"], done)
            assert np.array_equal(info["episode_return"][done], reward[done])
            assert set(np.abs(reward[done]).tolist()) <= {0.0, 1.0}
            finished += int(done.sum())
        assert not reward[~done].any()
    assert finished >= 8
    with pytest.raises(tapete.IllegalActionError):
        env.step(np.full(8, -1))
