"""Benchmarks, measured side by side in one run: ``python bench/run.py <game>`` for any registered
game (``escoba``, ``mosca``, ``musta_maija``, ``burako``).

For each configuration it times, interleaved, ``--runs`` times (median reported):
  native batch   tapete.simulate (Rust loop, random bot), 1 thread and all threads
  stepped        a Python loop of state.legal_actions() + state.apply(a) on the native engine
  reference      the same loop on the pure-Python reference engine
and prints ns per decision (wall clock, and CPU time summed over threads: the fair figure on a
shared machine), decisions/s, games/s and the ratios. If ``open_spiel`` is installed, the
game's closest OpenSpiel peers (``peers`` in tapete/registry.py) are timed in the same run as
anchors (stepped from Python, and its C++ loop through ``evaluate_bots``). These are reports, not
tests: nothing here asserts a time. ``bench/compare.py`` times two builds against each other.
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

import tapete
from tapete._options import spec
from tapete.registry import GAMES, GameInfo


def stepped(game: Any, games: int, seed: int) -> tuple[float, int, int]:
    """Seconds, decisions and games of a Python loop of legal_actions + apply."""
    rng = random.Random(seed)
    picks = [rng.randrange(1 << 30) for _ in range(4096)]  # drawn up front: time the engine, not random()
    decisions = 0
    start = time.perf_counter()
    for i in range(games):
        state = game.new_state(seed=seed + i)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[picks[decisions & 4095] % len(legal)])
            decisions += 1
    return time.perf_counter() - start, decisions, games


def batch(game: Any, games: int, seed: int, threads: int) -> tuple[float, int, int]:
    start = time.perf_counter()
    result = tapete.simulate(game, games=games, seed=seed, threads=threads)
    elapsed = time.perf_counter() - start
    return elapsed, int(result["decisions"].sum()), games


def open_spiel_random_step(state: Any, rng: random.Random) -> bool:
    """Applies a uniformly random chance outcome or legal action to an OpenSpiel state; True
    when it was a player's decision."""
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        return False
    legal = state.legal_actions()
    state.apply_action(legal[rng.randrange(len(legal))])
    return True


def open_spiel_anchor(
    name: str, games: int, params: dict[str, Any] | None = None
) -> dict[str, Callable[[], tuple[float, int, int]]]:
    try:
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import evaluate_bots  # noqa: F401
    except ImportError:
        return {}
    game = pyspiel.load_game(name, params or {})

    def py_loop() -> tuple[float, int, int]:
        rng = random.Random(1)
        decisions = 0
        start = time.perf_counter()
        for _ in range(games):
            state = game.new_initial_state()
            while not state.is_terminal():
                decisions += open_spiel_random_step(state, rng)
        return time.perf_counter() - start, decisions, games

    per_game = py_loop()[1] / games  # evaluate_bots does not count decisions: use the mean of the Python loop

    def cpp_loop() -> tuple[float, int, int]:
        bots = [pyspiel.make_uniform_random_bot(p, 7 + p) for p in range(game.num_players())]
        rng = np.random.RandomState(3)
        start = time.perf_counter()
        for _ in range(games):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, int(rng.randint(1 << 30)))
        return time.perf_counter() - start, round(per_game * games), games

    # both count player decisions only; the time includes OpenSpiel's chance steps (its deal)
    return {f"open_spiel {name} stepped": py_loop, f"open_spiel {name} C++ (decisions est.)": cpp_loop}


def measure(runs: int, jobs: dict[str, Callable[[], tuple[float, int, int]]]) -> dict[str, dict[str, float]]:
    samples: dict[str, list[tuple[float, int, int]]] = {name: [] for name in jobs}
    cpu: dict[str, list[float]] = {name: [] for name in jobs}
    for _ in range(runs):  # interleaved, so that noise hits every job alike
        for name, job in jobs.items():
            start = time.process_time()  # CPU time of every thread: robust on a shared machine
            samples[name].append(job())
            cpu[name].append(time.process_time() - start)
    table = {}
    for name, rows in samples.items():
        seconds = statistics.median(r[0] for r in rows)
        decisions, games = rows[0][1], rows[0][2]
        table[name] = {
            "seconds": seconds,
            "decisions": decisions,
            "ns_per_decision": seconds / decisions * 1e9 if decisions > 0 else float("nan"),
            "cpu_ns_per_decision": statistics.median(cpu[name]) / decisions * 1e9 if decisions > 0 else float("nan"),
            "decisions_per_s": decisions / seconds if decisions > 0 else float("nan"),
            "games_per_s": games / seconds,
        }
    return table


def header(args: argparse.Namespace) -> None:
    from importlib.metadata import version

    cores = os.cpu_count() or 1
    print(
        f"tapete {version('tapete')}, Python {sys.version.split()[0]}, {cores} cores,"
        f" median of {args.runs} interleaved runs\n"
    )


def report(
    args: argparse.Namespace,
    native: Any,
    ref: Any,
    anchors: dict[str, Callable[[], tuple[float, int, int]]] | None = None,
) -> dict[str, dict[str, float]]:
    """One table for one game configuration: native batch (1 and all threads), native stepped from
    Python, the reference engine, and any peer anchors, all interleaved in the same run."""
    threads = os.cpu_count() or 1
    jobs = {
        "native batch, 1 thread": lambda: batch(native, args.games, 1, 1),
        f"native batch, {threads} threads": lambda: batch(native, args.games, 1, threads),
        "stepped from Python (native)": lambda: stepped(native, args.stepped_games, 1),
        "reference (pure Python)": lambda: stepped(ref, args.reference_games, 1),
    }
    jobs.update(anchors or {})
    table = measure(args.runs, jobs)
    print(str(native))
    print(f"  {'':38} {'ns/decision':>12} {'CPU ns/dec.':>12} {'decisions/s':>14} {'games/s':>12}")
    for name, row in table.items():
        print(
            f"  {name:38} {row['ns_per_decision']:12.1f} {row['cpu_ns_per_decision']:12.1f}"
            f" {row['decisions_per_s']:14,.0f} {row['games_per_s']:12,.1f}"
        )
    one = table["native batch, 1 thread"]
    many = table[f"native batch, {threads} threads"]
    step = table["stepped from Python (native)"]
    pure = table["reference (pure Python)"]
    print(f"  native 1 thread vs reference: {pure['ns_per_decision'] / one['ns_per_decision']:,.0f}x")
    print(f"  stepped native vs reference:  {pure['ns_per_decision'] / step['ns_per_decision']:,.1f}x")
    print(f"  {threads} threads vs 1 thread:       {many['decisions_per_s'] / one['decisions_per_s']:.2f}x\n")
    return table


def one_game(args: argparse.Namespace, info: GameInfo) -> None:
    """The game's benchmark option set, with its OpenSpiel peers timed in the same run."""
    native, ref = info.native(**info.bench), info.reference(**info.bench)
    anchors: dict[str, Callable[[], tuple[float, int, int]]] = {}
    for name, params in info.peers:
        anchors.update(open_spiel_anchor(name, max(1, args.stepped_games // 4), dict(params)))
    report(args, native, ref, anchors)


def presets(args: argparse.Namespace, info: GameInfo) -> None:
    """Every preset of the game at its default player count in one table (the registry's option
    sets for a game without presets): native batch (1 thread), stepped native and the reference,
    all interleaved in the same run."""
    table_spec = spec(info.name)
    configs = [{"variant": p} for p in table_spec.presets] or [dict(o) for o in info.option_sets]
    jobs: dict[str, Callable[[], tuple[float, int, int]]] = {}
    names = []
    for options in configs:
        native, ref = info.native(**options), info.reference(**options)
        name = str(native)
        names.append((name, native.num_players))
        jobs[f"{name}|batch"] = lambda g=native: batch(g, args.games, 1, 1)
        jobs[f"{name}|stepped"] = lambda g=native: stepped(g, args.stepped_games, 1)
        jobs[f"{name}|reference"] = lambda g=ref: stepped(g, args.reference_games, 1)
    table = measure(args.runs, jobs)
    print(f"{info.name}, every preset at its default player count (ns per decision; games/s of the batch)")
    width = max(len(n) for n, _ in names)
    print(
        f"  {'game':{width}} {'players':>7} {'batch 1 thread':>15} {'stepped':>10} {'reference':>11}"
        f" {'ref/batch':>10} {'games/s':>10}"
    )
    for name, players in names:
        one, step, pure = (table[f"{name}|{k}"] for k in ("batch", "stepped", "reference"))
        ratio = pure["ns_per_decision"] / one["ns_per_decision"]
        print(
            f"  {name:{width}} {players:>7} {one['ns_per_decision']:15.1f}"
            f" {step['ns_per_decision']:10.1f} {pure['ns_per_decision']:11.1f} {ratio:9,.0f}x"
            f" {one['games_per_s']:10,.1f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", choices=list(GAMES))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--games", type=int, default=20_000, help="games per native batch run")
    parser.add_argument("--stepped-games", type=int, default=400)
    parser.add_argument("--reference-games", type=int, default=20)
    parser.add_argument(
        "--all-presets",
        action="store_true",
        help="one table of every preset (of every main option set, for a game without presets)",
    )
    args = parser.parse_args()
    info = GAMES[args.game]
    header(args)
    (presets if args.all_presets else one_game)(args, info)


if __name__ == "__main__":
    main()
