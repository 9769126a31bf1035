"""La Mosca, native engine: ``tapete.Mosca`` and the rule primitives.

The game object is a thin typed front over ``tapete._core.MoscaGame``; states are the native
``MoscaState`` objects themselves, so that stepping from Python costs one call per action.
Rules: ``rules/mosca.md``; engine contract: ``docs/mosca_engine.md``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from . import _core
from ._gamestring import format_game, options_to_json
from ._setup import seed_value, setup_json
from .cards import SUITS, card_id
from .errors import InvalidNotationError, InvalidStateError

__all__ = ["Mosca", "MoscaState", "legal_cards", "trick_winner", "mosca_winner", "NUM_DISTINCT_ACTIONS"]

MoscaState = _core.MoscaState
CardLike = int | str
NUM_DISTINCT_ACTIONS = 91


class Mosca:
    """La Mosca (La Mouche): ``Mosca(players=5, **options)``; options in docs/mosca_engine.md §2."""

    name = "mosca"

    def __init__(self, **options: Any) -> None:
        self._game = _core.MoscaGame(options_to_json(options))
        self.options: dict[str, Any] = json.loads(self._game.options_json)

    @property
    def num_players(self) -> int:
        return self._game.num_players

    @property
    def num_distinct_actions(self) -> int:
        return self._game.num_distinct_actions

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return tuple(self._game.observation_shape)

    def new_state(self, seed: int = 0, deck: Sequence[CardLike] | None = None) -> MoscaState:
        """Deal a new match with the seeded RNG; ``deck`` fixes the first deal's order (top first)."""
        seed = seed_value(seed, InvalidStateError)
        if deck is None:
            return self._game.new_state(seed)
        return self._game.new_state(seed, _ids(deck, "deck", InvalidStateError, InvalidStateError))

    def setup(
        self,
        hands: Sequence[Iterable[CardLike]],
        turnup: CardLike,
        talon: Iterable[CardLike] | None = None,
        dealer: int = 0,
        balances: Sequence[int] | None = None,
        pot: int = 0,
        deals_played: int = 0,
        seed: int = 0,
    ) -> MoscaState:
        """The start of a deal from given hands and turn-up (docs/mosca_engine.md §9)."""
        spec = setup_json(
            hands=hands,
            turnup=turnup,
            talon=talon,
            dealer=dealer,
            balances=balances,
            pot=pot,
            deals_played=deals_played,
            seed=seed,
        )
        return self._game.setup(spec)

    def state_from_json(self, text: str) -> MoscaState:
        """Rebuild a state from ``state.to_json()``."""
        if not isinstance(text, str):
            raise InvalidStateError(f"a state is JSON text, not {type(text).__name__}")
        return self._game.state_from_json(text)

    def __str__(self) -> str:
        return format_game(self.name, self.options, Mosca)

    def __repr__(self) -> str:
        return f"tapete.load({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Mosca) and other.options == self.options

    def __hash__(self) -> int:
        return hash(self._game.options_json)


def legal_cards(hand: Iterable[CardLike], trick: Iterable[CardLike], trump: str, **options: Any) -> list[str]:
    """The cards of ``hand`` the player to act may play, ``trick`` being the cards already played
    to this trick in order (docs/rules/mosca.md §4.3); ascending card text."""
    return _core.mosca_legal_cards(_ids(hand, "hand"), _ids(trick, "trick"), _suit(trump), options_to_json(options))


def trick_winner(trick: Iterable[CardLike], trump: str, **options: Any) -> int:
    """The index in ``trick`` of the winning card (docs/rules/mosca.md §4.4)."""
    return _core.mosca_trick_winner(_ids(trick, "trick"), _suit(trump), options_to_json(options))


def mosca_winner(hands: Sequence[Iterable[CardLike]], trump: str, **options: Any) -> list[int]:
    """The indexes of ``hands`` that take the pot on a mosca (docs/rules/mosca.md §5.1); ``[]`` when none.
    Under ``mosca_tie="eldest_wins"`` the list order is the order from the mano."""
    if isinstance(hands, (str, bytes)) or not isinstance(hands, Iterable):
        raise InvalidStateError(f"hands must be a list of card lists, not {type(hands).__name__}")
    return _core.mosca_mosca_winner([_ids(h, "a hand") for h in hands], _suit(trump), options_to_json(options))


def _suit(trump: Any) -> int:
    if not isinstance(trump, str) or trump.strip().lower() not in SUITS or not trump.strip():
        raise InvalidNotationError(f"trump {trump!r} is not a suit: expected one of c, d, h, s")
    return SUITS.index(trump.strip().lower())


def _ids(
    items: Any,
    what: str,
    list_error: type[Exception] = InvalidStateError,
    card_error: type[Exception] = InvalidNotationError,
) -> list[int]:
    """Card ids from a non-text iterable of cards (text or ids)."""
    if isinstance(items, (str, bytes)) or not isinstance(items, Iterable):
        raise list_error(f"{what} must be a list of cards, not {type(items).__name__}")
    out = []
    for c in items:
        try:
            out.append(card_id(c))
        except InvalidNotationError as error:
            raise card_error(f"{what}: {error}") from None
    return out
