"""``tapete.VecEnv`` speed, measured side by side in one run (docs/envs.md §4):
``python bench/vecenv.py [game ...]`` (default: every registered game, at its bench option set).

For each game it times, interleaved, ``--runs`` times (median reported), in multi-agent mode:
  VecEnv steps/s at num_envs 1, 64 and 1,024, with 1 and 2 threads, in two encodings:
    "float32"      the default: float32 observations and bool masks
    "compact"      obs_format="index" (the nonzero entries) and mask_format="bits"
  with the actions of a recorded run replayed ("precomputed": drawn outside the timed region),
  and at 1,024 envs with random legal actions drawn inside the loop, natively
  (``env.sample_actions()``) and in numpy from the mask (what a user without the sampler writes)
  simulate       the native random playout loop, 1 thread (decisions/s): the ceiling; each run
                 plays enough matches to last ``--simulate-seconds`` (1 s)
and, where installed, what learners use today, one step at a time from Python:
  PettingZoo's classic card environments (rlcard), with a random legal action from the mask
  OpenSpiel's paired games (``peers`` in tapete/registry.py), with a random legal action
A step is one decision of one match. Rates are by CPU time (every thread's) unless marked wall:
on a shared machine that is the fair figure of a 1-thread job, and CPU time per step is what a
second thread must not raise; the wall-clock speed-up of 2 threads needs an idle machine, so the
load average is printed beside it. These are reports, not tests: nothing here asserts a time.
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
#: The encodings timed: VecEnv keyword arguments.
FORMATS = {
    "float32": {},
    "compact": {"obs_format": "index", "mask_format": "bits"},
}

Job = Callable[[], tuple[float, int]]


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


def replay(game: Any, n: int, threads: int, actions: np.ndarray, seed: int, **fmt: str) -> Job:
    env = tapete.VecEnv(game, n, seed=seed, threads=threads, **fmt)

    def job() -> tuple[float, int]:
        env.reset(seed=seed)
        step = env.step
        start = time.perf_counter()
        for a in actions:
            step(a)
        return time.perf_counter() - start, actions.size

    return job


def sampled(game: Any, n: int, threads: int, steps: int, seed: int, **fmt: str) -> Job:
    """Random play through the native sampler."""
    env = tapete.VecEnv(game, n, seed=seed, threads=threads, **fmt)

    def job() -> tuple[float, int]:
        env.reset(seed=seed)
        step, sample = env.step, env.sample_actions
        start = time.perf_counter()
        for _ in range(steps):
            step(sample())
        return time.perf_counter() - start, steps * n

    return job


def drawn(game: Any, n: int, threads: int, steps: int, seed: int) -> Job:
    """Random play drawn in numpy from the float32 batch's bool mask."""
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


def simulate(game: Any, seconds: float) -> Job:
    """``tapete.simulate`` on one thread, with as many matches as last about ``seconds``."""
    games = 16
    while True:
        start = time.perf_counter()
        tapete.simulate(game, games=games, seed=1, threads=1)
        took = time.perf_counter() - start
        if took >= seconds / 4:
            break
        games *= 4
    games = max(games, int(games * seconds / took))

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


def measure(runs: int, jobs: dict[str, Job]) -> tuple[dict[str, float], dict[str, float]]:
    """Steps per second of each job, median of ``runs`` interleaved runs: by the wall clock, and
    by the CPU time of the process (every thread's)."""
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
    jobs: dict[str, Job] = {}
    big = SIZES[-1]
    for n in SIZES:
        steps = max(args.min_env_steps, args.steps // n)  # past the first moves: whole matches
        actions = record(game, n, steps, seed=3)
        for threads in (1, 2):
            for fmt, kw in FORMATS.items():
                jobs[f"{fmt}|{n}|{threads}"] = replay(game, n, threads, actions, 3, **kw)
        if n == big:
            for fmt, kw in FORMATS.items():
                jobs[f"{fmt} sampled|{n}|1"] = sampled(game, n, 1, steps, 3, **kw)
            jobs[f"numpy random|{n}|1"] = drawn(game, n, 1, steps, seed=3)
    jobs["simulate"] = simulate(game, args.simulate_seconds)
    peers = {}
    pz = PETTINGZOO_PEERS.get(name)
    if pz and (job := pettingzoo(pz, args.peer_steps)):
        peers[f"PettingZoo {pz}"] = job
    for peer, params in info.peers:
        if job := open_spiel(peer, dict(params), args.peer_steps):
            peers[f"OpenSpiel {peer} (Python)"] = job
    load = os.getloadavg()[0]
    wall, cpu = measure(args.runs, jobs | peers)

    print(f"{game}  (obs {game.observation_shape[0]}, actions {game.num_distinct_actions}; steps/s by CPU time)")
    print(f"  {'num_envs':>8} {'float32 1t':>12} {'2t':>12} {'compact 1t':>12} {'2t':>12}")
    for n in SIZES:
        row = [cpu[f"{f}|{n}|{t}"] for f in FORMATS for t in (1, 2)]
        print(f"  {n:>8} {row[0]:12,.0f} {row[1]:12,.0f} {row[2]:12,.0f} {row[3]:12,.0f}")
    sim = cpu["simulate"]
    print(f"  simulate, 1 thread: {sim:,.0f} decisions/s")
    for fmt in FORMATS:
        one = cpu[f"{fmt}|{big}|1"]
        native = cpu[f"{fmt} sampled|{big}|1"]
        cpu2 = one / cpu[f"{fmt}|{big}|2"]
        speedup = wall[f"{fmt}|{big}|2"] / wall[f"{fmt}|{big}|1"]
        print(
            f"  {fmt:8} {big:,} x 1 thread / simulate: {one / sim:.2f};  native sampler / precomputed:"
            f" {one / native:.2f}x the time;  2 threads: {cpu2:.2f}x the CPU per step,"
            f" {speedup:.2f}x the wall speed (load {load:.1f})"
        )
    numpy_random = cpu[f"numpy random|{big}|1"]
    print(f"  numpy random from the bool mask, {big:,} x 1 thread: {numpy_random:,.0f} steps/s")
    one = cpu[f"float32|{big}|1"]
    for peer in peers:
        print(
            f"  {peer:36} {cpu[peer]:12,.0f} steps/s;  VecEnv {big:,} x 1 thread (float32) is {one / cpu[peer]:,.0f}x"
        )
    print()


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("names", nargs="*", metavar="game", help="games to time (default: all)")
    p.add_argument("--runs", type=int, default=3, help="interleaved runs; the median is reported")
    p.add_argument("--steps", type=int, default=200_000, help="VecEnv steps per timed run (all envs)")
    p.add_argument("--min-env-steps", type=int, default=500, help="least steps per env per timed run")
    p.add_argument("--simulate-seconds", type=float, default=1.0, help="length of each simulate run")
    p.add_argument("--peer-steps", type=int, default=5_000, help="steps per run of each peer")
    args = p.parse_args(argv)
    print(f"tapete VecEnv, Python {sys.version.split()[0]}, {os.cpu_count()} cores, median of {args.runs} runs\n")
    for name in args.names or list(GAMES):
        one_game(args, name)


if __name__ == "__main__":
    main()
