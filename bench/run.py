"""Benchmarks, measured side by side in one run: ``python bench/run.py escoba`` (or ``mosca``).

For each configuration it times, interleaved, ``--runs`` times (median reported):
  native batch   tapete.simulate (Rust loop, random bot), 1 thread and all threads
  stepped        a Python loop of state.legal_actions() + state.apply(a) on the native engine
  reference      the same loop on the pure-Python reference engine
and prints ns per decision (wall clock, and CPU time summed over threads: the fair figure on a
shared machine), decisions/s, games/s and the ratios. If ``open_spiel`` is installed,
OpenSpiel's go_fish (escoba) or euchre and oh_hell (mosca) are timed in the same run as anchors
(stepped from Python, and its C++ loop through ``evaluate_bots``). These are reports, not tests:
nothing here asserts a time.
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
from tapete import reference
from tapete.testing import ESCOBA_PRESETS, escoba_player_counts


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
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                else:
                    legal = state.legal_actions()
                    state.apply_action(legal[rng.randrange(len(legal))])
                    decisions += 1
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


def escoba(args: argparse.Namespace) -> None:
    header(args)
    if not args.all_presets:
        native, ref = tapete.Escoba(variant="scopa"), reference.Escoba(variant="scopa")
        report(args, native, ref, open_spiel_anchor("go_fish", args.stepped_games // 4 or 1))
        return
    # every preset in one table: native batch (1 thread), stepped native and the reference,
    # all interleaved in the same run
    jobs: dict[str, Callable[[], tuple[float, int, int]]] = {}
    for variant in ESCOBA_PRESETS:
        players = escoba_player_counts(variant)[0]
        native, ref = (
            tapete.Escoba(variant=variant, players=players),
            reference.Escoba(variant=variant, players=players),
        )
        jobs[f"{variant}|batch"] = lambda g=native: batch(g, args.games, 1, 1)
        jobs[f"{variant}|stepped"] = lambda g=native: stepped(g, args.stepped_games, 1)
        jobs[f"{variant}|reference"] = lambda g=ref: stepped(g, args.reference_games, 1)
    table = measure(args.runs, jobs)
    print("escoba, every preset at its default player count (ns per decision; games/s of the batch)")
    width = max(len(v) for v in ESCOBA_PRESETS)
    print(
        f"  {'preset':{width}} {'players':>7} {'batch 1 thread':>15} {'stepped':>10} {'reference':>11}"
        f" {'ref/batch':>10} {'games/s':>10}"
    )
    for variant in ESCOBA_PRESETS:
        one, step, pure = (table[f"{variant}|{k}"] for k in ("batch", "stepped", "reference"))
        ratio = pure["ns_per_decision"] / one["ns_per_decision"]
        print(
            f"  {variant:{width}} {escoba_player_counts(variant)[0]:>7} {one['ns_per_decision']:15.1f}"
            f" {step['ns_per_decision']:10.1f} {pure['ns_per_decision']:11.1f} {ratio:9,.0f}x"
            f" {one['games_per_s']:10,.1f}"
        )


def musta_maija(args: argparse.Namespace) -> None:
    header(args)
    for players in (2, 3, 4, 5, 6) if args.all_presets else (4,):
        native, ref = tapete.MustaMaija(players=players), reference.MustaMaija(players=players)
        # crazy_eights: OpenSpiel's closest shedding game, same seat count
        anchors = (
            open_spiel_anchor("crazy_eights", args.stepped_games // 4 or 1, {"players": players})
            if players == 4
            else None
        )
        report(args, native, ref, anchors)


def mosca(args: argparse.Namespace) -> None:
    header(args)
    for players in (4,) if not args.all_presets else (3, 4, 5, 6):
        native, ref = tapete.Mosca(players=players), reference.Mosca(players=players)
        anchors = None
        if players == 4:  # trick-taking peers: one euchre / oh_hell hand per game
            anchors = {
                **open_spiel_anchor("euchre", args.stepped_games),
                **open_spiel_anchor("oh_hell", args.stepped_games // 2 or 1),
            }
        report(args, native, ref, anchors)


def burako(args: argparse.Namespace) -> None:
    # single hands: random play rarely reaches the 3000 target, so a default match runs 50 hands
    header(args)
    for players in (4, 2):
        options = {"players": players, "match": "single_hand"}
        native, ref = tapete.Burako(**options), reference.Burako(**options)
        anchors = open_spiel_anchor("gin_rummy", max(1, args.stepped_games // 40)) if players == 4 else None
        report(args, native, ref, anchors)


GAMES: dict[str, Callable[[argparse.Namespace], None]] = {
    "escoba": escoba,
    "mosca": mosca,
    "musta_maija": musta_maija,
    "burako": burako,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", choices=sorted(GAMES))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--games", type=int, default=20_000, help="games per native batch run")
    parser.add_argument("--stepped-games", type=int, default=400)
    parser.add_argument("--reference-games", type=int, default=20)
    parser.add_argument(
        "--all-presets",
        action="store_true",
        help="every preset (escoba) or player count (mosca 3..6, musta_maija 2..6)",
    )
    args = parser.parse_args()
    GAMES[args.game](args)


if __name__ == "__main__":
    main()
