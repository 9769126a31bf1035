"""Cards and actions of the Escoba family (docs/rules/escoba.md §0.1, docs/escoba_engine.md §1, §4):
the packs, capture values, the 219 action ids and their notation."""

from __future__ import annotations

from typing import Any

from ...cards import card_id, card_str
from ...errors import (
    IllegalActionError,
    InvalidNotationError,
    shown,
)
from .._base import index_in

# ---------------------------------------------------------------------------------------------
# Cards
# ---------------------------------------------------------------------------------------------

#: The 40-card pack, ascending ids: ranks A..7, J, Q, K of c, d, h, s.
PACK: tuple[int, ...] = tuple(13 * s + r - 1 for s in range(4) for r in (1, 2, 3, 4, 5, 6, 7, 11, 12, 13))
_PACK_SET = frozenset(PACK)
#: The 52-card pack of ``deck = italian52`` (Cicera, docs/rules/escoba.md §2.24): every id.
PACK52: tuple[int, ...] = tuple(range(52))


#: The 80-card double pack of ``deck = double_italian80`` (docs/rules/escoba.md §2.18;
#: docs/escoba_engine.md §1a): ascending ids, the two copies of an id adjacent.
PACK80: tuple[int, ...] = tuple(c for c in PACK for _ in range(2))


def pack_of(deck: str) -> tuple[int, ...]:
    """The pack of a ``deck`` option, ascending ids (every 40-card deck has the same ids)."""
    return {"italian52": PACK52, "double_italian80": PACK80}.get(deck, PACK)


def pack_name(deck: str) -> str:
    """The pack as named in error messages."""
    return {
        "italian52": "52-card pack",
        "double_italian80": "80-card double pack (two of each of A-7, J, Q, K)",
    }.get(deck, "40-card pack (ranks A-7, J, Q, K)")


SETTEBELLO = card_id("7d")
RE_BELLO = card_id("Kd")
MARESCIALLO = card_id("Ks")  # docs/rules/escoba.md §2.18
KS_SWEEP_POINTS = -4  # a sweep made by playing Ks (docs/rules/escoba.md §2.18)
COINS = 1  # the suit index of d (coins, denari, oros)
SWORDS = 3  # the suit index of s (swords, spade)
#: The coins in napola order A 2 3 4 5 6 7 J Q K.
_NAPOLA_RUN = tuple(13 * COINS + r - 1 for r in (1, 2, 3, 4, 5, 6, 7, 11, 12, 13))


def card_value(card: int) -> int:
    """Capture value: A..7 = 1..7, J = 8, Q = 9, K = 10; the 52-card pack's 8, 9, 10 = 8, 9, 10."""
    rank = card % 13 + 1
    return rank if rank <= 10 else rank - 3


def _rank(card: int) -> int:
    return card % 13 + 1


def _suit(card: int) -> int:
    return card // 13


def _slot(card: int, size: int = 40) -> int:
    """Observation slot of a card: 10*suit + (value - 1) in a 40-card pack, the id in 52 cards."""
    return card if size == 52 else 10 * _suit(card) + card_value(card) - 1


#: Primiera values by rank (docs/rules/escoba.md §0.3); the Veneto table doubled to integers.
_PRIMIERA_VALUES = {
    "standard": {7: 21, 6: 18, 1: 16, 5: 15, 4: 14, 3: 13, 2: 12, 11: 10, 12: 10, 13: 10},
    "veneto": {7: 14, 6: 12, 1: 11, 5: 10, 4: 8, 3: 6, 2: 4, 11: 1, 12: 1, 13: 1},
}
_RANK_OF_CHAR = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "J": 11, "Q": 12, "K": 13}

# ---------------------------------------------------------------------------------------------
# Actions
# ---------------------------------------------------------------------------------------------

NUM_DISTINCT_ACTIONS = 219
TAKE0 = 52
DONE = 104
TAKE_PILE0 = 105
BUILD_ON0 = 111
CLAIM0 = 163
TRUST, DOUBT, KNOCK, NO_KNOCK = 215, 216, 217, 218
_WORD_ACTIONS = {"done": DONE, "trust": TRUST, "doubt": DOUBT, "knock": KNOCK}


def card_of(a: int) -> int | None:
    """The card of ``PLAY(c)`` or ``CLAIM(c)`` (a card leaving a hand), else None."""
    if a < TAKE0:
        return a
    if CLAIM0 <= a < CLAIM0 + 52:
        return a - CLAIM0
    return None


def action_to_string(action: Any) -> str:
    """Notation of an action id (any id 0..218 prints, legal or not)."""
    a = _as_action_id(action)
    if a < TAKE0:
        return card_str(a)
    if a < DONE:
        return "take " + card_str(a - TAKE0)
    if a == DONE:
        return "done"
    if a < BUILD_ON0:
        return f"take pile {a - TAKE_PILE0}"
    if a < CLAIM0:
        return "build on " + card_str(a - BUILD_ON0)
    if a < TRUST:
        return "claim " + card_str(a - CLAIM0)
    return {TRUST: "trust", DOUBT: "doubt", KNOCK: "knock", NO_KNOCK: "no knock"}[a]


def string_to_action(text: Any) -> int:
    """Action id of a notation string (case-insensitive, any whitespace between words)."""
    if not isinstance(text, str):
        raise InvalidNotationError(f"{shown(text)} is not action text: expected a string such as '7d' or 'take 5d'")
    words = text.lower().split()
    try:
        if len(words) == 1:
            if words[0] in _WORD_ACTIONS:
                return _WORD_ACTIONS[words[0]]
            return card_id(words[0])
        if len(words) == 2:
            if words == ["no", "knock"]:
                return NO_KNOCK
            if words[0] == "take":
                return TAKE0 + card_id(words[1])
            if words[0] == "claim":
                return CLAIM0 + card_id(words[1])
        if len(words) == 3:
            if words[:2] == ["take", "pile"] and words[2] in ("0", "1", "2", "3", "4", "5"):
                return TAKE_PILE0 + int(words[2])
            if words[:2] == ["build", "on"]:
                return BUILD_ON0 + card_id(words[2])
    except InvalidNotationError:
        pass
    raise InvalidNotationError(
        f"{shown(text)} is not an action: expected a card ('7d'), 'take 5d', 'done', 'take pile 2', "
        "'build on 3h', 'claim 7d', 'trust', 'doubt', 'knock' or 'no knock'"
    )


def _as_action_id(action: Any) -> int:
    return index_in(action, NUM_DISTINCT_ACTIONS, IllegalActionError, "an action id")
