"""The rules as functions of cards (docs/escoba_engine.md §3, §7): the outcomes of a play, the
declarations of a hand and the points of a deal, each for options given by name."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from ...cards import card_id, card_str
from ...errors import InvalidNotationError, InvalidPlayerError, InvalidStateError
from .._base import index_in
from .._base import is_int as _is_int
from .captures import MAX_BUILD_VALUE, SELF, BuildOn, _build_value, _item_str, _outcomes, _pack_card
from .cards import pack_of
from .features import resolve_options
from .options import _NOLIMIT
from .scoring import KNOCKS, TUZZOLI, Deal, _knock_best, _knock_points, _tuzzoli_kind, award_steps, deal_awards


def capture_options(
    card: Any,
    table: Iterable[Any],
    pile_tops: Sequence[Any] | None = None,
    seat: Any = 0,
    table_builds: Iterable[Iterable[Any]] | None = None,
    hand: Iterable[Any] | None = None,
    **options: Any,
) -> list[list[str]]:
    """``O(card)`` with hand ``{card}`` (plus ``hand``): every legal outcome of playing ``card``
    onto ``table``.

    Each outcome is its ascending card list: ``[]`` is the trail, ``[card]`` the self-capture of an
    Ace onto an empty table; the outcomes are sorted by their id lists. Example (TV-02)::

        >>> capture_options("Qh", ["Ah", "3s", "4c", "5d"])
        [['4c', '5d'], ['5d', 'Ah', '3s']]

    With option ``steal``, ``pile_tops`` gives each side's pile top (or None) and ``seat`` the
    mover; a pile item is written ``pile<side>``. With option ``builds``, ``table_builds`` lists the
    builds (card lists) beside the loose table cards: a capture names a build by its lowest card,
    and each build move ``["on", item]`` follows the sorted outcomes, ascending by item (TV-74)::

        >>> capture_options("2d", ["3h", "5s"], hand=["5c"], variant="granja")
        [[], ['on', '3h']]
    """
    opts = resolve_options(**options)
    deck = opts["deck"]
    p = _pack_card(card, deck=deck)

    def cards(xs: Any, what: str) -> list[int]:
        if isinstance(xs, (str, bytes)) or not isinstance(xs, Iterable):
            raise InvalidNotationError(f"{xs!r} is not a list of cards ({what})")
        return [_pack_card(c, deck=deck) for c in xs]

    t = cards(table, "table")
    builds = [] if table_builds is None else [cards(b, "a build") for b in _card_lists(table_builds)]
    held = [] if hand is None else cards(hand, "hand")
    every = [p] + t + [c for b in builds for c in b] + held
    copies = _copies(deck)
    if any(k > copies for k in Counter(every).values()):
        raise InvalidStateError(_once_each(deck, "the played card, the table, the builds and the hand"))
    if builds and not opts["builds"]:
        raise InvalidStateError("table_builds needs option builds")
    for b in builds:
        if len(b) < 2 or _build_value(b) > MAX_BUILD_VALUE:
            raise InvalidStateError(f"a build holds at least 2 cards worth at most {MAX_BUILD_VALUE} in all")
    n = opts["players"]
    teams = opts["partnership"] == "auto" and n in (4, 6)
    sides = 2 if teams else n
    if seat is None:
        seat = 0
    seat = index_in(seat, n, InvalidPlayerError, "a seat")
    tops = [-1] * 6
    if pile_tops is not None:
        if isinstance(pile_tops, (str, bytes)) or not isinstance(pile_tops, Iterable):
            raise InvalidStateError(f"pile_tops must be a list of {sides} entries (one per side): a card or None")
        given = list(pile_tops)
        if len(given) != sides:
            raise InvalidStateError(f"pile_tops must be a list of {sides} entries (one per side): a card or None")
        seen = Counter(every)
        for s, x in enumerate(given):
            if x is None:
                continue
            top = _pack_card(x, deck=deck)
            seen[top] += 1
            if seen[top] > copies:
                raise InvalidStateError(_once_each(deck, "the played card, the table cards and the pile tops"))
            tops[s] = top
    side_of = (lambda x: x % 2) if teams else (lambda x: x)
    piles = (tuple(tops), side_of(seat), side_of((seat + 1) % n))
    outs = _outcomes(p, [p] + held, t, opts, first_play=False, piles=piles, builds=builds)
    ids = sorted([p] if o == SELF else list(o) for o in outs if not isinstance(o, BuildOn))
    ons = sorted(o.item for o in outs if isinstance(o, BuildOn))
    return [[_item_str(c) for c in o] for o in ids] + [["on", card_str(x)] for x in ons]


def _copies(deck: str) -> int:
    """Copies of each id in the pack: 2 in the double pack (docs/escoba_engine.md §1a), else 1."""
    return 2 if deck == "double_italian80" else 1


def _once_each(deck: str, where: str) -> str:
    """The message for a card given more often than the pack holds it."""
    if _copies(deck) == 2:
        return f"{where} hold each card of the double pack at most twice in all"
    return f"{where} must all be different cards"


def _card_lists(xs: Any) -> list[Any]:
    """A list of card lists (``table_builds``), else ``InvalidStateError``."""
    if isinstance(xs, (str, bytes)) or not isinstance(xs, Iterable):
        raise InvalidStateError(f"{xs!r} is not a list of builds")
    return list(xs)


def _hand_of(hand: Any, opts: dict) -> list[int]:
    """The card ids of a hand given to ``tuzzoli`` or ``knock``, each card once."""
    if isinstance(hand, (str, bytes)) or not isinstance(hand, Iterable):
        raise InvalidNotationError(f"{hand!r} is not a list of cards")
    cards = [_pack_card(c, deck=opts["deck"]) for c in hand]
    if len(set(cards)) != len(cards):
        raise InvalidStateError("a card appears more than once in the hand")
    return cards


def tuzzoli(hand: Iterable[Any], **options: Any) -> tuple[str, int]:
    """The mandatory tuzzoli declaration of a hand: its name and points (TV-67)::

    >>> tuzzoli(["Ad", "2d", "3d"])
    ('napoli', 7)
    """
    opts = resolve_options(**options)
    cards = _hand_of(hand, opts)
    return TUZZOLI[_tuzzoli_kind(cards, opts["tuzzoli_hybrids"])]


def knock(hand: Iterable[Any], **options: Any) -> tuple[str, int, int | None]:
    """What a hand may declare by knocking (docs/rules/escoba.md §2.7, TV-56): the name, the points and the
    value the matta takes (None without a matta in the hand)::

        >>> knock(["7h", "2c", "2d"], variant="cirulla")
        ('decino', 10, 2)
    """
    opts = resolve_options(**options)
    cards = _hand_of(hand, opts)
    kind, value = _knock_best(cards, opts)
    has_matta = opts["matta"] is not None and card_id(opts["matta"]) in cards
    if not kind:
        return "none", 0, None
    return KNOCKS[kind], _knock_points(kind, opts), value if has_matta else None


#: What ``score_deal`` reads besides the piles and the scope, in its positional order.
_DEAL_RECORDS = ("declared", "ks_sweeps", "twin_sweeps", "ks_on_ks")


def score_deal(piles: Sequence[Iterable[Any]], scope: Sequence[int], *records: Any, **options: Any) -> list[int]:
    """Points per side for a finished deal: ``piles`` one card list per side, ``scope`` the
    sweeps per side. In TV-26 side A (22 cards, 7 coins, the settebello, primiera 81 against 72,
    one scopa) against B (two scope) scores ``[5, 2]``.

    ``declared``: hand-declaration points per side; ``ks_sweeps``: per side, how many of its
    sweeps were made by playing ``Ks``. With the double pack (docs/escoba_engine.md §1a) a pile lists a twin
    twice, ``twin_sweeps`` counts per side the sweeps that took the played card's twin, and
    ``ks_on_ks`` names the side (if any) whose ``Ks`` took the other ``Ks`` alone on the table;
    that sweep counts in both its ``ks_sweeps`` and its ``twin_sweeps``. Each of these four
    may be given in that order after ``scope`` or by name.
    """
    if len(records) > len(_DEAL_RECORDS):
        raise TypeError(f"score_deal() takes at most {2 + len(_DEAL_RECORDS)} positional arguments")
    given = dict(zip(_DEAL_RECORDS, records))
    for name in _DEAL_RECORDS:
        if name in options:
            if name in given:
                raise TypeError(f"score_deal() got multiple values for argument {name!r}")
            given[name] = options.pop(name)
    declared, ks_sweeps, twin_sweeps, ks_on_ks = (given.get(name) for name in _DEAL_RECORDS)
    opts = resolve_options(**options)

    def is_list(x: Any) -> bool:
        return isinstance(x, Iterable) and not isinstance(x, (str, bytes))

    if not is_list(piles) or not is_list(scope):
        raise InvalidStateError("piles and scope must be lists, one entry per side")
    piles = list(piles)
    if not all(is_list(p) for p in piles):
        raise InvalidStateError("each pile must be a list of cards")
    piles = [[_pack_card(c, deck=opts["deck"]) for c in p] for p in piles]
    if not 1 <= len(piles) <= 6:
        raise InvalidStateError(f"piles must hold one card list per side (1 to 6 sides), got {len(piles)}")
    scope = list(scope)
    # a sweep needs a card played, and a deal plays at most the pack (docs/escoba_engine.md §7)
    most = len(pack_of(opts["deck"]))
    if len(scope) != len(piles) or not all(_is_int(k) and 0 <= k <= most for k in scope):
        raise InvalidStateError(
            f"scope must list one int in 0..{most} per side (a deal plays at most the {most} cards of the pack),"
            " as many as the piles"
        )
    every = [c for p in piles for c in p]
    copies = _copies(opts["deck"])
    if any(k > copies for k in Counter(every).values()):
        raise InvalidStateError(
            "a card appears more than twice in the piles" if copies == 2 else "a card appears twice in the piles"
        )
    decls = []
    if declared is not None:
        if not is_list(declared):
            raise InvalidStateError("declared must be a list, one entry per side")
        declared = list(declared)
        if len(declared) != len(piles) or not all(_is_int(k) and 0 <= k <= _NOLIMIT for k in declared):
            raise InvalidStateError(f"declared must list one int in 0..{_NOLIMIT} per side, as many as the piles")
        decls = [(s, k, 0) for s, k in enumerate(declared)]

    def sweep_counts(given: Any, name: str) -> list[int]:
        """Per side, how many of its ``scope`` sweeps were of one kind (0 each when not given)."""
        if given is None:
            return [0] * len(piles)
        if not is_list(given):
            raise InvalidStateError(f"{name} must be a list, one entry per side")
        counts = list(given)
        if len(counts) != len(piles) or not all(_is_int(k) and 0 <= k <= m for k, m in zip(counts, scope)):
            raise InvalidStateError(f"{name} must list one int in 0..scope[i] per side, as many as the piles")
        return counts

    ks = sweep_counts(ks_sweeps, "ks_sweeps")
    twins = [0] * len(piles)
    kk = None
    if twin_sweeps is not None or ks_on_ks is not None:
        if copies != 2:
            raise InvalidStateError("twin_sweeps and ks_on_ks need deck=double_italian80 (docs/escoba_engine.md §1a)")
        twins = sweep_counts(twin_sweeps, "twin_sweeps")
        if ks_on_ks is not None:
            kk = index_in(ks_on_ks, len(piles), InvalidStateError, "ks_on_ks (a side)")
            if ks[kk] < 1 or twins[kk] < 1:
                raise InvalidStateError("the ks_on_ks sweep counts in its side's ks_sweeps and twin_sweeps")
    both = [int(s == kk) for s in range(len(piles))]
    if any(k + t - b > m for k, t, b, m in zip(ks, twins, both, scope)):
        raise InvalidStateError("a side's ks_sweeps and twin_sweeps (ks_on_ks counted once) exceed its scope")
    # each side's sweeps: its Ks sweeps first, the Ks onto Ks one of them, then its other twin
    # sweeps (the order does not change the total)
    sweeps = [s for s, k in enumerate(scope) for _ in range(k)]
    nth = [i - sweeps.index(s) for i, s in enumerate(sweeps)]
    ks_at = [i for i, s in enumerate(sweeps) if nth[i] < ks[s]]
    twin_at = [
        i for i, s in enumerate(sweeps) if (both[s] and nth[i] == 0) or ks[s] <= nth[i] < ks[s] + twins[s] - both[s]
    ]
    vecs = deal_awards(Deal(piles, sweeps, opts, decls, ks_at, twin_at), award_steps(opts))
    return [sum(vec[s] for vec in vecs) for s in range(len(piles))]
