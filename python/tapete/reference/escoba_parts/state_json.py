"""Reading a state back from its canonical JSON, checking everything (docs/escoba_engine.md §8)."""

from __future__ import annotations

from typing import Any

from .._base import StateFields
from ..multiset import Bag
from .captures import PILE0
from .cards import BUILD_ON0, DONE, DOUBT, NO_KNOCK, TAKE_PILE0, pack_name
from .options import MAX_JSON_SWEEPS, MAX_SCORE
from .position import EscobaRules, Position
from .positions import _round_sizes_problem

# ---------------------------------------------------------------------------------------------
# Reading a state back (docs/escoba_engine.md §8)
# ---------------------------------------------------------------------------------------------

_JSON_KEYS = frozenset(
    "deal deal_points dealer game hands history last_capturer loser options pending piles rng "
    "scores selection stock sweeps table terminal to_move version winner".split()
)


def read_cards(d: StateFields, game: EscobaRules, x: Any, what: str, ascending: bool) -> list[int]:
    """A list of card ids of the game's pack; ``ascending``: a hand, a pile... in ascending order
    (with the double pack an id at most twice, docs/escoba_engine.md §1a)."""
    xs = d.ints(x, what, 0, 51)
    if any(c not in game.pack for c in xs):
        raise d.bad(f"{what} holds a card that is not in the {pack_name(game.deck)}")
    if ascending and game.twins:
        if any(a > b for a, b in zip(xs, xs[1:])) or any(a == b for a, b in zip(xs, xs[2:])):
            raise d.bad(f"{what} must be ascending, each card at most twice")
    elif ascending and any(a >= b for a, b in zip(xs, xs[1:])):
        raise d.bad(f"{what} must be strictly ascending")
    return xs


def _state_from_json(game: EscobaRules, text: Any, s: Position) -> None:
    """Fill the blank position ``s`` from its JSON: the core's fields, then each part's, then the
    checks across them (the caller checks a pending card last)."""
    keys = _JSON_KEYS | {k for f in game.features for k in f.keys}
    d = StateFields(text, "escoba", keys, game.options_json())
    bad, integer, int_list, per = d.bad, d.integer, d.ints, d.per
    o = game._opts
    n, S = game.num_players, game.num_sides

    def card_list(x: Any, what: str, ascending: bool) -> list[int]:
        return read_cards(d, game, x, what, ascending)

    deal = integer("deal", 1, o["max_deals"])
    dealer = integer("dealer", 0, n - 1)
    last_capturer = integer("last_capturer", -1, S - 1)
    loser = integer("loser", -1, S - 1)
    winner = integer("winner", -1, S - 1)
    to_move = integer("to_move", -1, n - 1)
    pending = integer("pending", -1, 51)
    terminal = d["terminal"]
    if not isinstance(terminal, bool):
        raise bad("terminal must be a bool")
    hands = [card_list(h, f"hands[{i}]", True) for i, h in enumerate(per("hands", n))]
    piles = [card_list(p, f"piles[{i}]", True) for i, p in enumerate(per("piles", S))]
    table = card_list(d["table"], "table", True)
    stock = card_list(d["stock"], "stock", False)
    if o["steal"]:  # selection items: table cards and piles (PILE0 + side)
        selection = int_list(d["selection"], "selection", 0, PILE0 + S - 1)
        if any(c not in game.pack and c < PILE0 for c in selection) or any(
            a >= b for a, b in zip(selection, selection[1:])
        ):
            raise bad("selection must be ascending table cards and piles")
    else:
        selection = card_list(d["selection"], "selection", True)
    last_action = (
        NO_KNOCK
        if game.knocks
        else DOUBT
        if o["fidasse"]
        else BUILD_ON0 + 51
        if o["builds"]
        else TAKE_PILE0 + 5
        if o["steal"]
        else DONE
    )
    history = int_list(d["history"], "history", 0, last_action)
    scores = int_list(per("scores", S), "scores", -MAX_SCORE, MAX_SCORE)
    sweeps = int_list(d["sweeps"], "sweeps", 0, S - 1)
    if len(sweeps) > MAX_JSON_SWEEPS:
        raise bad(f"sweeps may list at most {MAX_JSON_SWEEPS} sweeps")
    deal_points = d["deal_points"]
    if not isinstance(deal_points, list):
        raise bad("deal_points must be a list")
    for i, pts in enumerate(deal_points):
        if not isinstance(pts, list) or len(pts) != S:
            raise bad(f"deal_points[{i}] must list {S} ints")
        int_list(pts, f"deal_points[{i}]", -MAX_SCORE, MAX_SCORE)
    if len(deal_points) != deal - (0 if terminal else 1):
        raise bad(f"deal_points must list one entry per finished deal ({deal - (0 if terminal else 1)})")

    s._rng = d.rng()
    s._deal = deal
    s._deal_points = [list(p) for p in deal_points]
    s._dealer = dealer
    s._hands = [game.bag(h) for h in hands]
    s._history = list(history)
    s._last_capturer = last_capturer
    s._loser, s._winner = loser, winner
    s._pending = pending
    s._piles = [game.bag(p) for p in piles]
    s._scores = list(scores)
    s._selection = list(selection)
    s._stock = list(stock)
    s._sweeps = list(sweeps)
    s._table = game.bag(table)
    s._terminal = terminal
    s._to_move = to_move
    for f in game.features:
        f.from_json(s, d)
    builds, claim, claimant, seats_in = s._builds, s._claim, s._claimant, s._in_play

    # The cards: each of the pack exactly once (at a terminal state cards left to nobody may miss).
    every = (
        [c for h in hands for c in h] + table + [c for b in builds for c in b] + stock + [c for p in piles for c in p]
    )
    if claim != -1:
        if claim not in game.pack:
            raise bad(f"claim must be a card of the {pack_name(game.deck)} or -1")
        every.append(claim)
    if pending != -1:
        if pending not in game.pack:
            raise bad(f"pending must be a card of the {pack_name(game.deck)} or -1")
        every.append(pending)
    copies = 2 if game.twins else 1
    if any(k > copies for k in Bag(every)._n.values()):
        raise bad("a card appears twice" if copies == 1 else "a card appears more than twice")
    if len(every) != game.size and not (terminal and (not o["last_capturer_takes_rest"] or last_capturer == -1)):
        raise bad(
            f"the {game.size} cards must each appear exactly once across hands, table, stock, piles and pending"
            " (only a finished match whose last table went to nobody may miss cards)"
        )

    if terminal:
        if claim != -1 or any(s._claimed):
            raise bad("a terminal state has no open claim and no face-down claim cards")
        if any(hands) or table or builds or stock or pending != -1 or selection or to_move != -1:
            raise bad("a terminal state has empty hands, table, stock and selection, no pending card and to_move -1")
        if winner != -1 and loser != -1:
            raise bad("a match has a winner or a loser, not both")
        if winner == -1 and loser == -1 and (o["max_deals"] is None or deal != o["max_deals"]):
            raise bad("a drawn match ends only after max_deals deals")
    else:
        if winner != -1 or loser != -1:
            raise bad("winner and loser must be -1 before the end")
        if to_move == -1:
            raise bad("to_move must be a seat before the end")
        sizes = [len(h) for h in hands]
        if pending != -1:
            sizes[to_move] += 1
        if claim != -1:  # an open claim: the claimant played it, an opponent is asked
            if game.side_of(claimant) == game.side_of(to_move) or pending != -1 or not table or selection:
                raise bad(
                    "an open claim is answered by an opponent of the claimant,"
                    " with no pending card and cards on the table"
                )
            sizes[claimant] += 1
            to_move_for_sizes = claimant
        else:
            to_move_for_sizes = to_move
        order = [t for t in range(n) if t in seats_in]
        problem = _round_sizes_problem(
            [sizes[t] for t in order], order.index(dealer), order.index(to_move_for_sizes), strict=bool(stock)
        )
        if problem:
            raise bad(problem)
        if pending == -1 and selection:
            raise bad("a selection needs a pending card")
        if any(t not in table and t not in {b[0] for b in builds} for t in selection if t < PILE0):
            raise bad("the selection must be table items")
        if game.twins and any(selection.count(t) > table.count(t) for t in selection):
            raise bad("the selection must be table items")
