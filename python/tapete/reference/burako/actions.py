"""Burako actions (docs/rules/burako.md §11): a fixed space of 1966 ids and their notation.

==========  ===================  ================  ===========================================
ids         action               notation          meaning
==========  ===================  ================  ===========================================
0           ``DRAW_STOCK``       ``draw``          take the top stock tile
1           ``TAKE_POZO``        ``take pozo``     take the whole pozo
2           ``REDRAW``           ``redraw``        the mano's privilege: reject the first draw
3..55       ``NEW_ADD(t)``       ``add R5``        move a tile to the new-meld buffer
56          ``NEW_COMMIT``       ``meld``          the buffer becomes a team meld
57          ``NEW_CANCEL``       ``cancel``        the buffer goes back to the rack
58..110     ``DISCARD(t)``       ``discard K13``   discard a tile; ends the turn
111..1965   ``EXTEND(m, t)``     ``extend 3 B7``   add a tile to the team's meld slot m
==========  ===================  ================  ===========================================
"""

from __future__ import annotations

from typing import Any

from ...errors import IllegalActionError, InvalidNotationError, shown
from .._base import index_in
from .tiles import NUM_TYPES, tile_id, tile_str

__all__ = [
    "NUM_DISTINCT_ACTIONS",
    "M_MAX",
    "DRAW_STOCK",
    "TAKE_POZO",
    "REDRAW",
    "NEW_ADD0",
    "NEW_COMMIT",
    "NEW_CANCEL",
    "DISCARD0",
    "EXTEND0",
    "action_to_string",
    "string_to_action",
]

NUM_DISTINCT_ACTIONS = 1966
M_MAX = 35
DRAW_STOCK, TAKE_POZO, REDRAW = 0, 1, 2
NEW_ADD0 = 3
NEW_COMMIT, NEW_CANCEL = 56, 57
DISCARD0 = 58
EXTEND0 = 111
_WORDS = {"draw": DRAW_STOCK, "take pozo": TAKE_POZO, "redraw": REDRAW, "meld": NEW_COMMIT, "cancel": NEW_CANCEL}


def action_to_string(action: Any) -> str:
    """Notation of an action id (any id 0..1965 prints, legal or not)."""
    a = index_in(action, NUM_DISTINCT_ACTIONS, IllegalActionError, "an action id")
    for word, aid in _WORDS.items():
        if a == aid:
            return word
    if a < NEW_COMMIT:
        return "add " + tile_str(a - NEW_ADD0)
    if a < EXTEND0:
        return "discard " + tile_str(a - DISCARD0)
    m, t = divmod(a - EXTEND0, NUM_TYPES)
    return f"extend {m} {tile_str(t)}"


def string_to_action(text: Any) -> int:
    """Action id of a notation string (case-insensitive, any whitespace between words)."""
    if not isinstance(text, str):
        raise InvalidNotationError(f"{shown(text)} is not action text: expected a string such as 'draw' or 'add R5'")
    words = text.lower().split()
    joined = " ".join(words)
    if joined in _WORDS:
        return _WORDS[joined]
    try:
        if len(words) == 2 and words[0] == "add":
            return NEW_ADD0 + tile_id(words[1])
        if len(words) == 2 and words[0] == "discard":
            return DISCARD0 + tile_id(words[1])
        slot = words[1] if len(words) == 3 else ""
        if (
            len(words) == 3
            and words[0] == "extend"
            and 1 <= len(slot) <= 2
            and slot.isascii()
            and slot.isdigit()
            and int(slot) < M_MAX
        ):
            return EXTEND0 + NUM_TYPES * int(words[1]) + tile_id(words[2])
    except InvalidNotationError:
        pass
    raise InvalidNotationError(
        f"{shown(text)} is not an action: expected 'draw', 'take pozo', 'redraw', 'add R5', 'meld', 'cancel', "
        f"'discard K13' or 'extend 3 B7' (meld slot 0..{M_MAX - 1})"
    )
