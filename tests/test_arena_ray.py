"""The arena on a local Ray instance gives the local backend's results (docs/arena.md §3)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import tapete
from tapete.arena import read_record

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def local_ray() -> Iterator[Any]:
    # explicit: a token file left by an earlier `ray start` would make the head refuse this driver
    before = os.environ.get("RAY_AUTH_MODE")
    os.environ["RAY_AUTH_MODE"] = "disabled"
    # the workers import this tapete, wherever the tests found it
    path = os.path.dirname(os.path.dirname(tapete.__file__))
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        runtime_env={"env_vars": {"PYTHONPATH": os.pathsep.join([path, os.environ.get("PYTHONPATH", "")])}},
    )
    yield ray
    ray.shutdown()
    if before is None:
        del os.environ["RAY_AUTH_MODE"]
    else:
        os.environ["RAY_AUTH_MODE"] = before


def test_ray_matches_local(local_ray: Any, tmp_path: Any) -> None:
    game = tapete.Escoba(players=4)
    bots = {"h": "heuristic", "r": "random"}
    local = tapete.arena(game, bots, games=3000, seed=8, batch=1000)
    remote = tapete.arena(game, bots, games=3000, seed=8, batch=1000, backend="ray", record=str(tmp_path / "rec"))
    assert remote.backend == "ray"
    assert np.array_equal(local.returns, remote.returns)
    assert np.array_equal(local.scores, remote.scores)
    assert local.elo == remote.elo
    # each task wrote its own part; every game is in the record once
    assert len(list((tmp_path / "rec").glob("part-*"))) == 3
    rows = list(read_record(tmp_path / "rec"))
    assert sorted((r["group"], r["seating"]) for r in rows) == [(g, j) for g in range(1500) for j in range(2)]


def test_ray_stops_where_local_stops(local_ray: Any, tmp_path: Any) -> None:
    game = tapete.Escoba()
    bots = {"h": "heuristic", "r": "random"}
    local = tapete.arena(game, bots, games=50_000, seed=1, batch=1000, sprt=(0, 10))
    remote = tapete.arena(
        game, bots, games=50_000, seed=1, batch=1000, sprt=(0, 10), backend="ray", record=str(tmp_path / "r")
    )
    assert local.games < 50_000 and remote.games == local.games
    assert remote.sprt == local.sprt
    # batches past the stop left no part behind
    assert len(list(read_record(tmp_path / "r"))) == remote.games


def test_many_bots_on_ray(local_ray: Any) -> None:
    game = tapete.Mosca()
    bots = {"h": "heuristic", "r": "random", "i": "ismcts:10"}
    local = tapete.arena(game, bots, games=24, seed=3, batch=8, bootstrap=10)
    remote = tapete.arena(game, bots, games=24, seed=3, batch=8, bootstrap=10, backend="ray")
    assert np.array_equal(local.returns, remote.returns)
    assert local.elo == remote.elo


class DieOnce:
    """Plays the lowest legal action; the first call anywhere kills its process (a worker dying
    mid-batch), and leaves a marker so that the retry lives."""

    def __init__(self, marker: str) -> None:
        self.marker = marker

    def act(self, seat: Any) -> int:
        if not os.path.exists(self.marker):
            with open(self.marker, "w"):
                pass
            os._exit(1)
        return int(seat.legal_actions()[0])


def test_a_dead_worker_loses_no_game(local_ray: Any, tmp_path: Any) -> None:
    import sys

    from ray import cloudpickle

    cloudpickle.register_pickle_by_value(sys.modules[__name__])  # the workers cannot import this file
    game = tapete.Escoba()
    bots = {"die": DieOnce(str(tmp_path / "died")), "r": "random"}
    remote = tapete.arena(game, bots, games=40, seed=2, batch=10, backend="ray", record=str(tmp_path / "rec"))
    assert (tmp_path / "died").exists()  # a worker did die
    local = tapete.arena(game, bots, games=40, seed=2, batch=10)
    assert np.array_equal(local.returns, remote.returns)
    rows = list(read_record(tmp_path / "rec"))
    assert sorted((r["group"], r["seating"]) for r in rows) == [(g, j) for g in range(20) for j in range(2)]
