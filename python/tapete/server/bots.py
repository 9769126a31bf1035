"""Server-side bots, by spec: ``bot:random``, ``bot:heuristic`` and ``bot:ismcts(iterations=N)``
(the native bots of ``tapete.bots``); others register a factory here.

A bot is a callable from its seat's seat object (``state.for_seat(p)``, docs/bots.md §2: what
that seat may know, never the state) to one of its legal actions. It runs on the server, on a
worker thread, off the event loop.
"""

from __future__ import annotations

import random
import re
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .._gamestring import parse_value
from ..errors import InvalidOptionError

__all__ = ["Bot", "BotKind", "BOTS", "parse_bot", "register_bot"]

Bot = Callable[[Any], int]

_SPEC = re.compile(r"^bot:([a-z_][a-z0-9_]*)(?:\((.*)\))?$", re.S)


@dataclass(frozen=True)
class BotKind:
    """A registered bot: ``make(**params)`` builds one; ``budgets`` caps each numeric parameter a
    client may ask for (a spec over a cap is refused, not clipped)."""

    make: Callable[..., Bot]
    budgets: Mapping[str, int]


def _random_bot() -> Bot:
    rng = random.Random(secrets.randbits(64))  # its own seed: nothing a client can guess or steer

    def choose(seat: Any) -> int:
        return int(rng.choice(seat.legal_actions()))

    return choose


def _heuristic_bot() -> Bot:
    from ..bots import Heuristic

    return Heuristic(seed=secrets.randbits(64)).act


def _ismcts_bot(iterations: int = 1000) -> Bot:
    from ..bots import ISMCTS

    return ISMCTS(iterations=iterations, seed=secrets.randbits(64)).act


#: The most iterations a client may ask of one ISMCTS decision (a fraction of a second natively).
ISMCTS_ITERATIONS = 20_000

BOTS: dict[str, BotKind] = {
    "random": BotKind(_random_bot, {}),
    "heuristic": BotKind(_heuristic_bot, {}),
    "ismcts": BotKind(_ismcts_bot, {"iterations": ISMCTS_ITERATIONS}),
}


def register_bot(name: str, make: Callable[..., Bot], budgets: Mapping[str, int]) -> None:
    """Add a bot kind, e.g. ``register_bot("ismcts", make, {"iterations": 100_000})``."""
    BOTS[name] = BotKind(make, dict(budgets))


def parse_bot(spec: str) -> Bot:
    """A bot from its spec (``bot:random``, ``bot:name(k=v,...)``); a bad spec raises
    ``InvalidOptionError`` naming what is wrong."""
    match = _SPEC.match(spec) if len(spec) <= 200 else None
    if match is None:
        raise InvalidOptionError(f"{spec[:60]!r} is not a seat: expected 'human' or a bot spec such as 'bot:random'")
    name, body = match.group(1), match.group(2)
    if name not in BOTS:
        raise InvalidOptionError(f"unknown bot {name!r}: this server has {', '.join('bot:' + b for b in sorted(BOTS))}")
    kind = BOTS[name]
    params: dict[str, Any] = {}
    for part in (body or "").split(","):
        if not part.strip():
            continue
        key, eq, value = part.partition("=")
        key = key.strip()
        if not eq or key not in kind.budgets:
            allowed = ", ".join(sorted(kind.budgets)) or "none"
            raise InvalidOptionError(f"bot:{name} has no parameter {key[:40]!r} (parameters: {allowed})")
        parsed = parse_value(value)
        if isinstance(parsed, bool) or not isinstance(parsed, int) or not 0 < parsed <= kind.budgets[key]:
            raise InvalidOptionError(
                f"bot:{name} {key}={value.strip()[:24]} is refused: expected an int in 1..{kind.budgets[key]}"
            )
        params[key] = parsed
    return kind.make(**params)
