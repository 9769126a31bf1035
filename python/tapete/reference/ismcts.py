"""The reference bots: ``Random`` and ``ISMCTS`` in pure Python over the reference engines, the
same algorithm and random streams as the native bots (docs/bots.md), so that the differential
test can hold native ISMCTS with random rollouts to the same action and visit counts.

Written for clarity, not speed; it needs no native core.
"""

from __future__ import annotations

import math
import time
from typing import Any

from .._game import seed_value
from ..bots import IsmctsOptions, RootStat, _IsmctsBot, _seat_state
from ..errors import InvalidOptionError, InvalidStateError
from ._rng import SplitMix64
from ._seat import SeatState

__all__ = ["Random", "ISMCTS", "search", "deal_rewards"]


def _reference_seat(state: Any, depth: int = 5) -> SeatState:
    """The reference seat object a reference bot plays (``tapete.bots.seat_state``), or
    ``InvalidStateError``."""
    if not isinstance(state, SeatState) and not hasattr(state, "_resample_into"):
        raise InvalidStateError(
            f"the reference bots play reference states (tapete.reference.<Game>), not {type(state).__name__}"
        )
    return _seat_state(state, depth)


def deal_rewards(root: list[int], now: list[int], sign: int) -> list[float]:
    """A deal's points as rewards in [-1, 1]: ``e_i = sign * (n * d_i - sum(d))`` with ``d`` the
    score changes since the root, divided by the largest ``|e_j|`` (all 0 when every margin is 0)."""
    n = len(root)
    d = [b - a for a, b in zip(root, now)]
    total = sum(d)
    e = [sign * (n * x - total) for x in d]
    m = max(abs(x) for x in e)
    return [0.0 if m == 0 else x / m for x in e]


class _Node:
    __slots__ = ("action", "reward", "visits", "avail", "children")

    def __init__(self, action: int) -> None:
        self.action = action
        self.reward = 0.0
        self.visits = 0
        self.avail = 1
        self.children: dict[int, _Node] = {}


class _Tree:
    def __init__(self, root: SeatState, options: IsmctsOptions) -> None:
        self.root_seat = root
        self.o = options
        self.root = _Node(-1)
        self.root.avail = 0
        self.root_deals = root.deals()
        self.root_scores = list(root.scores())
        self.sign = root.game.score_sign()

    def stopped(self, d: Any) -> bool:
        return bool(d.is_terminal()) or (self.o.horizon == "deal" and d.deals() != self.root_deals)

    def run(self, seed: int, budget: int | None, deadline: float | None) -> int:
        master = SplitMix64(seed)
        done = 0
        while budget is None or done < budget:
            if deadline is not None and done > 0 and done % 16 == 0 and time.monotonic() >= deadline:
                break
            det_seed = master.next()
            rng = SplitMix64(master.next())
            self.iterate(self.root_seat.resample(det_seed), rng)
            done += 1
        return done

    def iterate(self, d: Any, rng: SplitMix64) -> None:
        path: list[tuple[_Node, int]] = []
        node = self.root
        c = self.o.c
        while not self.stopped(d):
            seat = int(d.current_player())
            legal = d.legal_actions()
            compatible = [node.children[a] for a in legal if a in node.children]
            if len(compatible) < len(legal):
                untried = [a for a in legal if a not in node.children]
                a = untried[rng.next() % len(untried)]
                for ch in compatible:
                    ch.avail += 1
                child = node.children[a] = _Node(a)
                path.append((child, seat))
                d.apply(a)
                break
            best = compatible[0]
            best_value = -math.inf
            for ch in compatible:  # ascending by action: the first maximum wins
                n = float(ch.visits)
                value = ch.reward / n + c * math.sqrt(math.log(float(ch.avail)) / n)
                if value > best_value:
                    best_value = value
                    best = ch
            for ch in compatible:
                ch.avail += 1
            path.append((best, seat))
            d.apply(best.action)
            node = best
        while not self.stopped(d):
            if self.o.rollout == "random":
                legal = d.legal_actions()
                a = legal[rng.next() % len(legal)]
            else:
                a = d.heuristic_action(rng)
            d.apply(a)
        if self.o.horizon == "game":
            rewards = [float(x) for x in d.returns()]
        else:
            rewards = deal_rewards(self.root_scores, list(d.scores()), self.sign)
        for v, seat in path:
            v.visits += 1
            v.reward += rewards[seat]

    def root_stats(self) -> list[tuple[int, int, int, float]]:
        return [(a, ch.visits, ch.avail, ch.reward) for a, ch in sorted(self.root.children.items())]


def search(state: Any, options: IsmctsOptions, seed: int) -> tuple[int, list[tuple[int, int, int, float]], int]:
    """One search for the seat to act (``state``: its seat object): ``(action, [(action, visits,
    avail, reward sum)...], iterations)``."""
    state = _reference_seat(state, 3)
    if options.rollout == "heuristic" and not hasattr(state, "heuristic_action"):
        raise InvalidOptionError("this reference engine has no heuristic_action: use rollout='random'")
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0], [], 0
    trees = options.threads
    if trees == 1:
        seeds = [seed]
    else:
        m = SplitMix64(seed)
        seeds = [m.next() for _ in range(trees)]
    deadline = None if options.time_ms is None else time.monotonic() + options.time_ms / 1000
    merged: dict[int, list[Any]] = {}
    iterations = 0
    for t, s in enumerate(seeds):  # the native trees run in parallel; their merge is in this order
        budget = None if options.iterations is None else options.iterations // trees + (t < options.iterations % trees)
        tree = _Tree(state, options)
        iterations += tree.run(s, budget, deadline)
        for a, v, av, r in tree.root_stats():
            row = merged.setdefault(a, [0, 0, 0.0])
            row[0] += v
            row[1] += av
            row[2] += r
    rows = [(a, v, av, r) for a, (v, av, r) in sorted(merged.items())]
    action, most = legal[0], 0
    for a, v, _, _ in rows:
        if v > most:
            action, most = a, v
    return action, rows, iterations


class Random:
    """``legal[next() % len(legal)]`` with its stream, as the native ``tapete.bots.Random``."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed_value(seed, InvalidOptionError)
        self._rng = SplitMix64(self.seed)

    def act(self, seat: Any) -> int:
        legal = _reference_seat(seat, 4).legal_actions()
        return int(legal[self._rng.next() % len(legal)])


class ISMCTS(_IsmctsBot):
    """The reference of ``tapete.bots.ISMCTS``: same options, same results for an iterations
    budget (docs/bots.md)."""

    def _run(self, state: Any) -> int:
        action, rows, self.iterations = search(_reference_seat(state), self.options, self._rng.next())
        self.stats = [RootStat(a, v, av, r / v if v else 0.0) for a, v, av, r in rows]
        return int(action)
