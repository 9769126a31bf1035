"""La Mosca, native engine: ``tapete.Mosca`` and the rule primitives.

Rules: docs/rules/mosca.md; engine contract: docs/mosca_engine.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from . import _core
from ._native import NativeGame, setup_like
from .cards import CardLike
from .reference import mosca as _reference
from .reference.mosca import NUM_DISTINCT_ACTIONS

__all__ = ["Mosca", "MoscaState", "legal_cards", "trick_winner", "mosca_winner", "NUM_DISTINCT_ACTIONS"]

MoscaState = _core.MoscaState


class Mosca(NativeGame[MoscaState]):
    """La Mosca (La Mouche): ``Mosca(players=5, **options)``; options in docs/mosca_engine.md §2."""

    name = "mosca"
    _core_class = _core.MoscaGame

    setup = setup_like(_reference.Mosca.setup, MoscaState)


def legal_cards(hand: Iterable[CardLike], trick: Iterable[CardLike], trump: str, **options: Any) -> list[str]:
    """The cards of ``hand`` the player to act may play, ``trick`` being the cards already played
    to this trick in order (docs/rules/mosca.md §4.3); ascending card text."""
    return Mosca._primitive("legal_cards", options, hand=hand, trick=trick, trump=trump)  # type: ignore[no-any-return]


def trick_winner(trick: Iterable[CardLike], trump: str, **options: Any) -> int:
    """The index in ``trick`` of the winning card (docs/rules/mosca.md §4.4)."""
    return Mosca._primitive("trick_winner", options, trick=trick, trump=trump)  # type: ignore[no-any-return]


def mosca_winner(hands: Sequence[Iterable[CardLike]], trump: str, **options: Any) -> list[int]:
    """The indexes of ``hands`` that take the pot on a mosca (docs/rules/mosca.md §5.1); ``[]`` when
    none. Under ``mosca_tie="eldest_wins"`` the list order is the order from the mano."""
    return Mosca._primitive("mosca_winner", options, hands=hands, trump=trump)  # type: ignore[no-any-return]
