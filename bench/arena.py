"""Arena throughput (docs/arena.md §5), measured, never asserted:

``python bench/arena.py [--games N] [--game NAME] [--no-ray] [--repeat R]``

Games per second of ``tapete.arena`` with random against heuristic: locally on 1 and 2 threads,
then through Ray on a local instance (``ray.init(num_cpus=2)``, one task per batch, each task on
one thread) at batches of 100, 1,000 and 10,000 games, with its time against the local run on the
same cores (2 threads). Each figure is the median of ``--repeat`` runs. Ray is skipped when it is
not installed (``pip install 'tapete[ray]'``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import tapete

BOTS = {"random": "random", "heuristic": "heuristic"}


def timed(repeat: int, **kwargs: object) -> float:
    """The median seconds of an arena."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        tapete.arena(bots=BOTS, **kwargs)  # type: ignore[arg-type]
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--game", default="escoba(variant=scopa)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-ray", action="store_true")
    args = parser.parse_args()
    game = tapete.load(args.game)
    n = args.games
    print(f"arena {args.game}, random vs heuristic, {n:,} games, median of {args.repeat}")
    local = {}
    for threads in (1, 2):
        t = timed(args.repeat, game=game, games=n, seed=1, threads=threads, batch=10_000)
        local[threads] = t
        print(f"local, {threads} thread{'s' if threads > 1 else ''}: {n / t:>10,.0f} games/s")
    if args.no_ray:
        return
    try:
        import ray
    except ImportError:
        print("ray: not installed, skipped")
        return
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        timed(1, game=game, games=2_000, seed=1, backend="ray", batch=1_000)  # workers up, imports done
        for batch in (100, 1_000, 10_000):
            t = timed(args.repeat, game=game, games=n, seed=1, backend="ray", batch=batch)
            per_task = (t - local[2]) / (n / batch) * 1e3
            print(
                f"ray, batch {batch:>6,}: {n / t:>10,.0f} games/s,"
                f" {t / local[2]:.2f}x the local time on 2 threads ({per_task:+.1f} ms a task)"
            )
    finally:
        ray.shutdown()


if __name__ == "__main__":
    main()
