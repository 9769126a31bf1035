"""Resampling speed (docs/design.md §10), measured side by side in one run:

  native (Rust)   one ``resample_into`` into a reused state, in Rust, from mid-deal positions
                  (``cargo run --release --example resample_speed``): the figure search sees
  native (Python) ``state.resample(p, seed)`` through the bindings (a new state each call)
  reference       the same call on the pure-Python reference engine

``python bench/resample.py [--iterations N]``. A report, not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import pathlib
import random
import subprocess
import time
from typing import Any

from tapete.registry import GAMES

ROOT = pathlib.Path(__file__).resolve().parent.parent
# The positions the Rust example times: a game's options and how many decisions are played.
POSITIONS = {
    "escoba": ({"variant": "scopa"}, 18),
    "mosca": ({}, 12),
    "musta_maija": ({"players": 2}, 20),
    "burako": ({"match": "single_hand"}, 30),
}


def positions(game: Any, steps: int, count: int = 16) -> list[Any]:
    found = []
    for seed in range(count * 2):
        rng = random.Random(seed)
        state = game.new_state(seed=seed)
        for _ in range(steps):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            found.append(state)
        if len(found) == count:
            break
    return found


def per_call(states: list[Any], seats: int, calls: int) -> float:
    """Seconds per ``resample`` call, cycling over the states and their seats."""
    start = time.perf_counter()
    for i in range(calls):
        states[i % len(states)].resample(i % seats, i)
    return (time.perf_counter() - start) / calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--iterations", type=int, default=200_000, help="Rust resamples per game")
    parser.add_argument("--calls", type=int, default=20_000, help="Python calls per game (reference: a tenth)")
    args = parser.parse_args()
    rust = subprocess.run(
        ["cargo", "run", "-q", "--release", "--example", "resample_speed", str(args.iterations)],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.splitlines()[1:]
    rust_ns = {line.split("\t")[0]: float(line.split("\t")[3]) for line in rust}
    head = ("game", "decisions in", "Rust ns", "native-py ns", "reference ns", "ref/native-py")
    print(f"{head[0]:<12} {head[1]:>12} {head[2]:>9} {head[3]:>13} {head[4]:>13} {head[5]:>14}")
    for name, (options, steps) in POSITIONS.items():
        info = GAMES[name]
        game = info.native(**options)
        native = positions(game, steps)
        reference = [info.reference(**options).state_from_json(s.to_json()) for s in native]
        py = per_call(native, game.num_players, args.calls)
        ref = per_call(reference, game.num_players, max(1, args.calls // 10))
        print(f"{name:<12} {steps:>12} {rust_ns[name]:>9.0f} {py * 1e9:>13.0f} {ref * 1e9:>13.0f} {ref / py:>13.0f}x")


if __name__ == "__main__":
    main()
