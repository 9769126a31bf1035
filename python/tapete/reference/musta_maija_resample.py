"""Musta Maija resampling (docs/musta_maija_engine.md §11): the public record of the current hand,
what it tells of where each hidden card may be, and the draw of a consistent placement."""

from __future__ import annotations

import heapq
from typing import Any

from ._resample import place
from ._rng import SplitMix64
from .musta_maija import DONE, MAIJA, TAKE_ALL, _beats, _max_matching

__all__ = ["Timeline", "timeline", "assign_arrivals", "resample_into"]


class Timeline:
    """What everybody saw in the current hand, per seat (docs/musta_maija_engine.md §11):
    ``arrivals[s]``, ``(time, count)`` of the cards that entered hand s unseen (the deal at time
    ``start - 1``, then each refill at the index of the action that caused it); ``departures[s]``,
    ``(time, card)`` of the cards s played that nobody had seen enter its hand; ``defences[s]``,
    ``(time, forbidden, beaters)`` of each finished defence of s under ``beat_optional=false``:
    the commit's index, the cards s cannot have held then, and the cards it beat with."""

    def __init__(self, n: int, start: int) -> None:
        self.start = start
        self.arrivals: list[list[tuple[int, int]]] = [[(start - 1, 0)] for _ in range(n)]
        self.departures: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        self.defences: list[list[tuple[int, frozenset[int], frozenset[int]]]] = [[] for _ in range(n)]
        #: per card, the latest time it cannot have been in the seat's hand (it entered after)
        self.lo: list[dict[int, int]] = [{} for _ in range(n)]
        #: the loser of a hand that ended at the attack cap, else -1
        self.cap_loser = -1
        #: every refill in the order it took cards from the stock: ``(time, seat)``
        self.draws: list[tuple[int, int]] = []


def forbidden_cards(pairs: dict[int, int], left: set[int], trump: int) -> frozenset[int]:
    """The cards a defender who had to beat as many targets as possible
    (docs/rules/musta_maija.md §4.2) cannot have held unused: those that beat a target reachable from a left one by an
    alternating path through the beaten pairs (any of them would have beaten one more)."""
    reach = set(left)
    grew = True
    while grew:
        grew = False
        for t, c in pairs.items():
            if t not in reach and any(_beats(z, c, trump) for z in reach):
                reach.add(t)
                grew = True
    return frozenset(c for c in range(52) if any(_beats(z, c, trump) for z in reach))


_MAX_BRANCHES = 64  # pending replays of earlier hands whose loser the record leaves open
_MAX_ROUNDS = 10_000  # placements drawn before the record is given up


class _Hand:
    """Public counts of one hand being replayed from its deal (``index``: its first action)."""

    def __init__(self, x: Any, index: int, current: bool) -> None:
        n, hs = x.game.num_players, x._o["hand_size"]
        self.x, self.n, self.hs, self.current = x, n, hs, current
        self.line = Timeline(n, index)
        self.sizes = [hs] * n
        self.stock = 52 - n * hs
        self.known: list[set[int]] = [set() for _ in range(n)]
        turned = x._turned - {x._trump}
        for s in range(n):
            self.line.arrivals[s][0] = (index - 1, hs)
            self.line.lo[s] = {c: index - 1 for c in turned}  # back into the stock: never dealt

    def active(self, s: int) -> bool:
        return self.sizes[s] > 0 or self.stock > 0

    def next_active(self, s: int) -> int:
        for k in range(1, self.n + 1):
            if self.active((s + k) % self.n):
                return (s + k) % self.n
        return s

    def refill(self, s: int, at: int) -> None:
        got = 0
        while self.sizes[s] < self.hs and self.stock > 0:
            self.stock -= 1
            self.sizes[s] += 1
            if self.stock == 0 and self.current:
                self.known[s].add(self.x._trump)  # the face-up trump card, drawn last
            else:
                got += 1
        if got:
            self.line.arrivals[s].append((at, got))
            self.line.draws.append((at, s))

    def leave(self, s: int, c: int, at: int) -> None:
        self.sizes[s] -= 1
        if c in self.known[s]:
            self.known[s].discard(c)
        else:
            self.line.departures[s].append((at, c))


def _replay(x: Any, first_dealer: int) -> Timeline | None:
    """Replays the match's actions on public counts only, the first hand dealt by
    ``first_dealer``; the current hand's timeline, or None when no replay ends at this state's
    public position. Where the record leaves an earlier hand's loser open (the attack cap), each
    candidate is tried, lowest seat first."""
    o, n = x._o, x.game.num_players
    h = x._history
    strict = not o["beat_optional"]
    trump_suit = x._trump // 13 if x._trump >= 0 else -1
    # (index, hand number, dealer, losses)
    branches: list[tuple[int, int, int, list[int]]] = [(0, 1, first_dealer, [0] * n)]
    while branches:
        i, hand_no, dealer, losses = branches.pop()
        current = hand_no == x._hand_no
        g = _Hand(x, i, current)
        line = g.line
        attacks = 0
        a = (dealer + 1) % n
        d = g.next_active(a)
        defending, commit = False, 0
        attack: list[int] = []
        pairs: dict[int, int] = {}
        left: set[int] = set()
        ended: list[int] | None = None
        by_cap = bad = False
        while i < len(h) and ended is None:
            act = h[i]
            if not defending:
                if act == DONE:
                    attacks += 1
                    if o["draw_order"] == "attacker_then_defender":
                        g.refill(a, i)
                    defending, commit = True, i
                elif act < 52 and act not in attack and len(attack) < 13:
                    g.leave(a, act, i)
                    attack.append(act)
                else:
                    bad = True
                    break
            else:
                undecided = [t for t in sorted(attack) if t not in pairs and t not in left]
                if not undecided:
                    bad = True
                    break
                if act == TAKE_ALL:
                    left |= set(undecided)
                elif act == DONE:
                    left.add(undecided[0])
                else:
                    g.leave(d, act, i)
                    pairs[undecided[0]] = act
                if len(pairs) + len(left) == len(attack):
                    if strict and current:
                        gone = {c for _, c in line.departures[d]}
                        for c in forbidden_cards(pairs, left, trump_suit) - set(pairs.values()) - gone:
                            line.lo[d][c] = commit
                    g.sizes[d] += len(left)
                    g.known[d] |= left
                    g.refill(d, i)
                    if o["draw_order"] == "defender_then_attacker":
                        g.refill(a, i)
                    holders = [s for s in range(n) if g.sizes[s]]
                    all_beaten = not left
                    defending, attack, pairs, left = False, [], {}, set()
                    if len(holders) <= 1 and g.stock == 0:
                        ended = holders
                    elif o["max_attacks"] is not None and attacks >= o["max_attacks"]:
                        # the loser holds Qs (docs/musta_maija_engine.md §4): known, or any holder
                        ended = [s for s in range(n) if MAIJA in g.known[s]] or holders
                        by_cap = True
                    else:
                        a = d if all_beaten and g.active(d) else g.next_active(d)
                        d = g.next_active(a)
            i += 1
        if bad:
            continue
        if ended is None:
            same = (
                current
                and i == len(h)
                and ("defend" if defending else "attack") == x._phase
                and a == x._attacker
                and d == x._defender
                and g.sizes == [len(s) for s in x._hands]
                and g.known == x._known
                and g.stock == len(x._stock)
                and dealer == x._dealer
                and losses == x._losses
            )
            if same:
                return line
            continue
        if current:
            finals = [[v + (s == loser) for s, v in enumerate(losses)] for loser in ended]
            if i == len(h) and x._phase == "end" and dealer == x._dealer and x._losses in finals:
                if by_cap:
                    line.cap_loser = ended[finals.index(x._losses)]
                return line
            continue
        for loser in reversed(ended):  # the lowest seat is tried first
            if len(branches) == _MAX_BRANCHES:
                break
            more = list(losses)
            more[loser] += 1
            nxt = loser if o["next_dealer"] == "loser" else (dealer + 1) % n
            branches.append((i, hand_no + 1, nxt, more))
    return None


def timeline(x: Any) -> Timeline:
    """The current hand's public timeline of state ``x``, or no record (``_no_record``)."""
    n = x.game.num_players
    if x._hand_no == 1:
        firsts = [x._dealer]
    elif x._o["next_dealer"] == "rotate_left":
        firsts = [(x._dealer - x._hand_no + 1) % n]
    else:
        firsts = list(range(n))
    for first in firsts:
        line = _replay(x, first)
        if line is not None:
            return line
    return _no_record(x)


def _no_record(x: Any) -> Timeline:
    """No replay explains the state (one made by ``setup``, whose history starts at a position
    the state does not keep): the record starts now, every unseen card as if dealt."""
    n = x.game.num_players
    line = Timeline(n, len(x._history))
    for s in range(n):
        line.arrivals[s][0] = (line.start - 1, len(x._hands[s] - x._known[s]))
    return line


def _windows(x: Any, line: Timeline, s: int, cards: list[int]) -> list[tuple[int, int, int]]:
    """``(lo, hi, card)``: card may have entered hand s at a time strictly between lo and hi."""
    never = len(x._history) + 1
    gone = {c: t for t, c in line.departures[s]}
    return [(line.lo[s].get(c, line.start - 2), gone.get(c, never), c) for c in cards]


def assign_arrivals(x: Any, line: Timeline, s: int, cards: list[int]) -> dict[int, int] | None:
    """A time of entry for each card that went through hand s unseen (``cards``: those it played
    and those it holds), consistent with the counts and the defences; None when there is none.
    Earliest deadline first, which finds one whenever one exists."""
    wins = sorted(_windows(x, line, s, cards))
    out: dict[int, int] = {}
    k = 0
    heap: list[tuple[int, int]] = []
    for at, count in sorted(line.arrivals[s]):
        while k < len(wins) and wins[k][0] < at:
            heapq.heappush(heap, (wins[k][1], wins[k][2]))
            k += 1
        for _ in range(count):
            if not heap:
                return None
            hi, c = heapq.heappop(heap)
            if hi <= at:
                return None
            out[c] = at
    return out if k == len(wins) and not heap else None


def _defence_so_far_legal(x: Any, hand: set[int]) -> bool:
    """Under ``beat_optional=false``, the defence under way could have been played so far with
    the defender holding ``hand`` (docs/musta_maija_engine.md §3: the beaten count can still reach
    the maximum matching, which every earlier step's legality then implies)."""
    trump = x._trump // 13
    start = hand | set(x._beaten.values())
    undecided = [t for t in x._attack if t not in x._beaten and t not in x._left]
    need = _max_matching(x._attack, start, trump)
    return len(x._beaten) + _max_matching(undecided, hand, trump) >= need


def resample_into(x: Any, seat: int, seed: int, out: Any) -> None:
    """``out`` (a clone of ``x``) with every card hidden from ``seat`` placed again
    (docs/musta_maija_engine.md §11)."""
    n = x.game.num_players
    rng = SplitMix64(seed)
    bottom = [x._trump] if x._stock and x._stock[-1] == x._trump else []
    others = [s for s in range(n) if s != seat]
    hidden_of = {s: sorted(x._hands[s] - x._known[s]) for s in others}
    cards = sorted([c for s in others for c in hidden_of[s]] + x._stock[: len(x._stock) - len(bottom)])
    caps = [len(hidden_of[s]) for s in others] + [len(x._stock) - len(bottom)]
    stock_bit = 1 << len(others)
    line = timeline(x)
    allowed = [stock_bit] * len(cards)
    for k, s in enumerate(others):
        # a card may be in hand s only if some refill of s came after the last time it could not
        # have been there (the full check, counts included, is _consistent's)
        last = line.arrivals[s][-1][0]
        for i, (lo, _, _) in enumerate(_windows(x, line, s, cards)):
            if lo < last:
                allowed[i] |= 1 << k
    if line.cap_loser >= 0 and MAIJA in cards:
        # the hand ended at the cap: its loser holds Qs, or Qs is in the stock and the loser has
        # the most cards, the lowest such seat (docs/musta_maija_engine.md §4)
        loser = line.cap_loser
        sizes = [len(h) for h in x._hands]
        mask = stock_bit if sizes.index(max(sizes)) == loser else 0
        if loser != seat:
            mask |= 1 << others.index(loser)
        allowed[cards.index(MAIJA)] = mask
    for _ in range(_MAX_ROUNDS):
        slots = place(cards, allowed, caps, rng)
        if slots is None:
            return  # only an unreachable state gets here: out stays a copy
        if _consistent(x, line, others, slots):
            break
    else:
        # the record explains no placement drawn (a state whose history it misreads): any
        every = (1 << (len(others) + 1)) - 1
        slots = place(cards, [every] * len(cards), caps, rng)
        if slots is None:
            return
    for k, s in enumerate(others):
        out._hands[s] = set(x._known[s]) | set(slots[k])
    out._stock = list(slots[-1]) + bottom
    out._rng = SplitMix64(rng.next())


def _consistent(x: Any, line: Timeline, others: list[int], slots: list[list[int]]) -> bool:
    """Every other seat's hand in ``slots`` could have come about (docs/musta_maija_engine.md §11)."""
    for k, s in enumerate(others):
        played = [c for _, c in line.departures[s]]
        if assign_arrivals(x, line, s, played + slots[k]) is None:
            return False
        if x._phase == "defend" and s == x._defender and not x._o["beat_optional"]:
            if not _defence_so_far_legal(x, set(x._known[s]) | set(slots[k])):
                return False
    return True
