"""The exceptions every tapete engine raises, native and reference alike.

Pure Python on purpose: the reference engines must not import the native core, and both must raise
the same classes for the same mistake.
"""

from __future__ import annotations

__all__ = [
    "TapeteError",
    "IllegalActionError",
    "InvalidNotationError",
    "InvalidOptionError",
    "InvalidStateError",
    "InvalidPlayerError",
]


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
