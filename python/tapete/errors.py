"""The exceptions every tapete engine raises, native and reference alike.

Pure Python on purpose: the reference engines must not import the native core, and both must raise
the same classes for the same mistake.
"""

from __future__ import annotations

# The exception classes, which the package re-exports; the message helpers below are used by
# both engines' modules and importable by name.
__all__ = [
    "TapeteError",
    "IllegalActionError",
    "InvalidNotationError",
    "InvalidOptionError",
    "InvalidStateError",
    "InvalidPlayerError",
]

#: How much of a bad input an error message quotes (as the native json::EXCERPT_CHARS).
EXCERPT_CHARS = 80


def excerpt(text: str) -> str:
    """``text`` cut to ``EXCERPT_CHARS`` characters, with ``…`` where it was cut: the one cut of
    what a message quotes, in every Python module of both engines."""
    return text if len(text) <= EXCERPT_CHARS else text[:EXCERPT_CHARS] + "…"


def shown(value: object) -> str:
    """A value as a message quotes it: its repr, cut by ``excerpt`` (a huge int by its size, a
    structure too deep to print by its type)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**30:
        return f"<an int of {value.bit_length()} bits>"
    try:
        text = repr(value)
    except RecursionError:
        return f"<a deeply nested {type(value).__name__}>"
    return excerpt(text)


class TapeteError(Exception):
    """Base class of every error tapete raises on bad input."""


class IllegalActionError(TapeteError, ValueError):
    """An action id or move that is out of range or not legal in the current state."""


class InvalidNotationError(TapeteError, ValueError):
    """Text that does not parse as a card, an action or a move."""


class InvalidOptionError(TapeteError, ValueError):
    """An unknown game option, or an option of the wrong type or out of range."""


class InvalidStateError(TapeteError, ValueError):
    """A state description (JSON or setup) that is malformed or describes an impossible position."""


class InvalidPlayerError(TapeteError, ValueError):
    """A seat number that is not a seat of this game."""
