"""Burako tiles (docs/rules/burako.md §1, docs/design.md §4): 106 tiles, colours R K B Y, numbers
1..13, two copies each, and two jokers. A tile *type* is ``13*colour + n-1`` (joker 52); its text
is ``R5``, ``K13``, ``J*``."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from ...errors import InvalidNotationError, shown

__all__ = [
    "COLOURS",
    "JOKER",
    "NUM_TYPES",
    "PACK",
    "tile_str",
    "tile_id",
    "tile_value",
    "number",
    "colour",
    "is_two",
    "counts",
    "listed",
]

COLOURS = "RKBY"
JOKER = 52
NUM_TYPES = 53
#: The 106 tiles in ascending type order, the two copies of each type adjacent (docs/design.md §5).
PACK: tuple[int, ...] = tuple(t for t in range(NUM_TYPES) for _ in range(2))


def tile_str(t: int) -> str:
    """Text of a tile type: ``R5``, ``K13``, ``J*``."""
    if t == JOKER:
        return "J*"
    return f"{COLOURS[t // 13]}{t % 13 + 1}"


def tile_id(tile: Any, error: type = InvalidNotationError) -> int:
    """Type id of a tile given as id (0..52) or text (``R5``, ``k13``, ``J*``)."""
    if isinstance(tile, bool):
        raise error(f"{shown(tile)} is not a tile: expected text like 'R5' or 'J*', or an id 0..52")
    if isinstance(tile, (int, np.integer)):
        if 0 <= tile < NUM_TYPES:
            return int(tile)
        raise error(f"tile id {tile} is out of range: expected 0..52")
    if isinstance(tile, str):
        text = tile.strip().upper()
        if text == "J*":
            return JOKER
        digits = text[1:]
        if (
            text[:1] in tuple(COLOURS)
            and 1 <= len(digits) <= 2
            and digits.isascii()
            and digits.isdigit()
            and digits[0] != "0"
        ):
            n = int(text[1:])
            if 1 <= n <= 13:
                return 13 * COLOURS.index(text[0]) + n - 1
    raise error(f"{shown(tile)} is not a tile: expected a colour from RKBY and a number 1..13 (e.g. 'R5'), or 'J*'")


def number(t: int) -> int:
    return t % 13 + 1


def colour(t: int) -> int:
    return t // 13


def is_two(t: int) -> bool:
    return t != JOKER and number(t) == 2


def tile_value(t: int, opts: dict) -> int:
    """Face value of one tile in a rack (docs/rules/burako.md §1): 1 -> 15, 2 -> 20, 3..7 -> 5, 8..13 -> 10, joker."""
    if t == JOKER:
        return opts["joker_value"]
    n = number(t)
    return 15 if n == 1 else 20 if n == 2 else 5 if n <= 7 else 10


def counts(tiles: Iterable[int]) -> list[int]:
    """The count of each tile type in ``tiles`` (a rack is kept so)."""
    c = [0] * NUM_TYPES
    for t in tiles:
        c[t] += 1
    return c


def listed(counts: Sequence[int]) -> list[int]:
    """The tiles of a count vector, ascending."""
    out = []
    for t, k in enumerate(counts):
        if k:
            out += [t] * k
    return out
