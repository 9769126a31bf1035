"""Scoring a deal (docs/rules/escoba.md §1.7, §1.8, §2; docs/escoba_engine.md §7): the hand declarations
(tuzzoli, knocks) and the awards of a deal, in count-out order."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence

from ...cards import card_id
from .cards import (
    _NAPOLA_RUN,
    _PRIMIERA_VALUES,
    _RANK_OF_CHAR,
    COINS,
    MARESCIALLO,
    RE_BELLO,
    SETTEBELLO,
    SWORDS,
    _rank,
    _suit,
    card_value,
    pack_of,
)
from .double_pack import awards as double_awards
from .double_pack import napola_points, sweep_value
from .most import _most

# ---------------------------------------------------------------------------------------------
# Scoring a deal (docs/escoba_engine.md §7)
# ---------------------------------------------------------------------------------------------


#: Tuzzoli declarations (docs/rules/escoba.md §2.8): kind -> (name, points); kind 0 = nothing to declare.
TUZZOLI = {0: ("none", 0), 1: ("tuzzolo", 3), 2: ("two_tuzzoli", 6), 3: ("buongioco", 6), 4: ("napoli", 7)}


def _tuzzoli_kind(hand: Iterable[int], hybrids: bool) -> int:
    """Its A, 2 and 3 are L: three of one rank = buongioco (3), three of one suit = napoli (4),
    else one tuzzolo per pair of L sharing rank or suit (at most one without hybrids)."""
    low = sorted(c for c in hand if _rank(c) in (1, 2, 3))
    if len(low) == 3 and len({_rank(c) for c in low}) == 1:
        return 3
    if len(low) == 3 and len({_suit(c) for c in low}) == 1:
        return 4
    pairs = sum(1 for a, b in itertools.combinations(low, 2) if _rank(a) == _rank(b) or _suit(a) == _suit(b))
    return min(pairs, 2 if hybrids else 1)


#: Knock declarations (docs/rules/escoba.md §2.7) continue the tuzzoli kinds: 5 cirulla, 6 decino, 7 both.
KNOCKS = {5: "cirulla", 6: "decino", 7: "cirulla_decino"}


def _knock_points(kind: int, opts: dict) -> int:
    k = opts["knocks"]
    return {5: k.get("cirulla", 0), 6: k.get("decino", 0), 7: k.get("cirulla", 0) + k.get("decino", 0)}.get(kind, 0)


def _decl(kind: int, opts: dict) -> tuple[str, int]:
    """Name and points of any hand declaration kind (tuzzoli 1..4, knocks 5..7)."""
    if kind in TUZZOLI:
        return TUZZOLI[kind]
    return KNOCKS[kind], _knock_points(kind, opts)


def _knock_kind(values: Sequence[int], opts: dict) -> int:
    """Cirulla: three cards worth at most 9; decino: three of one value (= one rank). Both: the
    one worth more (decino on equal points), or both with ``knocks_cumulative``."""
    k = opts["knocks"]
    low = "cirulla" in k and sum(values) <= 9
    three = "decino" in k and len(set(values)) == 1
    if low and three:
        if opts["knocks_cumulative"]:
            return 7
        return 5 if k["cirulla"] > k["decino"] else 6
    return 6 if three else 5 if low else 0


def _knock_best(hand: Iterable[int], opts: dict) -> tuple[int, int]:
    """(kind, matta value): the hand's best knock; a matta in it takes the value 1..10 worth the
    most points, the highest such value on a tie (its natural value when nothing qualifies)."""
    hand = sorted(hand)
    m = card_id(opts["matta"]) if opts["matta"] is not None else None
    natural = card_value(m) if m is not None else 0
    if len(hand) != 3 or not opts["knocks"]:
        return 0, natural
    if m not in hand:
        return _knock_kind([card_value(c) for c in hand], opts), natural
    others = [card_value(c) for c in hand if c != m]
    best, value, points = 0, natural, 0
    for v in range(1, 11):
        kind = _knock_kind(others + [v], opts)
        if kind and _knock_points(kind, opts) >= points:
            best, value, points = kind, v, _knock_points(kind, opts)
    return best, value


def tally(pile: Iterable[int], opts: dict) -> tuple[int, int, int, int | None]:
    """(cards, coins, settebelli, primiera) of one pile: with the double pack each ``7d`` copy is
    a settebello; the primiera adds the best card per suit (the 8, 9, 10 of the 52-card pack have
    no primiera value), None when a suit is missing and ``primiera_requires_all_suits``."""
    pile = list(pile)
    primiera = None
    if opts["primiera_mode"] in _PRIMIERA_VALUES:
        values = _PRIMIERA_VALUES[opts["primiera_mode"]]
        best: dict[int, int] = {}
        for c in pile:
            if _rank(c) in values:
                best[_suit(c)] = max(best.get(_suit(c), 0), values[_rank(c)])
        primiera = None if len(best) < 4 and opts["primiera_requires_all_suits"] else sum(best.values())
    coins = sum(1 for c in pile if _suit(c) == COINS)
    return len(pile), coins, pile.count(SETTEBELLO), primiera


class Deal:
    """What the awards of a finished deal read (docs/escoba_engine.md §7): each side's pile (a
    twin listed twice), the sweeps in the order made (the side of each) with the indices of the
    ``Ks`` sweeps (kept with ``maresciallo_penalty`` only) and of the twin sweeps, and the hand
    declarations as (side, points, sweeps made before it)."""

    def __init__(
        self,
        piles: Sequence[Iterable[int]],
        sweeps: Sequence[int],
        opts: dict,
        declared: Sequence[tuple[int, int, int]] = (),
        ks_sweeps: Iterable[int] = (),
        twin_sweeps: Iterable[int] = (),
    ) -> None:
        self.opts = opts
        self.piles = [sorted(p) for p in piles]
        self.held = [set(p) for p in self.piles]
        self.n = len(self.piles)
        self.sides = list(range(self.n))
        self.sweeps = list(sweeps)
        self.declared = list(declared)
        self.ks_at = set(ks_sweeps) if opts["maresciallo_penalty"] else set()
        self.twin_at = set(twin_sweeps)
        self.tallies = [tally(p, opts) for p in self.piles]
        self.coins = [t[1] for t in self.tallies]
        self.sevens = [sum(1 for c in p if _rank(c) == 7) for p in self.piles]

    def to(self, winners: Iterable[int], points: int) -> list[int]:
        """The award of ``points`` to each of ``winners``."""
        vec = [0] * self.n
        for s in winners:
            vec[s] += points
        return vec

    def most(self, values: Sequence[int], points: int, candidates: Sequence[int] | None = None) -> list[int]:
        """``points`` to the side with the most (docs/rules/escoba.md §1.7 "Ties")."""
        return self.to(_most(values, self.sides if candidates is None else candidates, self.opts), points)

    def coin_run(self, s: int) -> int:
        """The unbroken run of coins from the Ace in side ``s``'s pile."""
        run = 0
        while run < len(_NAPOLA_RUN) and _NAPOLA_RUN[run] in self.held[s]:
            run += 1
        return run


#: One award step: the point vectors (one per side) it gives, in count-out order.
Award = Callable[[Deal], list[list[int]]]


def deal_awards(deal: Deal, steps: Sequence[Award]) -> list[list[int]]:
    """The awards of a deal in count-out order, each a list of points per side; those that give
    nobody any point are left out."""
    return [vec for step in steps for vec in step(deal) if any(vec)]


def _frac_points(d: Deal) -> list[list[int]]:
    """docs/rules/escoba.md §2.16: one point per A, J, Q, K held."""
    return [[sum(1 for c in d.held[s] if _rank(c) in (1, 11, 12, 13)) for s in d.sides]]


def _frac_scope(d: Deal) -> list[list[int]]:
    """docs/rules/escoba.md §2.16 ``frac_counts_scope``: each sweep scores."""
    return [d.to([s], d.opts["scopa_value"]) for s in d.sweeps]


def _cards(d: Deal) -> list[list[int]]:
    """1. Most cards; with ``cards_tie_points`` a tie at the top gives each tied side that many
    (docs/rules/escoba.md §2.24: 26-26 gives 1 each)."""
    count = [t[0] for t in d.tallies]
    top = [s for s in d.sides if count[s] == max(count)]
    if d.opts["cards_tie_points"] is not None and len(top) > 1:
        return [d.to(top, d.opts["cards_tie_points"])]
    return [d.most(count, d.opts["cards"])]


def _coins(d: Deal) -> list[list[int]]:
    """2. Most coins."""
    return [d.most(d.coins, d.opts["coins"])]


def _settebello(d: Deal) -> list[list[int]]:
    """3. The settebello ``7d`` (each copy, with the double pack)."""
    return [[d.opts["settebello"] * t[2] for t in d.tallies]]


def _primiera(d: Deal) -> list[list[int]]:
    """4. Primiera (standard or veneto): the best total among the eligible sides."""
    eligible = [s for s in d.sides if d.tallies[s][3] is not None]
    return [d.most([t[3] or 0 for t in d.tallies], d.opts["primiera"], eligible)]


def _primiera_milan(d: Deal) -> list[list[int]]:
    """4. Primiera as most sevens, the ties broken by the ranks of ``milan_tiebreak`` in turn."""
    candidates = d.sides
    winners: list[int] = []
    for ch in d.opts["milan_tiebreak"]:
        r = _RANK_OF_CHAR[ch]
        copies = [sum(1 for c in p if _rank(c) == r) for p in d.held]
        most = max(copies[s] for s in candidates)
        candidates = [s for s in candidates if copies[s] == most]
        if len(candidates) == 1:
            winners = candidates
            break
    else:
        winners = candidates if d.opts["category_tie_policy"] == "all_tied" else []
    return [d.to(winners, d.opts["primiera"])]


def _primiera_three_sevens(d: Deal) -> list[list[int]]:
    """4. Primiera to every side holding three sevens or more."""
    return [d.to([s for s in d.sides if d.sevens[s] >= 3], d.opts["primiera"])]


def _settanta(d: Deal) -> list[list[int]]:
    """5. Settanta: all four sevens."""
    return [d.to([s for s in d.sides if d.sevens[s] == 4], 1)]


def _coin_points(d: Deal) -> list[list[int]]:
    """6. Points per coin card."""
    return [[d.opts["coin_card_points"] * d.coins[s] for s in d.sides]]


def _special_cards(d: Deal) -> list[list[int]]:
    """7. Special cards (re bello adds ``Kd``: 1), in ascending card order."""
    special = {card_id(k): v for k, v in d.opts["special_cards"].items()}
    if d.opts["re_bello"]:
        special.setdefault(RE_BELLO, 1)
    return [d.to([s for s in d.sides if c in d.held[s]], special[c]) for c in sorted(special)]


def _napola(d: Deal) -> list[list[int]]:
    """8. Napola: the unbroken run of coins from the Ace, if at least A-2-3 (with
    ``napola_flat`` that many points instead of the run's length)."""
    flat = d.opts["napola_flat"]
    runs = [d.coin_run(s) for s in d.sides]
    return [[(run if flat is None else flat) if run >= 3 else 0 for run in runs]]


def _napola_double(d: Deal) -> list[list[int]]:
    """8. The double napola, side by side (docs/escoba_engine.md §1a)."""
    return [d.to([s], napola_points(p, d.opts["napola_flat"])) for s, p in enumerate(d.piles)]


def _escoba_bonuses(d: Deal) -> list[list[int]]:
    """9. Escoba: all four sevens, all the coins."""
    all_coins = len(pack_of(d.opts["deck"])) // 4
    return [
        d.to([s for s in d.sides if d.sevens[s] == 4], d.opts["all_sevens_bonus"]),
        d.to([s for s in d.sides if d.coins[s] == all_coins], d.opts["all_oros_bonus"]),
    ]


def _piccola(d: Deal) -> list[list[int]]:
    """9a. Piccola: the coin run from the Ace, if at least A-2-3, capped at ``piccola_max``."""
    runs = [min(d.coin_run(s), d.opts["piccola_max"]) for s in d.sides]
    return [d.to([s], run if run >= 3 else 0) for s, run in enumerate(runs)]


def _grande(d: Deal) -> list[list[int]]:
    """9b. Grande: J-Q-K of coins; with ``grande_extends`` +1 per coin of the unbroken run 7, 6, ... down."""
    out = []
    for s in d.sides:
        if all(13 * COINS + r - 1 in d.held[s] for r in (11, 12, 13)):
            more = 0
            if d.opts["grande_extends"]:
                while more < 7 and 13 * COINS + 7 - more - 1 in d.held[s]:
                    more += 1
            out.append(d.to([s], d.opts["grande"] + more))
    return out


def _maresciallo(d: Deal) -> list[list[int]]:
    """9c. Maresciallo (docs/rules/escoba.md §2.18): -1 for holding ``Ks`` (under ``total`` not
    for a side whose ``Ks`` sweep already cost -4), +1 polacca (its card with ``7d``), -1
    saponaro (its card with ``Ks``)."""
    o, held, out = d.opts, d.held, []
    if o["maresciallo_penalty"]:
        swept = {d.sweeps[i] for i in d.ks_at}
        total_mode = o["maresciallo_sweep"] == "total"
        out.append(d.to([s for s in d.sides if MARESCIALLO in held[s] and not (total_mode and s in swept)], -1))
    if o["polacca"]:
        out.append(d.to([s for s in d.sides if card_id(o["polacca_card"]) in held[s] and SETTEBELLO in held[s]], 1))
    if o["saponaro"]:
        out.append(d.to([s for s in d.sides if card_id(o["saponaro_card"]) in held[s] and MARESCIALLO in held[s]], -1))
    return out


def _maresciallo_double(d: Deal) -> list[list[int]]:
    """9c. The doubled maresciallo awards, side by side (docs/escoba_engine.md §1a)."""
    ks_minus4 = [0] * d.n
    for i in d.ks_at - d.twin_at:
        ks_minus4[d.sweeps[i]] += 1
    return [d.to([s], pts) for s, pts in double_awards(d.piles, d.opts, ks_minus4)]


def _swords(d: Deal) -> list[list[int]]:
    """9d. Cicera (docs/rules/escoba.md §2.24): the most swords, then the sword napula (the
    numeral run A 2 3 ... 10 from the Ace, if at least A-2-3: J, Q, K have no value)."""
    out = []
    if d.opts["swords"]:
        out.append(d.most([sum(1 for c in p if _suit(c) == SWORDS) for p in d.held], d.opts["swords"]))
    if d.opts["sword_napula"]:
        for s in d.sides:
            run = 0
            while run < 10 and 13 * SWORDS + run in d.held[s]:
                run += 1
            out.append(d.to([s], run if run >= 3 else 0))
    return out


def _sweeps(d: Deal) -> list[list[int]]:
    """10. The sweeps in the order they were made, each hand declaration at the moment it was made."""
    out = []
    pending = list(d.declared)
    for i, s in enumerate(d.sweeps):
        while pending and pending[0][2] <= i:
            side, points, _ = pending.pop(0)
            out.append(d.to([side], points))
        out.append(d.to([s], sweep_value(d.opts, i in d.ks_at, i in d.twin_at)))
    out += [d.to([side], points) for side, points, _ in pending]
    return out


def award_steps(opts: dict) -> tuple[Award, ...]:
    """The awards a deal is scored by, in count-out order, chosen once from the options
    (docs/escoba_engine.md §7; the double pack's: docs/escoba_engine.md §1a)."""
    if opts["scoring"] == "frac":
        return (_frac_points, _frac_scope) if opts["frac_counts_scope"] else (_frac_points,)
    primiera = {
        "standard": _primiera,
        "veneto": _primiera,
        "milan": _primiera_milan,
        "three_sevens": _primiera_three_sevens,
    }.get(opts["primiera_mode"])
    steps: list[Award | None] = [_cards, _coins, _settebello, primiera]
    if opts["deck"] == "double_italian80":  # what the double pack refuses has no step here
        steps += [_napola_double if opts["napola"] else None, _maresciallo_double]
    else:
        steps += [
            _settanta if opts["settanta_bonus"] else None,
            _coin_points if opts["coin_card_points"] else None,
            _special_cards,
            _napola if opts["napola"] else None,
            _escoba_bonuses,
            _piccola if opts["piccola"] else None,
            _grande if opts["grande"] else None,
            _maresciallo,
            _swords,
        ]
    return tuple(step for step in steps + [_sweeps] if step is not None)
