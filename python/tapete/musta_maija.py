"""Musta Maija, native engine: ``tapete.MustaMaija`` and the rule primitives.

Rules: docs/rules/musta_maija.md; engine contract: docs/musta_maija_engine.md.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from . import _core
from ._native import NativeGame, seed_value, setup_like
from .cards import CardLike
from .reference import musta_maija as _reference
from .reference.musta_maija import NUM_DISTINCT_ACTIONS

__all__ = ["MustaMaija", "MustaMaijaState", "can_beat", "legal_attacks", "trump_from_stock", "NUM_DISTINCT_ACTIONS"]

MustaMaijaState = _core.MustaMaijaState


class MustaMaija(NativeGame[MustaMaijaState]):
    """Musta Maija (Black Maria): ``MustaMaija(players=4, **options)``; ``variant="pagat"`` turns
    the trump card after the first lead."""

    name = "musta_maija"
    _core_class = _core.MustaMaijaGame

    setup = setup_like(_reference.MustaMaija.setup, MustaMaijaState)


def can_beat(attack_card: CardLike, defence_card: CardLike, trump: str | int | None, **options: Any) -> bool:
    """May ``defence_card`` beat ``attack_card`` with trump suit ``trump`` (``c d h s``, 0..3 or None)?"""
    return bool(
        MustaMaija._primitive("can_beat", options, attack_card=attack_card, defence_card=defence_card, trump=trump)
    )


def legal_attacks(hand: Iterable[CardLike], defender_hand_size: int, **options: Any) -> list[list[str]]:
    """Every legal attack set from ``hand`` against a defender holding ``defender_hand_size`` cards."""
    return MustaMaija._primitive(  # type: ignore[no-any-return]
        "legal_attacks", options, hand=hand, defender_hand_size=defender_hand_size
    )


def trump_from_stock(stock: Iterable[CardLike], seed: int = 0, **options: Any) -> tuple[str, list[str]]:
    """Trump determination (docs/rules/musta_maija.md §2 step 3) on ``stock`` listed top first:
    ``(trump_card, new_stock)``. ``seed`` seeds the SplitMix64 stream used by
    ``spade_reinsert=random_position``."""
    trump, new_stock = MustaMaija._primitive("trump_from_stock", options, stock=stock, seed=seed_value(seed))
    return trump, new_stock
