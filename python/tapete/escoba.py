"""Escoba / Scopa, native engine: ``tapete.Escoba`` and the rule primitives.

The game object is a thin typed front over ``tapete._core.EscobaGame``; states are the native
``EscobaState`` objects themselves, so that stepping from Python costs one call per action.
Rules: ``rules/escoba.md``; engine contract: ``docs/escoba_engine.md``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from . import _core
from ._gamestring import format_game, options_to_json
from ._setup import list_value as _cards
from ._setup import seed_value, setup_json
from .errors import InvalidNotationError, InvalidStateError

__all__ = ["Escoba", "EscobaState", "capture_options", "score_deal", "tuzzoli", "knock", "NUM_DISTINCT_ACTIONS"]

EscobaState = _core.EscobaState
CardLike = int | str
NUM_DISTINCT_ACTIONS = 219


class Escoba:
    """The Escoba/Scopa family: ``Escoba(variant="escoba", players=4, **options)``."""

    name = "escoba"

    def __init__(self, **options: Any) -> None:
        self._game = _core.EscobaGame(options_to_json(options))
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

    def new_state(self, seed: int = 0, deck: Sequence[CardLike] | None = None) -> EscobaState:
        """Deal a new match with the seeded RNG; ``deck`` fixes the first deal's order (top first)."""
        return self._game.new_state(
            seed_value(seed, InvalidStateError), None if deck is None else _cards(deck, "deck", InvalidStateError)
        )

    def setup(
        self,
        hands: Sequence[Iterable[CardLike]],
        table: Iterable[CardLike] = (),
        stock: Iterable[CardLike] | None = None,
        piles: Sequence[Iterable[CardLike]] | None = None,
        pile_tops: Sequence[CardLike | None] | None = None,
        dealer: int | None = None,
        to_move: int | None = None,
        scores: Sequence[int] | None = None,
        scope: Sequence[int] | None = None,
        last_capturer: int = -1,
        seed: int = 0,
        in_play: Iterable[int] | None = None,
        builds: Sequence[Iterable[CardLike]] | None = None,
    ) -> EscobaState:
        """A position at the start of a turn, from a partial description (docs/escoba_engine.md §9);
        ``in_play`` (with ``target_mode=eliminate``): the seats still in the match; ``builds``: the
        builds on the table as card lists (option ``builds``)."""
        spec = setup_json(
            hands=hands,
            table=table,
            stock=stock,
            piles=piles,
            pile_tops=pile_tops,
            dealer=dealer,
            to_move=to_move,
            scores=scores,
            scope=scope,
            last_capturer=last_capturer,
            seed=seed,
            in_play=in_play,
            builds=builds,
        )
        return self._game.setup(spec)

    def state_from_json(self, text: str) -> EscobaState:
        """Rebuild a state from ``state.to_json()``."""
        if not isinstance(text, str):
            raise InvalidStateError(f"a state is JSON text, not {type(text).__name__}")
        return self._game.state_from_json(text)

    def __str__(self) -> str:
        return format_game(self.name, self.options, Escoba)

    def __repr__(self) -> str:
        return f"tapete.load({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Escoba) and other.options == self.options

    def __hash__(self) -> int:
        return hash(self._game.options_json)


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
    tops = None if pile_tops is None else _cards(pile_tops, "pile_tops", InvalidStateError)
    builds = (
        None
        if table_builds is None
        else [
            _cards(b, "a build", InvalidNotationError) for b in _cards(table_builds, "table_builds", InvalidStateError)
        ]
    )
    held = None if hand is None else _cards(hand, "hand", InvalidNotationError)
    return _core.escoba_capture_options(
        card, _cards(table, "table", InvalidNotationError), options_to_json(options), tops, seat, builds, held
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
    piles = [_cards(p, "a pile", InvalidStateError) for p in _cards(piles, "piles", InvalidStateError)]
    decl = None if declared is None else _cards(declared, "declared", InvalidStateError)
    ks = None if ks_sweeps is None else _cards(ks_sweeps, "ks_sweeps", InvalidStateError)
    twins = None if twin_sweeps is None else _cards(twin_sweeps, "twin_sweeps", InvalidStateError)
    return _core.escoba_score_deal(
        piles, _cards(scope, "scope", InvalidStateError), options_to_json(options), decl, ks, twins, ks_on_ks
    )


def tuzzoli(hand: Iterable[CardLike], **options: Any) -> tuple[str, int]:
    """The mandatory tuzzoli declaration of a hand (docs/rules/escoba.md §2.8): its name and points."""
    return tuple(_core.escoba_tuzzoli(_cards(hand, "hand", InvalidNotationError), options_to_json(options)))  # type: ignore[return-value]


def knock(hand: Iterable[CardLike], **options: Any) -> tuple[str, int, int | None]:
    """What a hand may declare by knocking (docs/rules/escoba.md §2.7): its name (``none``, ``cirulla``,
    ``decino``, ``cirulla_decino``), its points, and the value the matta takes (None when the hand
    holds no matta or declares nothing)."""
    return tuple(_core.escoba_knock(_cards(hand, "hand", InvalidNotationError), options_to_json(options)))  # type: ignore[return-value]
