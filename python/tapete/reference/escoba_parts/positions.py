"""Checks of a described position shared by ``setup`` and the JSON reader (docs/escoba_engine.md §8, §9):
pile tops, the seats in play and the hand sizes of a round."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ...cards import card_str
from ...errors import (
    InvalidStateError,
)
from .._base import is_int as _is_int
from .captures import _pack_card
from .cards import pack_name
from .position import EscobaRules


def _entries_given(xs: Any, count: int, what: str) -> list:
    """``setup``'s list of one entry per seat or per side."""
    if isinstance(xs, (str, bytes)) or not isinstance(xs, Sequence) or len(xs) != count:
        raise InvalidStateError(f"{what} must be a list of {count} entries")
    return list(xs)


def _seat_given(x: Any, n: int, what: str) -> int:
    """A seat given to ``setup``."""
    if _is_int(x) and 0 <= x < n:
        return x
    raise InvalidStateError(f"{what}={x!r} is not a seat: expected 0..{n - 1}")


def _read_pile_tops(
    game: EscobaRules, given: Any, piles: list[list[int]], error: type, json_form: bool = False
) -> list[int]:
    """``pile_tops`` (docs/rules/escoba.md §2.21): with ``steal``, one entry per side, the top card of a non-empty
    pile (one of its cards) and None (-1 in a state JSON) for an empty one; without it absent."""
    S = game.num_sides
    tops = [-1] * S
    if given is None:
        if game._opts["steal"] and any(piles):
            raise error("pile_tops must name the top card of every non-empty pile (option steal)")
        return tops
    if not game._opts["steal"]:
        raise error("pile_tops is only kept with option steal")
    if isinstance(given, (str, bytes)) or not isinstance(given, Sequence) or len(given) != S:
        raise error(f"pile_tops must be a list of {S} entries")
    for side, x in enumerate(given):
        if x is None or (json_form and x == -1 and _is_int(x)):
            if piles[side]:
                raise error(f"pile_tops[{side}]: the non-empty pile {side} needs its top card")
            continue
        if json_form:
            if not _is_int(x) or x not in game.pack:
                raise error(f"pile_tops[{side}] must be a card id of the {pack_name(game.deck)} or -1")
            c = x
        else:
            c = _pack_card(x, error, game.deck)
        if c not in piles[side]:
            raise error(f"pile_tops[{side}]: {card_str(c)} is not a card of pile {side}")
        tops[side] = c
    return tops


def _check_in_play(seats: set[int], hands: Sequence[Iterable[int]], dealer: int, to_move: int) -> None:
    """The seats in play: at least two, with the dealer and the mover; the others hold no card."""
    if len(seats) < 2 or dealer not in seats or to_move not in seats:
        raise InvalidStateError(
            f"in_play must hold at least 2 seats, the dealer {dealer} and the seat to move {to_move}"
        )
    if any(list(h) for i, h in enumerate(hands) if i not in seats):
        raise InvalidStateError("a seat out of play holds cards")


def _compact(hands: Sequence[Iterable[int]], seats: set[int], dealer: int, to_move: int) -> tuple[list[int], int, int]:
    """Hand sizes of the seats in play (seat order) and the dealer's and mover's places among them."""
    order = [i for i in range(len(hands)) if i in seats]
    sizes = [len(list(hands[i])) for i in order]
    return sizes, order.index(dealer) if dealer in seats else 0, order.index(to_move) if to_move in seats else 0


def _round_sizes_problem(sizes: Sequence[int], dealer: int, to_move: int, strict: bool) -> str | None:
    """Why these hand sizes cannot occur at the start of ``to_move``'s turn, or None.

    Strict (a full hand was dealt): with ``k`` the mover's hand size (k >= 1), the seats from the
    mover up to the dealer hold ``k`` and the seats from ``D+1`` up to the mover (exclusive) hold
    ``k - 1``. Not strict (the last hand may have been dealt short when the stock ran out): read
    from the mover round the table the sizes never grow and differ by at most one.
    """
    n = len(sizes)
    k = sizes[to_move]
    if k < 1:
        return f"seat {to_move} is to move but holds no card"
    if strict:
        first = (dealer + 1) % n
        for s in range(n):
            played = (s - first) % n < (to_move - first) % n
            if sizes[s] != k - played:
                return (
                    f"hand sizes {list(sizes)} are not those of a round (dealer {dealer}, seat {to_move} "
                    f"to move with {k} cards: seats from the mover to the dealer hold {k}, the others {k - 1})"
                )
        return None
    order = [sizes[(to_move + i) % n] for i in range(n)]
    if any(a < b for a, b in zip(order, order[1:])) or order[0] - order[-1] > 1:
        return f"hand sizes {list(sizes)} are not those of a round with seat {to_move} to move"
    return None
