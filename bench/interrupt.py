"""How fast Ctrl-C stops ``tapete.simulate``: ``python bench/interrupt.py [--runs 10]``.

For each game (its default options) and both result modes, a child process starts a batch far
too long to finish, the parent sends SIGINT after a random delay, and the child notes when the
``KeyboardInterrupt`` reached it. Latency = that moment - the moment the signal was sent (both
on the system's monotonic clock). Prints the median and the maximum per game. A report, not a
test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import random
import signal
import statistics
import subprocess
import sys
import time

from tapete.registry import GAMES

CHILD = """
import time, tapete
game = tapete.{cls}()
simulate = tapete.simulate
print("started", flush=True)
try:
    simulate(game, games={games}, seed=1, aggregate={aggregate})
except KeyboardInterrupt:
    print("caught", time.monotonic(), flush=True)
"""


def latency(cls: str, aggregate: bool, delay: float) -> float:
    games = 1_000_000_000 if aggregate else 1_000_000
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD.format(cls=cls, games=games, aggregate=aggregate)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "started"
    time.sleep(delay)
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    out, _ = child.communicate(timeout=120)
    return float(out.split()[-1]) - sent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--games", nargs="*", default=list(GAMES))
    args = parser.parse_args()
    rng = random.Random(0)
    print(f"{'game':<14}{'mode':<11}{'median ms':>10}{'max ms':>10}")
    for name in args.games:
        for aggregate in (True, False):
            ms = [1000 * latency(GAMES[name].class_name, aggregate, rng.uniform(0.05, 0.5)) for _ in range(args.runs)]
            mode = "aggregate" if aggregate else "arrays"
            print(f"{name:<14}{mode:<11}{statistics.median(ms):>10.1f}{max(ms):>10.1f}", flush=True)


if __name__ == "__main__":
    main()
