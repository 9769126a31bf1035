"""The end of a deal and of the match (docs/escoba_engine.md §6, §6a): the table left, the awards, the
match decision (targets, count-out, elimination, losing) and the returns."""

from __future__ import annotations

from . import dealing
from .cards import COINS, RE_BELLO, SWORDS, _suit
from .position import Position
from .scoring import Deal, _decl, deal_awards

# -- end of deal and match (docs/escoba_engine.md §6) ---------------------------------------------------


def end_deal(state: Position) -> None:
    o, S = state._o, state.game.num_sides
    state._claimed = [set() for _ in range(state.game.num_players)]  # shown at the scoring
    if o["last_capturer_takes_rest"] and state._last_capturer != -1:
        state._piles[state._last_capturer] |= state._table | {c for b in state._builds for c in b}
    state._table = state.game.bag()  # otherwise the cards left on the table belong to nobody
    state._builds = []
    decls = [(state.game.side_of(seat), _decl(kind, o)[1], at) for seat, kind, at in state._decls]
    sides_in = sorted({state.game.side_of(t) for t in state._in_play})
    if len(sides_in) < S:
        # docs/rules/escoba.md §2.11: the deal is scored among the sides still in play only
        at = {side: i for i, side in enumerate(sides_in)}
        kept = [i for i, x in enumerate(state._sweeps) if x in at]
        deal = Deal(
            [state._piles[x] for x in sides_in],
            [at[state._sweeps[i]] for i in kept],
            o,
            [(at[x], p, a) for x, p, a in decls if x in at],
            [j for j, i in enumerate(kept) if i in state._ks_sweeps],
        )
        part = deal_awards(deal, state.game.awards)
        awards = [[vec[at[x]] if x in at else 0 for x in range(S)] for vec in part]
    else:
        deal = Deal(state._piles, state._sweeps, o, decls, state._ks_sweeps, state._twin_sweeps)
        awards = deal_awards(deal, state.game.awards)
    points = [sum(vec[s] for vec in awards) for s in range(S)]
    before = list(state._scores)
    state._deal_points.append(points)
    state._scores = [a + b for a, b in zip(before, points)]

    winner, loser = match_decision(state, points, before, awards)
    if winner != -1 and state.game.eliminate:
        # whatever decided it, only the winner's seats are left in the match
        state._in_play = {t for t in range(state.game.num_players) if state.game.side_of(t) == winner}
    if winner != -1 or loser != -1:
        finish(state, winner, loser)
    elif o["max_deals"] is not None and state._deal == o["max_deals"]:
        finish(state, -1, -1)  # drawn
    else:
        state._deal += 1
        state._dealer = dealing.next_in(state, state._dealer)
        dealing.start_deal(state)


def match_decision(state: Position, points: list[int], before: list[int], awards: list[list[int]]) -> tuple[int, int]:
    """(winner side, loser side) after a deal, -1 for none (docs/escoba_engine.md §6 rules 1-4)."""
    o, S = state._o, state.game.num_sides
    totals = state._scores
    if o["napola_all_coins_wins"]:
        for s in range(S):
            if sum(1 for c in state._piles[s] if _suit(c) == COINS) == state.game.size // 4:
                return s, -1
    if o["all_swords_wins"]:
        # docs/rules/escoba.md §2.24: a side with every sword of the pack wins at once
        for s in range(S):
            if sum(1 for c in state._piles[s] if _suit(c) == SWORDS) == state.game.size // 4:
                return s, -1
    if o["game"] == "single_deal":
        best = max(points)
        top = [s for s in range(S) if points[s] == best]
        if len(top) > 1 and o["frac_single_deal"]:
            # docs/rules/escoba.md §2.16: a tie for the most goes to the tied side holding Kd
            top = [s for s in top if RE_BELLO in state._piles[s]] or top
        return (top[0], -1) if len(top) == 1 else (-1, -1)
    target = o["target"]
    if o["target_mode"] == "eliminate":
        return eliminate(state, totals, target), -1
    if o["target_mode"] == "lose":
        best = max(totals)
        top = [s for s in range(S) if totals[s] == best]
        return (-1, top[0]) if best >= target and len(top) == 1 else (-1, -1)
    if o["win_check"] == "count_out" and sum(1 for t in totals if t >= target) >= 2:
        running = list(before)
        for vec in awards:
            running = [a + b for a, b in zip(running, vec)]
            at = [s for s in range(S) if running[s] >= target]
            if at:
                if len(at) == 1:
                    return at[0], -1
                break  # several at once: fall through to the highest-unique test
    best = max(totals)
    top = [s for s in range(S) if totals[s] == best]
    if best >= target and len(top) == 1:
        others = [totals[s] for s in range(S) if s != top[0]]
        if o["win_margin"] is None or best - max(others) >= o["win_margin"]:
            return top[0], -1
    return -1, -1


def eliminate(state: Position, totals: list[int], target: int) -> int:
    """docs/rules/escoba.md §2.11: every side in play at or above the target leaves; one side left wins; if
    none would be left, the lowest of the crossing totals wins and a tie plays on among the
    tied. Updates the seats in play; returns the winner side or -1."""
    side_of = state.game.side_of
    sides_in = {side_of(t) for t in state._in_play}
    cross = {x for x in sides_in if totals[x] >= target}
    if not cross:
        return -1
    left = sides_in - cross
    if not left:
        low = min(totals[x] for x in cross)
        left = {x for x in cross if totals[x] == low}
    state._in_play = {t for t in state._in_play if side_of(t) in left}
    return next(iter(left)) if len(left) == 1 else -1


def finish(state: Position, winner: int, loser: int) -> None:
    state._terminal = True
    state._winner, state._loser = winner, loser
    state._to_move = -1
    state._pending, state._selection = -1, []
