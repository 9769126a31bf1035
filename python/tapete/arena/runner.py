"""The arena's plan (who sits where on which deal), its batches, and the result (docs/arena.md §1)."""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import InvalidOptionError

#: Games per batch unless told otherwise: the unit of a Ray task and of the SPRT's checks.
DEFAULT_BATCH = 1000
#: Every permutation of the sides up to this many sides (3! = 6 games a deal), cyclic rotations above.
PERMUTE_UP_TO = 3


def sides_of(game: Any) -> list[int]:
    """The scoring side of each seat: partners share a side and the side's total score.

    Each game says so through ``num_sides`` (seat ``p`` is on side ``p % num_sides``).
    """
    sides = int(game.num_sides)
    return [p % sides for p in range(int(game.num_players))]


def _arrangements(lineup: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every distinct seating of one lineup over the sides: all permutations of few sides, else
    the cyclic rotations; a bot on several sides gives repeats, played once."""
    seen: Iterable[tuple[int, ...]]
    if len(lineup) <= PERMUTE_UP_TO:
        seen = itertools.permutations(lineup)
    else:
        seen = (lineup[r:] + lineup[:r] for r in range(len(lineup)))
    return list(dict.fromkeys(seen))


@dataclass
class Plan:
    """What one deal group plays: each lineup (bot index per side) on the group's deal seed."""

    game: Any
    names: list[str]
    bots: list[Any]  # spec texts, or Python bots
    sides: list[int]  # per seat
    lineups: list[tuple[int, ...]]  # per game of a group: bot index per side
    seed: int

    @property
    def num_sides(self) -> int:
        return max(self.sides) + 1

    @property
    def group_size(self) -> int:
        return len(self.lineups)

    def seat_bots(self, lineup: tuple[int, ...]) -> list[Any]:
        return [self.bots[lineup[s]] for s in self.sides]

    def deal_seed(self, group: int) -> int:
        return (self.seed + group) % 2**64


def make_plan(game: Any, bots: Mapping[str, Any], seed: int) -> Plan:
    from ..bots import _NativeBot, as_bot

    if not isinstance(bots, Mapping) or len(bots) < 2:
        raise InvalidOptionError(f"bots must be a dict of at least two {{name: bot spec}}, got {bots!r:.80}")
    names = [str(n) for n in bots]
    specs: list[Any] = []
    for value in bots.values():
        bot = as_bot(value)  # checks spec texts, refuses what is no bot
        specs.append(bot.spec if isinstance(bot, _NativeBot) else bot)
    sides = sides_of(game)
    count = max(sides) + 1
    k = len(names)
    if k <= count:
        # fewer bots than sides: they take the sides in turn, then every seating of that lineup
        matchups = [tuple(j % k for j in range(count))]
    else:
        # more bots than sides: every set of `count` bots meets on every deal
        matchups = list(itertools.combinations(range(k), count))
    lineups = [a for m in matchups for a in _arrangements(m)]
    return Plan(game, names, specs, sides, lineups, seed)


def run_batch(plan: Plan, g0: int, g1: int, threads: int = 0, record: str | None = None) -> dict[str, np.ndarray]:
    """Deal groups ``g0..g1``: ``returns`` and ``scores`` shaped (groups, games of a group, seats).

    One ``simulate`` call per lineup covers the whole batch (game ``i`` of the call is group
    ``g0 + i``'s deal). With ``record``, the games are played in this process instead, keeping
    their actions, and written as one part; their results are the same (docs/bots.md §7).
    """
    from ..games import simulate

    n, size, seats = g1 - g0, plan.group_size, len(plan.sides)
    returns = np.zeros((n, size, seats))
    scores = np.zeros((n, size, seats), dtype=np.int64)
    if record is not None:
        from .record import play_recorded

        return play_recorded(plan, g0, g1, record)
    for j, lineup in enumerate(plan.lineups):
        r = simulate(plan.game, n, plan.deal_seed(g0), bots=plan.seat_bots(lineup), threads=threads)
        returns[:, j, :] = r["returns"]
        scores[:, j, :] = r["scores"]
    return {"returns": returns, "scores": scores}


def batches(groups: int, group_size: int, batch: int) -> list[tuple[int, int]]:
    per = max(1, batch // group_size)
    return [(g, min(g + per, groups)) for g in range(0, groups, per)]


@dataclass
class ArenaResult:
    """An arena's games and statistics; ``summary()`` is its table, ``to_json()`` all but the games."""

    game: str
    bots: list[str]
    specs: list[str]
    seed: int
    sides: list[int]
    lineups: np.ndarray  # (games of a group, sides): bot index per side
    returns: np.ndarray  # (groups, games of a group, seats)
    scores: np.ndarray  # (groups, games of a group, seats)
    deal_seeds: np.ndarray  # (groups,)
    mean_return: np.ndarray  # (bots, 3): mean, low, high of the 95% interval over deal groups
    win_rate: np.ndarray  # (bots, 3)
    rank: np.ndarray  # (bots, 3): finishing rank of the bot's side, 1 = best, ties share
    points: np.ndarray  # (bots,): mean score per game
    elo: dict[str, Any]
    sprt: dict[str, Any] | None = None
    backend: str = "local"
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def games(self) -> int:
        return int(self.returns.shape[0] * self.returns.shape[1])

    @property
    def groups(self) -> int:
        return int(self.returns.shape[0])

    def as_dict(self) -> dict[str, Any]:
        per_bot = [
            {
                "name": name,
                "spec": spec,
                "mean_return": list(map(float, self.mean_return[b])),
                "win_rate": list(map(float, self.win_rate[b])),
                "rank": list(map(float, self.rank[b])),
                "points": float(self.points[b]),
            }
            for b, (name, spec) in enumerate(zip(self.bots, self.specs))
        ]
        return {
            "game": self.game,
            "seed": self.seed,
            "games": self.games,
            "deal_groups": self.groups,
            "games_per_group": int(self.returns.shape[1]),
            "sides": self.sides,
            "lineups": self.lineups.tolist(),
            "bots": per_bot,
            "elo": self.elo,
            "sprt": self.sprt,
            "backend": self.backend,
        }

    def to_json(self, path: str | None = None, indent: int | None = 2) -> str:
        text = json.dumps(_finite(self.as_dict()), indent=indent)
        if path is not None:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text + "\n")
        return text

    def rows(self) -> list[list[str]]:
        """The table's rows: bot, mean return, win rate, rank, points, Elo (± 95%)."""

        def iv(a: np.ndarray, pct: bool = False) -> str:
            m, lo, hi = (float(x) * (100 if pct else 1) for x in a)
            h = (hi - lo) / 2
            return f"{m:.1f}% ± {h:.1f}" if pct else f"{m:+.3f} ± {h:.3f}" if not math.isinf(h) else f"{m:+.3f}"

        elo = self.elo.get("ratings")
        out = []
        for b, name in enumerate(self.bots):
            e = "" if elo is None else f"{elo[b][0]:+.0f} [{elo[b][1]:+.0f}, {elo[b][2]:+.0f}]"
            rank = f"{self.rank[b][0]:.2f} ± {(self.rank[b][2] - self.rank[b][1]) / 2:.2f}"
            out.append([name, iv(self.mean_return[b]), iv(self.win_rate[b], True), rank, f"{self.points[b]:.2f}", e])
        return out

    def summary(self) -> str:
        head = ["bot", "mean return", "win rate", "rank", "points", "Elo [95%]"]
        rows = [head, *self.rows()]
        widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
        lines = [f"{self.game}: {self.games:,} games ({self.groups:,} deals x {self.returns.shape[1]} seatings)"]
        lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
        lines += self.notes()
        return "\n".join(lines)

    def notes(self) -> list[str]:
        out = []
        if self.elo.get("kind") == "pairs":
            e = self.elo
            out.append(
                f"Elo {self.bots[0]} vs {self.bots[1]}: {e['elo']:+.1f} [{e['low']:+.1f}, {e['high']:+.1f}],"
                f" LOS {100 * e['los']:.1f}%, pentanomial {e['pentanomial']}"
            )
        if self.sprt is not None:
            s = self.sprt
            verdict = {"H0": "H0 accepted", "H1": "H1 accepted", "": "no decision"}[s["status"]]
            out.append(
                f"SPRT elo0={s['elo0']} elo1={s['elo1']} alpha={s['alpha']} beta={s['beta']}:"
                f" LLR {s['llr']:.2f} in [{s['bounds'][0]:.2f}, {s['bounds'][1]:.2f}], {verdict}"
            )
        return out


def _finite(x: Any) -> Any:
    """JSON has no infinities or NaN: they become null."""
    if isinstance(x, float):
        return x if math.isfinite(x) else None
    if isinstance(x, dict):
        return {k: _finite(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_finite(v) for v in x]
    return x


def _game_scores(side_returns: np.ndarray) -> np.ndarray:
    """(…, sides) returns -> (…, sides, sides): 1, 0.5 or 0 for side i against side j."""
    a = side_returns[..., :, None]
    b = side_returns[..., None, :]
    return np.where(a > b, 1.0, np.where(a == b, 0.5, 0.0))


def build_result(
    plan: Plan,
    returns: np.ndarray,
    scores: np.ndarray,
    sprt: tuple[float, float, float, float] | None,
    backend: str,
    rng_seed: int = 0,
    bootstrap: int = 200,
) -> ArenaResult:
    from . import stats

    groups, size, _ = returns.shape
    k, count = len(plan.names), plan.num_sides
    lineups = np.array(plan.lineups, dtype=np.int64).reshape(size, count)
    first = [plan.sides.index(s) for s in range(count)]  # a seat of each side
    side_ret = returns[:, :, first]  # (groups, size, sides)
    side_pts = scores[:, :, first].astype(float)
    # average rank among the sides, 1 = best, ties share their places
    better = (side_ret[..., None, :] > side_ret[..., :, None]).sum(-1)
    tied = (side_ret[..., None, :] == side_ret[..., :, None]).sum(-1) - 1
    side_rank = 1 + better + tied / 2
    # per bot, per game: mean over the sides it holds (NaN when it sits out the game)
    holds = np.stack([(lineups == b) for b in range(k)])  # (k, size, sides)
    n_held = holds.sum(-1)  # (k, size)

    def per_bot(x: np.ndarray) -> np.ndarray:
        with np.errstate(invalid="ignore", divide="ignore"):
            total = np.einsum("gjs,bjs->bgj", x, holds.astype(float))
            return np.where(n_held[:, None, :] > 0, total / np.maximum(n_held[:, None, :], 1), np.nan)

    ret_b, pts_b, rank_b = per_bot(side_ret), per_bot(side_pts), per_bot(side_rank)
    win_b = np.where(np.isnan(ret_b), np.nan, (ret_b > 0).astype(float))

    def interval(x: np.ndarray) -> np.ndarray:
        with np.errstate(invalid="ignore"):
            by_group = np.nanmean(x, axis=2) if groups else np.zeros((k, 0))
        rows = []
        for b in range(k):
            values = by_group[b][~np.isnan(by_group[b])]
            rows.append(stats.group_interval(values.tolist()) if values.size else (math.nan,) * 3)
        return np.array(rows, dtype=float)

    with np.errstate(invalid="ignore"):
        points = np.nanmean(pts_b.reshape(k, -1), axis=1) if groups else np.full(k, np.nan)
    pair_scores = None
    if groups == 0:
        elo: dict[str, Any] = {"kind": "none"}
    elif k == 2 and count == 2:
        # the two games of a deal, sides swapped: bot 0's points out of 2
        first_bot = lineups[:, 0] == 0
        g = _game_scores(side_ret)[..., 0, 1]  # side 0 against side 1
        pair_scores = np.where(first_bot[None, :], g, 1 - g).sum(axis=1)
        p5 = [int(c) for c in stats.pentanomial(pair_scores.tolist())]
        e, lo, hi, los = stats.elo_from_pentanomial(p5)
        elo = {
            "kind": "pairs",
            "of": plan.names[0],
            "against": plan.names[1],
            "elo": float(e),
            "low": float(lo),
            "high": float(hi),
            "los": float(los),
            "pentanomial": p5,
            "ratings": [[float(e) / 2, float(lo) / 2, float(hi) / 2], [-float(e) / 2, -float(hi) / 2, -float(lo) / 2]],
        }
    else:
        wins = np.zeros((groups, k, k))
        gs = _game_scores(side_ret)  # (groups, size, sides, sides)
        for j in range(size):
            for s in range(count):
                for t in range(count):
                    a, b = lineups[j, s], lineups[j, t]
                    if a != b:
                        wins[:, a, b] += gs[:, j, s, t]
        ratings, iv = stats.bradley_terry(
            wins.sum(0), rng_seed=rng_seed, bootstrap=bootstrap, groups=wins if groups else None
        )
        elo = {
            "kind": "bradley_terry",
            "ratings": [[float(ratings[b]), float(iv[b][0]), float(iv[b][1])] for b in range(k)],
            "bootstrap": bootstrap,
        }
    sprt_info = None
    if sprt is not None and pair_scores is not None:
        test = stats.SPRT(*sprt)
        p5 = elo["pentanomial"]
        sprt_info = {
            "elo0": sprt[0],
            "elo1": sprt[1],
            "alpha": sprt[2],
            "beta": sprt[3],
            "llr": float(test.llr(p5)),
            "bounds": [float(b) for b in test.bounds],
            "status": _decision(test.status(p5)),
        }
    return ArenaResult(
        game=str(plan.game),
        bots=list(plan.names),
        specs=[b if isinstance(b, str) else repr(b) for b in plan.bots],
        seed=plan.seed,
        sides=list(plan.sides),
        lineups=lineups,
        returns=returns,
        scores=scores,
        deal_seeds=np.array([plan.deal_seed(g) for g in range(groups)], dtype=np.uint64),
        mean_return=interval(ret_b),
        win_rate=interval(win_b),
        rank=interval(rank_b),
        points=points,
        elo=elo,
        sprt=sprt_info,
        backend=backend,
    )


def sprt_status(plan: Plan, returns: np.ndarray, sprt: tuple[float, float, float, float]) -> tuple[float, str]:
    """The LLR and the decision ("H0", "H1" or "") on the games so far."""
    from . import stats

    lineups = np.array(plan.lineups)
    first = [plan.sides.index(s) for s in range(2)]
    side_ret = returns[:, :, first]
    g = _game_scores(side_ret)[..., 0, 1]
    pairs = np.where((lineups[:, 0] == 0)[None, :], g, 1 - g).sum(axis=1)
    p5 = stats.pentanomial(pairs.tolist())
    test = stats.SPRT(*sprt)
    return float(test.llr(p5)), _decision(test.status(p5))


def _decision(status: str) -> str:
    """ "H0", "H1", or "" while the test goes on."""
    return status if status in ("H0", "H1") else ""


def check_sprt(plan: Plan, sprt: Any) -> tuple[float, float, float, float] | None:
    if sprt is None:
        return None
    if len(plan.names) != 2 or plan.num_sides != 2:
        raise InvalidOptionError(
            "sprt needs two bots in a game of two sides (2 seats, or 2 teams);"
            f" got {len(plan.names)} bots and {plan.num_sides} sides"
        )
    values = list(sprt)
    if len(values) == 2:
        values += [0.05, 0.05]
    if len(values) != 4 or not all(isinstance(v, (int, float)) for v in values):
        raise InvalidOptionError(f"sprt must be (elo0, elo1[, alpha, beta]), got {sprt!r:.80}")
    elo0, elo1, alpha, beta = map(float, values)
    if not (elo0 < elo1 and 0 < alpha < 0.5 and 0 < beta < 0.5):
        raise InvalidOptionError(f"sprt needs elo0 < elo1 and alpha, beta in (0, 0.5), got {sprt!r:.80}")
    return elo0, elo1, alpha, beta


Progress = Callable[[int, int, "float | None"], object]


def arena(
    game: Any,
    bots: Mapping[str, Any],
    games: int = 1000,
    seed: int = 0,
    *,
    sprt: Sequence[float] | None = None,
    backend: str = "local",
    threads: int = 0,
    batch: int = DEFAULT_BATCH,
    record: str | None = None,
    progress: Progress | None = None,
    bootstrap: int = 200,
    address: str | None = None,
) -> ArenaResult:
    """Play ``bots`` against each other on duplicate deals (docs/arena.md §1).

    Deal seed ``seed + g`` is played once per seating of the bots over the game's sides (every
    permutation for up to 3 sides, else every cyclic rotation; with more bots than sides, for
    every set of bots that fills the sides), so every bot meets the same cards from every seat.
    ``games`` is rounded up to whole deal groups. ``sprt=(elo0, elo1, alpha, beta)`` (two bots,
    two sides) stops at the first batch edge where the LLR leaves its bounds. ``backend="ray"``
    runs the batches as Ray tasks (``tapete[ray]``) with the same results. ``record=DIR`` writes
    every game's deal seed, seats' bots, actions and returns to one part per batch.
    """
    from .._native import NativeGame
    from ..errors import InvalidOptionError as _Bad
    from ..games import load

    if isinstance(game, str):
        game = load(game)
    if not isinstance(game, NativeGame):
        raise _Bad(f"arena needs a native game such as tapete.Escoba(), got {game!r:.80}")
    if not isinstance(games, int) or isinstance(games, bool) or games < 0:
        raise _Bad(f"games must be an int >= 0, got {games!r:.80}")
    if not isinstance(batch, int) or isinstance(batch, bool) or batch < 1:
        raise _Bad(f"batch must be an int >= 1, got {batch!r:.80}")
    if not isinstance(bootstrap, int) or isinstance(bootstrap, bool) or bootstrap < 0 or bootstrap == 1:
        raise _Bad(f"bootstrap must be 0 (no intervals) or an int >= 2, got {bootstrap!r:.80}")
    if backend not in ("local", "ray"):
        raise _Bad(f"backend must be 'local' or 'ray', got {backend!r:.80}")
    plan = make_plan(game, bots, seed)
    test = check_sprt(plan, sprt)
    groups = -(-games // plan.group_size)
    edges = batches(groups, plan.group_size, batch)
    if record is not None:
        from .record import prepare

        record = prepare(record)
    work = Batches(plan, edges, threads, record, test, progress)
    if backend == "ray":
        from .ray_backend import run_ray

        parts = run_ray(work, address)
    else:
        parts = run_local(work)
    size, seats = plan.group_size, len(plan.sides)
    returns = np.concatenate([p["returns"] for p in parts]) if parts else np.zeros((0, size, seats))
    scores = np.concatenate([p["scores"] for p in parts]) if parts else np.zeros((0, size, seats), dtype=np.int64)
    return build_result(plan, returns, scores, test, backend, rng_seed=seed, bootstrap=bootstrap)


@dataclass(frozen=True)
class Batches:
    """What a backend plays: the plan's batches (``[g0, g1)`` ranges of deal groups), each on
    ``threads`` and recorded to ``record``; after each, ``progress`` and the SPRT ``test``."""

    plan: Plan
    edges: list[tuple[int, int]]
    threads: int
    record: str | None
    test: tuple[float, float, float, float] | None
    progress: Progress | None

    @property
    def total(self) -> int:
        """Games in all batches."""
        return (self.edges[-1][1] if self.edges else 0) * self.plan.group_size

    def after_batch(self, parts: list[dict[str, np.ndarray]]) -> bool:
        """Reports progress after a batch; True when the SPRT has decided (the arena stops there)."""
        done = sum(p["returns"].shape[0] for p in parts) * self.plan.group_size
        llr, status = None, ""
        if self.test is not None:
            llr, status = sprt_status(self.plan, np.concatenate([p["returns"] for p in parts]), self.test)
        if self.progress is not None:
            self.progress(done, self.total, llr)
        return bool(status)


def run_local(work: Batches) -> list[dict[str, np.ndarray]]:
    parts: list[dict[str, np.ndarray]] = []
    for g0, g1 in work.edges:
        parts.append(run_batch(work.plan, g0, g1, work.threads, work.record))
        if work.after_batch(parts):
            break
    return parts
