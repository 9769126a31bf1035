"""Melds (docs/rules/burako.md §3, docs/burako_engine.md §3): when a tile multiset is a valid run
or pierna, with how few wilds, and what it is worth; and a team's hand score
(docs/rules/burako.md §7).

Melds are tile multisets only (the "existence semantics" of docs/rules/burako.md §3.4): a multiset
is a valid run when *some* assignment of positions to its tiles fits, so wilds move freely inside
a meld.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from ...errors import InvalidStateError
from .options import resolve_options
from .tiles import JOKER, colour, is_two, number, tile_id, tile_str, tile_value

__all__ = [
    "wilds_allowed",
    "max_run_length",
    "ace_positions",
    "meld_facts",
    "meld_value",
    "classify_meld",
    "team_score",
    "score_team",
]


def wilds_allowed(w: int, naturals: int, opts: dict) -> bool:
    limit = opts["max_wilds_per_meld"]
    if limit == "fewer_than_naturals":
        return w < naturals
    if limit == "unlimited":
        return True  # a meld still needs a natural (docs/burako_engine.md §2): the callers check it
    return w <= limit


def max_run_length(opts: dict) -> int:
    return 14 if opts["ace_to_ace_run"] == "allowed" else 13


def ace_positions(opts: dict) -> tuple[int, ...]:
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
    if not 3 <= L <= max_run_length(opts):
        return None
    twos_wild = opts["twos_wild"]
    best: int | None = None
    for c in range(4):
        own_twos = sum(1 for t in tiles if t != JOKER and is_two(t) and colour(t) == c)
        other_twos = sum(1 for t in tiles if t != JOKER and is_two(t) and colour(t) != c)
        fixed = [t for t in tiles if t != JOKER and not is_two(t)]
        if any(colour(t) != c for t in fixed):
            continue
        if not twos_wild and other_twos:
            continue
        aces = sum(1 for t in fixed if number(t) == 1)
        others = [number(t) for t in fixed if number(t) != 1]
        # each own-colour 2 is natural or wild (only one can be natural: one position 2)
        two_choices = range(min(own_twos, 1) + 1) if twos_wild else ([own_twos] if own_twos <= 1 else [])
        ace_choices: list[tuple[int, ...]] = [()]
        for _ in range(aces):
            ace_choices = [placed + (p,) for placed in ace_choices for p in ace_positions(opts)]
        for natural_twos in two_choices:
            for placed in ace_choices:
                positions = others + list(placed) + [2] * natural_twos
                if len(set(positions)) != len(positions):
                    continue
                w = L - len(positions)
                if not wilds_allowed(w, len(positions), opts):
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
                    and wilds_allowed(w, len(numbers), opts)
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
    twos = sum(1 for t in tiles if is_two(t))
    non_two = [number(t) for t in tiles if t != JOKER and not is_two(t)]
    candidates = []
    if opts["twos_wild"]:
        if non_two:
            candidates.append((set(non_two), len(non_two)))
        elif opts["pierna_of_twos"] == "allowed_as_naturals" and twos:
            candidates.append(({2}, twos))
    else:
        natural_numbers = non_two + [2] * twos
        if natural_numbers:
            candidates.append((set(natural_numbers), len(natural_numbers)))
    best: int | None = None
    for numbers, naturals in candidates:
        w = L - naturals
        if len(numbers) == 1 and wilds_allowed(w, naturals, opts) and (best is None or w < best):
            best = w
    return best


def _natural_twos(tiles: Sequence[int], kind: str, fewest_wilds: int, opts: dict) -> int:
    """How many 2s are natural in an assignment of the meld with the fewest wilds."""
    twos = sum(1 for t in tiles if is_two(t))
    jokers = sum(1 for t in tiles if t == JOKER)
    if not opts["twos_wild"]:
        return twos
    if kind == "pierna":
        non_two = [t for t in tiles if t != JOKER and not is_two(t)]
        return 0 if non_two else twos
    return twos - (fewest_wilds - jokers)


def meld_facts(tiles: Sequence[int], opts: dict, kind: str | None = None) -> tuple[str, int] | None:
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
    facts = meld_facts(ids, opts)
    if facts is None:
        return None
    kind, w = facts
    return {
        "kind": kind,
        "pure": w == 0,
        "canasta": len(ids) >= opts["canasta_min"],
        "value": meld_value(ids, kind, w, opts),
    }


def team_score(
    melds: Sequence[tuple[str, Sequence[int]]], rack_tiles: Iterable[int], closed: bool, muerto_taken: bool, opts: dict
) -> int:
    """One team's hand score (docs/rules/burako.md §7) from its melds ``(kind, tiles)`` and the tiles in its racks."""
    M = C = 0
    canastas = 0
    for kind, tiles in melds:
        facts = meld_facts(tiles, opts, kind)
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
        facts = meld_facts(ids, opts)
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
    return team_score(kinded, rack_tiles, closed, muerto_taken, opts)
