"""The ``tapete`` command: ``tapete simulate escoba --games 100000``."""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from ._gamestring import parse_value
from .errors import TapeteError

__all__ = ["main", "summarize"]


def _wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 0.0)
    p = wins / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    denominator = 1 + z * z / n
    return ((centre - spread) / denominator, (centre + spread) / denominator)


def summarize(game: Any, result: dict[str, np.ndarray]) -> dict[str, Any]:
    """The results of a simulation as plain data (what ``--json`` prints)."""
    returns, scores = result["returns"], result["scores"]
    n_games = int(returns.shape[0])
    seats = []
    for seat in range(returns.shape[1] if returns.ndim == 2 else 0):
        wins = int((returns[:, seat] > 0).sum())
        losses = int((returns[:, seat] < 0).sum())
        low, high = _wilson(wins, n_games)
        seats.append(
            {
                "seat": seat,
                "mean_points": float(scores[:, seat].mean()) if n_games else 0.0,
                "mean_return": float(returns[:, seat].mean()) if n_games else 0.0,
                "win_rate": wins / n_games if n_games else 0.0,
                "win_rate_95": [low, high],
                "loss_rate": losses / n_games if n_games else 0.0,
            }
        )
    return {
        "game": str(game),
        "games": n_games,
        "draws": int(((np.abs(returns).sum(axis=1) == 0) & result["finished"]).sum()) if n_games else 0,
        "unfinished": int((~result["finished"]).sum()) if n_games else 0,
        "deals_per_game": float(result["deals"].mean()) if n_games else 0.0,
        "decisions_per_game": float(result["decisions"].mean()) if n_games else 0.0,
        "seats": seats,
    }


def _simulate(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
    from rich.table import Table

    from .games import simulate
    from .registry import GAMES

    options: dict[str, Any] = {}
    if args.variant is not None:
        options["variant"] = args.variant
    if args.players is not None:
        options["players"] = args.players
    for item in args.option or []:
        key, _, value = item.partition("=")
        options[key.strip()] = parse_value(value)
    if args.game not in GAMES:
        raise TapeteError(f"unknown game {args.game!r}: expected one of {', '.join(GAMES)}")
    info = GAMES[args.game]
    game = info.native(**options)
    console = Console(stderr=True)
    chunk = max(1000, args.games // 100)
    parts: list[dict[str, np.ndarray]] = []
    start = time.perf_counter()
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        disable=args.json or args.quiet,
    ) as progress:
        task = progress.add_task(f"simulating {game}", total=args.games)
        done = 0
        while done < args.games:
            count = min(chunk, args.games - done)
            parts.append(simulate(game, games=count, seed=(args.seed + done) % 2**64, threads=args.threads))
            done += count
            progress.update(task, completed=done)
    elapsed = time.perf_counter() - start
    if not parts:
        parts.append(simulate(game, games=0, seed=args.seed))
    result = {
        key: np.concatenate([p[key] for p in parts]) for key in ("returns", "scores", "deals", "decisions", "finished")
    }
    summary = summarize(game, result)
    decisions = int(result["decisions"].sum())
    timing = {
        "seconds": elapsed,
        "games_per_second": args.games / elapsed if elapsed > 0 else 0.0,
        "decisions_per_second": decisions / elapsed if elapsed > 0 else 0.0,
        "threads": args.threads or "all",
    }
    if args.json:
        print(json.dumps({**summary, "throughput": timing}, indent=2))
        return 0
    out = Console()
    table = Table(title=f"{summary['game']}: {summary['games']:,} random games, seed {args.seed}")
    # chip games: scores are chip balances, returns the net chips (pot share included)
    chips = info.scores_are == "chips"
    points, ret = ("mean chips", "mean net chips") if chips else ("mean points", "mean return")
    for column in ("seat", points, ret, "win rate", "95% interval", "loss rate"):
        table.add_column(column, justify="right")
    for seat in summary["seats"]:
        low, high = seat["win_rate_95"]
        table.add_row(
            str(seat["seat"]),
            f"{seat['mean_points']:.3f}",
            f"{seat['mean_return']:+.4f}",
            f"{seat['win_rate']:.4f}",
            f"{low:.4f} – {high:.4f}",
            f"{seat['loss_rate']:.4f}",
        )
    out.print(table)
    out.print(
        f"deals per game {summary['deals_per_game']:.3f}   decisions per game {summary['decisions_per_game']:.2f}"
        f"   drawn games {summary['draws']}   unfinished games {summary['unfinished']}"
    )
    out.print(
        f"throughput: {timing['games_per_second']:,.0f} games/s, {timing['decisions_per_second']:,.0f} decisions/s"
        f" ({elapsed:.2f} s, threads: {timing['threads']})"
    )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments[:1] == ["serve"]:  # its own parser, and imports the [server] extra only when asked
        from .server import main as serve

        return serve(arguments[1:])
    parser = argparse.ArgumentParser(prog="tapete", description="Rules engines for traditional table games.")
    commands = parser.add_subparsers(dest="command", required=True)
    sim = commands.add_parser("simulate", help="play random games natively and print the results")
    commands.add_parser("serve", help="serve games to browsers and bots: tapete serve [--db URL] [--host] [--port]")
    sim.add_argument("game", help="game id, e.g. escoba")
    sim.add_argument("--games", type=int, default=10_000)
    sim.add_argument("--variant", default=None, help="preset, e.g. scopa, escoba, scopone_9")
    sim.add_argument("--players", type=int, default=None)
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--threads", type=int, default=0, help="0 = all cores")
    sim.add_argument("--option", "-o", action="append", help="extra option, name=value (repeatable)")
    sim.add_argument("--json", action="store_true", help="machine-readable output")
    sim.add_argument("--quiet", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    if args.games < 0:
        parser.error("--games must be >= 0")
    if not 0 <= args.seed < 2**64:
        parser.error("--seed must be in 0..2**64-1")
    try:
        return _simulate(args)
    except TapeteError as error:
        print(f"tapete: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
