"""Burako: what a seat knows of the history, and resampling in its information set
(docs/burako_engine.md §11, §15). The native engine's ``games/burako/resample.rs`` implements the
same steps and the same random draws.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .._resample import place_merged
from .._rng import SplitMix64
from .options import hand_size, muerto_size
from .tiles import NUM_TYPES, listed

if TYPE_CHECKING:
    from .state import BurakoState

__all__ = ["MASKED_ADD", "HandLog", "view_history", "resample_into", "past_racks"]

DRAW, TAKE, REDRAW, ADD0, MELD, CANCEL, DISCARD0, EXTEND0 = 0, 1, 2, 3, 56, 57, 58, 111
#: An add whose tile the seat did not see (docs/burako_engine.md §11).
MASKED_ADD = "add ?"
#: What a hidden add of an earlier hand is rewritten to: ``add R1``.
CANONICAL_ADD = ADD0


def _hidden_adds(history: list[int]) -> list[bool]:
    """Per entry: an add of a group that no ``meld`` laid down (cancelled, or still pending)."""
    out = [False] * len(history)
    i, n = 0, len(history)
    while i < n:
        if ADD0 <= history[i] < MELD:
            j = i
            while j < n and ADD0 <= history[j] < MELD:
                j += 1
            if j == n or history[j] != MELD:
                for k in range(i, j):
                    out[k] = True
            i = j
        else:
            i += 1
    return out


class HandLog:
    """The current hand's actions in the history, replayed on public facts only: who made each,
    what each seat is known to hold (tiles taken from the pozo, docs/rules/burako.md §5.1), which pozo
    places the seat has seen, and the muerto takes. ``full`` when the hand's start lies in the
    history (else the log starts at the history's start and knows nothing before it)."""

    def __init__(self, x: BurakoState) -> None:
        P = x.game.num_players
        self.start, self.full = self._find_start(x)
        self.ok = False
        self.actor: list[int] = []
        self.known: list[list[int]] = []  # per seat, tiles surely held
        self.pozo_seen: list[int] = []  # the current pozo, -1 where unseen
        self.muerto_at: list[tuple[int, int]] = []  # (history index, seat) of each muerto take
        self.take_unknown: dict[int, int] = {}  # history index of a take -> its unseen tiles
        self.redraw_at = -1
        if self.full:
            self._replay(x, [hand_size(x._o)] * P)
            return
        # A record that starts before its hand's start (a ``setup`` state): the rack sizes at the
        # record's start are undone from now, each seat of a team whose muerto is taken having taken
        # it before the record or (when that does not fit) within it, the first choice that fits.
        now = [sum(r) for r in x._racks]
        if not x._terminal:
            now[x._to_move] += len(x._buffer)
        big = 1 << 20
        ends = self._replay(x, [big] * P)
        base = [now[s] - (ends[s] - big) for s in range(P)]
        K = muerto_size(x._o)
        taken = [s for s in range(P) if x._muerto[s % 2] != 0]
        fits = False
        for mask in range(1 << len(taken)):
            took = {taken[b] for b in range(len(taken)) if mask >> b & 1}
            if len({s % 2 for s in took}) != len(took):
                continue
            ends = self._replay(x, [base[s] - (K if s in took else 0) for s in range(P)])
            if self.ok and ends == now and {s for _, s in self.muerto_at} == took and len(self.muerto_at) == len(took):
                fits = True
                break
        if not fits:
            self._replay(x, base)
            self.ok = False

    def _replay(self, x: BurakoState, sizes: list[int]) -> list[int]:
        """Reads the record from rack sizes (rack and buffer) ``sizes`` at its start; returns the
        sizes at its end."""
        h = x._history
        P = x.game.num_players
        discards = sum(1 for a in h[self.start :] if DISCARD0 <= a < EXTEND0)
        self.ok = not x._terminal
        first = 0 if x._terminal else x._to_move
        self.actor = [-1] * len(h)
        self.known = [[0] * NUM_TYPES for _ in range(P)]
        # The pozo's places: a tile type, or -1 where the seat did not see it.
        pozo: list[int] = [] if self.full else [-1] * max(0, len(x._pozo) - self._pozo_added(h[self.start :]))
        K = muerto_size(x._o)
        sizes = list(sizes)
        self.muerto_at = []
        self.take_unknown = {}
        self.redraw_at = -1
        s = (first - discards) % P
        buffer: list[int] = []
        for i in range(self.start, len(h)):
            a = h[i]
            self.actor[i] = s
            kn = self.known[s]
            if a == DRAW:
                sizes[s] += 1
            elif a == TAKE:
                sizes[s] += len(pozo)
                self.take_unknown[i] = sum(1 for t in pozo if t < 0)
                for t in pozo:
                    if t >= 0:
                        kn[t] += 1
                pozo = []
            elif a == REDRAW:
                pozo.append(-1)
                self.redraw_at = i
            elif a < MELD:
                buffer.append(a - ADD0)
            elif a == CANCEL:
                buffer = []
            else:
                if a == MELD:
                    played = buffer
                    buffer = []
                elif a < EXTEND0:
                    played = [a - DISCARD0]
                    pozo.append(a - DISCARD0)
                else:
                    played = [(a - EXTEND0) % NUM_TYPES]
                for t in played:
                    kn[t] = max(0, kn[t] - 1)
                sizes[s] -= len(played)
                if sizes[s] < 0:
                    self.ok = False
                    break
                if sizes[s] == 0:
                    self.muerto_at.append((i, s))
                    sizes[s] = K
                if DISCARD0 <= a < EXTEND0:
                    s = (s + 1) % P
        self.pozo_seen = pozo
        if len(pozo) != len(x._pozo) or any(t >= 0 and t != u for t, u in zip(pozo, x._pozo)):
            self.ok = False
        if self.ok and s != x._to_move:
            self.ok = False
        return sizes

    @staticmethod
    def _pozo_added(h: list[int]) -> int:
        """Pozo places added since the last take in ``h`` (all of ``h`` when none)."""
        n = 0
        for a in h:
            if a == TAKE:
                n = 0
            elif a == REDRAW or DISCARD0 <= a < EXTEND0:
                n += 1
        return n

    @staticmethod
    def _find_start(x: BurakoState) -> tuple[int, bool]:
        """The index of the current hand's first action: before the ``turns`` discards of the hand,
        at its first draw (docs/burako_engine.md §5)."""
        h = x._history
        if x._terminal:
            return len(h), False
        j = len(h)
        need = x._turns
        while need > 0 and j > 0:
            j -= 1
            if DISCARD0 <= h[j] < EXTEND0:
                need -= 1
        if need > 0:
            return 0, False
        if x._turns == 0 and x._phase == "draw":
            return len(h), len(h) > 0 or x._hand > 1 or True
        k = j - 1 if x._turns > 0 else len(h) - 1
        while k >= 0 and h[k] not in (DRAW, TAKE):
            k -= 1
        if k < 0 or h[k] != DRAW:
            return 0, False
        return k, True


def view_history(x: BurakoState, p: int | None) -> list[Any]:
    """``p``'s record of the history (docs/burako_engine.md §11): ids as applied, except the adds
    of another seat's group that no meld laid down, and in earlier hands every such add (every
    hidden add for None, the public view)."""
    log = HandLog(x)
    hidden = _hidden_adds(x._history)
    return [
        MASKED_ADD if hidden[i] and (p is None or i < log.start or log.actor[i] != p) else a
        for i, a in enumerate(x._history)
    ]


def past_racks(x: BurakoState, log: HandLog, seats: list[int], need: bool | int) -> list[list[list[int]]] | None:
    """Each seat's tiles held (rack and buffer) before each action of the current hand, undone from
    now in ``x``: the tiles it played come back, and what it gained from hidden places goes, the
    lowest type it holds beyond what it must still hold earlier. ``need``: the tiles of every
    cancelled group are among what the seat must hold (for a replay of every seat's adds).
    Returns per history index (from ``log.start``) per seat the counts, or None when no past fits."""
    h = x._history
    P = x.game.num_players
    held = [list(x._racks[s]) for s in range(P)]
    if not x._terminal:
        for t in x._buffer:
            held[x._to_move][t] += 1
    hidden = _hidden_adds(h)
    needs = [hidden[i] and (need is True or log.actor[i] == need) for i in range(len(h))]
    known_takes: dict[int, list[int]] = {}
    pozo: list[int] = []
    d_taker = -1
    for i in range(log.start, len(h)):
        a = h[i]
        if a == TAKE:
            known_takes[i] = [t for t in pozo if t >= 0]
            if -1 in pozo and log.redraw_at >= 0:
                d_taker = i
            pozo = []
        elif a == REDRAW:
            pozo.append(-1)
        elif DISCARD0 <= a < EXTEND0:
            pozo.append(a - DISCARD0)
    out: list[list[list[int]]] = [[] for _ in range(len(h) - log.start)]
    K = muerto_size(x._o)
    muerto_ends = dict(log.muerto_at)
    d_value = x._pozo[0] if log.redraw_at >= 0 and d_taker < 0 and x._pozo else -1

    def safe(s: int, t: int, i: int) -> bool:
        """Whether seat ``s`` can have gained a ``t`` just after entry ``i``: every earlier need of
        a ``t`` (a take of one seen, a required add) is still met."""
        v = held[s][t] - 1
        for j in range(i, log.start - 1, -1):
            if log.actor[j] != s:
                continue
            a = h[j]
            if a == MELD:
                k = j - 1
                while k >= log.start and ADD0 <= h[k] < MELD:
                    v += h[k] - ADD0 == t
                    k -= 1
            elif DISCARD0 <= a < EXTEND0:
                v += a - DISCARD0 == t
            elif a >= EXTEND0:
                v += (a - EXTEND0) % NUM_TYPES == t
            elif a == TAKE:
                v -= known_takes[j].count(t)
                if v < 0:
                    return False
            elif ADD0 <= a < MELD and needs[j] and not (j > log.start and ADD0 <= h[j - 1] < MELD):
                # a required group: its tiles were held before its first add
                k, c = j, 0
                while k < len(h) and ADD0 <= h[k] < MELD:
                    c += h[k] - ADD0 == t
                    k += 1
                if v < c:
                    return False
        return True

    def drop_unknown(s: int, i: int) -> int:
        hs = held[s]
        for t in range(NUM_TYPES):
            if hs[t] > 0 and safe(s, t, i):
                hs[t] -= 1
                return t
        for t in range(NUM_TYPES):
            if hs[t] > 0:
                hs[t] -= 1
                return t
        return -1

    for i in range(len(h) - 1, log.start - 1, -1):
        a = h[i]
        s = log.actor[i]
        if i in muerto_ends:
            for _ in range(K):
                if drop_unknown(s, i - 1) < 0:
                    return None
        if a == DRAW:
            if i + 1 == log.redraw_at and d_value >= 0:
                if held[s][d_value] == 0:
                    return None
                held[s][d_value] -= 1
            elif x._drawn >= 0 and i == len(h) - 1:
                if held[s][x._drawn] == 0:
                    return None
                held[s][x._drawn] -= 1
            elif drop_unknown(s, i - 1) < 0:
                return None
        elif a == TAKE:
            for t in known_takes[i]:
                if held[s][t] == 0:
                    return None
                held[s][t] -= 1
            for _ in range(log.take_unknown.get(i, 0)):
                t = drop_unknown(s, i - 1)
                if t < 0:
                    return None
                if i == d_taker:
                    d_value = t
        elif a == REDRAW:
            if d_value < 0 or drop_unknown(s, i - 1) < 0:
                return None
            held[s][d_value] += 1
        elif a < MELD:
            pass
        elif a == MELD:
            pass
        elif a == CANCEL:
            pass
        elif a < EXTEND0:
            held[s][a - DISCARD0] += 1
        else:
            held[s][(a - EXTEND0) % NUM_TYPES] += 1
        if a == MELD:
            j = i - 1
            while j >= log.start and ADD0 <= h[j] < MELD:
                held[s][h[j] - ADD0] += 1
                j -= 1
        out[i - log.start] = [list(held[q]) for q in seats]
    return out


def _single_take(x: BurakoState, log: HandLog, p: int) -> int:
    """The type ``u`` of a 1-tile pozo that the mover (not ``p``) took this turn under
    ``single_tile_pozo_rediscard = forbidden`` holding one tile, which was then not a ``u``
    (docs/burako_engine.md §7) and which it still holds (no muerto since); the ``u`` a discard in
    the record; else -1."""
    h = x._history
    if x._terminal or x._no_discard < 0 or x._to_move == p or not log.ok or TAKE not in h[log.start :]:
        return -1
    i = len(h) - 1 - h[::-1].index(TAKE)
    # the taken tile must be in the record (a discard), else the seat's known tiles miss it
    if i == log.start or not DISCARD0 <= h[i - 1] < EXTEND0 or any(m > i for m, _ in log.muerto_at):
        return -1
    played = sum(1 for a in h[i + 1 :] if a >= EXTEND0)
    for j in range(i + 1, len(h)):
        if h[j] == MELD:
            k = j - 1
            while ADD0 <= h[k] < MELD:
                played += 1
                k -= 1
    held = sum(x._racks[x._to_move]) + len(x._buffer)
    return x._no_discard if held + played - 1 == 1 else -1


#: Placements drawn at most, for a take that must have been legal, before the last is kept.
MAX_TRIES = 64


def _take_now(x: BurakoState, log: HandLog, p: int) -> list[int] | None:
    """The pozo (bottom first) that the mover (not ``p``) took this turn under
    ``pozo_take_requirement = must_use_top_tile_now`` when it has played no tile since (its rack
    then is its holdings less the pozo) and every tile of it is in the record; else None."""
    h = x._history
    if x._terminal or x._o["pozo_take_requirement"] != "must_use_top_tile_now" or x._to_move == p or not log.ok:
        return None
    i = len(h) - 1
    while i >= log.start and (ADD0 <= h[i] < MELD or h[i] == CANCEL):
        i -= 1
    if i < log.start or h[i] != TAKE or log.take_unknown.get(i, 0):
        return None
    j = i - 1
    while j >= log.start and h[j] != TAKE:
        j -= 1
    return [a - DISCARD0 for a in h[j + 1 : i] if DISCARD0 <= a < EXTEND0]


def _take_fits(out: BurakoState, taken: list[int]) -> bool:
    """Whether ``take pozo`` was legal (docs/burako_engine.md §7) for the mover of ``out`` holding
    its tiles less ``taken``, with ``taken`` the pozo: the engine's own check on that position."""
    y = out.clone()
    m = y._to_move
    held = list(y._racks[m])
    for t in y._buffer:
        held[t] += 1
    for t in taken:
        if not held[t]:
            return False
        held[t] -= 1
    y._racks = [list(r) for r in y._racks]
    y._racks[m] = held
    y._buffer = []
    y._pozo = list(taken)
    y._phase = "draw"
    y._must_use = y._no_discard = y._drawn = -1
    y._cancels = 0
    y._cache = {}
    return y._take_pozo_legal()


def resample_into(x: BurakoState, p: int, seed: int, out: BurakoState) -> None:
    """docs/burako_engine.md §15, written into ``out`` (a clone of ``x``)."""
    rng = SplitMix64(seed)
    h = out._history
    log = HandLog(x)
    hidden = _hidden_adds(h)
    # Every add the seat's record masks is canonical first, so that no hidden id can stay: those
    # of other seats in the current hand are then rewritten from the placement alone.
    for i in range(len(h)):
        if hidden[i] and (i < log.start or log.actor[i] != p):
            h[i] = CANONICAL_ADD
    if not log.ok:
        out._rng = SplitMix64(rng.next())
        return
    P = x.game.num_players
    mover = x._to_move
    others = [s for s in range(P) if s != p]
    caps: list[int] = []
    rack_at, buf_at, drawn_at = {}, {}, {}
    for s in others:
        d = 1 if s == mover and x._drawn >= 0 else 0
        rack_at[s] = len(caps)
        caps.append(sum(x._racks[s]) - d)
        if s == mover and x._buffer:
            buf_at[s] = len(caps)
            caps.append(len(x._buffer))
        if d:
            drawn_at[s] = len(caps)
            caps.append(1)
    stock_at = len(caps)
    caps.append(len(x._stock))
    muerto_at = len(caps)
    caps.extend(len(m) for m in x._muertos)
    top_only = x._o["pozo_visibility"] == "top_only"
    unseen = sum(1 for t in log.pozo_seen if t < 0) if top_only else 0
    unseen = min(unseen, max(0, len(x._pozo) - 1))
    pozo_at = len(caps)
    caps.append(unseen)
    counts = [0] * NUM_TYPES
    for s in others:
        for t in listed(x._racks[s]):
            counts[t] += 1
        if s == mover:
            for t in x._buffer:
                counts[t] += 1
    for t in x._stock:
        counts[t] += 1
    for m in x._muertos:
        for t in m:
            counts[t] += 1
    for t in x._pozo[:unseen]:
        counts[t] += 1
    every = (1 << len(caps)) - 1
    not_u, not_mask = _single_take(x, log, p), 0
    if not_u >= 0:
        not_mask = (1 << rack_at[mover]) | (1 << buf_at[mover] if mover in buf_at else 0)
    cards: list[int] = []
    allowed: list[int] = []
    for t in range(NUM_TYPES):
        left = counts[t]
        for s in others:
            k = min(left, log.known[s][t])
            mask = (1 << rack_at[s]) | (1 << buf_at[s] if s in buf_at else 0)
            cards.extend([t] * k)
            allowed.extend([mask] * k)
            left -= k
        cards.extend([t] * left)
        allowed.extend([every & ~not_mask if t == not_u else every] * left)
    taken = _take_now(x, log, p)
    for _ in range(MAX_TRIES):
        got = place_merged(cards, allowed, caps, rng)
        if got is None:
            out._rng = SplitMix64(rng.next())
            return
        for s in others:
            r = [0] * NUM_TYPES
            for t in got[rack_at[s]]:
                r[t] += 1
            if s in drawn_at:
                out._drawn = got[drawn_at[s]][0]
                r[out._drawn] += 1
            out._racks[s] = r
            if s in buf_at:
                out._buffer = sorted(got[buf_at[s]])
        out._stock = list(got[stock_at])
        out._muertos = [list(got[muerto_at + j]) for j in range(len(x._muertos))]
        out._pozo = list(got[pozo_at]) + list(x._pozo[unseen:])
        # docs/burako_engine.md §15: the mover's take this turn must have been legal with the rack
        # the placement gives it then; else the placement is drawn again (at most MAX_TRIES).
        if taken is None or _take_fits(out, taken):
            break
    # Other seats' hidden adds: the pending group is the top of the buffer (its adds in the record,
    # ascending); a cancelled group, the lowest tiles its seat held then in a past that fits, or
    # canonical when no past fits or the group is longer than what the seat held in it.
    pending = 0
    if mover in buf_at:
        while pending < len(out._buffer) and len(h) - 1 - pending >= log.start and ADD0 <= h[-1 - pending] < MELD:
            pending += 1
        for k in range(pending):
            h[len(h) - pending + k] = ADD0 + out._buffer[len(out._buffer) - pending + k]
    racks = past_racks(out, log, others, p)
    i = log.start
    while i < len(h) - pending:
        s = log.actor[i]
        if not hidden[i] or s == p:
            i += 1
            continue
        k = i
        while k < len(h) - pending and hidden[k] and log.actor[k] == s and ADD0 <= h[k] < MELD:
            k += 1
        tiles = listed(racks[i - log.start][others.index(s)]) if racks is not None else []
        if len(tiles) >= k - i:
            for q in range(k - i):
                h[i + q] = ADD0 + tiles[q]
        i = k
    out._rng = SplitMix64(rng.next())
