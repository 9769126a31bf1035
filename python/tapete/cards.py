"""Card ids and card text, shared by every card game (docs/design.md §4).

id = 13 * suit + (rank - 1); suits c=0, d=1, h=2, s=3; ranks A=1 .. 10, J=11, Q=12, K=13.
Text is a rank char from ``A23456789TJQK`` and a suit char from ``cdhs``; parsing also accepts
``10`` for the ten, lower-case ranks and upper-case suits.
"""

from __future__ import annotations

from collections.abc import Iterable

from .errors import InvalidNotationError, shown

__all__ = ["RANKS", "SUITS", "card_id", "card_str", "card_ids", "card_strs", "rank_of", "suit_of"]

RANKS = "A23456789TJQK"
SUITS = "cdhs"

CardLike = int | str


def rank_of(card: CardLike) -> int:
    """Rank 1..13 of a card (id or text)."""
    return card_id(card) % 13 + 1


def suit_of(card: CardLike) -> int:
    """Suit 0..3 (c, d, h, s) of a card (id or text)."""
    return card_id(card) // 13


def card_str(card: int) -> str:
    """Text of a card id, e.g. ``19 -> '7d'``."""
    if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < 52:
        raise InvalidNotationError(f"card id {shown(card)} is out of range: expected an int in 0..51")
    return RANKS[card % 13] + SUITS[card // 13]


def card_id(card: CardLike) -> int:
    """Id of a card given as id or text (``'7d'``, ``'10h'``, ``'QS'``)."""
    if isinstance(card, bool):
        raise InvalidNotationError(f"{shown(card)} is not a card: expected text like '7d' or an id 0..51")
    if isinstance(card, int):
        if 0 <= card < 52:
            return card
        raise InvalidNotationError(f"card id {card} is out of range: expected 0..51")
    if not isinstance(card, str):
        raise InvalidNotationError(f"{shown(card)} is not a card: expected text like '7d' or an id 0..51")
    text = card.strip()
    rank_text, suit_text = text[:-1], text[-1:].lower()
    rank_text = "T" if rank_text == "10" else rank_text.upper()
    if len(rank_text) != 1 or rank_text not in RANKS or suit_text not in SUITS or not suit_text:
        raise InvalidNotationError(
            f"{shown(card)} is not a card: expected a rank from {RANKS} (or 10) and a suit from {SUITS}, e.g. '7d'"
        )
    return SUITS.index(suit_text) * 13 + RANKS.index(rank_text)


def card_ids(cards: Iterable[CardLike]) -> list[int]:
    """Ids of several cards, in the order given."""
    if isinstance(cards, (str, bytes)) or not isinstance(cards, Iterable):
        raise InvalidNotationError(f"{shown(cards)} is not a list of cards")
    return [card_id(c) for c in cards]


def card_strs(cards: Iterable[int]) -> list[str]:
    """Text of several card ids, in the order given."""
    if isinstance(cards, (str, bytes)) or not isinstance(cards, Iterable):
        raise InvalidNotationError(f"{shown(cards)} is not a list of card ids")
    return [card_str(c) for c in cards]
