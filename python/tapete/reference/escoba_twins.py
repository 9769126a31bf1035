"""The 80-card double pack of ``maresciallo_80`` (docs/rules/escoba.md §2.18), reference side.

The two copies of a card share its id, so hands, table and piles are multisets: here ascending
lists in which a twin appears twice. This module holds what differs from the single pack: the
pack order, the capture search with the twin rule, the sweep values and the doubled scoring.
The native counterpart is ``rust/tapete-core/src/games/escoba/twins.rs``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from ..cards import card_id
from .escoba_parts.captures import _captures
from .escoba_parts.cards import (
    _NAPOLA_RUN,
    _PRIMIERA_VALUES,
    COINS,
    KS_SWEEP_POINTS,
    MARESCIALLO,
    PACK,
    SETTEBELLO,
    _rank,
    _suit,
)
from .escoba_parts.most import _most

#: What a sweep taking the played card's twin scores, and ``Ks`` onto the other ``Ks`` alone.
TWIN_SWEEP_POINTS = 3
KS_ON_KS_POINTS = 10

#: The unshuffled 80-card pack: ascending ids, the two copies adjacent (docs/design.md §5, as for tiles).
PACK80: tuple[int, ...] = tuple(c for c in PACK for _ in range(2))


def supported(opts: dict) -> bool:
    """Whether the twin capture search covers these options: kinds ``match`` and ``sum`` only,
    natural values, no fewest-cards filter, no piles (the native search covers the same)."""
    return (
        set(opts["capture_kinds"]) <= {"match", "sum"}
        and opts["value_modulus"] is None
        and opts["matta"] is None
        and opts["fewest_cards"] == "none"
        and not opts["steal"]
    )


def captures(card: int, table: Iterable[int], opts: dict) -> dict[tuple[int, ...], bool]:
    """``Captures(p, T)`` on a multiset table: each distinct capture once (captures that differ
    only in which copy is taken are one move), as an ascending tuple, mapped to its scopa flag."""
    return _captures(card, table, opts, twins=True)


def sweep_points(card: int, twin: bool, opts: dict) -> int:
    """What a sweep made by playing ``card`` scores; ``twin``: it took the card's twin. With
    ``maresciallo_penalty`` ``Ks`` onto the other ``Ks`` +10 and any other ``Ks`` sweep -4; else a
    twin sweep 3 and any other ``scopa_value``."""
    if opts["maresciallo_penalty"] and card == MARESCIALLO:
        return KS_ON_KS_POINTS if twin else KS_SWEEP_POINTS
    return TWIN_SWEEP_POINTS if twin else opts["scopa_value"]


def _run(held: Counter, copies: int) -> int:
    run = 0
    while run < len(_NAPOLA_RUN) and held[_NAPOLA_RUN[run]] >= copies:
        run += 1
    return run


def napola_points(pile: Iterable[int], flat: int | None = None) -> int:
    """The double napola: run ``L1`` over the first copies of the coins, ``L2`` needs both copies;
    ``(L1 if L1 >= 3) + (L2 if L2 >= 3)``; with ``flat`` (option ``napola_flat``) each run of at
    least 3 scores ``flat`` instead of its length."""
    held = Counter(pile)
    return sum(run if flat is None else flat for run in (_run(held, 1), _run(held, 2)) if run >= 3)


def tally(pile: Iterable[int], opts: dict) -> tuple[int, int, int, int | None]:
    """(cards, coins, settebelli, primiera) of one pile over the 80 cards: each ``7d`` copy is a
    settebello point; the primiera uses the best card per suit (None when a suit is missing and
    ``primiera_requires_all_suits``)."""
    pile = list(pile)
    primiera = None
    if opts["primiera_mode"] != "none":  # the double pack allows standard, veneto or none
        values = _PRIMIERA_VALUES[opts["primiera_mode"]]
        best: dict[int, int] = {}
        for c in pile:
            best[_suit(c)] = max(best.get(_suit(c), 0), values[_rank(c)])
        primiera = None if len(best) < 4 and opts["primiera_requires_all_suits"] else sum(best.values())
    coins = sum(1 for c in pile if _suit(c) == COINS)
    return len(pile), coins, pile.count(SETTEBELLO), primiera


def awards(piles: Sequence[Iterable[int]], opts: dict, ks_minus4: Sequence[int]) -> list[tuple[int, int]]:
    """The doubled maresciallo awards as (side, points), in the order maresciallo, polacca,
    saponaro: -1 per ``Ks`` copy held, +1 per polacca pair, -1 per saponaro pair. ``ks_minus4[s]``
    counts side s's -4 ``Ks`` sweeps; under ``maresciallo_sweep=total`` each replaces the -1 of one
    copy held."""
    held = [Counter(p) for p in piles]
    out: list[tuple[int, int]] = []
    if opts["maresciallo_penalty"]:
        for s, h in enumerate(held):
            k = h[MARESCIALLO]
            if opts["maresciallo_sweep"] == "total":
                k = max(0, k - ks_minus4[s])
            if k:
                out.append((s, -k))
    for on, card, partner, sign in (
        ("polacca", "polacca_card", SETTEBELLO, 1),
        ("saponaro", "saponaro_card", MARESCIALLO, -1),
    ):
        if opts[on]:
            for s, h in enumerate(held):
                k = min(h[card_id(opts[card])], h[partner])
                if k:
                    out.append((s, sign * k))
    return out


def deal_awards(
    piles: Sequence[Iterable[int]],
    sweeps: Sequence[int],
    opts: dict,
    ks_sweeps: Iterable[int] = (),
    twin_sweeps: Iterable[int] = (),
) -> list[list[int]]:
    """The awards of a deal on the double pack in count-out order (docs/escoba_engine.md §1a, §7), each a list
    of points per side, those giving nobody a point left out: cards, coins, settebello (per
    ``7d`` copy), primiera, double napola, the doubled maresciallo awards, then the sweeps in the
    order made (``ks_sweeps`` / ``twin_sweeps``: indices in ``sweeps``)."""
    piles = [list(p) for p in piles]
    n = len(piles)
    sides = list(range(n))
    ks_at, twin_at = set(ks_sweeps), set(twin_sweeps)
    out: list[list[int]] = []

    def give(vec: list[int]) -> None:
        if any(vec):
            out.append(vec)

    def to(winners: Iterable[int], points: int) -> None:
        vec = [0] * n
        for s in winners:
            vec[s] += points
        give(vec)

    t = [tally(p, opts) for p in piles]
    to(_most([x[0] for x in t], sides, opts), opts["cards"])
    to(_most([x[1] for x in t], sides, opts), opts["coins"])
    give([opts["settebello"] * x[2] for x in t])
    if opts["primiera_mode"] != "none":
        eligible = [s for s in sides if t[s][3] is not None]
        to(_most([x[3] or 0 for x in t], eligible, opts), opts["primiera"])
    if opts["napola"]:
        for s, p in enumerate(piles):
            to([s], napola_points(p, opts["napola_flat"]))
    ks_minus4 = [0] * n
    for i in ks_at - twin_at:
        ks_minus4[sweeps[i]] += 1
    for s, pts in awards(piles, opts, ks_minus4):
        to([s], pts)
    for i, s in enumerate(sweeps):
        to([s], sweep_value(opts, i in ks_at, i in twin_at))
    return out


def sweep_value(opts: dict, ks: bool, twin: bool) -> int:
    """One sweep's points from its records: ``Ks`` on ``Ks`` +10, another ``Ks`` sweep -4 (both
    recorded only with ``maresciallo_penalty``), a twin sweep 3, else ``scopa_value``."""
    if ks:
        return KS_ON_KS_POINTS if twin else KS_SWEEP_POINTS
    return TWIN_SWEEP_POINTS if twin else opts["scopa_value"]
