"""The capture rules (docs/rules/escoba.md §1.4, §2; docs/escoba_engine.md §3): the capture kinds, match
priority and fewest cards, the Ace rules, piles and builds, and every legal outcome of a play."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from typing import Any

from ...cards import card_id, card_str
from ...errors import (
    InvalidNotationError,
)
from .cards import TAKE0, TAKE_PILE0, _rank, card_value, pack_name, pack_of

# ---------------------------------------------------------------------------------------------
# Capture rules (docs/escoba_engine.md §3)
# ---------------------------------------------------------------------------------------------

#: The trail outcome (the played card joins the table) and the self-capture outcome (an Ace played
#: onto an empty table goes to the player's own pile). A capture outcome is the ascending tuple of
#: the table card ids it takes.
TRAIL: tuple[int, ...] = ()
SELF = "self"
#: The largest build value (docs/rules/escoba.md §2.20).
MAX_BUILD_VALUE = 10

#: The matta and the value it plays at, if the game has one (docs/rules/escoba.md §2.9).
Matta = tuple[int, int] | None
#: The builds on the table, each its cards.
BuildCards = Sequence[Sequence[int]]
#: The capture sets of each kind.
CaptureSets = dict[str, list[tuple[int, ...]]]


class BuildOn:
    """The outcome "build on table item ``item``" (docs/rules/escoba.md §2.20): a loose card or a build's name."""

    __slots__ = ("item",)

    def __init__(self, item: int) -> None:
        self.item = item

    def __repr__(self) -> str:
        return f"BuildOn({card_str(self.item)})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BuildOn) and self.item == other.item

    def __hash__(self) -> int:
        return hash(("on", self.item))


def _build_value(build: Iterable[int]) -> int:
    return sum(card_value(c) for c in build)


def _names(builds: Sequence[Sequence[int]]) -> dict[int, int]:
    """Each build's name (its lowest card) -> its value."""
    return {min(b): _build_value(b) for b in builds}


def _subsets_with_sum(cards: Sequence[tuple[int, int]], total: int, min_size: int) -> list[tuple[int, ...]]:
    """Every subset of ``cards`` (``(value, id)`` pairs sorted by value) whose values add up to
    ``total`` and that has at least ``min_size`` cards; each as an ascending id tuple.

    A depth-first search over the value-sorted cards: it stops a branch as soon as the next value
    exceeds what is left to reach.
    """
    found: list[tuple[int, ...]] = []
    chosen: list[int] = []

    def search(start: int, left: int) -> None:
        if left == 0:
            if len(chosen) >= min_size:
                found.append(tuple(sorted(chosen)))
            return
        for i in range(start, len(cards)):
            value, card = cards[i]
            if value > left:
                break
            chosen.append(card)
            search(i + 1, left - value)
            chosen.pop()

    if total > 0:
        search(0, total)
    return found


def _val(card: int, matta: tuple[int, int] | None) -> int:
    """The capture value of ``card``; ``matta`` = (card, value) gives the matta its declared value."""
    return matta[1] if matta is not None and card == matta[0] else card_value(card)


def _captures_by_kind(card: int, table: Iterable[int], opts: dict, matta: Matta, builds: BuildCards) -> CaptureSets:
    """The capture sets of each enabled kind, before match priority and fewest-cards. A build is
    an item named by its lowest card that only equality takes (docs/rules/escoba.md §2.20)."""
    k = opts["value_modulus"]

    def value(c: int) -> int:  # the capture value, reduced by the modulus when set (docs/rules/escoba.md §2.15)
        return _val(c, matta) if k is None else (_val(c, matta) - 1) % k + 1

    p = value(card)
    cards = sorted((value(t), t) for t in table)
    kinds: dict[str, list[tuple[int, ...]]] = {}
    built = [name for name, v in _names(builds).items() if v == p]
    for kind in opts["capture_kinds"]:
        if kind == "match" and built:
            # with a build of the value, equality takes every item of that value at once
            kinds[kind] = [tuple(sorted(built + [t for v, t in cards if v == p]))]
        elif kind == "match":
            kinds[kind] = [(t,) for v, t in cards if v == p]
        elif kind == "sum" and k is not None:
            # modular sum: any two or more cards whose values add up to p modulo k
            kinds[kind] = [
                tuple(sorted(t for _, t in combo))
                for size in range(2, len(cards) + 1)
                for combo in itertools.combinations(cards, size)
                if sum(v for v, _ in combo) % k == p % k
            ]
        elif kind == "sum":
            kinds[kind] = _subsets_with_sum(cards, p, 2)
        elif kind == "sum15":
            kinds[kind] = _subsets_with_sum(cards, 15 - p, 1)
        elif kind == "sum11":
            kinds[kind] = _subsets_with_sum(cards, 11 - p, 1)
        elif kind == "diff":
            # 2*max - sum = p  <=>  max - (sum of the others) = p. The others are all strictly
            # below the largest card (they add up to less than it), so each set is found once.
            sets = []
            for i, (top, t) in enumerate(cards):
                smaller = [vc for vc in cards[:i] if vc[0] < top]
                for rest in _subsets_with_sum(smaller, top - p, 1):
                    sets.append(tuple(sorted(rest + (t,))))
            kinds[kind] = sets
    return kinds


def _captures(
    card: int,
    table: Iterable[int],
    opts: dict,
    matta: tuple[int, int] | None = None,
    builds: Sequence[Sequence[int]] = (),
    twins: bool = False,
) -> dict[tuple[int, ...], bool]:
    """``Captures(p, T)``: every legal capture set, mapped to whether a sweep with it may score a
    scopa on its own account (True for a set left by a normal kind; False for the Ace's take-all
    alone, which scores only with ``ace_takes_all_is_scopa``).

    ``twins``: ``table`` is a multiset of the 80-card pack (docs/rules/escoba.md §2.18); a set that holds the
    played card's identical twin is legal only when it is the whole table (so an illegal twin
    match gives no match priority). Sets are ascending tuples, a twin listed twice."""
    table = list(table)
    twins = twins or opts["deck"] == "double_italian80"
    items = table + list(_names(builds))  # every item, the courts included
    if opts["court_capture"] == "same_rank":
        # docs/rules/escoba.md §2.24: a court has no value and takes one court of its rank, nothing else
        if _rank(card) >= 11:
            if "match" not in opts["capture_kinds"]:
                return {}
            return {(t,): True for t in table if _rank(t) == _rank(card)}
        table = [t for t in table if _rank(t) < 11]
    kinds = _captures_by_kind(card, table, opts, matta, builds)
    if twins:  # the 80-card pack has no builds (refused), so the items are the table cards
        whole = tuple(sorted(table))
        kinds = {k: [x for x in sets if card not in x or x == whole] for k, sets in kinds.items()}
    # 1. Match priority: a possible match removes the captures of the kinds it has priority over.
    if opts["match_priority"] and kinds.get("match"):
        for kind in opts["match_priority_kinds"]:
            if kind in kinds:
                kinds[kind] = []
    # 2. Fewest cards: keep only the smallest sets, across the kinds the option names.
    scope = {
        "none": (),
        "all": tuple(kinds),
        "simple_only": ("match", "sum"),
        "sum15_only": ("sum15",),
    }[opts["fewest_cards"]]
    sizes = [len(x) for kind in scope for x in kinds.get(kind, ())]
    if sizes:
        fewest = min(sizes)
        for kind in scope:
            if kind in kinds:
                kinds[kind] = [x for x in kinds[kind] if len(x) == fewest]
    result: dict[tuple[int, ...], bool] = {}
    for sets in kinds.values():
        for x in sets:
            result[x] = True
    # 3. The Ace takes the whole table (never filtered by fewest-cards); a matta declared as an
    # Ace counts as one.
    if (
        opts["ace_takes_all"]
        and _val(card, matta) == 1
        and items
        and not (opts["ace_blocked_by_table_ace"] and any(_val(t, matta) == 1 for t in table))
    ):
        result.setdefault(tuple(sorted(items)), False)
    return result


#: A pile as a capture item (docs/rules/escoba.md §2.21): ``PILE0 + side``, so that ``TAKE0 + item`` is its
#: ``TAKE_PILE(side)`` id (a side's pile is named by its lowest seat, the side number) and piles
#: sort after every table card.
PILE0 = TAKE_PILE0 - TAKE0


def _item_str(item: int) -> str:
    return f"pile{item - PILE0}" if item >= PILE0 else card_str(item)


def _pile_captures(card: int, table: list[int], piles: tuple, opts: dict) -> dict[tuple[int, ...], bool]:
    """``Captures(p, T)`` with ``steal`` (docs/rules/escoba.md §2.21, §2.22). ``piles`` = (top card per side or
    -1, the mover's side, the next seat's side). Items are table cards and opponents' piles
    (``PILE0 + side``), each pile worth its top card."""
    tops, mine, nxt = piles
    p = card_value(card)
    same = [t for t in table if card_value(t) == p]
    matches = same if "match" in opts["capture_kinds"] else []
    opponents = [(card_value(top), PILE0 + s) for s, top in enumerate(tops) if top != -1 and s != mine]
    steals = [i for v, i in opponents if v == p]
    if opts["table_match_first"] and same:
        steals = []  # no steal with a value that is also on the table [X 38]
    result: dict[tuple[int, ...], bool] = {}
    for x in matches + steals:
        result[(x,)] = True
    if opts["steal_and_table"]:  # one table match and one steal together
        for t in matches:
            for i in steals:
                result[(t, i)] = True
    # a steal is a match for match priority: a pile is an item worth its top card
    priority = opts["match_priority"] and "sum" in opts["match_priority_kinds"] and (matches or steals)
    if "sum" in opts["capture_kinds"] and not priority:
        items = [(card_value(t), t) for t in table] + (opponents if opts["pile_in_sums"] else [])
        for combo in _subsets_with_sum(sorted(items), p, 2):
            result[combo] = True
    if opts["ace_steals_all"] and _rank(card) == 1:
        # docs/rules/escoba.md §2.21 [X 6]: an Ace takes the table or the next opponent's pile
        if table:
            result.setdefault(tuple(sorted(table)), False)
        if nxt != mine and tops[nxt] != -1:
            result.setdefault((PILE0 + nxt,), True)
    return result


def _outcomes(
    card: int,
    hand: Iterable[int],
    table: Iterable[int],
    opts: dict,
    first_play: bool,
    matta: tuple[int, int] | None = None,
    piles: tuple | None = None,
    builds: Sequence[Sequence[int]] = (),
) -> dict:
    """``O(card)``: the legal outcomes of playing ``card`` from ``hand`` (which contains it) onto
    ``table`` and ``builds``, mapped to their scopa flag as in ``_captures`` (trail, self-capture
    and build moves: False). ``forbid_ace_first_play`` means the rank A; the other Ace rules also
    a matta declared as 1. ``piles`` as in ``_pile_captures`` (with ``steal``, which refuses a
    matta and builds; None: no pile to take)."""
    if opts["steal"]:
        pile_ctx = piles if piles is not None else ((-1,) * 6, 0, 0)

        def captures(q: int, t: list[int]) -> dict:
            return _pile_captures(q, t, pile_ctx, opts)
    else:

        def captures(q: int, t: list[int]) -> dict:
            return _captures(q, t, opts, matta, builds)

    hand = list(hand)
    table = list(table)
    aces_forbidden = opts["forbid_ace_first_play"] and first_play and any(card_value(h) != 1 for h in hand)
    if card_value(card) == 1 and aces_forbidden:
        return {}
    if (
        opts["ace_takes_all"]
        and _val(card, matta) == 1
        and not table
        and not builds
        and opts["ace_on_empty_table"] == "self_capture"
    ):
        return {SELF: False}
    outcomes: dict = dict(captures(card, table))
    can_capture = bool(outcomes)
    obligation = opts["capture_obligation"]
    if obligation == "optional":
        may_trail = True
    elif obligation == "played_card":
        may_trail = not outcomes
    elif obligation == "played_card_numerals":
        may_trail = _rank(card) >= 11 or not outcomes
    else:  # any_card: trailing is allowed only when no playable card of the hand can capture
        playable = [q for q in hand if q != card and not (aces_forbidden and card_value(q) == 1)]
        may_trail = not outcomes and not any(captures(q, table) for q in playable)
    if opts["ace_may_trail"] and opts["ace_takes_all"] and _val(card, matta) == 1:
        may_trail = True  # docs/rules/escoba.md §2.1: only the Ace is freed from the obligation
    if may_trail:
        outcomes[TRAIL] = False
    if opts["builds"] and not (opts["build_only_if_no_capture"] and can_capture):
        # a build: the total is at most 10 and the rest of the hand holds a card of it (docs/rules/escoba.md §2.20)
        held = {card_value(q) for q in hand if q != card}
        values = {t: card_value(t) for t in table} | _names(builds)
        for t in sorted(values):
            total = card_value(card) + values[t]
            if total <= MAX_BUILD_VALUE and total in held:
                outcomes[BuildOn(t)] = False
    return outcomes


def _pack_card(card: Any, error: type = InvalidNotationError, deck: str = "italian40") -> int:
    try:
        c = card_id(card)
    except InvalidNotationError as e:
        raise error(str(e)) from None
    if c not in pack_of(deck):
        raise error(f"{card!r} is not a card of the {pack_name(deck)}")
    return c
