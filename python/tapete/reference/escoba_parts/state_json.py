"""Reading a state back from its canonical JSON, checking everything (docs/escoba_engine.md §8)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...errors import (
    InvalidStateError,
)
from .._base import StateFields
from .._rng import MASK64, SplitMix64
from ..multiset import Bag
from .captures import MAX_BUILD_VALUE, PILE0, BuildOn, _build_value
from .cards import BUILD_ON0, DONE, DOUBT, MARESCIALLO, NO_KNOCK, TAKE_PILE0, card_value, pack_name
from .options import MAX_JSON_SWEEPS, MAX_SCORE
from .positions import _check_in_play, _read_pile_tops, _round_sizes_problem
from .scoring import KNOCKS, TUZZOLI

if TYPE_CHECKING:
    from ..escoba import Escoba, EscobaState

# ---------------------------------------------------------------------------------------------
# Reading a state back (docs/escoba_engine.md §8)
# ---------------------------------------------------------------------------------------------

_JSON_KEYS = frozenset(
    "deal deal_points dealer game hands history last_capturer loser options pending piles rng "
    "scores selection stock sweeps table terminal to_move version winner".split()
)


def _state_from_json(game: Escoba, text: Any) -> EscobaState:
    keys = set(_JSON_KEYS)
    if game.options["tuzzoli"] or game.knocks:
        keys.add("declarations")
    if game.knocks:
        keys.add("knock_state")
    if game.matta is not None:
        keys.add("matta_value")
    if game.eliminate:
        keys.add("in_play")
    if game.options["steal"]:
        keys.add("pile_tops")
    if game.options["maresciallo_penalty"]:
        keys.add("ks_sweeps")
    if game.options["fidasse"]:
        keys |= {"claim", "claimant", "claimed"}
    if game.options["builds"]:
        keys.add("builds")
    if game.twins:
        keys.add("twin_sweeps")
    if game.options["max_consecutive_sweeps"] is not None:
        keys.add("sweep_streak")
    d = StateFields(text, "escoba", keys, game.options_json())
    bad, integer, int_list, per = d.bad, d.integer, d.ints, d.per
    o = game._opts
    n, S = game.num_players, game.num_sides

    def card_list(x: Any, what: str, ascending: bool) -> list[int]:
        xs = int_list(x, what, 0, 51)
        if any(c not in game.pack for c in xs):
            raise bad(f"{what} holds a card that is not in the {pack_name(game.deck)}")
        if ascending and game.twins:  # docs/escoba_engine.md §1a: ascending, an id at most twice
            if any(a > b for a, b in zip(xs, xs[1:])) or any(a == b for a, b in zip(xs, xs[2:])):
                raise bad(f"{what} must be ascending, each card at most twice")
        elif ascending and any(a >= b for a, b in zip(xs, xs[1:])):
            raise bad(f"{what} must be strictly ascending")
        return xs

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
    builds: list[list[int]] = []
    if o["builds"]:
        if not isinstance(d["builds"], list) or len(d["builds"]) > 20:
            raise bad("builds must be a list of at most 20 builds")
        builds = [card_list(b, f"builds[{i}]", True) for i, b in enumerate(d["builds"])]
        for b in builds:
            if len(b) < 2 or _build_value(b) > MAX_BUILD_VALUE:
                raise bad(f"a build holds at least 2 cards worth at most {MAX_BUILD_VALUE} in all")
        if any(a[0] >= b[0] for a, b in zip(builds, builds[1:])):
            raise bad("builds must be ascending by their lowest card")
    scores = int_list(per("scores", S), "scores", -MAX_SCORE, MAX_SCORE)
    sweeps = int_list(d["sweeps"], "sweeps", 0, S - 1)
    if len(sweeps) > MAX_JSON_SWEEPS:
        raise bad(f"sweeps may list at most {MAX_JSON_SWEEPS} sweeps")
    decls: list[list[int]] = []
    if game.options["tuzzoli"] or game.knocks:
        kinds = (set(TUZZOLI) - {0} if game.options["tuzzoli"] else set()) | (set(KNOCKS) if game.knocks else set())
        if not isinstance(d["declarations"], list) or len(d["declarations"]) > 24:
            raise bad("declarations must be a list of at most 24 [seat, kind, at] entries")
        for i, e in enumerate(d["declarations"]):
            if not isinstance(e, list) or len(e) != 3:
                raise bad(f"declarations[{i}] must be [seat, kind, at]")
            seat, kind, at = int_list(e, f"declarations[{i}]", 0, None)
            last = decls[-1][2] if decls else 0
            if seat >= n or kind not in kinds or not last <= at <= len(sweeps):
                raise bad(
                    f"declarations[{i}] must be [seat 0..{n - 1}, kind in {sorted(kinds)}, at {last}..{len(sweeps)}]"
                )
            decls.append([seat, kind, at])
    knock_state = [0] * n
    if game.knocks:
        knock_state = int_list(per("knock_state", n), "knock_state", 0, 2)
    matta_value = card_value(game.matta) if game.matta is not None else 0
    if game.matta is not None:
        matta_value = integer("matta_value", 1, 10)
    ks_sweeps: list[int] = []
    if game.options["maresciallo_penalty"]:
        # each Ks makes at most one sweep, and it lies in the sweeper's pile
        ks_sweeps = int_list(d["ks_sweeps"], "ks_sweeps", 0, len(sweeps) - 1)
        if len(ks_sweeps) > (2 if game.twins else 1):
            raise bad("ks_sweeps may list at most one sweep per Ks")
        if any(MARESCIALLO not in piles[sweeps[i]] for i in ks_sweeps):
            raise bad("ks_sweeps: a sweep made by playing Ks leaves Ks in the sweeper's pile")
    twin_sweeps: list[int] = []
    if game.twins:  # docs/escoba_engine.md §1a: ascending indices of the sweeps that took the card's twin
        twin_sweeps = int_list(d["twin_sweeps"], "twin_sweeps", 0, len(sweeps) - 1)
        if any(a >= b for a, b in zip(twin_sweeps, twin_sweeps[1:])):
            raise bad("twin_sweeps must be strictly ascending")
    streak = [0] * S
    if o["max_consecutive_sweeps"] is not None:  # docs/rules/escoba.md §1.5: a side plays at most the pack
        streak = int_list(per("sweep_streak", S), "sweep_streak", 0, game.size)
    deal_points = d["deal_points"]
    if not isinstance(deal_points, list):
        raise bad("deal_points must be a list")
    for i, pts in enumerate(deal_points):
        if not isinstance(pts, list) or len(pts) != S:
            raise bad(f"deal_points[{i}] must list {S} ints")
        int_list(pts, f"deal_points[{i}]", -MAX_SCORE, MAX_SCORE)
    if len(deal_points) != deal - (0 if terminal else 1):
        raise bad(f"deal_points must list one entry per finished deal ({deal - (0 if terminal else 1)})")
    rng = d["rng"]
    if not isinstance(rng, str) or not rng.isdigit() or not rng.isascii() or str(int(rng)) != rng or int(rng) > MASK64:
        raise bad("rng must be the decimal text of an int in 0..2^64-1")

    claimed: list[list[int]] = [[] for _ in range(n)]
    claim, claimant = -1, -1
    if o["fidasse"]:
        claim = integer("claim", -1, 51)
        claimant = integer("claimant", -1, n - 1)
        claimed = [card_list(c, f"claimed[{i}]", True) for i, c in enumerate(per("claimed", n))]
        if (claim == -1) != (claimant == -1):
            raise bad("claim and claimant are both set or both -1")
        for i, cards in enumerate(claimed):
            if not set(cards) <= set(piles[game.side_of(i)]):
                raise bad(f"claimed[{i}] must be cards of the pile of seat {i}'s side")
        flat = [c for cards in claimed for c in cards]
        if len(set(flat)) != len(flat):
            raise bad("a claimed card is listed for two seats")

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

    seats_in = set(range(n))
    if game.eliminate:
        mask = integer("in_play", 1, (1 << n) - 1)
        seats_in = {t for t in range(n) if mask >> t & 1}
        if terminal:
            ok = seats_in == {t for t in range(n) if game.side_of(t) == winner} if winner != -1 else len(seats_in) >= 2
            if not ok:
                raise bad("in_play does not fit a finished match (the winner's seats, else 2 or more)")
        else:
            _check_in_play(seats_in, hands, dealer, to_move)

    if terminal:
        if claim != -1 or any(claimed):
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

    s = game._blank_state()
    s._rng = SplitMix64(int(rng))
    s._deal = deal
    s._deal_points = [list(p) for p in deal_points]
    s._dealer = dealer
    s._hands = [game.bag(h) for h in hands]
    s._history = list(history)
    s._last_capturer = last_capturer
    s._loser, s._winner = loser, winner
    s._pending = pending
    s._piles = [game.bag(p) for p in piles]
    s._tops = _read_pile_tops(game, d["pile_tops"] if o["steal"] else None, piles, InvalidStateError, json_form=True)
    s._scores = list(scores)
    s._selection = list(selection)
    s._stock = list(stock)
    s._sweeps = list(sweeps)
    s._decls = decls
    s._knock_state = list(knock_state)
    s._matta_value = matta_value
    s._ks_sweeps = ks_sweeps
    s._twin_sweeps = twin_sweeps
    s._table = game.bag(table)
    s._builds = [list(b) for b in builds]
    s._terminal = terminal
    s._to_move = to_move
    s._in_play = seats_in
    s._claim, s._claimant = claim, claimant
    s._claimed = [set(c) for c in claimed]
    s._streak = list(streak)

    if pending != -1:
        # The pending card must really await a choice: more than one outcome fits the selection.
        outcomes = s._outcomes_of(pending)
        chosen = tuple(selection)
        k = len(chosen)
        fitting: list[Any] = [x for x in outcomes if isinstance(x, tuple) and x[:k] == chosen and len(x) >= k]
        fitting += [x for x in outcomes if isinstance(x, BuildOn) and not chosen]
        if len(fitting) < 2:
            raise bad("the pending card and selection do not leave a choice of capture")
    elif not terminal and claim == -1 and not s._hands[to_move]:
        raise bad("the player to move holds no card")
    return s
