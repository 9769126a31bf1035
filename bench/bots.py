"""Bot strength and search speed (docs/bots.md), measured, never asserted:

``python bench/bots.py [--games N] [--full] [--only strength|speed] [--game NAME]``

Strength: for each game, bot pairs play the same deals with the seats rotated (duplicate deals:
deal ``seed + i`` is played once per rotation), and the table gives the first bot's score per
deal (a win 1, a draw 1/2, a loss 0, averaged over the rotations of the deal) with its 95%
interval over deals (normal approximation; the rotations of one deal are correlated, so the deal
is the unit). In games of more than two seats the first bot holds one seat, the second all the
others, and the mean return (zero-sum) is reported beside it. ``--full`` adds ISMCTS(10,000).

Speed: ISMCTS simulations per second per thread from the opening (one search, threads=1), the
decisions each simulation plays (rollouts to the end of the deal), native against the pure-Python
reference ISMCTS side by side (same iterations, seed and rollout), 2 threads against 1 (root
parallel, same iterations), and, when ``pyspiel`` is installed, OpenSpiel's C++ ``ISMCTSBot`` on
its own card games that implement ``ResampleFromInfostate`` (Hearts, Oh Hell) for context.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from typing import Any

import numpy as np

import tapete
from tapete.bots import ISMCTS
from tapete.reference import ismcts as reference_ismcts
from tapete.registry import GAMES

# The configuration each game is measured in, and the pairs its strength table plays.
GAME_STRINGS = {
    "escoba": "escoba(variant=scopa)",
    "musta_maija": "musta_maija(players=2)",
    "mosca": "mosca(players=3)",
    "burako": "burako(players=2,match=single_hand)",
}
MORE_SEATS = [("heuristic", "random"), ("ismcts:1000", "random"), ("ismcts:1000", "heuristic")]
TWO_SEATS = [*MORE_SEATS, ("ismcts:100", "random"), ("ismcts:1000", "ismcts:100")]
PAIRS = {"escoba": TWO_SEATS, "musta_maija": TWO_SEATS, "mosca": MORE_SEATS, "burako": MORE_SEATS}
FULL_PAIRS = [("ismcts:10000", "ismcts:1000")]


def rotations(n: int, first: str, second: str) -> list[list[str]]:
    """The first bot in each seat in turn, the second in every other seat."""
    return [[first if s == k else second for s in range(n)] for k in range(n)]


def strength(game: Any, first: str, second: str, games: int, seed: int) -> dict[str, float]:
    """The first bot's score per deal and mean return, with 95% intervals over deals."""
    n = game.num_players
    score = np.zeros(games)
    ret = np.zeros(games)
    for k, bots in enumerate(rotations(n, first, second)):
        r = tapete.simulate(game, games, seed, bots=bots)["returns"][:, k]
        score += np.where(r > 0, 1.0, np.where(r == 0, 0.5, 0.0))
        ret += r
    score /= n
    ret /= n
    half = lambda x: 1.96 * x.std(ddof=1) / math.sqrt(len(x)) if len(x) > 1 else math.nan  # noqa: E731
    return {"score": score.mean(), "score95": half(score), "ret": ret.mean(), "ret95": half(ret)}


def opening(game: Any, seed: int = 0) -> Any:
    """The first real decision of a seeded match (two legal actions or more; a lone action is
    played without a search): the position each speed figure searches from."""
    state = game.new_state(seed=seed)
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    return state


def decisions_per_simulation(state: Any, samples: int = 200) -> float:
    """Mean decisions of a random playout from ``state`` to the end of its deal (or match)."""
    rng = random.Random(0)
    total = 0
    for _ in range(samples):
        s = state.clone()
        deal = s.deals()
        while not s.is_terminal() and s.deals() == deal:
            s.apply(rng.choice(s.legal_actions()))
            total += 1
    return total / samples


def search_seconds(bot: Any, state: Any, runs: int = 3) -> float:
    """Median seconds of one ``act`` (a whole search) from ``state``."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        bot.act(state.for_seat(state.current_player()))
        times.append(time.perf_counter() - start)
    return sorted(times)[len(times) // 2]


def speed(name: str, iterations: int, reference_iterations: int) -> None:
    game = tapete.load(GAME_STRINGS[name])
    state = opening(game)
    per_sim = decisions_per_simulation(state)
    one = search_seconds(ISMCTS(iterations=iterations, threads=1, seed=1), state)
    two = search_seconds(ISMCTS(iterations=iterations, threads=2, seed=1), state)
    ref_game = GAMES[name].reference(**game.options)
    ref_state = ref_game.state_from_json(state.to_json())
    native_small = search_seconds(ISMCTS(iterations=reference_iterations, seed=1), state, runs=5)
    start = time.perf_counter()
    reference_ismcts.ISMCTS(iterations=reference_iterations, seed=1).act(ref_state.for_seat(ref_state.current_player()))
    reference = time.perf_counter() - start
    sims = iterations / one
    print(
        f"{GAME_STRINGS[name]:<40} {sims:>10,.0f} {1e9 / (sims * per_sim):>9,.0f} {per_sim:>8.1f}"
        f" {reference / native_small:>9,.0f}x {one / two:>7.2f}x"
    )


def openspiel_speed(simulations: int) -> None:
    try:
        import pyspiel
    except ImportError:
        print("(pyspiel not installed: no OpenSpiel figures)")
        return
    for name in ("hearts", "oh_hell"):
        game = pyspiel.load_game(name)
        state = game.new_initial_state()
        rng = np.random.default_rng(0)
        while state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(int(rng.choice([a for a, _ in outcomes], p=[p for _, p in outcomes])))
        per_sim = 0
        for _ in range(50):
            s = state.clone()
            while not s.is_terminal():
                if s.is_chance_node():
                    outcomes = s.chance_outcomes()
                    s.apply_action(int(rng.choice([a for a, _ in outcomes], p=[p for _, p in outcomes])))
                else:
                    s.apply_action(int(rng.choice(s.legal_actions())))
                    per_sim += 1
        per_sim /= 50
        bot = pyspiel.ISMCTSBot(0, pyspiel.RandomRolloutEvaluator(1, 0), 0.7, simulations, -1)
        start = time.perf_counter()
        bot.step(state)
        elapsed = time.perf_counter() - start
        sims = simulations / elapsed
        print(
            f"{'OpenSpiel C++ ISMCTSBot, ' + name:<40} {sims:>10,.0f} {1e9 / (sims * per_sim):>9,.0f} {per_sim:>8.1f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100, help="deals per pair (each played once per rotation)")
    parser.add_argument("--seed", type=int, default=20261204)
    parser.add_argument("--full", action="store_true", help="add ISMCTS(10,000) against ISMCTS(1,000)")
    parser.add_argument("--only", choices=["strength", "speed"], default=None)
    parser.add_argument("--game", choices=list(GAME_STRINGS), action="append", default=None)
    parser.add_argument("--iterations", type=int, default=20_000, help="iterations of each timed search")
    args = parser.parse_args()
    names = args.game or list(GAME_STRINGS)
    if args.only != "speed":
        print(f"Strength: the first bot's score per deal (win 1, draw 1/2), {args.games} deals per pair, seats rotated")
        print(f"{'game':<40} {'first':<14} {'second':<14} {'score':>7} {'95%':>7} {'return':>8} {'95%':>7}")
        for name in names:
            game = tapete.load(GAME_STRINGS[name])
            for first, second in PAIRS[name] + (FULL_PAIRS if args.full else []):
                r = strength(game, first, second, args.games, args.seed)
                print(
                    f"{GAME_STRINGS[name]:<40} {first:<14} {second:<14} {r['score']:>7.3f} ±{r['score95']:>6.3f}"
                    f" {r['ret']:>+8.3f} ±{r['ret95']:>6.3f}",
                    flush=True,
                )
    if args.only != "strength":
        print(f"\nSpeed: one ISMCTS search of {args.iterations:,} iterations from the opening, random rollouts")
        head = ("game", "sims/s", "ns/dec", "dec/sim", "vs ref", "2 vs 1")
        print(f"{head[0]:<40} {head[1]:>10} {head[2]:>9} {head[3]:>8} {head[4]:>10} {head[5]:>8}")
        for name in names:
            speed(name, args.iterations, reference_iterations=200)
        openspiel_speed(2000)


if __name__ == "__main__":
    main()
