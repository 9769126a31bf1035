"""Musta Maija, native engine: ``tapete.MustaMaija`` and the rule primitives.

The game object is a thin typed front over ``tapete._core.MustaMaijaGame``; states are the native
``MustaMaijaState`` objects themselves, so that stepping from Python costs one call per action.
Rules: ``rules/musta_maija.md``; engine contract: ``docs/musta_maija_engine.md``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from . import _core
from ._gamestring import format_game, options_to_json
from ._setup import list_value as _cards
from ._setup import seed_value, setup_json
from .errors import InvalidStateError

__all__ = [
    "MustaMaija",
    "MustaMaijaState",
    "can_beat",
    "legal_attacks",
    "trump_from_stock",
    "NUM_DISTINCT_ACTIONS",
]

MustaMaijaState = _core.MustaMaijaState
CardLike = int | str
NUM_DISTINCT_ACTIONS = 54


class MustaMaija:
    """Musta Maija (Black Maria): ``MustaMaija(players=4, **options)``; ``variant="pagat"`` turns
    the trump card after the first lead."""

    name = "musta_maija"

    def __init__(self, **options: Any) -> None:
        self._game = _core.MustaMaijaGame(options_to_json(options))
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

    def new_state(self, seed: int = 0, deck: Sequence[CardLike] | None = None) -> MustaMaijaState:
        """Deal a new match with the seeded RNG; ``deck`` fixes the first hand's order (top first)."""
        seed = seed_value(seed, InvalidStateError)
        return self._game.new_state(seed, None if deck is None else _cards(deck, "deck", InvalidStateError))

    def setup(
        self,
        hands: Sequence[Iterable[CardLike]],
        stock: Iterable[CardLike] = (),
        trump: CardLike | None = None,
        out_of_play: Iterable[CardLike] | None = None,
        attacker: int = 0,
        dealer: int | None = None,
        known: Sequence[Iterable[CardLike]] | None = None,
        losses: Sequence[int] | None = None,
        attacks: int = 0,
        seed: int = 0,
    ) -> MustaMaijaState:
        """A position at the start of an attack, from a partial description (contract §7)."""
        spec = setup_json(
            hands=hands,
            stock=stock,
            trump=trump,
            out_of_play=out_of_play,
            attacker=attacker,
            dealer=dealer,
            known=known,
            losses=losses,
            attacks=attacks,
            seed=seed,
        )
        return self._game.setup(spec)

    def state_from_json(self, text: str) -> MustaMaijaState:
        """Rebuild a state from ``state.to_json()``."""
        if not isinstance(text, str):
            raise InvalidStateError(f"a state is JSON text, not {type(text).__name__}")
        return self._game.state_from_json(text)

    def __str__(self) -> str:
        return format_game(self.name, self.options, MustaMaija)

    def __repr__(self) -> str:
        return f"tapete.load({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MustaMaija) and other.options == self.options

    def __hash__(self) -> int:
        return hash(self._game.options_json)


def can_beat(attack_card: CardLike, defence_card: CardLike, trump: str | int | None, **options: Any) -> bool:
    """May ``defence_card`` beat ``attack_card`` with trump suit ``trump`` (``c d h s``, 0..3 or None)?"""
    return _core.musta_maija_can_beat(attack_card, defence_card, trump, options_to_json(options))


def legal_attacks(hand: Iterable[CardLike], defender_hand_size: int, **options: Any) -> list[list[str]]:
    """Every legal attack set from ``hand`` against a defender holding ``defender_hand_size`` cards."""
    return _core.musta_maija_legal_attacks(
        _cards(hand, "hand", InvalidStateError), defender_hand_size, options_to_json(options)
    )


def trump_from_stock(stock: Iterable[CardLike], seed: int = 0, **options: Any) -> tuple[str, list[str]]:
    """Trump determination (rules §2.3) on ``stock`` listed top first: ``(trump_card, new_stock)``.

    ``seed`` seeds the SplitMix64 stream used by ``spade_reinsert=random_position``."""
    seed = seed_value(seed, InvalidStateError)
    return _core.musta_maija_trump_from_stock(_cards(stock, "stock", InvalidStateError), seed, options_to_json(options))
