"""The environment adapters show a seat only its view (docs/design.md §11, and rule 2 of docs/design.md §8): paired
states (tests/secrecy_pairs.py: the same ``view(p)``, other hidden cards and private action
details) give seat p the same PettingZoo observation and action mask, and the same OpenSpiel
observation tensor, observation string and information state string. The Gymnasium adapter
steps in Rust; its observation is held to the engine's observation of the learner's seat (which
the paired tests hold to the view). Each adapter's test skips without its extra."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import tapete
from secrecy_pairs import CONFIGS, SCALE, resampled_pairs


def _pairs(text: str, tag: str, count: int = 6) -> Any:
    game = tapete.load(text)
    return game, resampled_pairs(game, random.Random(f"{tag}/{text}"), count * SCALE)


@pytest.mark.parametrize("text", CONFIGS)
def test_pettingzoo_observations_of_paired_states_are_equal(text: str) -> None:
    pytest.importorskip("pettingzoo")
    from tapete.envs import pettingzoo_env

    game, pairs = _pairs(text, "pettingzoo")
    env = pettingzoo_env(game)
    env.reset(seed=1)
    for a, b, p in pairs:
        seen = []
        for state in (a, b):
            env.state = state
            seen.append(env.observe(f"player_{p}"))
        assert np.array_equal(seen[0]["observation"], seen[1]["observation"])
        assert np.array_equal(seen[0]["action_mask"], seen[1]["action_mask"])


@pytest.mark.parametrize("text", CONFIGS)
def test_openspiel_observations_of_paired_states_are_equal(text: str) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from tapete.openspiel import _State, register

    register()
    game, pairs = _pairs(text, "openspiel")
    name, _, options = text.partition("(")
    spiel = pyspiel.load_game(f"tapete_{name}({options}" if options else f"tapete_{name}")
    observer = spiel.make_py_observer()
    for a, b, p in pairs:
        seen = []
        for state in (a, b):
            wrapped = _State(spiel, state)
            observer.set_from(wrapped, p)
            notation = [wrapped.action_to_string(p, x) for x in range(game.num_distinct_actions)]
            seen.append(
                (
                    observer.tensor.copy().tolist(),
                    observer.string_from(wrapped, p),
                    wrapped.information_state_string(p),
                    notation,
                )
            )
        assert seen[0] == seen[1]


def test_the_gymnasium_observation_is_the_learners_engine_observation() -> None:
    pytest.importorskip("gymnasium")
    from tapete.envs import gymnasium_env

    for text in CONFIGS:
        env = gymnasium_env(tapete.load(text), seat=0)
        obs, _ = env.reset(seed=3)
        rng = random.Random(text)
        for _ in range(40):
            state = env.unwrapped._env.state(0)
            assert np.array_equal(obs["observation"], state.observation(0))
            assert np.array_equal(obs["action_mask"].astype(bool), state.legal_mask())
            legal = np.flatnonzero(obs["action_mask"])
            obs, _, done, cut, _ = env.step(int(rng.choice(list(legal))))
            if done or cut:
                break
