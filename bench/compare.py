"""Two builds of tapete timed side by side in one run: ``python bench/compare.py OLD_PYTHON NEW_PYTHON``.

Each Python is an interpreter with a tapete installed (e.g. a venv made from an older commit). For
every game of the registry and its benchmark option set, the native batch loop
(``tapete.simulate``, one thread, random bot) is timed in a fresh process of each build in turn,
``--runs`` times (interleaved: old, new, old, new...), and the medians of ns per decision are
printed with their ratio. This is how a change shows that no game got slower; it asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old", help="the Python of the build before")
    parser.add_argument("new", help="the Python of the build after")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--games", type=int, default=4000, help="games per timed batch")
    parser.add_argument("game", nargs="*", help="game strings (default: each game's benchmark option set)")
    args = parser.parse_args()
    games = args.game
    if not games:
        from tapete.registry import GAMES

        games = [str(info.native(**info.bench)) for info in GAMES.values()]
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
