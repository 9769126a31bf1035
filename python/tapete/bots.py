"""Bots that play any tapete game (docs/bots.md): ``Random``, ``Heuristic`` and ``ISMCTS``, each
acting for the seat to act in a native state, in Rust with the GIL released; ``FunctionBot``, a
Python function of ``(view, legal_actions)`` in a seat beside them; ``as_bot``, which makes a bot
of a spec text, a bot or such a function.

>>> import tapete
>>> state = tapete.Escoba(variant="scopa").new_state(seed=1)
>>> bot = tapete.bots.ISMCTS(iterations=200, seed=0)
>>> state.apply(bot.act(state.for_seat(state.current_player())))

Every seeded bot holds one SplitMix64 stream (docs/design.md §5) seeded with ``seed``; each
``act`` (and each ``policy`` of a bot that draws) takes from it what docs/bots.md says, so that a
bot plays the same game again for the same seed and states. Pure Python up to the native call:
``tapete.reference.ismcts`` uses the option checks below without the native core.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import numpy as np

from ._game import exact_int, seed_value
from .errors import IllegalActionError, InvalidOptionError, InvalidStateError, shown
from .reference._rng import SplitMix64

__all__ = [
    "SeatState",
    "seat_state",
    "Bot",
    "BotFunction",
    "FunctionBot",
    "Random",
    "Heuristic",
    "ISMCTS",
    "RootStat",
    "IsmctsOptions",
    "as_bot",
    "MAX_ITERATIONS",
    "MAX_TIME_MS",
    "MAX_THREADS",
    "MAX_C",
]

#: Bounds of the ISMCTS options, as the native spec reader's (rust/tapete-core/src/bots/spec.rs).
MAX_ITERATIONS = 1_000_000_000
MAX_TIME_MS = 600_000
MAX_THREADS = 1024
MAX_C = 1e6


@runtime_checkable
class SeatState(Protocol):
    """What a bot is handed: one seat's knowledge of a position, ``state.for_seat(p)`` (both
    engines; docs/bots.md §2). Every method is seat-safe or public (docs/design.md §11): the
    full state, its JSON, its full history and its picture are not reachable through it."""

    @property
    def seat(self) -> int: ...
    @property
    def game(self) -> Any: ...
    @property
    def num_players(self) -> int: ...
    @property
    def num_distinct_actions(self) -> int: ...
    def view(self) -> dict[str, Any]: ...
    def public_view(self) -> dict[str, Any]: ...
    def observation(self) -> np.ndarray: ...
    def history(self) -> list[Any]: ...
    def legal_actions(self) -> list[int]: ...
    def legal_mask(self) -> np.ndarray: ...
    def action_to_string(self, action: Any) -> str: ...
    def string_to_action(self, text: Any) -> int: ...
    def resample(self, seed: Any) -> Any: ...
    def current_player(self) -> int: ...
    def is_terminal(self) -> bool: ...
    def scores(self) -> list[int]: ...
    def deals(self) -> int: ...


@runtime_checkable
class Bot(Protocol):
    """Anything that plays a seat: ``act(seat)`` returns a legal action id for ``seat``, the
    ``SeatState`` of the seat to act (``state.for_seat(state.current_player())``), reading only
    what it exposes."""

    def act(self, seat: Any) -> int: ...


#: A Python function that plays a seat: ``f(view, legal_actions) -> action id``, where ``view`` is
#: ``state.view(p)`` of the seat ``p`` to act and ``legal_actions`` is ascending.
BotFunction = Callable[[dict[str, Any], list[int]], int]


def seat_state(state: Any) -> Any:
    """``state`` as a bot reads it: a seat object as it is; a whole state (deprecated, for one
    release) as the seat object of its seat to act, with a ``DeprecationWarning``. Either way the
    seat must be the one to act (else ``IllegalActionError``)."""
    return _seat_state(state, 3)


def _seat_state(state: Any, depth: int) -> Any:
    """``seat_state``, warning ``depth`` frames up (the bot's caller)."""
    if hasattr(state, "for_seat"):
        warnings.warn(
            "a bot handed a whole state is deprecated and will be refused in the next release: "
            "hand it state.for_seat(state.current_player()) (docs/bots.md §2)",
            DeprecationWarning,
            stacklevel=depth,
        )
        state = state.for_seat(_to_act(state))
    p = int(state.current_player())
    if p < 0:
        raise IllegalActionError("no seat is to act: the match is over, a bot has no move")
    if p != state.seat:
        raise IllegalActionError(f"seat {state.seat} is not to act (seat {p} is): a bot acts for the seat to act")
    return state


def _to_act(state: Any) -> int:
    """The seat to act in ``state``; a match that is over has none (``IllegalActionError``)."""
    p = int(state.current_player())
    if p < 0:
        raise IllegalActionError("no seat is to act: the match is over, a bot has no move")
    return p


class FunctionBot:
    """A seat played by a Python function ``f(view, legal_actions) -> int`` (see ``BotFunction``).

    It sees only the view of the seat to act and its legal actions; what it returns must be one of
    them (else ``IllegalActionError``, the state unchanged)."""

    def __init__(self, function: BotFunction) -> None:
        if not callable(function):
            raise InvalidOptionError(f"a bot function must be callable, got {shown(function)}")
        self.function = function

    def act(self, seat: Any) -> int:
        seat = _seat_state(seat, 3)
        legal = list(seat.legal_actions())
        choice = self.function(seat.view(), list(legal))
        action = exact_int(choice)
        if action is None or action not in legal:
            raise IllegalActionError(f"the bot function returned {shown(choice)}, which is not a legal action id here")
        return action

    def __repr__(self) -> str:
        return f"FunctionBot({getattr(self.function, '__name__', shown(self.function))})"


@dataclass(frozen=True)
class RootStat:
    """One root action of a search: its visits, its availability (iterations in which it was
    legal in the determinization) and the mean reward of the seat to act over its visits."""

    action: int
    visits: int
    avail: int
    mean: float


def _native_seat(state: Any, depth: int = 5) -> Any:
    """The native seat object a native bot plays (``seat_state``), or ``InvalidStateError``."""
    seat = _seat_state(state, depth)
    if not hasattr(seat, "bot_act"):
        raise InvalidStateError(
            f"native bots play native states (tapete.<Game>().new_state()), not {type(seat).__name__}; "
            "tapete.reference.ismcts has the reference engine's bots"
        )
    return seat


class _SeededBot:
    """A bot's SplitMix64 stream and the statistics of its last search, for the native and the
    reference bots alike."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed_value(seed, InvalidOptionError)
        self._rng = SplitMix64(self.seed)
        self.stats: list[RootStat] = []
        self.iterations = 0

    def _run(self, state: Any) -> int:
        raise NotImplementedError

    def act(self, seat: Any) -> int:
        """The action for ``seat``, the seat object of the seat to act."""
        return self._run(seat)


class _NativeBot(_SeededBot):
    """A bot of the native core, named by its spec text (docs/bots.md §1)."""

    spec: str

    def _run(self, state: Any) -> int:
        seat = _native_seat(state)
        action, rng_state, rows, iterations = seat.bot_act(self.spec, self._rng.state)
        self._rng.state = rng_state
        self.stats = [RootStat(a, v, av, r / v if v else 0.0) for a, v, av, r in rows]
        self.iterations = iterations
        return int(action)

    def policy(self, state: Any) -> dict[int, float]:
        """Action -> probability: the one action ``act`` would play (it draws as ``act`` does)."""
        return {self._run(state): 1.0}

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.spec!r}, seed={self.seed})"


class Random(_NativeBot):
    """Uniformly random legal actions: ``legal[next() % len(legal)]`` with its stream, as
    ``tapete.simulate`` plays."""

    spec = "random"

    def policy(self, state: Any) -> dict[int, float]:
        """Uniform over the legal actions (draws nothing)."""
        legal = _native_seat(state, 4).legal_actions()
        return {int(a): 1.0 / len(legal) for a in legal}


class Heuristic(_NativeBot):
    """The game's ``heuristic`` bot (each game's rules-based choice; the stream breaks ties)."""

    spec = "heuristic"


@dataclass(frozen=True)
class IsmctsOptions:
    """Checked ISMCTS options (docs/bots.md §3.1), shared by the native and reference bots."""

    iterations: int | None
    time_ms: int | None
    c: float
    rollout: str
    horizon: str
    threads: int

    @staticmethod
    def check(
        iterations: Any = 1000,
        time_ms: Any = None,
        c: Any = 0.7,
        rollout: Any = "random",
        horizon: Any = "deal",
        threads: Any = 1,
    ) -> IsmctsOptions:
        def count(name: str, value: Any, top: int, optional: bool) -> int | None:
            if value is None and optional:
                return None
            n = exact_int(value)
            if n is None or not 1 <= n <= top:
                raise InvalidOptionError(f"{name} must be an int in 1..{top}, got {shown(value)}")
            return n

        its = count("iterations", iterations, MAX_ITERATIONS, True)
        ms = count("time_ms", time_ms, MAX_TIME_MS, True)
        if its is None and ms is None:
            raise InvalidOptionError("ISMCTS needs a budget: iterations or time_ms (or both)")
        if isinstance(c, bool) or not isinstance(c, (int, float)) or not (math.isfinite(c) and 0 <= c <= MAX_C):
            raise InvalidOptionError(f"c must be a number in 0..{MAX_C:g}, got {shown(c)}")
        if rollout not in ("random", "heuristic"):
            raise InvalidOptionError(f"rollout must be 'random' or 'heuristic', got {shown(rollout)}")
        if horizon not in ("deal", "game"):
            raise InvalidOptionError(f"horizon must be 'deal' or 'game', got {shown(horizon)}")
        t = count("threads", threads, MAX_THREADS, False)
        assert t is not None
        return IsmctsOptions(its, ms, float(c), rollout, horizon, t)

    def spec(self) -> str:
        """The native spec text of these options."""

        def opt(x: int | None) -> str:
            return "none" if x is None else str(x)

        return (
            f"ismcts:iterations={opt(self.iterations)},time_ms={opt(self.time_ms)},c={self.c!r},"
            f"rollout={self.rollout},horizon={self.horizon},threads={self.threads}"
        )


class _IsmctsBot(_SeededBot):
    """ISMCTS's options and policy, the same for the native and the reference bot."""

    def __init__(
        self,
        iterations: int | None = 1000,
        c: float = 0.7,
        rollout: str = "random",
        threads: int = 1,
        seed: int = 0,
        *,
        time_ms: int | None = None,
        horizon: str = "deal",
    ) -> None:
        self.options = IsmctsOptions.check(iterations, time_ms, c, rollout, horizon, threads)
        self.spec = self.options.spec()
        super().__init__(seed)

    def policy(self, state: Any) -> dict[int, float]:
        """Action -> share of the root visits of a new search (one draw, as ``act``); a lone
        legal action has share 1 without a search."""
        action = self._run(state)
        total = sum(s.visits for s in self.stats)
        if not total:
            return {action: 1.0}
        return {s.action: s.visits / total for s in self.stats}


class ISMCTS(_IsmctsBot, _NativeBot):
    """Single-observer information-set MCTS (Cowling, Powley and Whitehouse 2012; docs/bots.md).

    ``iterations`` and/or ``time_ms`` bound each search (whichever is spent first; only an
    iterations budget is deterministic); ``c`` is UCT's exploration constant; ``rollout`` is
    ``"random"`` or ``"heuristic"``; ``horizon`` is ``"deal"`` (score the deal's points) or
    ``"game"`` (score ``returns``); ``threads`` root-parallel trees. After each search ``stats``
    holds the root statistics and ``iterations`` the iterations run."""

    def __repr__(self) -> str:
        return f"ISMCTS({self.spec!r}, seed={self.seed})"


def _from_spec(text: str, seed: Any) -> Bot:
    name, sep, rest = text.strip().partition(":")
    name = name.strip()
    if name in ("random", "heuristic") and not sep:
        return Random(seed) if name == "random" else Heuristic(seed)
    if name != "ismcts":
        raise InvalidOptionError(f"bad bot spec {shown(text)}: expected random, heuristic or ismcts[:options]")
    kwargs: dict[str, Any] = {}
    if sep:
        for i, item in enumerate(rest.split(",")):
            key, eq, value = item.partition("=")
            key, value = key.strip(), value.strip()
            if not eq:
                if i:
                    raise InvalidOptionError(f"bad bot spec {shown(text)}: {shown(item)} is not key=value")
                key, value = "iterations", item.strip()
            if key in kwargs:
                raise InvalidOptionError(f"bad bot spec {shown(text)}: {key} is given twice")
            if key in ("iterations", "time_ms", "threads"):
                kwargs[key] = None if value == "none" else int(value) if value.isdigit() else value
            elif key == "c":
                try:
                    kwargs[key] = float(value)
                except ValueError:
                    kwargs[key] = value
            elif key in ("rollout", "horizon"):
                kwargs[key] = value
            else:
                raise InvalidOptionError(f"bad bot spec {shown(text)}: unknown option {shown(key)}")
        if "time_ms" in kwargs and "iterations" not in kwargs:
            kwargs["iterations"] = None
    return ISMCTS(seed=seed, **kwargs)


def as_bot(bot: Any, seed: Any = 0) -> Bot:
    """A bot from a spec text (``"random"``, ``"heuristic"``, ``"ismcts:200"``...; seeded with
    ``seed``), a bot (returned as it is) or a ``BotFunction``; anything else is an
    ``InvalidOptionError``."""
    if isinstance(bot, str):
        return _from_spec(bot, seed)
    if isinstance(bot, Bot):
        return bot
    if callable(bot):
        return FunctionBot(bot)
    raise InvalidOptionError(
        f"a bot is a spec text, an object with act(state) or a function (view, legal_actions), got {shown(bot)}"
    )
