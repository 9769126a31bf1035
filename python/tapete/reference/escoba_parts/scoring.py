"""Scoring a deal (docs/rules/escoba.md §1.7, §1.8, §2; docs/escoba_engine.md §7): the hand declarations
(tuzzoli, knocks) and the awards of a deal, in count-out order."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from ...cards import card_id
from ...errors import (
    InvalidNotationError,
    InvalidStateError,
)
from .._base import index_in
from .._base import is_int as _is_int
from ..escoba_twins import deal_awards as twin_deal_awards
from .captures import _copies, _pack_card
from .cards import (
    _NAPOLA_RUN,
    _PRIMIERA_VALUES,
    _RANK_OF_CHAR,
    COINS,
    KS_SWEEP_POINTS,
    MARESCIALLO,
    RE_BELLO,
    SETTEBELLO,
    SWORDS,
    _rank,
    _suit,
    card_value,
    pack_of,
)
from .most import _most
from .options import _NOLIMIT, resolve_options

# ---------------------------------------------------------------------------------------------
# Scoring a deal (docs/escoba_engine.md §7)
# ---------------------------------------------------------------------------------------------


#: Tuzzoli declarations (docs/rules/escoba.md §2.8): kind -> (name, points); kind 0 = nothing to declare.
TUZZOLI = {0: ("none", 0), 1: ("tuzzolo", 3), 2: ("two_tuzzoli", 6), 3: ("buongioco", 6), 4: ("napoli", 7)}


def _tuzzoli_kind(hand: Iterable[int], hybrids: bool) -> int:
    """Its A, 2 and 3 are L: three of one rank = buongioco (3), three of one suit = napoli (4),
    else one tuzzolo per pair of L sharing rank or suit (at most one without hybrids)."""
    low = sorted(c for c in hand if _rank(c) in (1, 2, 3))
    if len(low) == 3 and len({_rank(c) for c in low}) == 1:
        return 3
    if len(low) == 3 and len({_suit(c) for c in low}) == 1:
        return 4
    pairs = sum(1 for a, b in itertools.combinations(low, 2) if _rank(a) == _rank(b) or _suit(a) == _suit(b))
    return min(pairs, 2 if hybrids else 1)


def tuzzoli(hand: Iterable[Any], **options: Any) -> tuple[str, int]:
    """The mandatory tuzzoli declaration of a hand: its name and points (TV-67)::

    >>> tuzzoli(["Ad", "2d", "3d"])
    ('napoli', 7)
    """
    opts = resolve_options(**options)
    if isinstance(hand, (str, bytes)) or not isinstance(hand, Iterable):
        raise InvalidNotationError(f"{hand!r} is not a list of cards")
    cards = [_pack_card(c, deck=opts["deck"]) for c in hand]
    if len(set(cards)) != len(cards):
        raise InvalidStateError("a card appears more than once in the hand")
    return TUZZOLI[_tuzzoli_kind(cards, opts["tuzzoli_hybrids"])]


#: Knock declarations (docs/rules/escoba.md §2.7) continue the tuzzoli kinds: 5 cirulla, 6 decino, 7 both.
KNOCKS = {5: "cirulla", 6: "decino", 7: "cirulla_decino"}


def _knock_points(kind: int, opts: dict) -> int:
    k = opts["knocks"]
    return {5: k.get("cirulla", 0), 6: k.get("decino", 0), 7: k.get("cirulla", 0) + k.get("decino", 0)}.get(kind, 0)


def _decl(kind: int, opts: dict) -> tuple[str, int]:
    """Name and points of any hand declaration kind (tuzzoli 1..4, knocks 5..7)."""
    if kind in TUZZOLI:
        return TUZZOLI[kind]
    return KNOCKS[kind], _knock_points(kind, opts)


def _knock_kind(values: Sequence[int], opts: dict) -> int:
    """Cirulla: three cards worth at most 9; decino: three of one value (= one rank). Both: the
    one worth more (decino on equal points), or both with ``knocks_cumulative``."""
    k = opts["knocks"]
    low = "cirulla" in k and sum(values) <= 9
    three = "decino" in k and len(set(values)) == 1
    if low and three:
        if opts["knocks_cumulative"]:
            return 7
        return 5 if k["cirulla"] > k["decino"] else 6
    return 6 if three else 5 if low else 0


def _knock_best(hand: Iterable[int], opts: dict) -> tuple[int, int]:
    """(kind, matta value): the hand's best knock; a matta in it takes the value 1..10 worth the
    most points, the highest such value on a tie (its natural value when nothing qualifies)."""
    hand = sorted(hand)
    m = card_id(opts["matta"]) if opts["matta"] is not None else None
    natural = card_value(m) if m is not None else 0
    if len(hand) != 3 or not opts["knocks"]:
        return 0, natural
    if m not in hand:
        return _knock_kind([card_value(c) for c in hand], opts), natural
    others = [card_value(c) for c in hand if c != m]
    best, value, points = 0, natural, 0
    for v in range(1, 11):
        kind = _knock_kind(others + [v], opts)
        if kind and _knock_points(kind, opts) >= points:
            best, value, points = kind, v, _knock_points(kind, opts)
    return best, value


def knock(hand: Iterable[Any], **options: Any) -> tuple[str, int, int | None]:
    """What a hand may declare by knocking (docs/rules/escoba.md §2.7, TV-56): the name, the points and the
    value the matta takes (None without a matta in the hand)::

        >>> knock(["7h", "2c", "2d"], variant="cirulla")
        ('decino', 10, 2)
    """
    opts = resolve_options(**options)
    if isinstance(hand, (str, bytes)) or not isinstance(hand, Iterable):
        raise InvalidNotationError(f"{hand!r} is not a list of cards")
    cards = [_pack_card(c, deck=opts["deck"]) for c in hand]
    if len(set(cards)) != len(cards):
        raise InvalidStateError("a card appears more than once in the hand")
    kind, value = _knock_best(cards, opts)
    has_matta = opts["matta"] is not None and card_id(opts["matta"]) in cards
    if not kind:
        return "none", 0, None
    return KNOCKS[kind], _knock_points(kind, opts), value if has_matta else None


def _deal_awards(
    piles: Sequence[Iterable[int]],
    sweeps: Sequence[int],
    opts: dict,
    declared: Sequence[tuple[int, int, int]] = (),
    ks_sweeps: Iterable[int] = (),
) -> list[list[int]]:
    """The awards of a deal in count-out order, each a list of points per side. Awards that give
    nobody any point are left out. ``declared`` lists hand declarations as (side, points, at),
    ``at`` = the number of sweeps made before it. ``ks_sweeps``: the indices in ``sweeps`` of
    the sweeps made by playing ``Ks`` (docs/rules/escoba.md §2.18)."""
    ks_at = set(ks_sweeps) if opts["maresciallo_penalty"] else set()
    piles = [set(p) for p in piles]
    n = len(piles)
    sides = list(range(n))
    awards: list[list[int]] = []

    def give(winners: Iterable[int], points: int) -> None:
        vec = [0] * n
        for s in winners:
            vec[s] += points
        if any(vec):
            awards.append(vec)

    if opts["scoring"] == "frac":
        # docs/rules/escoba.md §2.16: one point per A, J, Q, K held; the sweeps only with frac_counts_scope
        vec = [sum(1 for c in piles[s] if _rank(c) in (1, 11, 12, 13)) for s in sides]
        if any(vec):
            awards.append(vec)
        if opts["frac_counts_scope"]:
            for s in sweeps:
                give([s], opts["scopa_value"])
        return awards

    count = [len(list(p)) for p in piles]
    coins = [sum(1 for c in p if _suit(c) == COINS) for p in piles]
    all_coins = len(pack_of(opts["deck"])) // 4
    sevens = [sum(1 for c in p if _rank(c) == 7) for p in piles]

    # 1-3. Most cards, most coins, the settebello.
    top_count = [s for s in sides if count[s] == max(count)]
    if opts["cards_tie_points"] is not None and len(top_count) > 1:
        give(top_count, opts["cards_tie_points"])  # docs/rules/escoba.md §2.24: 26-26 gives 1 each
    else:
        give(_most(count, sides, opts), opts["cards"])
    give(_most(coins, sides, opts), opts["coins"])
    give([s for s in sides if SETTEBELLO in piles[s]], opts["settebello"])

    # 4. Primiera.
    mode = opts["primiera_mode"]
    if mode in ("standard", "veneto"):
        values = _PRIMIERA_VALUES[mode]
        totals, eligible = [], []
        for s in sides:
            best = [0, 0, 0, 0]
            held = [False] * 4
            for c in piles[s]:
                if _rank(c) not in values:
                    continue  # the 8, 9, 10 of a 52-card pack have no primiera value
                held[_suit(c)] = True
                best[_suit(c)] = max(best[_suit(c)], values[_rank(c)])
            totals.append(sum(best))
            if all(held) or not opts["primiera_requires_all_suits"]:
                eligible.append(s)
        give(_most(totals, eligible, opts), opts["primiera"])
    elif mode == "milan":
        candidates = sides
        winners: list[int] = []
        for ch in opts["milan_tiebreak"]:
            r = _RANK_OF_CHAR[ch]
            copies = [sum(1 for c in p if _rank(c) == r) for p in piles]
            most = max(copies[s] for s in candidates)
            candidates = [s for s in candidates if copies[s] == most]
            if len(candidates) == 1:
                winners = candidates
                break
        else:
            winners = candidates if opts["category_tie_policy"] == "all_tied" else []
        give(winners, opts["primiera"])
    elif mode == "three_sevens":
        give([s for s in sides if sevens[s] >= 3], opts["primiera"])

    # 5. Settanta: all four sevens.
    if opts["settanta_bonus"]:
        give([s for s in sides if sevens[s] == 4], 1)
    # 6. Points per coin card.
    if opts["coin_card_points"]:
        vec = [opts["coin_card_points"] * coins[s] for s in sides]
        if any(vec):
            awards.append(vec)
    # 7. Special cards (re bello adds Kd: 1), in ascending card order.
    special = {card_id(k): v for k, v in opts["special_cards"].items()}
    if opts["re_bello"]:
        special.setdefault(RE_BELLO, 1)
    for c in sorted(special):
        give([s for s in sides if c in piles[s]], special[c])
    # 8. Napola: the unbroken run of coins from the Ace, if at least A-2-3.
    if opts["napola"]:
        vec = [0] * n
        for s in sides:
            run = 0
            while run < len(_NAPOLA_RUN) and _NAPOLA_RUN[run] in piles[s]:
                run += 1
            vec[s] = (run if opts["napola_flat"] is None else opts["napola_flat"]) if run >= 3 else 0
        if any(vec):
            awards.append(vec)
    # 9. Escoba bonuses.
    give([s for s in sides if sevens[s] == 4], opts["all_sevens_bonus"])
    give([s for s in sides if coins[s] == all_coins], opts["all_oros_bonus"])
    # 9a. Piccola: the coin run from the Ace, if at least A-2-3, capped at piccola_max.
    if opts["piccola"]:
        for s in sides:
            run = 0
            while run < len(_NAPOLA_RUN) and _NAPOLA_RUN[run] in piles[s]:
                run += 1
            run = min(run, opts["piccola_max"])
            give([s], run if run >= 3 else 0)
    # 9b. Grande: J-Q-K of coins; with grande_extends +1 per coin of the unbroken run 7, 6, ... down.
    if opts["grande"]:
        for s in sides:
            if all(13 * COINS + r - 1 in piles[s] for r in (11, 12, 13)):
                more = 0
                if opts["grande_extends"]:
                    while more < 7 and 13 * COINS + 7 - more - 1 in piles[s]:
                        more += 1
                give([s], opts["grande"] + more)
    # 9c. Maresciallo (docs/rules/escoba.md §2.18): -1 for holding Ks (under ``total`` not for a side whose Ks
    # sweep already cost -4), +1 polacca (its card with 7d), -1 saponaro (its card with Ks).
    if opts["maresciallo_penalty"]:
        swept = {sweeps[i] for i in ks_at}
        total_mode = opts["maresciallo_sweep"] == "total"
        give([s for s in sides if MARESCIALLO in piles[s] and not (total_mode and s in swept)], -1)
    if opts["polacca"]:
        give([s for s in sides if card_id(opts["polacca_card"]) in piles[s] and SETTEBELLO in piles[s]], 1)
    if opts["saponaro"]:
        give([s for s in sides if card_id(opts["saponaro_card"]) in piles[s] and MARESCIALLO in piles[s]], -1)
    # 9d. Cicera (docs/rules/escoba.md §2.24): the most swords, then the sword napula (the numeral run A 2 3 ...
    # 10 from the Ace, if at least A-2-3: J, Q, K have no value).
    swords = [sum(1 for c in p if _suit(c) == SWORDS) for p in piles]
    if opts["swords"]:
        give(_most(swords, sides, opts), opts["swords"])
    if opts["sword_napula"]:
        for s in sides:
            run = 0
            while run < 10 and 13 * SWORDS + run in piles[s]:
                run += 1
            give([s], run if run >= 3 else 0)
    # 10. The sweeps in the order they were made, each hand declaration at the moment it was made.
    pending_decls = list(declared)
    for i, s in enumerate(sweeps):
        while pending_decls and pending_decls[0][2] <= i:
            side, points, _ = pending_decls.pop(0)
            give([side], points)
        give([s], KS_SWEEP_POINTS if i in ks_at else opts["scopa_value"])
    for side, points, _ in pending_decls:
        give([side], points)
    return awards


def score_deal(
    piles: Sequence[Iterable[Any]],
    scope: Sequence[int],
    declared: Sequence[int] | None = None,
    ks_sweeps: Sequence[int] | None = None,
    twin_sweeps: Sequence[int] | None = None,
    ks_on_ks: int | None = None,
    **options: Any,
) -> list[int]:
    """Points per side for a finished deal: ``piles`` one card list per side, ``scope`` the
    sweeps per side. In TV-26 side A (22 cards, 7 coins, the settebello, primiera 81 against 72,
    one scopa) against B (two scope) scores ``[5, 2]``.

    ``declared``: hand-declaration points per side; ``ks_sweeps``: per side, how many of its
    sweeps were made by playing ``Ks``. With the double pack (docs/escoba_engine.md §1a) a pile lists a twin
    twice, ``twin_sweeps`` counts per side the sweeps that took the played card's twin, and
    ``ks_on_ks`` names the side (if any) whose ``Ks`` took the other ``Ks`` alone on the table;
    that sweep counts in both its ``ks_sweeps`` and its ``twin_sweeps``.
    """
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
    total = [0] * len(piles)
    if copies == 2:
        twin_at = [
            i for i, s in enumerate(sweeps) if (both[s] and nth[i] == 0) or ks[s] <= nth[i] < ks[s] + twins[s] - both[s]
        ]
        ks_kept = ks_at if opts["maresciallo_penalty"] else []  # recorded only with the penalty
        vecs = twin_deal_awards(piles, sweeps, opts, ks_kept, twin_at) + [[k for _, k, _ in decls]] * bool(decls)
    else:
        vecs = _deal_awards(piles, sweeps, opts, decls, ks_at)
    for vec in vecs:
        total = [a + b for a, b in zip(total, vec)]
    return total
