"""Dealing (docs/escoba_engine.md §5; docs/rules/escoba.md §1.2): a deal and its later hands, void
deals, the escoba de mano, the seats in play in turn order."""

from __future__ import annotations

from .captures import _subsets_with_sum
from .cards import _rank, card_value
from .options import elimination_deal_shape
from .position import Position

# -- dealing (docs/escoba_engine.md §5) -----------------------------------------------------------------


def start_deal(state: Position, pack: list[int] | None = None) -> None:
    """Steps 2-5: deal a pack (a fresh shuffled one unless given), redeal void deals, award an
    escoba de mano, and give the turn to the eldest."""
    o, n = state._o, state.game.num_players
    D = state._dealer
    itc, cph = deal_shape(state)
    while True:
        if pack is None:
            pack = list(state.game.pack)
            state._rng.shuffle(pack)
        state._hands = [state.game.bag() for _ in range(n)]
        it = iter(pack)
        for _ in range(cph):
            for seat in seats_after(state, D):
                state._hands[seat].add(next(it))
        table = [next(it) for _ in range(itc)]
        state._table = state.game.bag(table)
        state._stock = list(it)
        # under elimination the void check reads the first 4 table cards only (docs/rules/escoba.md §2.11)
        checked = table[:4] if state.game.eliminate else table
        kings = sum(1 for c in checked if _rank(c) == 13)
        aces = sum(1 for c in checked if _rank(c) == 1)
        void = (o["void_deal_min_kings"] is not None and kings >= o["void_deal_min_kings"]) or (
            o["void_deal_min_aces"] is not None and aces >= o["void_deal_min_aces"]
        )
        if not void:
            break
        pack = None  # the same dealer deals again from a fresh shuffle
    state._piles = [state.game.bag() for _ in range(state.game.num_sides)]
    state._sweeps = []
    state._last_capturer = -1
    state._pending = -1
    state._selection = []
    for f in state.game.features:
        f.new_deal(state)
    if o["initial_table_bonus"] == "sum15_30" and state._table:
        escoba_de_mano(state)
    state._to_move = next_in(state, D)
    for f in state.game.features:
        f.new_hand(state)


def seats_after(state: Position, seat: int) -> list[int]:
    """The seats in play in turn order from the one after ``seat`` (``seat`` last if in play)."""
    n = state.game.num_players
    return [t for t in ((seat + i) % n for i in range(1, n + 1)) if t in state._in_play]


def next_in(state: Position, seat: int) -> int:
    after = seats_after(state, seat)
    return after[0] if after else seat


def deal_shape(state: Position) -> tuple[int, int]:
    """(initial_table_cards, cards_per_hand) of this deal: the options' with every seat in play,
    else the elimination shape for the players left (docs/rules/escoba.md §2.11)."""
    o = state._o
    if len(state._in_play) < state.game.num_players:
        return elimination_deal_shape(o["elimination_deal"], len(state._in_play))
    return o["initial_table_cards"], o["cards_per_hand"]


def table_sweeps(state: Position, values: list[int]) -> int:
    o = state._o
    total = sum(values)
    if total == 15:
        return 1
    if total == 30 and (
        o["escoba_de_mano_30"] == "total" or _subsets_with_sum(sorted((v, i) for i, v in enumerate(values)), 15, 1)
    ):
        return 2
    if total <= 9 and o["initial_table_le9"] is not None:
        return o["initial_table_le9"]
    return 0


def escoba_de_mano(state: Position) -> None:
    """An initial table worth 15 (one escoba) or 30 (two), or at most 9 with
    ``initial_table_le9``, goes to the dealer's side. A matta on it counts at the value 1..10
    that scores the most."""
    o = state._o
    m = state.game.matta
    others = [card_value(c) for c in state._table if c != m]
    if m in state._table:
        sweeps = max(table_sweeps(state, others + [v]) for v in range(1, 11))
    else:
        sweeps = table_sweeps(state, others)
    if not sweeps:
        return
    seat = state._dealer if o["escoba_de_mano_to"] == "dealer" else next_in(state, state._dealer)
    side = state.game.side_of(seat)
    state._piles[side] |= state._table
    state._table = set()
    state._last_capturer = side
    state._sweeps += [side] * sweeps


def deal_next_hand(state: Position) -> None:
    """Later hands: deal from the top of the stock in seat order, stopping if it runs out."""
    for _ in range(deal_shape(state)[1]):
        for seat in seats_after(state, state._dealer):
            if not state._stock:
                return
            state._hands[seat].add(state._stock.pop(0))
