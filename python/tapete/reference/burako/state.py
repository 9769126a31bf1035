"""A position of a Burako match: dealing (docs/burako_engine.md §8), the legal actions of a turn
and the going-out invariant (docs/burako_engine.md §5-§7), the transitions, the end of a hand and
of the match (docs/burako_engine.md §9), the canonical JSON (docs/burako_engine.md §10) and what a
seat sees (docs/burako_engine.md §11)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ...errors import InvalidNotationError
from .._base import ReferenceState, shown
from .actions import (
    DISCARD0,
    DRAW_STOCK,
    EXTEND0,
    NEW_ADD0,
    NEW_CANCEL,
    NEW_COMMIT,
    REDRAW,
    TAKE_POZO,
    action_to_string,
    string_to_action,
)
from .melds import meld_facts, team_score
from .options import hand_size, muerto_size
from .resample import resample_into, view_history
from .search import melds_containing
from .tiles import NUM_TYPES, PACK, counts, listed, tile_str

if TYPE_CHECKING:
    from .game import Burako

__all__ = ["BurakoState", "DRAW", "MELD", "UNTAKEN", "DIRECT", "INDIRECT", "STATUS_WORDS", "MAX_TOTAL"]

DRAW, MELD = "draw", "meld"
UNTAKEN, DIRECT, INDIRECT = 0, 1, 2
STATUS_WORDS = ("untaken", "direct", "indirect")
MAX_TOTAL = 10**15


class BurakoState(ReferenceState):
    """A position of a match. Mutated in place by ``apply``; ``clone`` for a copy."""

    def __init__(self, game: Burako) -> None:
        super().__init__(game)
        P = game.num_players
        self._hand = 1  # hands started
        self._hand_scores: list[list[int]] = []  # per finished hand, per team
        self._totals = [0, 0]
        self._mano = 0
        self._to_move = 0
        self._phase = DRAW
        self._racks: list[list[int]] = [[0] * NUM_TYPES for _ in range(P)]  # counts per type
        self._buffer: list[int] = []  # the pending new meld of to_move, ascending types
        self._melds: list[list[tuple[str, list[int]]]] = [[], []]  # per team, slot order
        self._pozo: list[int] = []  # bottom first, top last
        self._stock: list[int] = []  # top first
        self._muertos: list[list[int]] = []  # the muertos still to take, next first
        self._muerto = [UNTAKEN, UNTAKEN]  # per team
        self._unplayed = [-1, -1]  # per team: the seat holding an indirect muerto not yet played
        self._turns = 0  # turns completed in this hand
        self._cancels = 0  # NEW_CANCELs used this turn
        self._drawn = -1  # the first turn's drawn tile, while REDRAW may reject it
        self._no_discard = -1  # single_tile_pozo_rediscard = forbidden (docs/burako_engine.md §7)
        self._must_use = -1  # pozo_take_requirement = must_use_top_tile_now (docs/burako_engine.md §7)
        self._terminal = False
        self._winner = -1
        self._cache: dict[str, Any] = {}  # the legal actions of this position (cleared by _apply)

    # -- dealing (docs/burako_engine.md §8) --------------------------------------------------------

    def _start_hand(self, pack: list[int] | None = None) -> None:
        """Racks of H in blocks, seat order from the mano; then muerto #1, muerto #2; the stock."""
        P, H, K = self.game.num_players, hand_size(self._o), muerto_size(self._o)
        if pack is None:
            pack = list(PACK)
            self._rng.shuffle(pack)
        self._racks = [[0] * NUM_TYPES for _ in range(P)]
        for i in range(P):
            for t in pack[i * H : (i + 1) * H]:
                self._racks[(self._mano + i) % P][t] += 1
        start = P * H
        self._muertos = [pack[start : start + K], pack[start + K : start + 2 * K]]
        self._stock = pack[start + 2 * K :]
        self._pozo = []
        self._buffer = []
        self._melds = [[], []]
        self._muerto = [UNTAKEN, UNTAKEN]
        self._unplayed = [-1, -1]
        self._turns = 0
        self._to_move = self._mano
        self._phase = DRAW
        self._cancels = 0
        self._drawn = self._no_discard = self._must_use = -1

    # -- derived facts -------------------------------------------------------------------------

    @staticmethod
    def _team(seat: int) -> int:
        return seat % 2

    def _has_c(self, melds: Iterable[tuple[str, Sequence[int]]]) -> bool:
        """Whether these melds hold a canasta (a pure one under close_requirement = pure_canasta)."""
        need_pure = self._o["close_requirement"] == "pure_canasta"
        for kind, tiles in melds:
            if len(tiles) >= self._o["canasta_min"]:
                if not need_pure or meld_facts(tiles, self._o, kind)[1] == 0:  # type: ignore[index]
                    return True
        return False

    def _can_buy(self, team: int) -> bool:
        return self._muerto[team] == UNTAKEN and bool(self._muertos)

    def _invariant(self, team: int, rack_after: Sequence[int], melds_after: list[tuple[str, list[int]]]) -> bool:
        """The going-out invariant (docs/burako_engine.md §6) for a meld or extend leaving ``rack_after``."""
        h = sum(rack_after)
        if h >= 2 or self._can_buy(team):
            return True
        if self._muerto[team] == UNTAKEN or not self._has_c(melds_after):
            return False
        mode = self._o["close_mode"]
        if h == 0:
            return mode != "discard_required"
        if mode != "meld_required":
            return True
        (last,) = [t for t in range(NUM_TYPES) if rack_after[t]]  # the remaining tile must meld out
        for m, (kind, tiles) in enumerate(melds_after):
            grown = sorted(tiles + [last])
            if meld_facts(grown, self._o, kind) is not None:
                if self._has_c(melds_after[:m] + [(kind, grown)] + melds_after[m + 1 :]):
                    return True
        return False

    def _discard_last_ok(self, team: int) -> bool:
        if self._can_buy(team):
            return True
        return (
            self._muerto[team] != UNTAKEN
            and self._has_c(self._melds[team])
            and self._o["close_mode"] != "meld_required"
        )

    def _leaves_only_no_discard(self, rack_after: Sequence[int]) -> bool:
        """single_tile_pozo_rediscard: a meld/extend may not leave h' >= 1 tiles all of type u."""
        u = self._no_discard
        return u != -1 and sum(rack_after) >= 1 and sum(rack_after) == rack_after[u]

    # -- legal actions (docs/burako_engine.md §5-§7) -----------------------------------------------

    def current_player(self) -> int:
        return -1 if self._terminal else self._to_move

    def _redraw_legal(self) -> bool:
        return self._o["first_player_redraw"] and self._drawn != -1 and bool(self._stock)

    def _commit_legal(self) -> bool:
        facts = meld_facts(self._buffer, self._o)
        if facts is None:
            return False
        if self._must_use != -1 and self._must_use not in self._buffer:
            return False
        p = self._to_move
        team = self._team(p)
        rack = self._racks[p]
        if self._leaves_only_no_discard(rack):
            return False
        return self._invariant(team, rack, self._melds[team] + [(facts[0], list(self._buffer))])

    def _extend_legal(self, m: int, t: int, rack: Sequence[int] | None = None) -> bool:
        """EXTEND(m, t) by the mover with the buffer empty, ``rack`` standing for the mover's rack."""
        p = self._to_move
        team = self._team(p)
        rack = self._racks[p] if rack is None else rack
        if not rack[t]:
            return False
        kind, tiles = self._melds[team][m]
        grown = sorted(tiles + [t])
        if meld_facts(grown, self._o, kind) is None:
            return False
        after = list(rack)
        after[t] -= 1
        melds = self._melds[team]
        return self._invariant(team, after, melds[:m] + [(kind, grown)] + melds[m + 1 :])

    def _take_pozo_legal(self) -> bool:
        if not self._pozo:
            return False
        p = self._to_move
        rack = self._racks[p]
        if self._o["single_tile_pozo_rediscard"] == "forbidden" and len(self._pozo) == 1:
            u = self._pozo[0]
            if sum(rack) == rack[u]:  # every rack tile (if any) has type u
                return False
        if self._o["pozo_take_requirement"] == "must_use_top_tile_now":
            return self._top_tile_usable()
        return True

    def _top_tile_usable(self) -> bool:
        """docs/burako_engine.md §7: after taking the pozo, could an extend or a meld use the top tile's type?"""
        p = self._to_move
        team = self._team(p)
        u = self._pozo[-1]
        new_rack = list(self._racks[p])
        for t in self._pozo:
            new_rack[t] += 1
        # the take may also forbid leaving only tiles of its type (single_tile_pozo_rediscard)
        no_discard = u if self._o["single_tile_pozo_rediscard"] == "forbidden" and len(self._pozo) == 1 else -1

        def leaves_only_no_discard(after: Sequence[int]) -> bool:
            return no_discard != -1 and sum(after) >= 1 and sum(after) == after[no_discard]

        for m in range(len(self._melds[team])):
            after = list(new_rack)
            after[u] -= 1
            if self._extend_legal(m, u, new_rack) and not leaves_only_no_discard(after):
                return True
        N = sum(new_rack)
        # small melds leave h' >= 2: legal whatever the team holds (and, holding at most two
        # tiles of type u, never only tiles of type u)
        if any(L <= N - 2 for L in melds_containing(u, new_rack, self._o)):
            return True
        # melds of the whole rack or all of it but one tile: check each exactly
        candidates = [list(new_rack)]
        for x in range(NUM_TYPES):
            if new_rack[x]:
                less = list(new_rack)
                less[x] -= 1
                candidates.append(less)
        for meld_counts in candidates:
            if not meld_counts[u]:
                continue
            tiles = listed(meld_counts)
            facts = meld_facts(tiles, self._o)
            if facts is None:
                continue
            after = [a - b for a, b in zip(new_rack, meld_counts)]
            if leaves_only_no_discard(after):
                continue
            if self._invariant(team, after, self._melds[team] + [(facts[0], tiles)]):
                return True
        return False

    def legal_actions(self) -> list[int]:
        if "legal" not in self._cache:
            self._cache["legal"] = self._legal_actions()
        return list(self._cache["legal"])

    def _legal_actions(self) -> list[int]:
        if self._terminal:
            return []
        if self._phase == DRAW:
            actions = [DRAW_STOCK] if self._stock else []
            if self._take_pozo_legal():
                actions.append(TAKE_POZO)
            return actions
        p = self._to_move
        rack = self._racks[p]
        team = self._team(p)
        actions = []
        if self._redraw_legal():
            actions.append(REDRAW)
        if self._cancels < self._o["max_cancels_per_turn"]:
            low = self._buffer[-1] if self._buffer else 0
            actions += [NEW_ADD0 + t for t in range(low, NUM_TYPES) if rack[t]]
        if self._buffer:
            if self._commit_legal():
                actions.append(NEW_COMMIT)
            actions.append(NEW_CANCEL)
            return sorted(actions)
        if self._must_use == -1:
            last_ok = sum(rack) > 1 or self._discard_last_ok(team)
            actions += [DISCARD0 + t for t in range(NUM_TYPES) if rack[t] and last_ok and t != self._no_discard]
        for m in range(len(self._melds[team])):
            for t in range(NUM_TYPES):
                if self._must_use != -1 and t != self._must_use:
                    continue
                if rack[t] and self._extend_legal(m, t):
                    after = list(rack)
                    after[t] -= 1
                    if not self._leaves_only_no_discard(after):
                        actions.append(EXTEND0 + NUM_TYPES * m + t)
        return sorted(actions)

    # -- applying actions ----------------------------------------------------------------------

    def _apply(self, a: int) -> None:
        """One legal action (already in the history): the transitions of docs/burako_engine.md §5."""
        self._cache = {}
        p = self._to_move
        rack = self._racks[p]
        team = self._team(p)
        if a in (DRAW_STOCK, TAKE_POZO):
            if self._unplayed[team] == p:  # he now plays the indirect muerto he holds
                self._unplayed[team] = -1
            self._phase = MELD
            if a == DRAW_STOCK:
                t = self._stock.pop(0)
                rack[t] += 1
                if self._turns == 0:
                    self._drawn = t
            else:
                if len(self._pozo) == 1 and self._o["single_tile_pozo_rediscard"] == "forbidden":
                    self._no_discard = self._pozo[0]
                if self._o["pozo_take_requirement"] == "must_use_top_tile_now":
                    self._must_use = self._pozo[-1]
                for t in self._pozo:
                    rack[t] += 1
                self._pozo = []
            return
        if a == REDRAW:
            rack[self._drawn] -= 1
            self._pozo.append(self._drawn)
            rack[self._stock.pop(0)] += 1
            self._drawn = -1
            return
        self._drawn = -1  # any other meld-phase action keeps the first draw
        if a < NEW_COMMIT:  # NEW_ADD
            t = a - NEW_ADD0
            rack[t] -= 1
            self._buffer.append(t)
        elif a == NEW_CANCEL:
            for t in self._buffer:
                rack[t] += 1
            self._buffer = []
            self._cancels += 1
            if self._cancels >= self._o["max_cancels_per_turn"]:
                self._must_use = -1  # the requirement lapses
        elif a == NEW_COMMIT:
            kind = meld_facts(self._buffer, self._o)[0]  # type: ignore[index]
            if self._must_use in self._buffer:
                self._must_use = -1
            self._melds[team].append((kind, list(self._buffer)))
            self._buffer = []
            self._after_meld(p)
        elif a < EXTEND0:  # DISCARD
            t = a - DISCARD0
            rack[t] -= 1
            self._pozo.append(t)
            if sum(rack) == 0:
                if self._muerto[team] != UNTAKEN:
                    self._end_hand(closed_by=team)
                    return
                self._take_muerto(p, INDIRECT)
            self._end_turn()
        else:  # EXTEND
            m, t = divmod(a - EXTEND0, NUM_TYPES)
            kind, tiles = self._melds[team][m]
            rack[t] -= 1
            self._melds[team][m] = (kind, sorted(tiles + [t]))
            if t == self._must_use:
                self._must_use = -1
            self._after_meld(p)

    def _after_meld(self, p: int) -> None:
        """A meld or extend that empties the rack closes, or buys the muerto directly (docs/burako_engine.md §5)."""
        if sum(self._racks[p]):
            return
        team = self._team(p)
        if self._muerto[team] != UNTAKEN:
            self._end_hand(closed_by=team)
        else:
            self._take_muerto(p, DIRECT)

    def _take_muerto(self, p: int, how: int) -> None:
        team = self._team(p)
        for t in self._muertos.pop(0):
            self._racks[p][t] += 1
        self._muerto[team] = how
        if how == INDIRECT:
            self._unplayed[team] = p

    def _end_turn(self) -> None:
        """TURN_END (docs/burako_engine.md §5): stock exhaustion, the turn cap, or the next player."""
        self._turns += 1
        self._cancels = 0
        self._no_discard = self._must_use = -1
        if not self._stock:
            if self._o["stock_exhausted"] == "muerto_becomes_stock" and self._muertos:
                self._stock = self._muertos.pop(0)
            else:
                self._end_hand(closed_by=-1)
                return
        if self._turns >= self._o["max_turns"]:
            self._end_hand(closed_by=-1)
            return
        self._to_move = (self._to_move + 1) % self.game.num_players
        self._phase = DRAW

    # -- end of the hand and the match (docs/burako_engine.md §9) ----------------------------------

    def _hand_score(self, team: int, closed_by: int) -> int:
        seats = [s for s in range(self.game.num_players) if self._team(s) == team]
        taken = self._muerto[team] != UNTAKEN
        left_out = -1
        if self._unplayed[team] != -1 and self._o["indirect_muerto_unplayed"] == "counts_as_not_taken":
            taken, left_out = False, self._unplayed[team]
        rack_tiles = [t for s in seats if s != left_out for t in listed(self._racks[s])]
        return team_score(self._melds[team], rack_tiles, closed_by == team, taken, self._o)

    def _end_hand(self, closed_by: int) -> None:
        o = self._o
        points = [self._hand_score(team, closed_by) for team in (0, 1)]
        self._hand_scores.append(points)
        self._totals = [a + b for a, b in zip(self._totals, points)]
        a, b = self._totals
        if o["match"] == "single_hand":
            self._finish(0 if points[0] > points[1] else 1 if points[1] > points[0] else -1)
        elif max(a, b) >= o["target"] and a != b:
            self._finish(0 if a > b else 1)
        elif self._hand >= o["max_hands"]:
            self._finish(0 if a > b else 1 if b > a else -1)
        else:
            P = self.game.num_players
            nxt = (self._mano + 1) % P
            if o["next_mano"] == "loser_starts" and points[0] != points[1]:
                loser = 0 if points[0] < points[1] else 1
                nxt = next((nxt + i) % P for i in range(P) if self._team((nxt + i) % P) == loser)
            self._mano = nxt
            self._hand += 1
            self._start_hand()

    def _finish(self, winner: int) -> None:
        self._terminal = True
        self._winner = winner
        self._to_move = -1

    # -- queries -------------------------------------------------------------------------------

    def is_terminal(self) -> bool:
        return self._terminal

    def returns(self) -> list[float]:
        P = self.game.num_players
        if not self._terminal or self._winner == -1:
            return [0.0] * P
        return [1.0 if self._team(s) == self._winner else -1.0 for s in range(P)]

    def scores(self) -> list[int]:
        """Each seat's team's match total."""
        return [self._totals[self._team(s)] for s in range(self.game.num_players)]

    def deals(self) -> int:
        """Hands started."""
        return self._hand

    def action_to_string(self, action: Any) -> str:
        return action_to_string(action)

    def string_to_action(self, text: Any) -> int:
        return string_to_action(text)

    def play(self, move: Any) -> None:
        """Burako has no full-move form (docs/burako_engine.md §4): one action in its notation."""
        if not isinstance(move, str):
            raise InvalidNotationError(f"a move is action text such as 'draw' or 'add R5', not {shown(move)}")
        self.apply(string_to_action(move))

    def clone(self) -> BurakoState:
        s = BurakoState.__new__(BurakoState)
        s.__dict__.update(self.__dict__)  # scalars and the shared game; the containers below are copied
        s._cache = dict(self._cache)
        s._rng = self._rng.clone()
        s._history = list(self._history)
        s._hand_scores = [list(x) for x in self._hand_scores]
        s._totals = list(self._totals)
        s._racks = [list(r) for r in self._racks]
        s._buffer = list(self._buffer)
        s._melds = [[(k, list(t)) for k, t in team] for team in self._melds]
        s._pozo = list(self._pozo)
        s._stock = list(self._stock)
        s._muertos = [list(m) for m in self._muertos]
        s._muerto = list(self._muerto)
        s._unplayed = list(self._unplayed)
        return s

    # -- serialisation (docs/burako_engine.md §10) -------------------------------------------------

    def _as_dict(self) -> dict[str, Any]:
        return {
            "buffer": list(self._buffer),
            "cancels": self._cancels,
            "drawn": self._drawn,
            "game": "burako",
            "hand": self._hand,
            "hand_scores": [list(x) for x in self._hand_scores],
            "history": list(self._history),
            "mano": self._mano,
            "melds": [[{"kind": k, "tiles": list(t)} for k, t in team] for team in self._melds],
            "muerto_status": list(self._muerto),
            "muerto_unplayed": list(self._unplayed),
            "muertos": [list(m) for m in self._muertos],
            "must_use": self._must_use,
            "no_discard": self._no_discard,
            "options": self._o,
            "phase": self._phase,
            "pozo": list(self._pozo),
            "racks": [listed(r) for r in self._racks],
            "rng": str(self._rng.state),
            "stock": list(self._stock),
            "terminal": self._terminal,
            "to_move": self._to_move,
            "totals": list(self._totals),
            "turns": self._turns,
            "version": 1,
            "winner": self._winner,
        }

    # -- what a seat sees (docs/burako_engine.md §11) ----------------------------------------------

    def _rack_sizes(self) -> list[int]:
        sizes = [sum(r) for r in self._racks]
        if not self._terminal:
            sizes[self._to_move] += len(self._buffer)
        return sizes

    def _meld_view(self, kind: str, tiles: list[int]) -> dict[str, Any]:
        w = meld_facts(tiles, self._o, kind)[1]  # type: ignore[index]
        return {
            "kind": kind,
            "tiles": [tile_str(t) for t in tiles],
            "pure": w == 0,
            "canasta": len(tiles) >= self._o["canasta_min"],
        }

    def _public_view(self) -> dict[str, Any]:
        return self._view(None)

    def _view(self, p: int | None) -> dict[str, Any]:
        """What ``p`` may see; the public view for None (no rack, buffer or drawn tile, every
        hidden add masked)."""
        mover = not self._terminal and p == self._to_move
        if self._o["pozo_visibility"] == "top_only":
            pozo = [tile_str(self._pozo[-1])] if self._pozo else []
        else:
            pozo = [tile_str(t) for t in self._pozo]
        return {
            "player": p,
            "current_player": self._rules_current_player(),
            "mano": self._mano,
            "hand": self._hand,
            "phase": self._phase,
            "turns": self._turns,
            "rack": None if p is None else [tile_str(t) for t in listed(self._racks[p])],
            "buffer": None if p is None else [tile_str(t) for t in self._buffer] if mover else [],
            "rack_sizes": self._rack_sizes(),
            "melds": [[self._meld_view(k, t) for k, t in team] for team in self._melds],
            "pozo": pozo,
            "pozo_size": len(self._pozo),
            "stock_size": len(self._stock),
            "muertos_left": len(self._muertos),
            "muerto_status": [STATUS_WORDS[x] for x in self._muerto],
            "drawn": tile_str(self._drawn) if mover and self._drawn != -1 else None,
            "must_use": tile_str(self._must_use) if self._must_use != -1 else None,
            "no_discard": tile_str(self._no_discard) if self._no_discard != -1 else None,
            "cancels": self._cancels,
            "totals": list(self._totals),
            "hand_scores": [list(x) for x in self._hand_scores],
            "terminal": self._terminal,
            "winner": self._winner,
            "history": view_history(self, p),
        }

    def _resample_into(self, seat: int, seed: int, out: Any) -> None:
        resample_into(self, seat, seed, out)

    def _observation(self, p: int) -> np.ndarray:
        P = self.game.num_players
        obs = np.zeros(self.game.observation_shape, dtype=np.float32)
        mover = not self._terminal and p == self._to_move
        obs[0:53] = self._racks[p]
        if mover:
            obs[53:106] = counts(self._buffer)
        me = self._team(p)
        for block, team in ((106, me), (2101, 1 - me)):
            for m, (kind, tiles) in enumerate(self._melds[team]):
                base = block + 57 * m
                obs[base] = kind == "run"
                obs[base + 1] = kind == "pierna"
                obs[base + 2 : base + 55] = counts(tiles)
                w = meld_facts(tiles, self._o, kind)[1]  # type: ignore[index]
                obs[base + 55] = w == 0
                obs[base + 56] = len(tiles) >= self._o["canasta_min"]
        if self._o["pozo_visibility"] == "all_tiles":
            obs[4096:4149] = counts(self._pozo)
        if self._pozo:
            obs[4149 + self._pozo[-1]] = 1
        obs[4202] = len(self._pozo)
        obs[4203] = len(self._stock)
        sizes = self._rack_sizes()
        for j in range(P):
            obs[4204 + j] = sizes[(p + j) % P]
        base = 4204 + P
        for i, team in enumerate((me, 1 - me)):
            obs[base + 3 * i + self._muerto[team]] = 1
        obs[4210 + P] = self._turns == 0
        obs[4211 + P] = (not self._terminal) and self._phase == MELD and self._redraw_legal()
        obs[4212 + P] = self._cancels
        obs[4213 + P] = self._turns
        obs[4214 + P] = len(self._hand_scores)
        obs[4215 + P] = self._totals[me]
        obs[4216 + P] = self._totals[1 - me]
        obs[4217 + P + (self._mano - p) % P] = 1
        return obs

    # -- for people ----------------------------------------------------------------------------

    def __str__(self) -> str:
        P = self.game.num_players

        def text(tiles: Iterable[int]) -> str:
            return " ".join(tile_str(t) for t in tiles) or "-"

        lines = [f"burako, hand {self._hand}, mano: seat {self._mano}, turn {self._turns + 1}, totals {self._totals}"]
        for s in range(P):
            mark = "  <- to move" if s == self.current_player() else ""
            of_team = f" (team {self._team(s)})" if P == 4 else ""
            lines.append(f"  seat {s}{of_team}: {text(listed(self._racks[s]))}{mark}")
        if self._buffer:
            lines.append(f"  new meld being laid: {text(self._buffer)}")
        for team in (0, 1):
            status = STATUS_WORDS[self._muerto[team]]
            lines.append(f"  team {team} melds (muerto {status}):")
            for m, (kind, tiles) in enumerate(self._melds[team]):
                v = self._meld_view(kind, tiles)
                marks = ("pure" if v["pure"] else "impure") + (" canasta" if v["canasta"] else "")
                lines.append(f"    {m}: {kind} {text(tiles)} ({marks})")
        lines.append(f"  pozo (top last): {text(self._pozo)}")
        lines.append(f"  stock: {len(self._stock)} tiles, muertos left: {len(self._muertos)}")
        if self._terminal:
            lines.append("  match over: " + (f"team {self._winner} wins" if self._winner != -1 else "drawn"))
        return "\n".join(lines)
