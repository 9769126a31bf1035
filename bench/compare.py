"""Two builds of tapete timed side by side in one run: ``python bench/compare.py OLD_PYTHON NEW_PYTHON``.

Each Python is an interpreter with a tapete installed (e.g. a venv made from an older commit). For
every game of the registry and its benchmark option set, the native batch loop
(``tapete.simulate``, one thread, random bot) is timed in a fresh process of each build in turn,
``--runs`` times (interleaved: old, new, old, new...), and the medians of ns per decision are
printed with their ratio. This is how a change shows that no game got slower; it asserts nothing.

``--instructions`` counts instructions instead of time (valgrind's callgrind, which the machine's
load does not disturb): each build runs the same batch of ``G`` and of ``2G`` games under
callgrind, and the difference of the two totals over the difference of their decisions is the
instructions per decision of the loop alone, start-up and imports cancelled out. One run is
enough: the count repeats exactly for the same build and inputs.

``--vecenv`` (with ``--instructions``) counts, the same way, the instructions of one
``tapete.VecEnv`` step of 1,024 envs on one thread (multi-agent, observation and mask included,
a recorded run's actions replayed: ``K`` steps against ``2K``, the recording itself the same in
both): in the float32 encoding on both builds, and ``--format index`` (the compact encoding,
``obs_format="index", mask_format="bits"``) where a build has it.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
from typing import Any

# The snippet each build runs: ns per decision of one batch, the decisions it made.
SNIPPET = """
import json, sys, time, tapete
game = tapete.load(sys.argv[1]); games = int(sys.argv[2])
tapete.simulate(game, games=max(1, games // 10), seed=1, threads=1)  # warm up
start = time.perf_counter()
r = tapete.simulate(game, games=games, seed=1, threads=1)
elapsed = time.perf_counter() - start
decisions = int(r["decisions"].sum())
print(json.dumps({"ns": elapsed / decisions * 1e9, "decisions": decisions}))
"""


def time_once(python: str, game: str, games: int) -> dict[str, float]:
    # numpy's BLAS threads spin-wait beside the timed loop on a small machine (a 1.26x swing
    # measured on 2 cores): one BLAS thread keeps them out of the figures
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    out = subprocess.run([python, "-c", SNIPPET, game, str(games)], capture_output=True, text=True, check=True, env=env)
    return json.loads(out.stdout)  # type: ignore[no-any-return]


# The snippet each build runs under callgrind: one batch, no warm-up, the decisions it made.
COUNT_SNIPPET = """
import json, sys, tapete
game = tapete.load(sys.argv[1])
r = tapete.simulate(game, games=int(sys.argv[2]), seed=1, threads=1)
print(json.dumps({"decisions": int(r["decisions"].sum())}))
"""


# The snippet each build runs under callgrind for --vecenv: the actions of ``total`` random steps
# recorded (the same work in every run), then the first ``steps`` of them replayed.
VECENV_SNIPPET = """
import json, sys, numpy as np, tapete
game = tapete.load(sys.argv[1]); steps, total = int(sys.argv[2]), int(sys.argv[3])
kw = json.loads(sys.argv[4])
env = tapete.VecEnv(game, 1024, seed=3)
_, mask, _ = env.reset(seed=3)
rng = np.random.default_rng(3)
actions = np.empty((total, 1024), dtype=np.int64)
for t in range(total):
    actions[t] = (rng.random(mask.shape) * mask).argmax(axis=1)
    _, mask, *_ = env.step(actions[t])
try:
    env = tapete.VecEnv(game, 1024, seed=3, **kw)
except TypeError:
    print(json.dumps({"decisions": None})); raise SystemExit
env.reset(seed=3)
for a in actions[:steps]:
    env.step(a)
print(json.dumps({"decisions": steps * 1024}))
"""

FORMATS = {"float32": {}, "index": {"obs_format": "index", "mask_format": "bits"}}


def instructions_once(
    python: str, game: str, games: int, snippet: str = "", extra: tuple[str, ...] = ()
) -> tuple[int, Any]:
    """(instructions, decisions) of one batch of ``games`` (or one run of ``snippet``) under callgrind."""
    # a fixed hash seed: the interpreter's own start-up then repeats instruction for instruction
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", PYTHONHASHSEED="0")
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={tmp}/cg.out",
                python,
                "-c",
                snippet or COUNT_SNIPPET,
            ]
            + [game, str(games), *extra],
            capture_output=True,
            text=True,
            check=True,
            env=env,
        )
    found = re.search(r"Collected\s*:\s*(\d+)", out.stderr)
    if found is None:
        raise SystemExit(f"callgrind printed no instruction count:\n{out.stderr[-2000:]}")
    return int(found.group(1)), json.loads(out.stdout)["decisions"]


def instructions_per_decision(python: str, game: str, games: int) -> float:
    """Instructions per decision of the batch loop alone: the 2G-game run minus the G-game run."""
    ir1, d1 = instructions_once(python, game, games)
    ir2, d2 = instructions_once(python, game, 2 * games)
    return (ir2 - ir1) / (d2 - d1)


def instructions_per_step(python: str, game: str, steps: int, fmt: str) -> float | None:
    """Instructions per VecEnv step of 1,024 envs: ``2K`` steps replayed minus ``K``; None when
    the build has no such encoding."""
    kw = json.dumps(FORMATS[fmt])
    ir1, d1 = instructions_once(python, game, steps, VECENV_SNIPPET, (str(2 * steps), kw))
    if d1 is None:
        return None
    ir2, d2 = instructions_once(python, game, 2 * steps, VECENV_SNIPPET, (str(2 * steps), kw))
    return (ir2 - ir1) / (d2 - d1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old", help="the Python of the build before")
    parser.add_argument("new", help="the Python of the build after")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--games", type=int, default=4000, help="games per timed batch")
    parser.add_argument("--instructions", action="store_true", help="count instructions (callgrind), not time")
    parser.add_argument("--vecenv", action="store_true", help="with --instructions: per VecEnv step, 1,024 envs")
    parser.add_argument("--format", choices=list(FORMATS), default="float32", help="the VecEnv encoding")
    parser.add_argument("--steps", type=int, default=10, help="--vecenv: K, the steps of the shorter run")
    parser.add_argument("game", nargs="*", help="game strings (default: each game's benchmark option set)")
    args = parser.parse_args()
    games = args.game
    if not games:
        from tapete.registry import GAMES

        games = [str(info.native(**info.bench)) for info in GAMES.values()]
    if args.instructions and args.vecenv:
        print(
            f"instructions per VecEnv step, 1,024 envs, 1 thread, {args.format}"
            f" (callgrind, {args.steps} vs {2 * args.steps} steps)"
        )
        print(f"  {'game':50} {'before':>10} {'after':>10} {'after/before':>13}")
        for game in games:
            a = instructions_per_step(args.old, game, args.steps, args.format)
            b = instructions_per_step(args.new, game, args.steps, args.format)
            ratio = f"{b / a:12.3f}x" if a and b else f"{'—':>13}"
            show = [f"{x:10.0f}" if x else f"{'—':>10}" for x in (a, b)]
            print(f"  {game:50} {show[0]} {show[1]} {ratio}")
            sys.stdout.flush()
        return
    if args.instructions:
        games_counted = max(1, args.games // 20)
        counted = f"{games_counted} vs {2 * games_counted} games"
        print(f"instructions per decision, native batch loop, 1 thread (callgrind, {counted})")
        print(f"  {'game':50} {'before':>10} {'after':>10} {'after/before':>13}")
        for game in games:
            a = instructions_per_decision(args.old, game, games_counted)
            b = instructions_per_decision(args.new, game, games_counted)
            print(f"  {game:50} {a:10.0f} {b:10.0f} {b / a:12.3f}x")
            sys.stdout.flush()
        return
    print(f"ns per decision, native batch loop, 1 thread, median of {args.runs} interleaved runs")
    print(f"  {'game':50} {'before':>10} {'after':>10} {'after/before':>13}")
    for game in games:
        old: list[float] = []
        new: list[float] = []
        for _ in range(args.runs):
            old.append(time_once(args.old, game, args.games)["ns"])
            new.append(time_once(args.new, game, args.games)["ns"])
        a, b = statistics.median(old), statistics.median(new)
        print(f"  {game:50} {a:10.1f} {b:10.1f} {b / a:12.3f}x")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
