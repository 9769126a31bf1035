"""Burako (Argentine tile Buraco): the pure-Python reference engine.

This module is the readable statement of the rules that ``docs/burako_engine.md`` (the engine
contract) and ``rules/burako.md`` (the rules) pin down. The native engine implements the same page,
and the differential tests hold the two to it byte for byte. Clarity comes first here.

The game in brief
-----------------
* 106 tiles: colours R K B Y, numbers 1..13, two copies each, and two jokers. A tile *type* is
  ``13*colour + n-1`` (joker 52); text ``R5``, ``K13``, ``J*``. Jokers are wild, and so is every 2,
  except that a 2 may be a natural 2 in a run of its own colour.
* 2 players, or 4 in two teams (seats 0+2 against 1+3). Racks of 11 (12/15/22 with two players),
  two face-down *muertos* of 11 tiles, the rest is the stock; the *pozo* (discard pile) starts empty.
* A turn: draw one stock tile or take the whole pozo; lay down melds (runs of one colour, or
  *piernas* of one number, at most one wild by default) one tile at a time through a buffer, and
  extend the team's melds; then discard. The mano may reject his very first draw (REDRAW).
* The first player of a team to empty his rack takes the team's muerto and plays on (directly,
  within the turn, when a meld empties it; on his next turn when a discard does). Once a team has its
  muerto and a canasta (a meld of 7+ tiles), emptying a rack closes the hand.
* Scoring per team: melded tiles plus, rack tiles minus, canastas (+200 pure / +100 impure), +100 for
  closing, +/-100 for the muerto; a team without a canasta counts its melds negative. Hands are
  played until a team reaches 3000.

Actions (a fixed space of 1966 ids, docs/rules/burako.md §11)
----------------------------------------------
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

Melds are stored as tile multisets only (the "existence semantics" of docs/rules/burako.md §3.4): a multiset is a
valid run when *some* assignment of positions to its tiles fits, so wilds move freely inside a meld.
"""

from __future__ import annotations

import json
import operator
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from .._gamestring import format_game
from ..errors import (
    IllegalActionError,
    InvalidNotationError,
    InvalidOptionError,
    InvalidPlayerError,
    InvalidStateError,
)
from ._json import is_int as _is_int
from ._json import read_state_object
from ._rng import MASK64, SplitMix64

__all__ = [
    "Burako",
    "BurakoState",
    "classify_meld",
    "score_team",
    "resolve_options",
    "tile_id",
    "tile_str",
    "tile_value",
    "action_to_string",
    "string_to_action",
    "NUM_DISTINCT_ACTIONS",
]

# ---------------------------------------------------------------------------------------------
# Tiles (docs/rules/burako.md §1)
# ---------------------------------------------------------------------------------------------

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
        raise error(f"{tile!r} is not a tile: expected text like 'R5' or 'J*', or an id 0..52")
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
    raise error(f"{tile!r} is not a tile: expected a colour from RKBY and a number 1..13 (e.g. 'R5'), or 'J*'")


def _number(t: int) -> int:
    return t % 13 + 1


def _colour(t: int) -> int:
    return t // 13


def _is_two(t: int) -> bool:
    return t != JOKER and _number(t) == 2


def tile_value(t: int, opts: dict) -> int:
    """Face value of one tile in a rack (docs/rules/burako.md §1): 1 -> 15, 2 -> 20, 3..7 -> 5, 8..13 -> 10, joker."""
    if t == JOKER:
        return opts["joker_value"]
    n = _number(t)
    return 15 if n == 1 else 20 if n == 2 else 5 if n <= 7 else 10


# ---------------------------------------------------------------------------------------------
# Actions (docs/rules/burako.md §11)
# ---------------------------------------------------------------------------------------------

NUM_DISTINCT_ACTIONS = 1966
M_MAX = 35
DRAW_STOCK, TAKE_POZO, REDRAW = 0, 1, 2
NEW_ADD0 = 3
NEW_COMMIT, NEW_CANCEL = 56, 57
DISCARD0 = 58
EXTEND0 = 111
_WORDS = {"draw": DRAW_STOCK, "take pozo": TAKE_POZO, "redraw": REDRAW, "meld": NEW_COMMIT, "cancel": NEW_CANCEL}


def _index_in(value: Any, stop: int, error: type, what: str) -> int:
    """``value`` as an int in ``0..stop-1`` (numpy ints welcome, bools not), else ``error``."""
    if isinstance(value, bool):
        raise error(f"{value!r} is not {what}: expected an int 0..{stop - 1}")
    try:
        index = operator.index(value)
    except TypeError:
        raise error(f"{value!r} is not {what}: expected an int 0..{stop - 1}") from None
    if not 0 <= index < stop:
        raise error(f"{what} {index} is out of range: expected 0..{stop - 1}")
    return index


def _as_action_id(action: Any) -> int:
    return _index_in(action, NUM_DISTINCT_ACTIONS, IllegalActionError, "an action id")


def action_to_string(action: Any) -> str:
    """Notation of an action id (any id 0..1965 prints, legal or not)."""
    a = _as_action_id(action)
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
        raise InvalidNotationError(f"{text!r} is not action text: expected a string such as 'draw' or 'add R5'")
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
        f"{text!r} is not an action: expected 'draw', 'take pozo', 'redraw', 'add R5', 'meld', 'cancel', "
        f"'discard K13' or 'extend 3 B7' (meld slot 0..{M_MAX - 1})"
    )


# ---------------------------------------------------------------------------------------------
# Options (docs/rules/burako.md §10, docs/burako_engine.md §2)
# ---------------------------------------------------------------------------------------------

_NOLIMIT = 10**9

#: Every option: (kind, detail, default). Kinds: choice (str among detail), int (lo, hi), bool,
#: ints (an int among detail), seat_or_random, muerto, wilds.
_SPEC: dict[str, tuple[str, Any, Any]] = {
    "variant": ("choice", ("standard",), "standard"),
    "players": ("ints", (2, 4), 4),
    "first_mano": ("seat_or_random", None, "random"),
    "two_player_hand": ("ints", (12, 15, 22), 12),
    "muerto_size": ("muerto", None, 11),
    "twos_wild": ("bool", None, True),
    "two_value": ("choice", ("always_20", "natural_5_wild_20"), "always_20"),
    "joker_value": ("ints", (50, 30), 50),
    "max_wilds_per_meld": ("wilds", None, 1),
    "pierna_of_twos": ("choice", ("forbidden", "allowed_as_naturals"), "forbidden"),
    "ace_position": ("choice", ("low_or_high", "high_only", "low_only"), "low_or_high"),
    "ace_to_ace_run": ("choice", ("allowed", "forbidden"), "allowed"),
    "run_wrap": ("bool", None, False),
    "canasta_min": ("int", (3, 14), 7),
    "close_requirement": ("choice", ("any_canasta", "pure_canasta"), "any_canasta"),
    "close_mode": ("choice", ("meld_or_discard", "discard_required", "meld_required"), "meld_or_discard"),
    "first_player_redraw": ("bool", None, True),
    "pozo_take_requirement": ("choice", ("none", "must_use_top_tile_now"), "none"),
    "single_tile_pozo_rediscard": ("choice", ("allowed", "forbidden"), "allowed"),
    "pozo_visibility": ("choice", ("all_tiles", "top_only"), "all_tiles"),
    "no_canasta_melds_negative": ("bool", None, True),
    "indirect_muerto_unplayed": ("choice", ("counts_as_taken", "counts_as_not_taken"), "counts_as_taken"),
    "stock_exhausted": ("choice", ("end_hand_after_turn", "muerto_becomes_stock"), "end_hand_after_turn"),
    "max_cancels_per_turn": ("int", (1, _NOLIMIT), 5),
    "max_turns": ("int", (1, _NOLIMIT), 300),
    "match": ("choice", ("to_target", "single_hand"), "to_target"),
    "target": ("int", (1, _NOLIMIT), 3000),
    "max_hands": ("int", (1, _NOLIMIT), 50),
    "next_mano": ("choice", ("rotate", "loser_starts"), "rotate"),
}
DEFAULTS: dict[str, Any] = {name: spec[2] for name, spec in _SPEC.items()}


def _short_repr(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _bad(name: str, value: Any, allowed: str) -> InvalidOptionError:
    return InvalidOptionError(f"option {name}={_short_repr(value)} is invalid: expected {allowed}")


def _check_option(name: str, value: Any) -> Any:
    kind, detail, _ = _SPEC[name]
    if kind == "choice":
        if not isinstance(value, str) or value not in detail:
            raise _bad(name, value, "one of " + ", ".join(detail))
    elif kind == "bool":
        if not isinstance(value, bool):
            raise _bad(name, value, "a bool (true or false)")
    elif kind == "ints":
        if not _is_int(value) or value not in detail:
            raise _bad(name, value, "an int among " + ", ".join(map(str, detail)))
    elif kind == "int":
        lo, hi = detail
        if not _is_int(value) or not lo <= value <= hi:
            raise _bad(name, value, f"an int {lo}..{hi}")
    elif kind == "seat_or_random":
        if value != "random" and not (_is_int(value) and 0 <= value <= 3):
            raise _bad(name, value, "'random' or a seat number")
    elif kind == "muerto":
        if value != "hand_size" and not (_is_int(value) and value == 11):
            raise _bad(name, value, "11 or 'hand_size'")
    elif kind == "wilds":
        if value not in ("fewer_than_naturals", "unlimited") and not (_is_int(value) and value in (1, 2)):
            raise _bad(name, value, "1, 2, 'fewer_than_naturals' or 'unlimited'")
    return value


def resolve_options(**given: Any) -> dict[str, Any]:
    """Every option resolved: the defaults of docs/rules/burako.md §10 overridden by the given ones."""
    for name in given:
        if name not in _SPEC:
            raise InvalidOptionError(f"unknown option {name!r}: expected one of " + ", ".join(_SPEC))
    opts = dict(DEFAULTS)
    opts.update({name: _check_option(name, value) for name, value in given.items()})
    if _is_int(opts["first_mano"]) and opts["first_mano"] >= opts["players"]:
        raise _bad("first_mano", opts["first_mano"], f"'random' or a seat 0..{opts['players'] - 1}")
    return opts


def hand_size(opts: dict) -> int:
    return 11 if opts["players"] == 4 else opts["two_player_hand"]


def muerto_size(opts: dict) -> int:
    return 11 if opts["muerto_size"] == 11 else hand_size(opts)


# ---------------------------------------------------------------------------------------------
# Melds (docs/rules/burako.md §3)
# ---------------------------------------------------------------------------------------------


def _wilds_allowed(w: int, naturals: int, opts: dict) -> bool:
    limit = opts["max_wilds_per_meld"]
    if limit == "fewer_than_naturals":
        return w < naturals
    if limit == "unlimited":
        return True  # a meld still needs a natural (docs/burako_engine.md §2): the callers check it
    return w <= limit


def _max_run_length(opts: dict) -> int:
    return 14 if opts["ace_to_ace_run"] == "allowed" else 13


def _ace_positions(opts: dict) -> tuple[int, ...]:
    return {"low_or_high": (1, 14), "high_only": (14,), "low_only": (1,)}[opts["ace_position"]]


def _wrap_window_fits(numbers: Sequence[int], L: int) -> bool:
    """``run_wrap``: do the natural ``numbers`` fit a run of ``L`` tiles that turns the corner 13-1-2?

    Such a run holds L <= 13 consecutive numbers of the cycle 1..13 (no number twice) among them
    13, 1 and 2 in that order: it starts at some a in 16-L..13 and holds a..13 and 1..a+L-14, so
    the block a+L-13..a-1 is left out, and no natural may fall in it.
    """
    if not 3 <= L <= 13:
        return False
    for a in range(16 - L, 14):
        left_out = range(a + L - 13, a)
        if not any(n in left_out for n in numbers):
            return True
    return False


def _run_fewest_wilds(tiles: Sequence[int], opts: dict) -> int | None:
    """The fewest wilds over the valid run assignments of ``tiles`` (docs/rules/burako.md §3.2), or None if none.

    A run has one colour c. Jokers are wild; a 2 of colour c may be natural (at position 2) or
    wild; any other 2 is wild (when 2s are wild at all). Every other tile is natural, of colour c.
    A natural 1 sits at position 1 or 14. Naturals need distinct positions, and the L tiles must
    cover a window of L consecutive positions inside 1..14 that holds every natural. With
    ``run_wrap`` the window may also turn the corner 13-1-2 (``_wrap_window_fits``).
    """
    L = len(tiles)
    if not 3 <= L <= _max_run_length(opts):
        return None
    twos_wild = opts["twos_wild"]
    best: int | None = None
    for c in range(4):
        sum(1 for t in tiles if t == JOKER)
        own_twos = sum(1 for t in tiles if t != JOKER and _is_two(t) and _colour(t) == c)
        other_twos = sum(1 for t in tiles if t != JOKER and _is_two(t) and _colour(t) != c)
        fixed = [t for t in tiles if t != JOKER and not _is_two(t)]
        if any(_colour(t) != c for t in fixed):
            continue
        if not twos_wild and other_twos:
            continue
        aces = sum(1 for t in fixed if _number(t) == 1)
        others = [_number(t) for t in fixed if _number(t) != 1]
        # each own-colour 2 is natural or wild (only one can be natural: one position 2)
        two_choices = range(min(own_twos, 1) + 1) if twos_wild else ([own_twos] if own_twos <= 1 else [])
        ace_choices: list[tuple[int, ...]] = [()]
        for _ in range(aces):
            ace_choices = [placed + (p,) for placed in ace_choices for p in _ace_positions(opts)]
        for natural_twos in two_choices:
            for placed in ace_choices:
                positions = others + list(placed) + [2] * natural_twos
                if len(set(positions)) != len(positions):
                    continue
                w = L - len(positions)
                if not _wilds_allowed(w, len(positions), opts):
                    continue
                if positions and max(positions) - min(positions) + 1 > L:
                    continue
                if not positions:
                    continue
                if best is None or w < best:
                    best = w
            # run_wrap: the corner 13-1-2 (docs/burako_engine.md §3). No number twice, so at most one 1; a
            # natural 1 there follows the 13 (high) and precedes the 2 (low): both must be allowed.
            if opts["run_wrap"] and aces <= 1 and (aces == 0 or opts["ace_position"] == "low_or_high"):
                numbers = others + [1] * aces + [2] * natural_twos
                w = L - len(numbers)
                if (
                    numbers
                    and len(set(numbers)) == len(numbers)
                    and _wilds_allowed(w, len(numbers), opts)
                    and _wrap_window_fits(numbers, L)
                    and (best is None or w < best)
                ):
                    best = w
    return best


def _pierna_fewest_wilds(tiles: Sequence[int], opts: dict) -> int | None:
    """The fewest wilds of a valid pierna (docs/rules/burako.md §3.3), or None: every natural has one number n.

    Jokers are wild. With 2s wild, every 2 is wild, unless ``pierna_of_twos = allowed_as_naturals``
    and the pierna is one of 2s (n = 2), where the 2s are its naturals. With 2s not wild, a 2 is an
    ordinary tile of number 2.
    """
    L = len(tiles)
    if L < 3:
        return None
    sum(1 for t in tiles if t == JOKER)
    twos = sum(1 for t in tiles if _is_two(t))
    non_two = [_number(t) for t in tiles if t != JOKER and not _is_two(t)]
    candidates = []
    if opts["twos_wild"]:
        if non_two:
            candidates.append((set(non_two), len(non_two)))
        elif opts["pierna_of_twos"] == "allowed_as_naturals" and twos:
            candidates.append(({2}, twos))
    else:
        naturals = non_two + [2] * twos
        if naturals:
            candidates.append((set(naturals), len(naturals)))
    best: int | None = None
    for numbers, naturals in candidates:
        w = L - naturals
        if len(numbers) == 1 and _wilds_allowed(w, naturals, opts) and (best is None or w < best):
            best = w
    return best


def _natural_twos(tiles: Sequence[int], kind: str, fewest_wilds: int, opts: dict) -> int:
    """How many 2s are natural in an assignment of the meld with the fewest wilds."""
    twos = sum(1 for t in tiles if _is_two(t))
    jokers = sum(1 for t in tiles if t == JOKER)
    if not opts["twos_wild"]:
        return twos
    if kind == "pierna":
        non_two = [t for t in tiles if t != JOKER and not _is_two(t)]
        return 0 if non_two else twos
    return twos - (fewest_wilds - jokers)


def _meld_facts(tiles: Sequence[int], opts: dict, kind: str | None = None) -> tuple[str, int] | None:
    """``(kind, fewest wilds)`` when ``tiles`` is a valid meld (of ``kind`` if given), else None.

    A multiset valid as both kinds is a pierna (docs/rules/burako.md §3.4; impossible with the default options).
    """
    if kind in (None, "pierna"):
        w = _pierna_fewest_wilds(tiles, opts)
        if w is not None:
            return "pierna", w
    if kind in (None, "run"):
        w = _run_fewest_wilds(tiles, opts)
        if w is not None:
            return "run", w
    return None


def meld_value(tiles: Sequence[int], kind: str, fewest_wilds: int, opts: dict) -> int:
    """Sum of the tile values of a meld; under ``natural_5_wild_20`` its natural 2s count 5."""
    total = sum(tile_value(t, opts) for t in tiles)
    if opts["two_value"] == "natural_5_wild_20":
        total -= 15 * _natural_twos(tiles, kind, fewest_wilds, opts)
    return total


def _tiles_of(tiles: Any, what: str) -> list[int]:
    """A list of tiles (text or ids) as type ids, at most two of a type (InvalidStateError if more)."""
    if isinstance(tiles, (str, bytes)) or not isinstance(tiles, Iterable):
        raise InvalidStateError(f"{what} must be a list of tiles such as ['R5', 'J*']")
    ids = [tile_id(t) for t in tiles]
    for t, k in Counter(ids).items():
        if k > 2:
            raise InvalidStateError(f"{what} holds {tile_str(t)} {k} times: there are only 2 of each tile")
    return ids


def classify_meld(tiles: Iterable[Any], **options: Any) -> dict[str, Any] | None:
    """The kind, purity, canasta status and value of a meld, or None if ``tiles`` is not a valid meld.

    >>> classify_meld(["R3", "R5", "J*"])   # TV-B04: the joker stands for R4
    {'kind': 'run', 'pure': False, 'canasta': False, 'value': 60}
    """
    opts = resolve_options(**options)
    ids = _tiles_of(tiles, "tiles")
    facts = _meld_facts(ids, opts)
    if facts is None:
        return None
    kind, w = facts
    return {
        "kind": kind,
        "pure": w == 0,
        "canasta": len(ids) >= opts["canasta_min"],
        "value": meld_value(ids, kind, w, opts),
    }


def _team_score(
    melds: Sequence[tuple[str, Sequence[int]]], rack_tiles: Iterable[int], closed: bool, muerto_taken: bool, opts: dict
) -> int:
    """One team's hand score (docs/rules/burako.md §7) from its melds ``(kind, tiles)`` and the tiles in its racks."""
    M = C = 0
    canastas = 0
    for kind, tiles in melds:
        facts = _meld_facts(tiles, opts, kind)
        assert facts is not None, "a team meld is always valid"
        w = facts[1]
        M += meld_value(tiles, kind, w, opts)
        if len(tiles) >= opts["canasta_min"]:
            canastas += 1
            C += 200 if w == 0 else 100
    R = sum(tile_value(t, opts) for t in rack_tiles)
    U = 100 if muerto_taken else -100
    if canastas:
        return M + C + (100 if closed else 0) + U - R
    if opts["no_canasta_melds_negative"]:
        return -M + U - R
    return M + U - R


def score_team(
    melds: Iterable[Iterable[Any]], racks: Iterable[Iterable[Any]], closed: bool, muerto_taken: bool, **options: Any
) -> int:
    """One team's hand score per docs/rules/burako.md §7: ``melds`` its melds (tile lists), ``racks`` the tile
    lists of its players' racks (a held muerto included), ``closed`` whether it closed,
    ``muerto_taken`` whether it bought its muerto. TV-B37: team A scores 540.
    """
    opts = resolve_options(**options)
    if isinstance(melds, (str, bytes)) or not isinstance(melds, Iterable):
        raise InvalidStateError("melds must be a list of tile lists")
    if isinstance(racks, (str, bytes)) or not isinstance(racks, Iterable):
        raise InvalidStateError("racks must be a list of tile lists, one per player of the team")
    if not isinstance(closed, bool) or not isinstance(muerto_taken, bool):
        raise InvalidStateError("closed and muerto_taken must be bools")
    kinded = []
    for i, meld in enumerate(melds):
        ids = _tiles_of(meld, f"melds[{i}]")
        facts = _meld_facts(ids, opts)
        if facts is None:
            raise InvalidStateError(f"melds[{i}] = {[tile_str(t) for t in ids]} is not a valid meld")
        kinded.append((facts[0], ids))
    rack_tiles = [t for i, rack in enumerate(racks) for t in _tiles_of(rack, f"racks[{i}]")]
    overall = Counter(rack_tiles + [t for _, tiles in kinded for t in tiles])
    for t, k in overall.items():
        if k > 2:
            raise InvalidStateError(
                f"{tile_str(t)} appears {k} times in the melds and racks: there are only 2 of each tile"
            )
    return _team_score(kinded, rack_tiles, closed, muerto_taken, opts)


# ---------------------------------------------------------------------------------------------
# Melds that could be made from a rack (for pozo_take_requirement = must_use_top_tile_now)
# ---------------------------------------------------------------------------------------------


def _wild_supply(counts: Sequence[int], opts: dict, exclude_twos_of_number: bool = False) -> int:
    """Wild-capable tiles in ``counts``: jokers, and 2s when 2s are wild."""
    supply = counts[JOKER]
    if opts["twos_wild"] and not exclude_twos_of_number:
        supply += sum(counts[13 * c + 1] for c in range(4))
    return supply


def _run_windows(opts: dict) -> list[list[tuple[int, int, bool]]]:
    """Every window a run can fill: a list of ``(position, number, may a natural 1 sit here)``.

    Straight windows: L consecutive positions inside 1..14 (L up to the longest run), the 1 at
    position 1 (low) or 14 (high) as ``ace_position`` allows. With ``run_wrap``, also the windows
    that turn the corner 13-1-2: positions a..a+L-1 with a <= 13 < 15 <= a+L-1 and L <= 13,
    position q > 13 holding the number q - 13; the 1 at 14 there needs ``low_or_high``.
    """
    aces = _ace_positions(opts)
    windows = []
    for L in range(3, _max_run_length(opts) + 1):
        for a in range(1, 16 - L):
            windows.append([(q, 1 if q == 14 else q, q in aces) for q in range(a, a + L)])
    if opts["run_wrap"]:
        turn_ok = opts["ace_position"] == "low_or_high"
        for L in range(3, 14):
            for a in range(16 - L, 14):
                windows.append([(q, q if q <= 13 else q - 13, turn_ok) for q in range(a, a + L)])
    return windows


def _melds_containing(u: int, counts: Sequence[int], opts: dict) -> dict[int, int]:
    """For every size L, the fewest wilds of a valid meld made of tiles from ``counts`` that holds
    a tile of type ``u`` (``counts`` includes it); sizes with no such meld are absent.

    Runs are found window by window: each position of a window of L consecutive positions in 1..14
    takes a natural of the colour when the rack has one, else a wild; piernas number by number.
    """
    best: dict[int, int] = {}

    def note(L: int, w: int, naturals: int) -> None:
        if naturals >= 1 and _wilds_allowed(w, naturals, opts) and (L not in best or w < best[L]):
            best[L] = w

    twos_wild = opts["twos_wild"]
    u_is_wild_capable = u == JOKER or (twos_wild and _is_two(u))
    # Runs
    for c in range(4):
        if u != JOKER and not (twos_wild and _is_two(u)) and _colour(u) != c:
            continue
        for window in _run_windows(opts):
            L = len(window)
            fill: dict[int, int] = {}  # position -> natural type
            ace_copies = counts[13 * c]
            two_at = None  # the position of the number 2 in the window
            for q, n, ace_ok in window:
                if n == 1:
                    if ace_ok and ace_copies:
                        fill[q] = 13 * c
                        ace_copies -= 1
                elif counts[13 * c + n - 1]:
                    fill[q] = 13 * c + n - 1
                if n == 2:
                    two_at = q
            # u's role: natural at its position, or a wild
            options_for_u = []
            if u in fill.values():
                options_for_u.append("natural")
            if u_is_wild_capable:
                options_for_u.append("wild")
            for role in options_for_u:
                naturals = dict(fill)
                if role == "wild" and u == 13 * c + 1 and naturals.get(two_at) == u and counts[u] < 2:
                    del naturals[two_at]  # the only colour-c 2 serves as the wild
                w = L - len(naturals)
                if role == "wild" and w == 0:
                    # give up one natural for u (not u itself if it is natural there)
                    drop = next(q for q, _, _ in window if naturals.get(q) != u)
                    del naturals[drop]
                    w = 1
                supply = _wild_supply(counts, opts) - (1 if naturals.get(two_at) is not None and twos_wild else 0)
                if w <= supply:
                    note(L, w, len(naturals))
    # Piernas
    numbers = [n for n in range(1, 14) if n != 2 or not twos_wild or opts["pierna_of_twos"] == "allowed_as_naturals"]
    for n in numbers:
        twos_natural = n == 2
        natural_types = [13 * c + n - 1 for c in range(4)]
        k = sum(counts[t] for t in natural_types)
        supply = counts[JOKER] + (sum(counts[13 * c + 1] for c in range(4)) if twos_wild and not twos_natural else 0)
        if u in natural_types:
            forced_wild = 0
        elif u == JOKER or (twos_wild and _is_two(u) and not twos_natural):
            forced_wild = 1
        else:
            continue
        for L in range(3, k + supply + 1):
            nat = min(k, L - forced_wild)
            w = L - nat
            if w <= supply:
                note(L, w, nat)
    return best


# ---------------------------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------------------------

DRAW, MELD = "draw", "meld"
UNTAKEN, DIRECT, INDIRECT = 0, 1, 2
_STATUS_WORDS = ("untaken", "direct", "indirect")
MAX_TOTAL = 10**15


def _counts(tiles: Iterable[int]) -> list[int]:
    c = [0] * NUM_TYPES
    for t in tiles:
        c[t] += 1
    return c


def _listed(counts: Sequence[int]) -> list[int]:
    """The tiles of a count vector, ascending."""
    out = []
    for t, k in enumerate(counts):
        if k:
            out += [t] * k
    return out


class Burako:
    """The Burako game with resolved options; a factory of states."""

    name = "burako"
    num_distinct_actions = NUM_DISTINCT_ACTIONS

    def __init__(self, **options: Any) -> None:
        self._opts = resolve_options(**options)
        self.num_players: int = self._opts["players"]
        self.observation_shape: tuple[int, ...] = (4217 + 2 * self.num_players,)
        self._options_json = json.dumps(self._opts, sort_keys=True, separators=(",", ":"))

    @property
    def options(self) -> dict[str, Any]:
        """Every resolved option (a copy)."""
        return dict(self._opts)

    def options_json(self) -> str:
        return self._options_json

    def team_of(self, seat: int) -> int:
        """Teams: seats 0 and 2 against 1 and 3; with two players each seat is a team."""
        return seat % 2

    def __str__(self) -> str:
        return format_game(self.name, self._opts, Burako)

    def __repr__(self) -> str:
        return f"reference.{self}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Burako) and other._options_json == self._options_json

    def __hash__(self) -> int:
        return hash(self._options_json)

    def new_state(self, seed: int = 0, deck: Iterable[Any] | None = None) -> BurakoState:
        """A new match: the first mano is drawn (unless fixed), then the first hand is dealt
        (docs/burako_engine.md §8)."""
        if not _is_int(seed) or not 0 <= seed <= MASK64:
            raise InvalidStateError(f"seed {seed!r} is invalid: expected an int in 0..2^64-1")
        pack = None
        if deck is not None:
            if isinstance(deck, (str, bytes)) or not isinstance(deck, Iterable):
                raise InvalidStateError("deck must be a list of the 106 tiles, top first")
            pack = [tile_id(t, InvalidStateError) for t in deck]
            if sorted(pack) != list(PACK):
                raise InvalidStateError(
                    "deck must hold each of the 106 tiles exactly once (two of each type), top first"
                )
        s = BurakoState(self)
        s._rng = SplitMix64(seed)
        first = self._opts["first_mano"]
        s._mano = s._rng.below(self.num_players) if first == "random" else first
        s._start_hand(pack)
        return s

    def setup(
        self,
        racks: Sequence[Iterable[Any]],
        melds: Sequence[Iterable[Iterable[Any]]] | None = None,
        pozo: Iterable[Any] = (),
        stock: Iterable[Any] | None = None,
        muertos: Sequence[Iterable[Any]] | None = None,
        muerto_status: Sequence[Any] | None = None,
        to_move: int = 0,
        mano: int | None = None,
        phase: str = "draw",
        buffer: Iterable[Any] = (),
        turns: int = 1,
        cancels: int = 0,
        totals: Sequence[int] | None = None,
        hand: int = 1,
        seed: int = 0,
    ) -> BurakoState:
        """A position from a partial description, for rules tests (docs/burako_engine.md §12)."""
        return _setup(
            self,
            racks,
            melds,
            pozo,
            stock,
            muertos,
            muerto_status,
            to_move,
            mano,
            phase,
            buffer,
            turns,
            cancels,
            totals,
            hand,
            seed,
        )

    def state_from_json(self, text: str) -> BurakoState:
        """Rebuild a state from its JSON, checking everything (docs/burako_engine.md §10)."""
        return _state_from_json(self, text)


class BurakoState:
    """A position of a match. Mutated in place by ``apply``; ``clone`` for a copy."""

    def __init__(self, game: Burako) -> None:
        self.game = game
        self._o = game._opts
        P = game.num_players
        self._rng = SplitMix64(0)
        self._history: list[int] = []
        self._hand = 1  # hands started
        self._hand_scores: list[list[int]] = []  # per finished hand, per team
        self._totals = [0, 0]
        self._mano = 0
        self._to_move = 0
        self._phase = DRAW
        self._racks: list[list[int]] = [[0] * NUM_TYPES for _ in range(P)]  # counts per type
        self._buffer: list[int] = []  # the pending new meld of to_move, ascending types
        self._melds: list[list[tuple[str, list[int]]]] = [[], []]  # per team, slot order
        self._pozo: list[int] = []  # bottom first, top last
        self._stock: list[int] = []  # top first
        self._muertos: list[list[int]] = []  # the muertos still to take, next first
        self._muerto = [UNTAKEN, UNTAKEN]  # per team
        self._unplayed = [-1, -1]  # per team: the seat holding an indirect muerto not yet played
        self._turns = 0  # turns completed in this hand
        self._cancels = 0  # NEW_CANCELs used this turn
        self._drawn = -1  # the first turn's drawn tile, while REDRAW may reject it
        self._no_discard = -1  # single_tile_pozo_rediscard = forbidden (docs/burako_engine.md §7)
        self._must_use = -1  # pozo_take_requirement = must_use_top_tile_now (docs/burako_engine.md §7)
        self._terminal = False
        self._winner = -1
        self._cache: dict[str, Any] = {}  # legal actions and JSON of this position (cleared by _step)

    # -- dealing (docs/burako_engine.md §8) --------------------------------------------------------

    def _start_hand(self, pack: list[int] | None = None) -> None:
        """Racks of H in blocks, seat order from the mano; then muerto #1, muerto #2; the stock."""
        P, H, K = self.game.num_players, hand_size(self._o), muerto_size(self._o)
        if pack is None:
            pack = list(PACK)
            self._rng.shuffle(pack)
        self._racks = [[0] * NUM_TYPES for _ in range(P)]
        for i in range(P):
            for t in pack[i * H : (i + 1) * H]:
                self._racks[(self._mano + i) % P][t] += 1
        start = P * H
        self._muertos = [pack[start : start + K], pack[start + K : start + 2 * K]]
        self._stock = pack[start + 2 * K :]
        self._pozo = []
        self._buffer = []
        self._melds = [[], []]
        self._muerto = [UNTAKEN, UNTAKEN]
        self._unplayed = [-1, -1]
        self._turns = 0
        self._to_move = self._mano
        self._phase = DRAW
        self._cancels = 0
        self._drawn = self._no_discard = self._must_use = -1

    # -- derived facts -------------------------------------------------------------------------

    @staticmethod
    def _team(seat: int) -> int:
        return seat % 2

    def _has_c(self, melds: Iterable[tuple[str, Sequence[int]]]) -> bool:
        """Whether these melds hold a canasta (a pure one under close_requirement = pure_canasta)."""
        need_pure = self._o["close_requirement"] == "pure_canasta"
        for kind, tiles in melds:
            if len(tiles) >= self._o["canasta_min"]:
                if not need_pure or _meld_facts(tiles, self._o, kind)[1] == 0:  # type: ignore[index]
                    return True
        return False

    def _can_buy(self, team: int) -> bool:
        return self._muerto[team] == UNTAKEN and bool(self._muertos)

    def _invariant(self, team: int, rack_after: Sequence[int], melds_after: list[tuple[str, list[int]]]) -> bool:
        """The going-out invariant (docs/burako_engine.md §6) for a meld or extend leaving ``rack_after``."""
        h = sum(rack_after)
        if h >= 2 or self._can_buy(team):
            return True
        if self._muerto[team] == UNTAKEN or not self._has_c(melds_after):
            return False
        mode = self._o["close_mode"]
        if h == 0:
            return mode != "discard_required"
        if mode != "meld_required":
            return True
        (last,) = [t for t in range(NUM_TYPES) if rack_after[t]]  # the remaining tile must meld out
        for m, (kind, tiles) in enumerate(melds_after):
            grown = sorted(tiles + [last])
            if _meld_facts(grown, self._o, kind) is not None:
                if self._has_c(melds_after[:m] + [(kind, grown)] + melds_after[m + 1 :]):
                    return True
        return False

    def _discard_last_ok(self, team: int) -> bool:
        if self._can_buy(team):
            return True
        return (
            self._muerto[team] != UNTAKEN
            and self._has_c(self._melds[team])
            and self._o["close_mode"] != "meld_required"
        )

    def _leaves_only_no_discard(self, rack_after: Sequence[int]) -> bool:
        """single_tile_pozo_rediscard: a meld/extend may not leave h' >= 1 tiles all of type u."""
        u = self._no_discard
        return u != -1 and sum(rack_after) >= 1 and sum(rack_after) == rack_after[u]

    # -- legal actions (docs/burako_engine.md §5-§7) -----------------------------------------------

    def current_player(self) -> int:
        return -1 if self._terminal else self._to_move

    def _redraw_legal(self) -> bool:
        return self._o["first_player_redraw"] and self._drawn != -1 and bool(self._stock)

    def _commit_legal(self) -> bool:
        facts = _meld_facts(self._buffer, self._o)
        if facts is None:
            return False
        if self._must_use != -1 and self._must_use not in self._buffer:
            return False
        p = self._to_move
        team = self._team(p)
        rack = self._racks[p]
        if self._leaves_only_no_discard(rack):
            return False
        return self._invariant(team, rack, self._melds[team] + [(facts[0], list(self._buffer))])

    def _extend_legal(self, m: int, t: int, rack: Sequence[int] | None = None) -> bool:
        """EXTEND(m, t) by the mover with the buffer empty, ``rack`` standing for the mover's rack."""
        p = self._to_move
        team = self._team(p)
        rack = self._racks[p] if rack is None else rack
        if not rack[t]:
            return False
        kind, tiles = self._melds[team][m]
        grown = sorted(tiles + [t])
        if _meld_facts(grown, self._o, kind) is None:
            return False
        after = list(rack)
        after[t] -= 1
        melds = self._melds[team]
        return self._invariant(team, after, melds[:m] + [(kind, grown)] + melds[m + 1 :])

    def _take_pozo_legal(self) -> bool:
        if not self._pozo:
            return False
        p = self._to_move
        rack = self._racks[p]
        if self._o["single_tile_pozo_rediscard"] == "forbidden" and len(self._pozo) == 1:
            u = self._pozo[0]
            if sum(rack) == rack[u]:  # every rack tile (if any) has type u
                return False
        if self._o["pozo_take_requirement"] == "must_use_top_tile_now":
            return self._top_tile_usable()
        return True

    def _top_tile_usable(self) -> bool:
        """docs/burako_engine.md §7: after taking the pozo, could an extend or a meld use the top tile's type?"""
        p = self._to_move
        team = self._team(p)
        u = self._pozo[-1]
        new_rack = list(self._racks[p])
        for t in self._pozo:
            new_rack[t] += 1
        # the take may also forbid leaving only tiles of its type (single_tile_pozo_rediscard)
        no_discard = u if self._o["single_tile_pozo_rediscard"] == "forbidden" and len(self._pozo) == 1 else -1

        def leaves_only_no_discard(after: Sequence[int]) -> bool:
            return no_discard != -1 and sum(after) >= 1 and sum(after) == after[no_discard]

        for m in range(len(self._melds[team])):
            after = list(new_rack)
            after[u] -= 1
            if self._extend_legal(m, u, new_rack) and not leaves_only_no_discard(after):
                return True
        N = sum(new_rack)
        # small melds leave h' >= 2: legal whatever the team holds (and, holding at most two
        # tiles of type u, never only tiles of type u)
        if any(L <= N - 2 for L in _melds_containing(u, new_rack, self._o)):
            return True
        # melds of the whole rack or all of it but one tile: check each exactly
        candidates = [list(new_rack)]
        for x in range(NUM_TYPES):
            if new_rack[x]:
                less = list(new_rack)
                less[x] -= 1
                candidates.append(less)
        for meld_counts in candidates:
            if not meld_counts[u]:
                continue
            tiles = _listed(meld_counts)
            facts = _meld_facts(tiles, self._o)
            if facts is None:
                continue
            after = [a - b for a, b in zip(new_rack, meld_counts)]
            if leaves_only_no_discard(after):
                continue
            if self._invariant(team, after, self._melds[team] + [(facts[0], tiles)]):
                return True
        return False

    def legal_actions(self) -> list[int]:
        if "legal" not in self._cache:
            self._cache["legal"] = self._legal_actions()
        return list(self._cache["legal"])

    def _legal_actions(self) -> list[int]:
        if self._terminal:
            return []
        if self._phase == DRAW:
            actions = [DRAW_STOCK] if self._stock else []
            if self._take_pozo_legal():
                actions.append(TAKE_POZO)
            return actions
        p = self._to_move
        rack = self._racks[p]
        team = self._team(p)
        actions = []
        if self._redraw_legal():
            actions.append(REDRAW)
        if self._cancels < self._o["max_cancels_per_turn"]:
            low = self._buffer[-1] if self._buffer else 0
            actions += [NEW_ADD0 + t for t in range(low, NUM_TYPES) if rack[t]]
        if self._buffer:
            if self._commit_legal():
                actions.append(NEW_COMMIT)
            actions.append(NEW_CANCEL)
            return sorted(actions)
        if self._must_use == -1:
            last_ok = sum(rack) > 1 or self._discard_last_ok(team)
            actions += [DISCARD0 + t for t in range(NUM_TYPES) if rack[t] and last_ok and t != self._no_discard]
        for m in range(len(self._melds[team])):
            for t in range(NUM_TYPES):
                if self._must_use != -1 and t != self._must_use:
                    continue
                if rack[t] and self._extend_legal(m, t):
                    after = list(rack)
                    after[t] -= 1
                    if not self._leaves_only_no_discard(after):
                        actions.append(EXTEND0 + NUM_TYPES * m + t)
        return sorted(actions)

    def legal_mask(self) -> np.ndarray:
        mask = np.zeros(NUM_DISTINCT_ACTIONS, dtype=bool)
        mask[self.legal_actions()] = True
        return mask

    # -- applying actions ----------------------------------------------------------------------

    def _coerce(self, action: Any) -> int:
        if isinstance(action, str):
            return string_to_action(action)
        return _as_action_id(action)

    def apply(self, action: Any) -> None:
        """Apply one action (an id or its notation); an illegal one raises and changes nothing."""
        a = self._coerce(action)
        legal = self.legal_actions()
        if a not in legal:
            raise IllegalActionError(
                f"{action_to_string(a)!r} (id {a}) is not legal now; legal: "
                + (", ".join(action_to_string(x) for x in legal) or "none (the match is over)")
            )
        self._history.append(a)
        self._step(a)

    def _step(self, a: int) -> None:
        self._cache = {}
        p = self._to_move
        rack = self._racks[p]
        team = self._team(p)
        if a in (DRAW_STOCK, TAKE_POZO):
            if self._unplayed[team] == p:  # he now plays the indirect muerto he holds
                self._unplayed[team] = -1
            self._phase = MELD
            if a == DRAW_STOCK:
                t = self._stock.pop(0)
                rack[t] += 1
                if self._turns == 0:
                    self._drawn = t
            else:
                if len(self._pozo) == 1 and self._o["single_tile_pozo_rediscard"] == "forbidden":
                    self._no_discard = self._pozo[0]
                if self._o["pozo_take_requirement"] == "must_use_top_tile_now":
                    self._must_use = self._pozo[-1]
                for t in self._pozo:
                    rack[t] += 1
                self._pozo = []
            return
        if a == REDRAW:
            rack[self._drawn] -= 1
            self._pozo.append(self._drawn)
            rack[self._stock.pop(0)] += 1
            self._drawn = -1
            return
        self._drawn = -1  # any other meld-phase action keeps the first draw
        if a < NEW_COMMIT:  # NEW_ADD
            t = a - NEW_ADD0
            rack[t] -= 1
            self._buffer.append(t)
        elif a == NEW_CANCEL:
            for t in self._buffer:
                rack[t] += 1
            self._buffer = []
            self._cancels += 1
            if self._cancels >= self._o["max_cancels_per_turn"]:
                self._must_use = -1  # the requirement lapses
        elif a == NEW_COMMIT:
            kind = _meld_facts(self._buffer, self._o)[0]  # type: ignore[index]
            if self._must_use in self._buffer:
                self._must_use = -1
            self._melds[team].append((kind, list(self._buffer)))
            self._buffer = []
            self._after_meld(p)
        elif a < EXTEND0:  # DISCARD
            t = a - DISCARD0
            rack[t] -= 1
            self._pozo.append(t)
            if sum(rack) == 0:
                if self._muerto[team] != UNTAKEN:
                    self._end_hand(closed_by=team)
                    return
                self._take_muerto(p, INDIRECT)
            self._end_turn()
        else:  # EXTEND
            m, t = divmod(a - EXTEND0, NUM_TYPES)
            kind, tiles = self._melds[team][m]
            rack[t] -= 1
            self._melds[team][m] = (kind, sorted(tiles + [t]))
            if t == self._must_use:
                self._must_use = -1
            self._after_meld(p)

    def _after_meld(self, p: int) -> None:
        """A meld or extend that empties the rack closes, or buys the muerto directly (docs/burako_engine.md §5)."""
        if sum(self._racks[p]):
            return
        team = self._team(p)
        if self._muerto[team] != UNTAKEN:
            self._end_hand(closed_by=team)
        else:
            self._take_muerto(p, DIRECT)

    def _take_muerto(self, p: int, how: int) -> None:
        team = self._team(p)
        for t in self._muertos.pop(0):
            self._racks[p][t] += 1
        self._muerto[team] = how
        if how == INDIRECT:
            self._unplayed[team] = p

    def _end_turn(self) -> None:
        """TURN_END (docs/burako_engine.md §5): stock exhaustion, the turn cap, or the next player."""
        self._turns += 1
        self._cancels = 0
        self._no_discard = self._must_use = -1
        if not self._stock:
            if self._o["stock_exhausted"] == "muerto_becomes_stock" and self._muertos:
                self._stock = self._muertos.pop(0)
            else:
                self._end_hand(closed_by=-1)
                return
        if self._turns >= self._o["max_turns"]:
            self._end_hand(closed_by=-1)
            return
        self._to_move = (self._to_move + 1) % self.game.num_players
        self._phase = DRAW

    # -- end of the hand and the match (docs/burako_engine.md §9) ----------------------------------

    def _hand_score(self, team: int, closed_by: int) -> int:
        seats = [s for s in range(self.game.num_players) if self._team(s) == team]
        taken = self._muerto[team] != UNTAKEN
        left_out = -1
        if self._unplayed[team] != -1 and self._o["indirect_muerto_unplayed"] == "counts_as_not_taken":
            taken, left_out = False, self._unplayed[team]
        rack_tiles = [t for s in seats if s != left_out for t in _listed(self._racks[s])]
        return _team_score(self._melds[team], rack_tiles, closed_by == team, taken, self._o)

    def _end_hand(self, closed_by: int) -> None:
        o = self._o
        points = [self._hand_score(team, closed_by) for team in (0, 1)]
        self._hand_scores.append(points)
        self._totals = [a + b for a, b in zip(self._totals, points)]
        a, b = self._totals
        if o["match"] == "single_hand":
            self._finish(0 if points[0] > points[1] else 1 if points[1] > points[0] else -1)
        elif max(a, b) >= o["target"] and a != b:
            self._finish(0 if a > b else 1)
        elif self._hand >= o["max_hands"]:
            self._finish(0 if a > b else 1 if b > a else -1)
        else:
            P = self.game.num_players
            nxt = (self._mano + 1) % P
            if o["next_mano"] == "loser_starts" and points[0] != points[1]:
                loser = 0 if points[0] < points[1] else 1
                nxt = next((nxt + i) % P for i in range(P) if self._team((nxt + i) % P) == loser)
            self._mano = nxt
            self._hand += 1
            self._start_hand()

    def _finish(self, winner: int) -> None:
        self._terminal = True
        self._winner = winner
        self._to_move = -1

    # -- queries -------------------------------------------------------------------------------

    def is_terminal(self) -> bool:
        return self._terminal

    def returns(self) -> list[float]:
        P = self.game.num_players
        if not self._terminal or self._winner == -1:
            return [0.0] * P
        return [1.0 if self._team(s) == self._winner else -1.0 for s in range(P)]

    def scores(self) -> list[int]:
        """Each seat's team's match total."""
        return [self._totals[self._team(s)] for s in range(self.game.num_players)]

    def history(self) -> list[int]:
        return list(self._history)

    def deals(self) -> int:
        """Hands started."""
        return self._hand

    def action_to_string(self, action: Any) -> str:
        return action_to_string(action)

    def string_to_action(self, text: Any) -> int:
        return string_to_action(text)

    def clone(self) -> BurakoState:
        s = BurakoState.__new__(BurakoState)
        s.__dict__.update(self.__dict__)  # scalars and the shared game; the containers below are copied
        s._cache = dict(self._cache)
        s._rng = self._rng.clone()
        s._history = list(self._history)
        s._hand_scores = [list(x) for x in self._hand_scores]
        s._totals = list(self._totals)
        s._racks = [list(r) for r in self._racks]
        s._buffer = list(self._buffer)
        s._melds = [[(k, list(t)) for k, t in team] for team in self._melds]
        s._pozo = list(self._pozo)
        s._stock = list(self._stock)
        s._muertos = [list(m) for m in self._muertos]
        s._muerto = list(self._muerto)
        s._unplayed = list(self._unplayed)
        return s

    def __copy__(self) -> BurakoState:
        return self.clone()

    def __deepcopy__(self, memo: dict) -> BurakoState:
        return self.clone()

    # -- serialisation (docs/burako_engine.md §10) -------------------------------------------------

    def _as_dict(self) -> dict[str, Any]:
        return {
            "buffer": list(self._buffer),
            "cancels": self._cancels,
            "drawn": self._drawn,
            "game": "burako",
            "hand": self._hand,
            "hand_scores": [list(x) for x in self._hand_scores],
            "history": list(self._history),
            "mano": self._mano,
            "melds": [[{"kind": k, "tiles": list(t)} for k, t in team] for team in self._melds],
            "muerto_status": list(self._muerto),
            "muerto_unplayed": list(self._unplayed),
            "muertos": [list(m) for m in self._muertos],
            "must_use": self._must_use,
            "no_discard": self._no_discard,
            "options": self._o,
            "phase": self._phase,
            "pozo": list(self._pozo),
            "racks": [_listed(r) for r in self._racks],
            "rng": str(self._rng.state),
            "stock": list(self._stock),
            "terminal": self._terminal,
            "to_move": self._to_move,
            "totals": list(self._totals),
            "turns": self._turns,
            "version": 1,
            "winner": self._winner,
        }

    def to_json(self) -> str:
        if "json" not in self._cache:
            self._cache["json"] = json.dumps(self._as_dict(), sort_keys=True, separators=(",", ":"))
        return self._cache["json"]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BurakoState) and other.to_json() == self.to_json()

    __hash__ = None  # type: ignore[assignment]

    # -- what a seat sees (docs/burako_engine.md §11) ----------------------------------------------

    def _check_player(self, player: Any) -> int:
        return _index_in(player, self.game.num_players, InvalidPlayerError, "a seat")

    def _rack_sizes(self) -> list[int]:
        sizes = [sum(r) for r in self._racks]
        if not self._terminal:
            sizes[self._to_move] += len(self._buffer)
        return sizes

    def _meld_view(self, kind: str, tiles: list[int]) -> dict[str, Any]:
        w = _meld_facts(tiles, self._o, kind)[1]  # type: ignore[index]
        return {
            "kind": kind,
            "tiles": [tile_str(t) for t in tiles],
            "pure": w == 0,
            "canasta": len(tiles) >= self._o["canasta_min"],
        }

    def view(self, player: Any) -> dict[str, Any]:
        p = self._check_player(player)
        mover = not self._terminal and p == self._to_move
        if self._o["pozo_visibility"] == "top_only":
            pozo = [tile_str(self._pozo[-1])] if self._pozo else []
        else:
            pozo = [tile_str(t) for t in self._pozo]
        return {
            "player": p,
            "current_player": self.current_player(),
            "mano": self._mano,
            "hand": self._hand,
            "phase": self._phase,
            "turns": self._turns,
            "rack": [tile_str(t) for t in _listed(self._racks[p])],
            "buffer": [tile_str(t) for t in self._buffer] if mover else [],
            "rack_sizes": self._rack_sizes(),
            "melds": [[self._meld_view(k, t) for k, t in team] for team in self._melds],
            "pozo": pozo,
            "pozo_size": len(self._pozo),
            "stock_size": len(self._stock),
            "muertos_left": len(self._muertos),
            "muerto_status": [_STATUS_WORDS[x] for x in self._muerto],
            "drawn": tile_str(self._drawn) if mover and self._drawn != -1 else None,
            "must_use": tile_str(self._must_use) if self._must_use != -1 else None,
            "no_discard": tile_str(self._no_discard) if self._no_discard != -1 else None,
            "cancels": self._cancels,
            "totals": list(self._totals),
            "hand_scores": [list(x) for x in self._hand_scores],
            "terminal": self._terminal,
            "winner": self._winner,
        }

    def observation(self, player: Any) -> np.ndarray:
        p = self._check_player(player)
        P = self.game.num_players
        obs = np.zeros(self.game.observation_shape, dtype=np.float32)
        mover = not self._terminal and p == self._to_move
        obs[0:53] = self._racks[p]
        if mover:
            obs[53:106] = _counts(self._buffer)
        me = self._team(p)
        for block, team in ((106, me), (2101, 1 - me)):
            for m, (kind, tiles) in enumerate(self._melds[team]):
                base = block + 57 * m
                obs[base] = kind == "run"
                obs[base + 1] = kind == "pierna"
                obs[base + 2 : base + 55] = _counts(tiles)
                w = _meld_facts(tiles, self._o, kind)[1]  # type: ignore[index]
                obs[base + 55] = w == 0
                obs[base + 56] = len(tiles) >= self._o["canasta_min"]
        if self._o["pozo_visibility"] == "all_tiles":
            obs[4096:4149] = _counts(self._pozo)
        if self._pozo:
            obs[4149 + self._pozo[-1]] = 1
        obs[4202] = len(self._pozo)
        obs[4203] = len(self._stock)
        sizes = self._rack_sizes()
        for j in range(P):
            obs[4204 + j] = sizes[(p + j) % P]
        base = 4204 + P
        for i, team in enumerate((me, 1 - me)):
            obs[base + 3 * i + self._muerto[team]] = 1
        obs[4210 + P] = self._turns == 0
        obs[4211 + P] = (not self._terminal) and self._phase == MELD and self._redraw_legal()
        obs[4212 + P] = self._cancels
        obs[4213 + P] = self._turns
        obs[4214 + P] = len(self._hand_scores)
        obs[4215 + P] = self._totals[me]
        obs[4216 + P] = self._totals[1 - me]
        obs[4217 + P + (self._mano - p) % P] = 1
        return obs

    # -- for people ----------------------------------------------------------------------------

    def __str__(self) -> str:
        P = self.game.num_players

        def text(tiles: Iterable[int]) -> str:
            return " ".join(tile_str(t) for t in tiles) or "-"

        lines = [f"burako, hand {self._hand}, mano: seat {self._mano}, turn {self._turns + 1}, totals {self._totals}"]
        for s in range(P):
            mark = "  <- to move" if s == self.current_player() else ""
            team = f" (team {self._team(s)})" if P == 4 else ""
            lines.append(f"  seat {s}{team}: {text(_listed(self._racks[s]))}{mark}")
        if self._buffer:
            lines.append(f"  new meld being laid: {text(self._buffer)}")
        for team in (0, 1):
            status = _STATUS_WORDS[self._muerto[team]]
            lines.append(f"  team {team} melds (muerto {status}):")
            for m, (kind, tiles) in enumerate(self._melds[team]):
                v = self._meld_view(kind, tiles)
                marks = ("pure" if v["pure"] else "impure") + (" canasta" if v["canasta"] else "")
                lines.append(f"    {m}: {kind} {text(tiles)} ({marks})")
        lines.append(f"  pozo (top last): {text(self._pozo)}")
        lines.append(f"  stock: {len(self._stock)} tiles, muertos left: {len(self._muertos)}")
        if self._terminal:
            lines.append("  match over: " + (f"team {self._winner} wins" if self._winner != -1 else "drawn"))
        return "\n".join(lines)

    def __repr__(self) -> str:
        return (
            f"<BurakoState hand={self._hand} to_move={self.current_player()} phase={self._phase} "
            f"totals={self._totals} terminal={self._terminal}>"
        )


# ---------------------------------------------------------------------------------------------
# setup (docs/burako_engine.md §12) and reading a state back (docs/burako_engine.md §10)
# ---------------------------------------------------------------------------------------------


def _setup(
    game: Burako,
    racks: Any,
    melds: Any,
    pozo: Any,
    stock: Any,
    muertos: Any,
    muerto_status: Any,
    to_move: Any,
    mano: Any,
    phase: Any,
    buffer: Any,
    turns: Any,
    cancels: Any,
    totals: Any,
    hand: Any,
    seed: Any,
) -> BurakoState:
    o, P = game._opts, game.num_players

    def bad(why: str) -> InvalidStateError:
        return InvalidStateError(f"setup: {why}")

    def is_list(x: Any) -> bool:
        return isinstance(x, Iterable) and not isinstance(x, (str, bytes, dict))

    def tiles(xs: Any, what: str) -> list[int]:
        if not is_list(xs):
            raise bad(f"{what} must be a list of tiles such as ['R5', 'J*']")
        return [tile_id(t, InvalidStateError) for t in xs]

    def per(xs: Any, count: int, what: str) -> list:
        if not is_list(xs):
            raise bad(f"{what} must be a list of {count} entries")
        xs = list(xs)
        if len(xs) != count:
            raise bad(f"{what} must be a list of {count} entries")
        return xs

    def integer(x: Any, what: str, lo: int, hi: int) -> int:
        if not _is_int(x) or not lo <= x <= hi:
            raise bad(f"{what}={x!r} must be an int in {lo}..{hi}")
        return x

    rack_ids = [tiles(r, f"racks[{i}]") for i, r in enumerate(per(racks, P, "racks"))]
    meld_lists: list[list[tuple[str, list[int]]]] = [[], []]
    if melds is not None:
        for team, team_melds in enumerate(per(melds, 2, "melds")):
            if not is_list(team_melds):
                raise bad(f"melds[{team}] must be a list of tile lists")
            for i, m in enumerate(team_melds):
                ids = sorted(tiles(m, f"melds[{team}][{i}]"))
                facts = _meld_facts(ids, o)
                if facts is None:
                    raise bad(f"melds[{team}][{i}] = {[tile_str(t) for t in ids]} is not a valid meld")
                meld_lists[team].append((facts[0], ids))
            if len(meld_lists[team]) > M_MAX:
                raise bad(f"a team has at most {M_MAX} melds")
    pozo_ids = tiles(pozo, "pozo")
    buffer_ids = sorted(tiles(buffer, "buffer"))
    stock_ids = tiles(stock, "stock") if stock is not None else None
    status: list[int] = []
    for x in per(muerto_status, 2, "muerto_status") if muerto_status is not None else [0, 0]:
        if isinstance(x, str) and x in _STATUS_WORDS:
            status.append(_STATUS_WORDS.index(x))
        elif _is_int(x) and 0 <= x <= 2:
            status.append(x)
        else:
            raise bad(f"muerto_status entries must be 0, 1, 2 or one of {', '.join(_STATUS_WORDS)}; got {x!r}")
    to_move = integer(to_move, "to_move", 0, P - 1)
    mano = to_move if mano is None else integer(mano, "mano", 0, P - 1)
    if phase not in (DRAW, MELD):
        raise bad(f"phase={phase!r} must be 'draw' or 'meld'")
    if buffer_ids and phase != MELD:
        raise bad("a buffer needs phase 'meld'")
    turns = integer(turns, "turns", 0, o["max_turns"] - 1)
    cancels = integer(cancels, "cancels", 0, o["max_cancels_per_turn"])
    hand = integer(hand, "hand", 1, o["max_hands"])
    totals_list = per(totals, 2, "totals") if totals is not None else [0, 0]
    for x in totals_list:
        integer(x, "a total", -MAX_TOTAL, MAX_TOTAL)
    if not _is_int(seed) or not 0 <= seed <= MASK64:
        raise bad(f"seed {seed!r} is invalid: expected an int in 0..2^64-1")

    listed = [t for r in rack_ids for t in r] + [t for team in meld_lists for _, m in team for t in m]
    listed += pozo_ids + buffer_ids + (stock_ids or [])
    muerto_lists: list[list[int]]
    if muertos is not None:
        if not is_list(muertos):
            raise bad("muertos must be a list of tile lists")
        muerto_lists = [tiles(m, f"muertos[{i}]") for i, m in enumerate(muertos)]
        if len(muerto_lists) > 2:
            raise bad("there are at most 2 muertos")
        listed += [t for m in muerto_lists for t in m]
    have = _counts(listed)
    for t in range(NUM_TYPES):
        if have[t] > 2:
            raise bad(f"{tile_str(t)} is listed {have[t]} times: there are only 2 of each tile")
    leftover = [t for t in range(NUM_TYPES) for _ in range(2 - have[t])]
    if muertos is None:
        size = muerto_size(o)
        wanted = 2 - sum(1 for x in status if x != UNTAKEN)
        if len(leftover) < wanted * size:
            raise bad(f"{len(leftover)} tiles are left for {wanted} muertos of {size}")
        muerto_lists = [leftover[i * size : (i + 1) * size] for i in range(wanted)]
        leftover = leftover[wanted * size :]
        if stock_ids is None:
            stock_ids = leftover
        elif leftover:
            if not muerto_lists:
                raise bad("with a stock given and no muerto left, all 106 tiles must be listed")
            muerto_lists[-1] = muerto_lists[-1] + leftover
    elif stock_ids is None:
        stock_ids = leftover
    elif leftover:
        raise bad("with muertos and a stock given, all 106 tiles must be listed")

    s = BurakoState(game)
    s._rng = SplitMix64(seed)
    s._racks = [_counts(r) for r in rack_ids]
    s._melds = meld_lists
    s._pozo = pozo_ids
    s._stock = list(stock_ids)
    s._muertos = muerto_lists
    s._muerto = status
    s._to_move = to_move
    s._mano = mano
    s._phase = phase
    s._buffer = buffer_ids
    s._turns = turns
    s._cancels = cancels
    s._totals = list(totals_list)
    s._hand = hand
    s._hand_scores = [[0, 0] for _ in range(hand - 1)]
    return s


_JSON_KEYS = frozenset(
    "buffer cancels drawn game hand hand_scores history mano melds muerto_status muerto_unplayed muertos "
    "must_use no_discard options phase pozo racks rng stock terminal to_move totals turns version winner".split()
)


def _state_from_json(game: Burako, text: Any) -> BurakoState:
    def bad(why: str) -> InvalidStateError:
        return InvalidStateError(f"invalid burako state: {why}")

    d = read_state_object(text, "burako", _JSON_KEYS, game.options_json())
    o, P = game._opts, game.num_players

    def integer(key: str, lo: int, hi: int) -> int:
        x = d[key]
        if not _is_int(x) or not lo <= x <= hi:
            raise bad(f"{key} must be an int in {lo}..{hi}")
        return x

    def int_list(x: Any, what: str, lo: int, hi: int) -> list[int]:
        if not isinstance(x, list) or not all(_is_int(v) and lo <= v <= hi for v in x):
            raise bad(f"{what} must be a list of ints in {lo}..{hi}")
        return x

    def tile_list(x: Any, what: str, ascending: bool) -> list[int]:
        xs = int_list(x, what, 0, NUM_TYPES - 1)
        if ascending and any(a > b for a, b in zip(xs, xs[1:])):
            raise bad(f"{what} must be ascending")
        return xs

    def per(key: str, count: int) -> list:
        x = d[key]
        if not isinstance(x, list) or len(x) != count:
            raise bad(f"{key} must be a list of {count} entries")
        return x

    terminal = d["terminal"]
    if not isinstance(terminal, bool):
        raise bad("terminal must be a bool")
    hand = integer("hand", 1, o["max_hands"])
    cancels = integer("cancels", 0, o["max_cancels_per_turn"])
    drawn = integer("drawn", -1, NUM_TYPES - 1)
    mano = integer("mano", 0, P - 1)
    must_use = integer("must_use", -1, NUM_TYPES - 1)
    no_discard = integer("no_discard", -1, NUM_TYPES - 1)
    to_move = integer("to_move", -1, P - 1)
    turns = integer("turns", 0, o["max_turns"])
    winner = integer("winner", -1, 1)
    phase = d["phase"]
    if phase not in (DRAW, MELD):
        raise bad('phase must be "draw" or "meld"')
    racks = [tile_list(r, f"racks[{i}]", True) for i, r in enumerate(per("racks", P))]
    buffer = tile_list(d["buffer"], "buffer", True)
    pozo = tile_list(d["pozo"], "pozo", False)
    stock = tile_list(d["stock"], "stock", False)
    history = int_list(d["history"], "history", 0, NUM_DISTINCT_ACTIONS - 1)
    totals = int_list(per("totals", 2), "totals", -MAX_TOTAL, MAX_TOTAL)
    status = int_list(per("muerto_status", 2), "muerto_status", 0, 2)
    unplayed = int_list(per("muerto_unplayed", 2), "muerto_unplayed", -1, P - 1)
    for team, seat in enumerate(unplayed):
        if seat != -1 and (seat % 2 != team or status[team] != INDIRECT):
            raise bad("muerto_unplayed must name a seat of that team holding an indirect muerto, or -1")
    muertos = d["muertos"]
    if not isinstance(muertos, list) or len(muertos) > 2 - sum(1 for x in status if x != UNTAKEN):
        raise bad("muertos must list at most the muertos not yet taken")
    muertos = [tile_list(m, f"muertos[{i}]", False) for i, m in enumerate(muertos)]
    hand_scores = d["hand_scores"]
    finished = hand if terminal else hand - 1
    if not isinstance(hand_scores, list) or len(hand_scores) != finished:
        raise bad(f"hand_scores must list one [team0, team1] per finished hand ({finished})")
    for i, x in enumerate(hand_scores):
        if not isinstance(x, list) or len(x) != 2:
            raise bad(f"hand_scores[{i}] must be [team0, team1]")
        int_list(x, f"hand_scores[{i}]", -MAX_TOTAL, MAX_TOTAL)
    melds: list[list[tuple[str, list[int]]]] = [[], []]
    for team, team_melds in enumerate(per("melds", 2)):
        if not isinstance(team_melds, list) or len(team_melds) > M_MAX:
            raise bad(f"melds[{team}] must be a list of at most {M_MAX} melds")
        for i, m in enumerate(team_melds):
            if not isinstance(m, dict) or set(m) != {"kind", "tiles"} or m["kind"] not in ("run", "pierna"):
                raise bad(f'melds[{team}][{i}] must be {{"kind": "run" | "pierna", "tiles": [...]}}')
            tiles = tile_list(m["tiles"], f"melds[{team}][{i}].tiles", True)
            if _meld_facts(tiles, o, m["kind"]) is None:
                raise bad(f"melds[{team}][{i}] is not a valid {m['kind']}")
            melds[team].append((m["kind"], list(tiles)))
    rng = d["rng"]
    if not isinstance(rng, str) or not rng.isascii() or not rng.isdigit() or str(int(rng)) != rng or int(rng) > MASK64:
        raise bad("rng must be the decimal text of an int in 0..2^64-1")
    every = [t for r in racks for t in r] + buffer + pozo + stock + [t for m in muertos for t in m]
    every += [t for team in melds for _, m in team for t in m]
    if _counts(every) != [2] * NUM_TYPES:
        raise bad(
            "the 106 tiles must each appear exactly once (two of each type) across racks, buffer, melds,"
            " pozo, stock and muertos"
        )
    if terminal:
        if to_move != -1 or buffer:
            raise bad("a terminal state has to_move -1 and an empty buffer")
    else:
        if to_move == -1 or winner != -1:
            raise bad("before the end to_move is a seat and winner -1")
        if buffer and phase != MELD:
            raise bad("a buffer exists only in the meld phase")
        if drawn != -1 and (phase != MELD or not racks[to_move].count(drawn)):
            raise bad("drawn must be a tile of the mover's rack in the meld phase, or -1")

    s = BurakoState(game)
    s._rng = SplitMix64(int(rng))
    s._history = list(history)
    s._hand = hand
    s._hand_scores = [list(x) for x in hand_scores]
    s._totals = list(totals)
    s._mano = mano
    s._to_move = to_move
    s._phase = phase
    s._racks = [_counts(r) for r in racks]
    s._buffer = list(buffer)
    s._melds = melds
    s._pozo = list(pozo)
    s._stock = list(stock)
    s._muertos = [list(m) for m in muertos]
    s._muerto = list(status)
    s._unplayed = list(unplayed)
    s._turns = turns
    s._cancels = cancels
    s._drawn = drawn
    s._no_discard = no_discard
    s._must_use = must_use
    s._terminal = terminal
    s._winner = winner
    return s
