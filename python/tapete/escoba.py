"""Escoba / Scopa, native engine: ``tapete.Escoba`` and the rule primitives.

Rules: ``rules/escoba.md``; engine contract: ``docs/escoba_engine.md``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from . import _core
from ._native import NativeGame, setup_like
from .cards import CardLike
from .reference import escoba as _reference
from .reference.escoba import NUM_DISTINCT_ACTIONS

__all__ = ["Escoba", "EscobaState", "capture_options", "score_deal", "tuzzoli", "knock", "NUM_DISTINCT_ACTIONS"]

EscobaState = _core.EscobaState


class Escoba(NativeGame[EscobaState]):
    """The Escoba/Scopa family: ``Escoba(variant="escoba", players=4, **options)``."""

    name = "escoba"
    _core_class = _core.EscobaGame

    @property
    def num_sides(self) -> int:
        """Scoring sides: two teams with ``partnership=auto`` and 4 or 6 players, else one per seat."""
        players = int(self.options["players"])
        return 2 if self.options["partnership"] == "auto" and players in (4, 6) else players

    setup = setup_like(_reference.Escoba.setup, EscobaState)


def capture_options(
    card: CardLike,
    table: Iterable[CardLike],
    pile_tops: Sequence[CardLike | None] | None = None,
    seat: int = 0,
    table_builds: Sequence[Iterable[CardLike]] | None = None,
    hand: Iterable[CardLike] | None = None,
    **options: Any,
) -> list[list[str]]:
    """Every legal outcome of playing ``card`` onto ``table``: ascending card lists, ``[]`` = trail.

    With ``steal`` (rubamazzo), ``pile_tops`` gives each side's pile top (None: empty) and
    ``seat`` the player; an opponent's pile taken is the item ``"pile<side>"``, after the cards.
    With option ``builds``: ``table_builds`` lists the builds beside the loose ``table`` cards and
    ``hand`` the other cards held; a capture names a build by its lowest card, and each build
    move ``["on", item]`` follows the sorted outcomes (docs/escoba_engine.md §7). With the double
    pack (``maresciallo_80``) a twin may be listed twice, and an outcome that takes both copies
    lists the id twice."""
    return Escoba._primitive(  # type: ignore[no-any-return]
        "capture_options",
        options,
        card=card,
        table=table,
        pile_tops=pile_tops,
        seat=seat,
        table_builds=table_builds,
        hand=hand,
    )


def score_deal(
    piles: Sequence[Iterable[CardLike]],
    scope: Sequence[int],
    declared: Sequence[int] | None = None,
    ks_sweeps: Sequence[int] | None = None,
    twin_sweeps: Sequence[int] | None = None,
    ks_on_ks: int | None = None,
    **options: Any,
) -> list[int]:
    """Points per side for one finished deal, from each side's captured cards and sweep count;
    ``declared``: hand-declaration points per side (tuzzoli), added before the sweeps;
    ``ks_sweeps``: per side, how many of its ``scope`` were made by playing ``Ks`` (maresciallo).
    With the double pack (``maresciallo_80``) a pile lists a twin twice, ``twin_sweeps`` counts per
    side the sweeps that took the played card's twin, and ``ks_on_ks`` names the side whose ``Ks``
    took the other ``Ks`` alone on the table, a sweep counted in both of its lists."""
    return Escoba._primitive(  # type: ignore[no-any-return]
        "score_deal",
        options,
        piles=piles,
        scope=scope,
        declared=declared,
        ks_sweeps=ks_sweeps,
        twin_sweeps=twin_sweeps,
        ks_on_ks=ks_on_ks,
    )


def tuzzoli(hand: Iterable[CardLike], **options: Any) -> tuple[str, int]:
    """The mandatory tuzzoli declaration of a hand (docs/rules/escoba.md §2.8): its name and points."""
    name, points = Escoba._primitive("tuzzoli", options, hand=hand)
    return name, points


def knock(hand: Iterable[CardLike], **options: Any) -> tuple[str, int, int | None]:
    """What a hand may declare by knocking (docs/rules/escoba.md §2.7): its name (``none``, ``cirulla``,
    ``decino``, ``cirulla_decino``), its points, and the value the matta takes (None when the hand
    holds no matta or declares nothing)."""
    name, points, value = Escoba._primitive("knock", options, hand=hand)
    return name, points, value
