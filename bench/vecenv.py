"""``tapete.VecEnv`` speed, measured side by side in one run (docs/envs.md §4):
``python bench/vecenv.py [game ...]`` (default: every registered game, at its bench option set).

For each game it times, interleaved, ``--runs`` times (median reported):
  VecEnv steps/s at num_envs 1, 64 and 1,024, with 1 and 2 threads, in multi-agent mode:
    "precomputed"  the actions of a recorded run replayed (drawn outside the timed region)
    "numpy random" a random legal action per row drawn from the mask in numpy inside the loop
  simulate       the native random playout loop, 1 thread (decisions/s): the ceiling
and, where installed, what learners use today, one step at a time from Python:
  PettingZoo's classic card environments (rlcard), with a random legal action from the mask
  OpenSpiel's paired games (``peers`` in tapete/registry.py), with a random legal action
A step is one decision of one match. These are reports, not tests: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import tapete
from run import open_spiel_random_step  # bench/run.py, beside this script
from tapete.registry import GAMES

#: PettingZoo's classic environment closest to each game (none of them deals these games: the
#: card environments of PettingZoo 1.27 are rlcard's poker games).
PETTINGZOO_PEERS = {
    "escoba": "leduc_holdem_v4",
    "mosca": "texas_holdem_v4",
    "musta_maija": "texas_holdem_v4",
    "burako": "texas_holdem_no_limit_v6",
}

SIZES = (1, 64, 1024)


def record(game: Any, n: int, steps: int, seed: int) -> np.ndarray:
    """The actions of a run of ``steps`` steps of uniformly random legal actions."""
    env = tapete.VecEnv(game, n, seed=seed)
    _, mask, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    out = np.empty((steps, n), dtype=np.int64)
    for t in range(steps):
        out[t] = (rng.random(mask.shape) * mask).argmax(axis=1)
        _, mask, *_ = env.step(out[t])
    return out


def replay(game: Any, n: int, threads: int, actions: np.ndarray, seed: int) -> Callable[[], tuple[float, int]]:
    env = tapete.VecEnv(game, n, seed=seed, threads=threads)

    def job() -> tuple[float, int]:
        env.reset(seed=seed)
        step = env.step
        start = time.perf_counter()
        for a in actions:
            step(a)
        return time.perf_counter() - start, actions.size

    return job


def drawn(game: Any, n: int, threads: int, steps: int, seed: int) -> Callable[[], tuple[float, int]]:
    env = tapete.VecEnv(game, n, seed=seed, threads=threads)
    rng = np.random.default_rng(seed)

    def job() -> tuple[float, int]:
        _, mask, _ = env.reset(seed=seed)
        step = env.step
        start = time.perf_counter()
        for _ in range(steps):
            _, mask, *_ = step((rng.random(mask.shape) * mask).argmax(axis=1))
        return time.perf_counter() - start, steps * n

    return job


def simulate(game: Any, games: int) -> Callable[[], tuple[float, int]]:
    def job() -> tuple[float, int]:
        start = time.perf_counter()
        r = tapete.simulate(game, games=games, seed=1, threads=1)
        return time.perf_counter() - start, int(r["decisions"].sum())

    return job


def pettingzoo(name: str, steps: int) -> Callable[[], tuple[float, int]] | None:
    try:
        from importlib import import_module

        env = import_module(f"pettingzoo.classic.{name}").env()
    except Exception:  # not installed (pettingzoo[classic] brings rlcard)
        return None

    def job() -> tuple[float, int]:
        rng = random.Random(0)
        env.reset(seed=0)
        start = time.perf_counter()
        for _ in range(steps):
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                if all(env.terminations[a] or env.truncations[a] for a in env.agents):
                    env.reset(seed=rng.randrange(1 << 30))
                    continue
                env.step(None)
                continue
            legal = np.flatnonzero(env.observe(agent)["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
        return time.perf_counter() - start, steps

    return job


def open_spiel(name: str, params: dict[str, Any], steps: int) -> Callable[[], tuple[float, int]] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game(name, params)

    def job() -> tuple[float, int]:
        rng = random.Random(1)
        done = 0
        start = time.perf_counter()
        state = game.new_initial_state()
        while done < steps:
            if state.is_terminal():
                state = game.new_initial_state()
            else:
                done += open_spiel_random_step(state, rng)
        return time.perf_counter() - start, done

    return job


def measure(runs: int, jobs: dict[str, Callable[[], tuple[float, int]]]) -> tuple[dict[str, float], dict[str, float]]:
    """Steps per second of each job, median of ``runs`` interleaved runs: by the wall clock, and
    by the CPU time of the process (every thread's; on a shared machine, the fair figure of a
    1-thread job, whose wall clock counts the time other programs held the core)."""
    wall: dict[str, list[float]] = {name: [] for name in jobs}
    cpu: dict[str, list[float]] = {name: [] for name in jobs}
    for _ in range(runs):
        for name, job in jobs.items():
            start = time.process_time()
            seconds, steps = job()
            wall[name].append(steps / seconds)
            cpu[name].append(steps / max(time.process_time() - start, 1e-9))
    return (
        {name: statistics.median(s) for name, s in wall.items()},
        {name: statistics.median(s) for name, s in cpu.items()},
    )


def one_game(args: argparse.Namespace, name: str) -> None:
    info = GAMES[name]
    game = info.native(**info.bench)
    jobs: dict[str, Callable[[], tuple[float, int]]] = {}
    for n in SIZES:
        steps = max(args.min_env_steps, args.steps // n)  # past the first moves: whole matches
        actions = record(game, n, steps, seed=3)
        for threads in (1, 2):
            jobs[f"precomputed|{n}|{threads}"] = replay(game, n, threads, actions, seed=3)
            jobs[f"numpy random|{n}|{threads}"] = drawn(game, n, threads, steps, seed=3)
    jobs["simulate"] = simulate(game, args.games)
    peers = {}
    pz = PETTINGZOO_PEERS.get(name)
    if pz and (job := pettingzoo(pz, args.peer_steps)):
        peers[f"PettingZoo {pz}"] = job
    for peer, params in info.peers:
        if job := open_spiel(peer, dict(params), args.peer_steps):
            peers[f"OpenSpiel {peer} (Python)"] = job
    table, cpu = measure(args.runs, jobs | peers)

    print(f"{game}  (obs {game.observation_shape[0]}, actions {game.num_distinct_actions}; steps/s)")
    print(f"  {'num_envs':>8} {'precomputed 1t':>15} {'2t':>12} {'numpy random 1t':>16} {'2t':>12}")
    for n in SIZES:
        row = [table[f"{k}|{n}|{t}"] for k in ("precomputed", "numpy random") for t in (1, 2)]
        print(f"  {n:>8} {row[0]:15,.0f} {row[1]:12,.0f} {row[2]:16,.0f} {row[3]:12,.0f}")
    sim = table["simulate"]
    one, two = table["precomputed|1024|1"], table["precomputed|1024|2"]
    print(f"  simulate, 1 thread: {sim:,.0f} decisions/s")
    print(f"  VecEnv 1,024 x 1 thread / simulate: {one / sim:.2f}   2 threads / 1 thread: {two / one:.2f}x")
    c1, cs = cpu["precomputed|1024|1"], cpu["simulate"]
    print(
        f"  by CPU time: VecEnv 1,024 x 1 thread {c1:,.0f} steps/s, simulate {cs:,.0f} decisions/s, ratio {c1 / cs:.2f}"
    )
    for peer in peers:
        print(
            f"  {peer:36} {table[peer]:12,.0f} steps/s;  VecEnv 1,024 x 1 thread is {one / table[peer]:,.0f}x"
            f" (numpy random: {table['numpy random|1024|1'] / table[peer]:,.0f}x; by CPU time {c1 / cpu[peer]:,.0f}x)"
        )
    print()


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("names", nargs="*", metavar="game", help="games to time (default: all)")
    p.add_argument("--runs", type=int, default=3, help="interleaved runs; the median is reported")
    p.add_argument("--steps", type=int, default=200_000, help="VecEnv steps per timed run (all envs)")
    p.add_argument("--min-env-steps", type=int, default=500, help="least steps per env per timed run")
    p.add_argument("--games", type=int, default=300, help="matches played by simulate")
    p.add_argument("--peer-steps", type=int, default=5_000, help="steps per run of each peer")
    args = p.parse_args(argv)
    print(f"tapete VecEnv, Python {sys.version.split()[0]}, {os.cpu_count()} cores, median of {args.runs} runs\n")
    for name in args.names or list(GAMES):
        one_game(args, name)


if __name__ == "__main__":
    main()
