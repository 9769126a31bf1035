"""The ``tapete`` command: ``tapete simulate escoba --games 100000``."""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NoReturn

import numpy as np

from ._gamestring import parse_value
from .errors import InvalidOptionError, TapeteError

if TYPE_CHECKING:
    from rich.progress import Progress, ProgressColumn

__all__ = ["main", "summarize"]

SIMULATE_USAGE = "tapete simulate GAME [--games N] [--variant PRESET] [--players N] [--seed S] [options]"
ARENA_USAGE = (
    "tapete arena GAME --bots A,B,... [--games N] [--sprt ELO0,ELO1[,ALPHA,BETA]] [--backend local|ray]"
    " [--json PATH] [--threads N] [options]"
)
# A chunk of the batch lasts about this long, so that the bar moves and Ctrl-C is seen soon.
CHUNK_SECONDS = 0.25


class _Parser(argparse.ArgumentParser):
    """An error prints the (sub)command's one-line usage, the error, and where the help is."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"usage: {self.format_usage().strip().removeprefix('usage: ')}\n{self.prog}: error: {message}\n")


def _wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 0.0)
    p = wins / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    denominator = 1 + z * z / n
    return ((centre - spread) / denominator, (centre + spread) / denominator)


@dataclass
class Totals:
    """What the table needs of a batch, summed chunk by chunk: memory does not grow with the games."""

    seats: int
    cap: int | None = None
    games: int = 0
    wins: np.ndarray = field(init=False)
    losses: np.ndarray = field(init=False)
    scores_sum: np.ndarray = field(init=False)
    returns_sum: np.ndarray = field(init=False)
    draws: int = 0
    unfinished: int = 0
    at_cap: int = 0
    deals_sum: int = 0
    decisions_sum: int = 0

    def __post_init__(self) -> None:
        self.wins = np.zeros(self.seats, np.int64)
        self.losses = np.zeros(self.seats, np.int64)
        self.scores_sum = np.zeros(self.seats, np.float64)
        self.returns_sum = np.zeros(self.seats, np.float64)

    def add(self, result: dict[str, np.ndarray]) -> None:
        """Add a batch's per-game arrays (what ``tapete.simulate`` returns)."""
        returns, finished = result["returns"], result["finished"]
        n = int(returns.shape[0])
        if n == 0:
            return
        self.games += n
        self.wins += (returns > 0).sum(axis=0)
        self.losses += (returns < 0).sum(axis=0)
        self.scores_sum += result["scores"].sum(axis=0, dtype=np.float64)
        self.returns_sum += returns.sum(axis=0)
        self.draws += int(((np.abs(returns).sum(axis=1) == 0) & finished).sum())
        self.unfinished += int((~finished).sum())
        if self.cap is not None:
            self.at_cap += int(((result["deals"] >= self.cap) & finished).sum())
        self.deals_sum += int(result["deals"].sum())
        self.decisions_sum += int(result["decisions"].sum())


def _cap_of(info: Any, game: Any) -> int | None:
    value = game.options.get(info.deal_cap) if info.deal_cap else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def summarize(game: Any, result: dict[str, np.ndarray] | Totals) -> dict[str, Any]:
    """The results of a simulation as plain data (what ``--json`` prints): from the arrays
    ``tapete.simulate`` returns, or from the totals the command sums."""
    from .registry import GAMES

    info = GAMES.get(game.name)
    if isinstance(result, Totals):
        totals = result
    else:
        totals = Totals(game.num_players, _cap_of(info, game) if info else None)
        totals.add(result)
    n = totals.games
    seats = []
    for seat in range(totals.seats):
        wins, losses = int(totals.wins[seat]), int(totals.losses[seat])
        low, high = _wilson(wins, n)
        seats.append(
            {
                "seat": seat,
                "mean_points": float(totals.scores_sum[seat] / n) if n else 0.0,
                "mean_return": float(totals.returns_sum[seat] / n) if n else 0.0,
                "win_rate": wins / n if n else 0.0,
                "win_rate_95": [low, high],
                "loss_rate": losses / n if n else 0.0,
            }
        )
    summary: dict[str, Any] = {
        "game": str(game),
        "games": n,
        "draws": totals.draws,
        "unfinished": totals.unfinished,
        "deals_per_game": totals.deals_sum / n if n else 0.0,
        "decisions_per_game": totals.decisions_sum / n if n else 0.0,
        "seats": seats,
    }
    if totals.cap is not None and info is not None:
        summary["cap"] = {"option": info.deal_cap, "value": totals.cap, "games_at_cap": totals.at_cap}
    return summary


def title_of(name: str, game: Any) -> str:
    """``escoba (variant scopa)``, ``mosca (players=3)``, ``mosca``: the game id as typed, then
    what it resolved to, from the game string (``escoba(variant=scopa,players=4)``)."""
    shown = str(game)
    inner = shown[len(game.name) + 1 : -1] if shown.startswith(game.name + "(") else ""
    if inner.startswith("variant="):
        inner = "variant " + inner[len("variant=") :].replace(",", ", ", 1)
    return f"{name} ({inner})" if inner else name


def _run(
    game: Any,
    total: int,
    seed: int,
    threads: int,
    totals: Totals,
    on_progress: Callable[[int], None],
    bots: Any = "random",
) -> None:
    """Play ``total`` games in chunks of about ``CHUNK_SECONDS``, adding each to ``totals``. Game
    ``i`` has seed ``seed + i`` whatever the chunks, so results do not depend on them. Ctrl-C is
    seen between chunks, or inside one where the native batch handles signals itself; it comes out
    as ``KeyboardInterrupt`` with ``totals`` holding every game finished."""
    from .games import simulate

    # searching bots play a game in seconds: start small, so that the bar moves from the start
    smallest = 1000 if bots == "random" else 1
    chunk = smallest
    while totals.games < total:
        count = min(chunk, total - totals.games)
        start = time.perf_counter()
        try:
            result = simulate(game, games=count, seed=(seed + totals.games) % 2**64, threads=threads, bots=bots)
        except KeyboardInterrupt as interrupt:
            # an interruptible batch hands over the games it finished (the first ones of the chunk)
            partial = getattr(interrupt, "result", None)
            if isinstance(partial, dict) and "returns" in partial:
                totals.add(partial)
            raise
        totals.add(result)
        on_progress(totals.games)
        elapsed = time.perf_counter() - start
        rate = count / elapsed if elapsed > 0 else count * 100
        chunk = int(min(max(smallest, rate * CHUNK_SECONDS), 10_000_000))


def _legend(info: Any, chips: bool) -> list[str]:
    if chips:
        first = "mean chips: final balance; mean net chips: average of returns() (pot share in)"
    else:
        first = "mean return: average of returns() per game (zero-sum: + win, − loss, 0 draw)"
    if info.names_losers:
        second = "not losing: its 'win rate' (return > 0), as the game names a loser, not a winner"
    else:
        second = "win rate: share of games with a return > 0, with its 95% (Wilson) interval"
    return [first, second]


def _print_table(
    console: Any, info: Any, title: str, summary: dict[str, Any], args: argparse.Namespace, note: str
) -> None:
    from rich.table import Table

    players = "random" if args.bots == "random" else "bot"
    table = Table(title=f"{title}: {summary['games']:,} {players} games, seed {args.seed}{note}")
    # chip games: scores are chip balances, returns the net chips (pot share included)
    chips = info.scores_are == "chips"
    points, ret = ("mean chips", "mean net chips") if chips else ("mean points", "mean return")
    win, loss = ("not losing", "loser rate") if info.names_losers else ("win rate", "loss rate")
    columns = ["seat", points, ret, win, "95% interval", loss]
    if players == "bot":
        columns.insert(1, "bot")
    for column in columns:
        if column == "bot":
            table.add_column(column, overflow="fold")
        else:
            table.add_column(column, justify="right")
    for seat in summary["seats"]:
        low, high = seat["win_rate_95"]
        low = max(0.0, low)  # rounding leaves it a hair below 0 at a win rate of 0
        bot = [summary["bots"][seat["seat"]]] if players == "bot" else []
        table.add_row(
            str(seat["seat"]),
            *bot,
            f"{seat['mean_points']:.3f}",
            f"{seat['mean_return']:+.4f}",
            f"{seat['win_rate']:.4f}",
            f"{low:.4f} – {high:.4f}",
            f"{seat['loss_rate']:.4f}",
        )
    console.print(table)
    for line in _legend(info, chips):
        console.print(line, highlight=False)
    parts = [
        f"deals per game {summary['deals_per_game']:.3f}",
        f"decisions per game {summary['decisions_per_game']:.2f}",
        f"drawn games {summary['draws']:,}",
    ]
    console.print("   ".join(parts), highlight=False)
    ends = []
    if "cap" in summary:
        cap = summary["cap"]
        ends.append(f"ended at the {cap['option']}={cap['value']} cap {cap['games_at_cap']:,}")
    ends.append(f"unfinished (1,000,000-decision cap) {summary['unfinished']:,}")
    console.print("   ".join(ends), highlight=False)


def _game_options(args: argparse.Namespace) -> dict[str, Any]:
    """The options of ``--variant``, ``--players`` and each ``--option name=value``; a game that
    is no registered game, or an option that is no ``name=value``, is an ``InvalidOptionError``."""
    from .registry import GAMES

    if args.game not in GAMES:
        raise InvalidOptionError(f"unknown game {args.game!r:.80}: expected one of {', '.join(GAMES)}")
    options: dict[str, Any] = {}
    if args.variant is not None:
        options["variant"] = args.variant
    if args.players is not None:
        options["players"] = args.players
    for item in args.option or []:
        key, sep, value = item.partition("=")
        if not sep:
            raise InvalidOptionError(f"--option {item!r:.80}: expected name=value")
        options[key.strip()] = parse_value(value)
    return options


def _progress_bar(disable: bool, *columns: ProgressColumn) -> Progress:
    """The bar a command draws on stderr while it plays, gone once done; ``columns`` go between
    the count and the time left."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        *columns,
        TimeRemainingColumn(),
        console=Console(stderr=True),
        disable=disable,
        transient=True,
    )


def _simulate(args: argparse.Namespace, fail: Callable[[str], int]) -> int:
    from rich.console import Console

    from .games import simulate
    from .registry import GAMES

    try:
        options = _game_options(args)
    except InvalidOptionError as error:
        return fail(str(error))
    info = GAMES[args.game]
    try:
        game = info.native(**options)
        bots = seat_bots(args.bots, game.num_players)
        # an empty batch checks the seed, the threads and the bots before any bar is shown
        simulate(game, games=0, seed=args.seed, threads=args.threads, bots=bots)
    except TapeteError as error:
        return fail(str(error))
    title = title_of(args.game, game)
    totals = Totals(game.num_players, _cap_of(info, game))
    interrupted = False
    start = time.perf_counter()
    with _progress_bar(args.json or args.quiet) as progress:
        task = progress.add_task(f"simulating {title}", total=args.games)
        try:
            _run(
                game,
                args.games,
                args.seed,
                args.threads,
                totals,
                lambda done: progress.update(task, completed=done),
                bots,
            )
        except KeyboardInterrupt:
            interrupted = True
    elapsed = time.perf_counter() - start
    summary = summarize(game, totals)
    timing = {
        "seconds": elapsed,
        "games_per_second": totals.games / elapsed if elapsed > 0 else 0.0,
        "decisions_per_second": totals.decisions_sum / elapsed if elapsed > 0 else 0.0,
        "threads": args.threads or "all",
    }
    summary["bots"] = bots if isinstance(bots, list) else ["random"] * game.num_players
    status = 130 if interrupted else 0
    if args.json:
        extra = {"partial": True, "games_asked": args.games} if interrupted else {}
        print(json.dumps({**summary, **extra, "throughput": timing}, indent=2))
        return status
    out = Console()
    note = " (partial)" if interrupted else ""
    _print_table(out, info, title, summary, args, note)
    default = game.options.get("variant")
    if args.variant is None and default not in (None, args.game) and args.game in _presets(args.game):
        out.print(
            f"{args.game} defaults to the {str(default).capitalize()} rules (variant {default});"
            f" --variant {args.game} for {args.game.capitalize()}",
            highlight=False,
        )
    out.print(
        f"throughput: {timing['games_per_second']:,.0f} games/s, {timing['decisions_per_second']:,.0f} decisions/s"
        f" ({elapsed:.2f} s, threads: {timing['threads']})",
        highlight=False,
    )
    if interrupted:
        out.print(f"interrupted: the table counts the {totals.games:,} games finished, not all {args.games:,}")
    return status


_BOT_NAMES = ("random", "heuristic", "ismcts")


def _bot_specs(text: str) -> list[str]:
    """``--bots`` split into bot specs at its commas. An ISMCTS spec's own options also use commas
    (``ismcts:iterations=200,c=1.0``): an item that does not start with a bot's name continues the
    spec before it."""
    specs: list[str] = []
    for item in text.split(","):
        if item.split(":", 1)[0].strip() in _BOT_NAMES or not specs:
            specs.append(item.strip())
        else:
            specs[-1] += "," + item.strip()
    return specs


def arena_bots(text: str) -> dict[str, str]:
    """``--bots`` of ``tapete arena``: specs split as ``seat_bots`` does; each named by its spec,
    a repeated spec numbered (``heuristic``, ``heuristic#2``)."""
    out: dict[str, str] = {}
    for spec in _bot_specs(text):
        name, n = spec, 1
        while name in out:
            n += 1
            name = f"{spec}#{n}"
        out[name] = spec
    return out


def _arena(args: argparse.Namespace, fail: Callable[[str], int]) -> int:
    from rich.console import Console
    from rich.progress import TextColumn
    from rich.table import Table

    from .arena import arena
    from .registry import GAMES

    try:
        options = _game_options(args)
    except InvalidOptionError as error:
        return fail(str(error))
    sprt = None
    if args.sprt is not None:
        try:
            sprt = [float(x) for x in args.sprt.split(",")]
        except ValueError:
            return fail(f"--sprt {args.sprt!r:.80}: expected elo0,elo1[,alpha,beta]")
    try:
        game = GAMES[args.game].native(**options)
        bots = arena_bots(args.bots)
        # no games: checks the bots, the SPRT and the options before any bar is shown
        arena(game, bots, games=0, seed=args.seed, sprt=sprt, batch=args.batch)
    except TapeteError as error:
        return fail(str(error))
    title = title_of(args.game, game)
    start = time.perf_counter()
    with _progress_bar(args.quiet, TextColumn("{task.fields[llr]}")) as bar:
        task = bar.add_task(f"arena {title}", total=None, llr="")

        def progress(done: int, total: int, llr: float | None) -> None:
            bar.update(task, completed=done, total=total, llr="" if llr is None else f"LLR {llr:+.2f}")

        try:
            result = arena(
                game,
                bots,
                games=args.games,
                seed=args.seed,
                sprt=sprt,
                backend=args.backend,
                threads=args.threads,
                batch=args.batch,
                record=args.record,
                progress=progress,
                address=args.address,
            )
        except TapeteError as error:
            return fail(str(error))
    elapsed = time.perf_counter() - start
    if args.json:
        result.to_json(args.json)
    out = Console()
    table = Table(
        title=f"{title}: {result.games:,} games, {result.groups:,} deals x {result.returns.shape[1]} seatings"
    )
    for head in ("bot", "mean return", "win rate", "rank", "points", "Elo [95%]"):
        table.add_column(head, justify="left" if head == "bot" else "right")
    for row in result.rows():
        table.add_row(*row)
    out.print(table)
    for note in result.notes():
        out.print(note, highlight=False)
    out.print(f"{result.games / elapsed if elapsed > 0 else 0:,.0f} games/s ({elapsed:.2f} s)", highlight=False)
    return 0


def seat_bots(text: str, seats: int) -> Any:
    """``--bots``: one bot spec per seat, or one for every seat, comma-separated (``_bot_specs``).
    ``random`` alone is every seat random."""
    specs = _bot_specs(text)
    if specs == ["random"]:
        return "random"
    if len(specs) == 1:
        specs *= seats
    if len(specs) != seats:
        raise InvalidOptionError(
            f"--bots {text[:80]!r}: expected one bot for every seat, or {seats} bots (one per seat)"
        )
    return specs


def _presets(game: str) -> set[str]:
    from ._options import spec

    return set(spec(game).presets)


def _non_negative(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer >= 0, got {text!r:.80}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected an integer >= 0, got {value}")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments[:1] == ["serve"]:  # its own parser, and imports the [server] extra only when asked
        from .server import main as serve

        return serve(arguments[1:])
    from . import FORMAT_VERSION, __version__
    from .registry import GAMES

    parser = _Parser(prog="tapete", description="Rules engines for traditional table games.")
    parser.add_argument(
        "--version", action="version", version=f"tapete {__version__} (format version {FORMAT_VERSION})"
    )
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    sim = commands.add_parser(
        "simulate",
        help="play games natively (random or bots) and print the results",
        usage=SIMULATE_USAGE,
        description="Play games natively on all cores, random or by --bots, and print each seat's results."
        " Ctrl-C stops the run and prints the games finished so far (exit status 130).",
    )
    commands.add_parser("serve", help="serve games to browsers and bots: tapete serve [--db URL] [--host] [--port]")
    ar = commands.add_parser(
        "arena",
        help="bots against each other on duplicate deals, with intervals, Elo and SPRT",
        usage=ARENA_USAGE,
        description="Play bots against each other on duplicate deals (every seating of each deal) and print"
        " each bot's mean return, win rate and rank with 95%% intervals, and Elo (docs/arena.md).",
    )
    ar.add_argument("game", help=f"game id: {', '.join(GAMES)}")
    ar.add_argument(
        "--bots", required=True, help="two or more bot specs, comma-separated: ismcts:1000,heuristic,random"
    )
    ar.add_argument("--games", type=_non_negative, default=1000, help="rounded up to whole deals")
    ar.add_argument("--seed", type=_non_negative, default=0, help="deal g is dealt with seed + g (< 2**64)")
    ar.add_argument("--sprt", default=None, help="elo0,elo1[,alpha,beta]: stop when the SPRT decides")
    ar.add_argument("--backend", choices=("local", "ray"), default="local")
    ar.add_argument("--address", default=None, help="the Ray cluster's address (--backend ray)")
    ar.add_argument("--batch", type=int, default=1000, help="games per batch: a Ray task, an SPRT check")
    ar.add_argument("--record", default=None, help="directory for every game's seed, actions and returns")
    ar.add_argument("--json", default=None, metavar="PATH", help="write the result as JSON")
    ar.add_argument("--threads", type=int, default=0, help="0 = all cores")
    ar.add_argument("--variant", default=None, help="preset, e.g. scopa, escoba, scopone_9")
    ar.add_argument("--players", type=int, default=None)
    ar.add_argument("--option", "-o", action="append", help="extra option, name=value (repeatable)")
    ar.add_argument("--quiet", action="store_true", help="no progress bar")
    sim.add_argument("game", help=f"game id: {', '.join(GAMES)}")
    sim.add_argument("--games", type=_non_negative, default=10_000)
    sim.add_argument("--variant", default=None, help="preset, e.g. scopa, escoba, scopone_9")
    sim.add_argument("--players", type=int, default=None)
    sim.add_argument("--seed", type=_non_negative, default=0, help="game i is dealt with seed + i (< 2**64)")
    sim.add_argument("--threads", type=int, default=0, help="0 = all cores")
    sim.add_argument(
        "--bots",
        default="random",
        help="one bot per seat (or one for all), comma-separated: random, heuristic, ismcts:200 (docs/bots.md)",
    )
    sim.add_argument("--option", "-o", action="append", help="extra option, name=value (repeatable)")
    sim.add_argument("--json", action="store_true", help="machine-readable output")
    sim.add_argument("--quiet", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    if args.seed >= 2**64:
        sim.error("argument --seed: expected an integer < 2**64")

    command, usage = ("arena", ARENA_USAGE) if args.command == "arena" else ("simulate", SIMULATE_USAGE)

    def fail(message: str) -> int:
        print(f"usage: {usage}\ntapete {command}: error: {message}", file=sys.stderr)
        return 2

    return _arena(args, fail) if command == "arena" else _simulate(args, fail)


if __name__ == "__main__":
    sys.exit(main())
