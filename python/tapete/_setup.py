"""Argument checks shared by the native game fronts (``tapete.escoba`` and the games to come)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from .errors import InvalidOptionError, InvalidStateError

__all__ = ["seed_value", "setup_json"]


def seed_value(seed: Any, error: type[Exception] = InvalidOptionError) -> int:
    """A seed is an int in 0 .. 2**64 - 1; a bad one raises ``error``."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise error(f"seed {seed!r} is not valid: expected an int in 0..2**64-1")
    return seed


def list_value(items: Any, what: str, error: type[Exception]) -> list[Any]:
    """A list from a non-text iterable argument, else ``error``."""
    if isinstance(items, (str, bytes)) or not isinstance(items, Iterable):
        raise error(f"{what} must be a list, not {type(items).__name__}")
    return list(items)


def _plain(value: Any, where: str, depth: int = 0) -> Any:
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 2**63:
        raise InvalidStateError(f"setup argument {where} holds an int of {value.bit_length()} bits: out of range")
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if depth < 3 and isinstance(value, Iterable) and not isinstance(value, (bytes, dict)):
        return [_plain(v, where, depth + 1) for v in value]
    raise InvalidStateError(f"setup argument {where} holds {value!r:.60}: expected cards as text or ids, and ints")


def setup_json(**spec: Any) -> str:
    """The JSON the native ``setup`` reads: every argument as plain lists, ints and text."""
    seed_value(spec.get("seed", 0), InvalidStateError)
    return json.dumps({k: _plain(v, k) for k, v in spec.items()}, sort_keys=True, separators=(",", ":"))
