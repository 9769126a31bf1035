"""Hostile and careless input on both engines: bounds, typed errors, short messages; and the
batch API's chunked mode (progress, totals, memory)."""

from __future__ import annotations

import numpy as np
import pytest

import tapete
from tapete.errors import InvalidOptionError
from tapete.registry import GAMES

# ----- simulate: chunks, progress, totals, memory ------------------------------------------------


@pytest.mark.parametrize("name", list(GAMES))
def test_aggregate_totals_are_the_sums_of_the_arrays(name):
    game = GAMES[name].native()
    rows = tapete.simulate(game, games=25, seed=3)
    totals = tapete.simulate(game, games=25, seed=3, aggregate=True, threads=1)
    returns = rows["returns"]
    assert totals["games"] == 25
    assert np.array_equal(totals["returns_sum"], returns.sum(axis=0))
    assert np.array_equal(totals["scores_sum"], rows["scores"].sum(axis=0))
    assert np.array_equal(totals["wins"], (returns > 0).sum(axis=0))
    assert np.array_equal(totals["losses"], (returns < 0).sum(axis=0))
    assert totals["draws"] == int(((returns == 0).all(axis=1) & rows["finished"]).sum())
    assert totals["unfinished"] == int((~rows["finished"]).sum())
    assert totals["deals_sum"] == int(rows["deals"].sum())
    assert totals["decisions_sum"] == int(rows["decisions"].sum())


def test_progress_reports_every_chunk_up_to_the_total():
    seen: list[tuple[int, int]] = []
    tapete.simulate(tapete.Mosca(), games=3000, seed=1, progress=lambda done, total: seen.append((done, total)))
    assert seen and seen[-1] == (3000, 3000)
    assert all(total == 3000 for _, total in seen)
    assert [done for done, _ in seen] == sorted({done for done, _ in seen})


def test_an_error_in_progress_stops_the_batch():
    def stop(done, total):
        raise RuntimeError(f"stop at {done}")

    with pytest.raises(RuntimeError, match="stop at"):
        tapete.simulate(tapete.Mosca(), games=10**6, progress=stop)
    with pytest.raises(InvalidOptionError, match="progress"):
        tapete.simulate(tapete.Mosca(), games=10, progress=3)
    with pytest.raises(InvalidOptionError, match="aggregate"):
        tapete.simulate(tapete.Mosca(), games=10, aggregate="yes")


def test_results_that_cannot_fit_are_refused_before_allocating():
    # 2**32 games of 5 seats take 73 bytes each: about 314 GB, far more than any test machine
    with pytest.raises(InvalidOptionError, match=r"need 313\.5 GB .*aggregate"):
        tapete.simulate(tapete.Mosca(players=5), games=2**32)


def test_aggregate_mode_takes_any_batch_size_in_constant_memory():
    seen = []

    def stop(done, total):
        seen.append(done)
        raise StopIteration

    with pytest.raises(StopIteration):  # started without allocating 2**32 rows
        tapete.simulate(tapete.Mosca(players=5), games=2**32, aggregate=True, progress=stop)
    assert 0 < seen[0] < 2**16


def test_numpy_integers_are_counts_seeds_and_threads():
    r = tapete.simulate(tapete.Mosca(), games=np.int64(4), seed=np.uint64(2**63 + 5), threads=np.int32(1))
    assert r["deals"].shape == (4,)
    assert np.array_equal(r["returns"], tapete.simulate(tapete.Mosca(), games=4, seed=2**63 + 5)["returns"])
