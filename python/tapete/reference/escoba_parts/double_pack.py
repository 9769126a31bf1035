"""The 80-card double pack of ``maresciallo_80`` (docs/rules/escoba.md §2.18;
docs/escoba_engine.md §1a): hands, table and piles are multisets; a sweep that takes the played
card's twin scores 3 (``Ks`` onto ``Ks`` +10), and which sweeps they were is public."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from ...cards import card_id
from .._base import StateFields
from .captures import _captures
from .cards import _NAPOLA_RUN, KS_SWEEP_POINTS, MARESCIALLO, SETTEBELLO
from .maresciallo import SweepRecord
from .options import supported_by_twins
from .position import Position

#: What a sweep taking the played card's twin scores, and ``Ks`` onto the other ``Ks`` alone.
TWIN_SWEEP_POINTS = 3
KS_ON_KS_POINTS = 10


def captures(card: int, table: Iterable[int], opts: dict) -> dict[tuple[int, ...], bool]:
    """``Captures(p, T)`` on a multiset table: each distinct capture once (captures that differ
    only in which copy is taken are one move), as an ascending tuple, mapped to its scopa flag."""
    return _captures(card, table, opts, twins=True)


def sweep_points(card: int, twin: bool, opts: dict) -> int:
    """What a sweep made by playing ``card`` scores; ``twin``: it took the card's twin. With
    ``maresciallo_penalty`` ``Ks`` onto the other ``Ks`` +10 and any other ``Ks`` sweep -4; else a
    twin sweep 3 and any other ``scopa_value``."""
    return sweep_value(opts, bool(opts["maresciallo_penalty"]) and card == MARESCIALLO, twin)


def sweep_value(opts: dict, ks: bool, twin: bool) -> int:
    """One sweep's points from its records: ``Ks`` on ``Ks`` +10, another ``Ks`` sweep -4 (both
    recorded only with ``maresciallo_penalty``), a twin sweep 3, else ``scopa_value``."""
    if ks:
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


class DoublePack(SweepRecord):
    """``twin_sweeps``: the ascending indices in ``sweeps`` of the sweeps that took the played
    card's twin."""

    fields = ("_twin_sweeps",)
    keys = ("twin_sweeps",)
    refusing = "deck=double_italian80 (docs/rules/escoba.md §2.18, docs/escoba_engine.md §1a)"

    @classmethod
    def clashes(cls, opts: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
        """What the double pack refuses (docs/escoba_engine.md §1a): what its capture search does not
        cover, the mechanics defined for one pack, and the awards that read one copy per id."""
        return (
            (
                "capture_kinds other than match/sum, value_modulus, matta, fewest_cards, steal",
                not supported_by_twins(opts),
            ),
            ("players other than 4", opts["players"] != 4),
            ("builds", opts["builds"]),
            ("fidasse", opts["fidasse"]),
            ("tuzzoli", opts["tuzzoli"]),
            ("knocks", bool(opts["knocks"])),
            ("last_hand_open", opts["last_hand_open"]),
            ("target_mode=eliminate", opts["target_mode"] == "eliminate"),
            ("initial_table_bonus", opts["initial_table_bonus"] != "none"),
            ("court_capture=same_rank", opts["court_capture"] != "value"),
            ("capture_obligation", opts["capture_obligation"] not in ("played_card", "optional")),
            ("forbid_ace_first_play", opts["forbid_ace_first_play"]),
            ("scoring=frac", opts["scoring"] != "standard"),
            ("primiera_mode milan or three_sevens", opts["primiera_mode"] in ("milan", "three_sevens")),
            ("settanta_bonus", opts["settanta_bonus"]),
            ("all_sevens_bonus, all_oros_bonus", bool(opts["all_sevens_bonus"] or opts["all_oros_bonus"])),
            ("coin_card_points", opts["coin_card_points"] != 0),
            ("special_cards, re_bello", bool(opts["special_cards"]) or opts["re_bello"]),
            ("napola_all_coins_wins", opts["napola_all_coins_wins"]),
            ("piccola, grande", opts["piccola"] or opts["grande"] != 0),
            (
                "swords, sword_napula, all_swords_wins",
                bool(opts["swords"] or opts["sword_napula"] or opts["all_swords_wins"]),
            ),
            ("cards_tie_points", opts["cards_tie_points"] is not None),
            (
                "void_deal_min_kings, void_deal_min_aces",
                opts["void_deal_min_kings"] is not None or opts["void_deal_min_aces"] is not None,
            ),
        )

    @classmethod
    def wanted(cls, opts: dict[str, Any]) -> bool:
        return bool(opts["deck"] == "double_italian80")

    def on_sweep(self, state: Position, side: int, card: int, twin: bool) -> None:
        if twin:
            state._twin_sweeps.append(len(state._sweeps))

    def check(self, state: Position, d: StateFields, indices: list[int]) -> None:
        if any(a >= b for a, b in zip(indices, indices[1:])):
            raise d.bad("twin_sweeps must be strictly ascending")
