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

Melds are stored as tile multisets only (the "existence semantics" of rules §3.4): a multiset is a
valid run when *some* assignment of positions to its tiles fits, so wilds move freely inside a meld.
"""

from __future__ import annotations

import copy
import json
import operator
from collections import Counter
from typing import Any, Iterable, Optional, Sequence

import numpy as np

from ..errors import (
    IllegalActionError,
    InvalidNotationError,
    InvalidOptionError,
    InvalidPlayerError,
    InvalidStateError,
)
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
# Tiles (rules §1)
# ---------------------------------------------------------------------------------------------

COLOURS = "RKBY"
JOKER = 52
NUM_TYPES = 53
#: The 106 tiles in ascending type order, the two copies of each type adjacent (DESIGN §5).
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
        if len(text) >= 2 and text[0] in COLOURS and text[1:].isdigit() and text[1] != "0":
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
    """Face value of one tile in a rack (rules §1): 1 -> 15, 2 -> 20, 3..7 -> 5, 8..13 -> 10, joker."""
    if t == JOKER:
        return opts["joker_value"]
    n = _number(t)
    return 15 if n == 1 else 20 if n == 2 else 5 if n <= 7 else 10


# ---------------------------------------------------------------------------------------------
# Actions (rules §11)
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
        if len(words) == 3 and words[0] == "extend" and words[1].isdigit() and int(words[1]) < M_MAX:
            return EXTEND0 + NUM_TYPES * int(words[1]) + tile_id(words[2])
    except InvalidNotationError:
        pass
    raise InvalidNotationError(
        f"{text!r} is not an action: expected 'draw', 'take pozo', 'redraw', 'add R5', 'meld', 'cancel', "
        f"'discard K13' or 'extend 3 B7' (meld slot 0..{M_MAX - 1})"
    )


# ---------------------------------------------------------------------------------------------
# Options (rules §10, contract §2)
# ---------------------------------------------------------------------------------------------

_NOLIMIT = 10**9

#: Every option: (kind, detail, default). Kinds: choice (str among detail), int (lo, hi), bool,
#: ints (an int among detail), seat_or_random, wilds.
_SPEC: dict[str, tuple[str, Any, Any]] = {
    "players": ("ints", (2, 4), 4),
    "first_mano": ("seat_or_random", None, "random"),
    "two_player_hand": ("ints", (12, 15, 22), 12),
    "muerto_size": ("choice", ("11", "hand_size"), "11"),
    "twos_wild": ("bool", None, True),
    "two_value": ("choice", ("always_20", "natural_5_wild_20"), "always_20"),
    "joker_value": ("ints", (50, 30), 50),
    "max_wilds_per_meld": ("wilds", None, 1),
    "pierna_of_twos": ("choice", ("forbidden", "allowed_as_naturals"), "forbidden"),
    "ace_position": ("choice", ("low_or_high", "high_only", "low_only"), "low_or_high"),
    "ace_to_ace_run": ("choice", ("allowed", "forbidden"), "allowed"),
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


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


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
    elif kind == "wilds":
        if value != "fewer_than_naturals" and not (_is_int(value) and value in (1, 2)):
            raise _bad(name, value, "1, 2 or 'fewer_than_naturals'")
    return value


def resolve_options(**given: Any) -> dict[str, Any]:
    """Every option resolved: the defaults of rules §10 overridden by the given ones."""
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
    return 11 if opts["muerto_size"] == "11" else hand_size(opts)


# ---------------------------------------------------------------------------------------------
# Melds (rules §3)
# ---------------------------------------------------------------------------------------------


def _wilds_allowed(w: int, naturals: int, opts: dict) -> bool:
    limit = opts["max_wilds_per_meld"]
    if limit == "fewer_than_naturals":
        return w < naturals
    return w <= limit


def _max_run_length(opts: dict) -> int:
    return 14 if opts["ace_to_ace_run"] == "allowed" else 13


def _ace_positions(opts: dict) -> tuple[int, ...]:
    return {"low_or_high": (1, 14), "high_only": (14,), "low_only": (1,)}[opts["ace_position"]]


def _run_fewest_wilds(tiles: Sequence[int], opts: dict) -> Optional[int]:
    """The fewest wilds over the valid run assignments of ``tiles`` (rules §3.2), or None if none.

    A run has one colour c. Jokers are wild; a 2 of colour c may be natural (at position 2) or
    wild; any other 2 is wild (when 2s are wild at all). Every other tile is natural, of colour c.
    A natural 1 sits at position 1 or 14. Naturals need distinct positions, and the L tiles must
    cover a window of L consecutive positions inside 1..14 that holds every natural.
    """
    L = len(tiles)
    if not 3 <= L <= _max_run_length(opts):
        return None
    twos_wild = opts["twos_wild"]
    best: Optional[int] = None
    for c in range(4):
        jokers = sum(1 for t in tiles if t == JOKER)
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
    return best


def _pierna_fewest_wilds(tiles: Sequence[int], opts: dict) -> Optional[int]:
    """The fewest wilds of a valid pierna (rules §3.3), or None: every natural has one number n.

    Jokers are wild. With 2s wild, every 2 is wild, unless ``pierna_of_twos = allowed_as_naturals``
    and the pierna is one of 2s (n = 2), where the 2s are its naturals. With 2s not wild, a 2 is an
    ordinary tile of number 2.
    """
    L = len(tiles)
    if L < 3:
        return None
    jokers = sum(1 for t in tiles if t == JOKER)
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
    best: Optional[int] = None
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


def _meld_facts(tiles: Sequence[int], opts: dict, kind: Optional[str] = None) -> Optional[tuple[str, int]]:
    """``(kind, fewest wilds)`` when ``tiles`` is a valid meld (of ``kind`` if given), else None.

    A multiset valid as both kinds is a pierna (rules §3.4; impossible with the default options).
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


def classify_meld(tiles: Iterable[Any], **options: Any) -> Optional[dict[str, Any]]:
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


def _team_score(melds: Sequence[tuple[str, Sequence[int]]], rack_tiles: Iterable[int], closed: bool, muerto_taken: bool, opts: dict) -> int:
    """One team's hand score (rules §7) from its melds ``(kind, tiles)`` and the tiles in its racks."""
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


def score_team(melds: Iterable[Iterable[Any]], racks: Iterable[Iterable[Any]], closed: bool, muerto_taken: bool, **options: Any) -> int:
    """One team's hand score per rules §7: ``melds`` its melds (tile lists), ``racks`` the tile
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
    return _team_score(kinded, rack_tiles, closed, muerto_taken, opts)
