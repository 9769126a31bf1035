"""``tapete.simulate(..., bots=[...])`` and ``tapete simulate --bots`` (docs/bots.md §7): a bot per
seat, each on its own stream, results independent of the thread count, the Python path (a Python
bot in a seat) playing the native seats exactly as the native path does, and typed errors."""

from __future__ import annotations

import numpy as np
import pytest

import tapete
from tapete import errors
from tapete.bots import ISMCTS, FunctionBot, Heuristic
from tapete.cli import main, seat_bots
from tapete.games import _simulate_in_python, seat_seed
from tapete.reference._rng import SplitMix64

SCOPA = "escoba(variant=scopa)"


def same(a: dict, b: dict) -> None:
    assert a.keys() == b.keys()
    for key in a:
        assert np.array_equal(np.asarray(a[key]), np.asarray(b[key])), key


def test_results_do_not_depend_on_threads() -> None:
    game = tapete.load(SCOPA)
    bots = ["heuristic", "ismcts:iterations=30,rollout=heuristic"]
    one = tapete.simulate(game, 12, 7, bots=bots, threads=1)
    same(one, tapete.simulate(game, 12, 7, bots=bots, threads=2))
    # and on how the batch is split into calls: game i is dealt with seed + i
    same({k: v[5:] for k, v in one.items()}, tapete.simulate(game, 7, 12, bots=bots, threads=1))


@pytest.mark.parametrize("name", ["escoba", "mosca", "musta_maija", "burako"])
def test_the_python_path_plays_native_seats_as_the_native_path(name: str) -> None:
    game = tapete.load(name)
    bots = ["heuristic"] + ["random"] * (game.num_players - 1)
    native = tapete.simulate(game, 3, 11, bots=bots, threads=1)
    same(native, _simulate_in_python(game, 3, 11, bots, None, False))


def test_seat_streams_are_the_documented_ones() -> None:
    # docs/bots.md §7: seat p's stream is seeded by the (p+1)-th output of SplitMix64(seed ^ XOR)
    seeds = SplitMix64(5 ^ 0xD1B5_4A32_D192_ED03)
    assert [seat_seed(5, p) for p in range(3)] == [seeds.next(), seeds.next(), seeds.next()]


def test_a_python_bot_sits_beside_native_bots() -> None:
    game = tapete.load(SCOPA)
    seen = []

    def first(view: dict, legal: list[int]) -> int:
        seen.append(view["player"])
        return legal[0]

    result = tapete.simulate(game, 4, 3, bots=[FunctionBot(first), "heuristic"])
    assert result["returns"].shape == (4, 2) and result["finished"].all()
    assert set(seen) == {0}  # it only ever played its own seat
    totals = tapete.simulate(game, 4, 3, bots=[first, Heuristic(seed=99)], aggregate=True)
    assert totals["games"] == 4 and totals["wins"].sum() + totals["draws"] <= 4
    assert totals["returns_sum"].tolist() == result["returns"].sum(axis=0).tolist()


def test_native_bot_objects_count_by_their_spec() -> None:
    game = tapete.load(SCOPA)
    by_text = tapete.simulate(game, 3, 1, bots=["ismcts:iterations=20", "heuristic"])
    by_object = tapete.simulate(game, 3, 1, bots=[ISMCTS(iterations=20, seed=5), Heuristic(seed=8)])
    same(by_text, by_object)


@pytest.mark.parametrize(
    "bots",
    [["heuristic"], ["heuristic"] * 3, ["nope", "random"], [3, "random"], "ismcts:iterations=0", 5, [None, "random"]],
)
def test_bad_bots_are_typed_errors(bots: object) -> None:
    with pytest.raises(errors.InvalidOptionError):
        tapete.simulate(tapete.load(SCOPA), 2, 0, bots=bots)


def test_the_command_line_reads_one_spec_per_seat() -> None:
    assert seat_bots("random", 2) == "random"
    assert seat_bots("heuristic", 3) == ["heuristic"] * 3
    assert seat_bots("ismcts:iterations=200,c=1.0,heuristic", 2) == ["ismcts:iterations=200,c=1.0", "heuristic"]
    with pytest.raises(errors.InvalidOptionError):
        seat_bots("heuristic,random,random", 2)


def test_the_command_line_prints_each_seats_bot(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["simulate", "escoba", "--variant", "scopa", "--games", "6", "--bots", "ismcts:10,heuristic", "--quiet"])
        == 0
    )
    out = capsys.readouterr().out
    assert "6 bot games" in out and "ismcts:10" in out and "heuristic" in out
    assert main(["simulate", "mosca", "--games", "2", "--bots", "heuristic,random"]) == 2
    assert "expected one bot for every seat" in capsys.readouterr().err


def test_the_readme_bots_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    import pathlib
    import re

    readme = (pathlib.Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Bots", 1)[1].split("\n## ", 1)[0]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None
    exec(compile(code.group(1), "README.md", "exec"), {})
    assert "{" in capsys.readouterr().out  # the policy printed
