"""What the game objects of both engines share: the resolved options, the game string, equality,
hashing and pickling. Pure Python (the reference engines use it without the native core)."""

from __future__ import annotations

import operator
from typing import Any, ClassVar

from ._gamestring import format_game
from .errors import InvalidStateError, TapeteError, shown

__all__ = ["MAX_DECISIONS", "MAX_NOTATION_CHARS", "GameBase", "exact_int", "seed_value", "shown"]


#: The layer's decision cap (as the native game::MAX_DECISIONS, docs/design.md §8): a match still
#: running after this many decisions is over, unfinished (``is_truncated()``), with returns all 0.
#: It is also the longest history a state's JSON may hold.
MAX_DECISIONS = 1_000_000

#: The longest action or move text a game reads (as the native json::MAX_NOTATION_CHARS).
MAX_NOTATION_CHARS = 1000


def exact_int(value: Any) -> int | None:
    """``value`` as an int (numpy integers welcome), or None: a bool is no seed, seat or id."""
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def seed_value(seed: Any, error: type[TapeteError] = InvalidStateError) -> int:
    """A seed is an int (or numpy integer) in 0 .. 2**64 - 1; a bad one raises ``error``."""
    value = exact_int(seed)
    if value is None:
        raise error(f"seed {shown(seed)} is not valid: expected an int in 0..2**64-1")
    if not 0 <= value < 2**64:
        raise error(f"seed {shown(value)} is not valid: expected an int in 0..2**64-1")
    return value


def _rebuild(cls: type[GameBase], options: dict[str, Any]) -> GameBase:
    """What pickle calls: the game from its resolved options."""
    return cls(**options)


class GameBase:
    """A game with resolved options. Subclasses set ``name`` and fill ``_options_json`` and
    ``options`` (every option resolved to its value)."""

    name: ClassVar[str]
    options: dict[str, Any]
    _options_json: str

    def __init__(self, **options: Any) -> None:  # pragma: no cover - every engine has its own
        raise NotImplementedError

    def __str__(self) -> str:
        """The game string, e.g. ``escoba(variant=escoba,players=4)``; ``tapete.load`` reads it."""
        return format_game(self.name, self.options, type(self))

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other._options_json == self._options_json

    def __hash__(self) -> int:
        return hash((self.name, self._options_json))

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), self.options))
