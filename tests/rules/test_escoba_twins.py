"""The 80-card double pack of ``maresciallo_80`` (rules §2.18): the reference engine's multiset
mechanics (``tapete.reference.escoba_twins``). The native twin (``games/escoba/twins.rs``) has the
same hand calculations as Rust unit tests. The preset itself is not wired yet.

No §3 vector exists for the 80-card rules: every expected value is a hand calculation from §2.18,
shown in the comment next to it; none was obtained by running an engine.
"""

from __future__ import annotations

from tapete.reference.escoba import resolve_options
from tapete.reference.escoba_twins import (
    PACK80,
    awards,
    captures,
    napola_points,
    supported,
    sweep_points,
    tally,
)

RANKS = "A23456789TJQK"
SUITS = "cdhs"


def cid(card: str) -> int:
    return 13 * SUITS.index(card[1]) + RANKS.index(card[0])


def ids(text: str) -> list[int]:
    return sorted(cid(w) for w in text.split())


def caps(opts: dict, card: str, table: str) -> dict[tuple[int, ...], bool]:
    return captures(cid(card), ids(table), opts)


def cap(text: str) -> tuple[int, ...]:
    return tuple(ids(text))


MAR = resolve_options(variant="maresciallo")


def test_options_covered():
    assert supported(MAR)


def test_pack_has_two_adjacent_copies():
    # DESIGN §5 (as for tiles): ascending ids, the two copies adjacent
    assert len(PACK80) == 80 and PACK80[:4] == (0, 0, 1, 1) and PACK80[-1] == cid("Ks")


def test_twin_may_not_be_captured_except_to_sweep():
    # §2.18: 5s may not take the other 5s; the twin is no match, so no match priority: the sum
    # 2c + 3d = 5 is the only capture
    assert caps(MAR, "5s", "5s 2c 3d") == {cap("2c 3d"): True}
    # another 5 is a match and has priority over the sum
    assert caps(MAR, "5s", "5s 5c 2c 3d") == {cap("5c"): True}
    # the twin alone: a twin sweep, 3 points instead of 1
    assert caps(MAR, "5s", "5s") == {cap("5s"): True}
    assert sweep_points(cid("5s"), True, MAR) == 3
    assert sweep_points(cid("5s"), False, MAR) == 1


def test_both_copies_and_copy_blind_captures():
    # 4h: Ac + 3d = 4 and 2c + 2c = 4 (both copies: TAKE 2c twice, non-decreasing); Ac + 2c = 3
    assert caps(MAR, "4h", "Ac 2c 2c 3d") == {cap("Ac 3d"): True, cap("2c 2c"): True}
    # 5h on 2c 2c 3d: 2c + 3d is one move whichever 2c is taken
    assert caps(MAR, "5h", "2c 2c 3d") == {cap("2c 3d"): True}
    assert caps(MAR, "5h", "5c 5c") == {cap("5c"): True}


def test_ks_on_ks_and_other_ks_sweeps():
    # §2.18: Ks onto the only other Ks: +10 instead of any sweep value (not 3, not -4)
    assert caps(MAR, "Ks", "Ks") == {cap("Ks"): True}
    assert sweep_points(cid("Ks"), True, MAR) == 10
    # Ks sweeping Kc: the usual -4
    assert caps(MAR, "Ks", "Kc") == {cap("Kc"): True}
    assert sweep_points(cid("Ks"), False, MAR) == -4
    # the other Ks with more cards on the table is refused; Kc is taken
    assert caps(MAR, "Ks", "Ks Kc 3d") == {cap("Kc"): True}
    assert caps(MAR, "Ks", "Ks 3d") == {}


def test_ace_takes_all_with_twins():
    # the Ace takes the whole table (no scopa), both copies included
    assert caps(MAR, "Ah", "2c 2c 5d") == {cap("2c 2c 5d"): False}
    # blocked by a table Ace: Ac is a match; the twin Ah is refused (not the whole table)
    assert caps(MAR, "Ah", "Ah Ac 5d") == {cap("Ac"): True}
    assert caps(MAR, "Ah", "Ah") == {cap("Ah"): True}


def test_double_napola():
    # §2.18 [D]: L1 over first copies, L2 needs both; (L1 if >= 3) + (L2 if >= 3)
    # A-5 of coins once, A-4 twice: L1 = 5, L2 = 4 -> 9
    assert napola_points(ids("Ad Ad 2d 2d 3d 3d 4d 4d 5d")) == 9
    # A-4 once, A-2 twice: L1 = 4, L2 = 2 (< 3) -> 4
    assert napola_points(ids("Ad Ad 2d 2d 3d 4d")) == 4
    assert napola_points(ids("2d 2d 3d 3d 4d 4d")) == 0


def test_doubled_awards():
    o = dict(MAR, saponaro=True)
    # side 0: Jd Jd 7d 7d = 2 polacche (+2); side 1: Ks Ks = -2 maresciallo, Js + Ks = 1 saponaro (-1)
    assert awards([ids("Jd Jd 7d 7d"), ids("Ks Ks Js")], o, [0, 0]) == [(1, -2), (0, 2), (1, -1)]
    # Jd Jd 7d: one pair, +1; the other 7d in the other pile
    assert awards([ids("Jd Jd 7d"), ids("7d Ks")], o, [0, 0]) == [(1, -1), (0, 1)]
    # total: side 1's one -4 Ks sweep replaces the -1 of one of its two Ks -> -1
    o = dict(MAR, maresciallo_sweep="total")
    assert awards([ids("2c"), ids("Ks Ks")], o, [0, 1]) == [(1, -1)]


def test_tallies_over_80_cards():
    # 7d twice: 2 settebelli; coins 7d 7d Ad = 3; 6 cards; primiera 7d 21 + 7c 21 + 6h 18 + Ks 10 = 70
    assert tally(ids("7d 7d Ad 7c 6h Ks"), MAR) == (6, 3, 2, 70)
    assert tally(ids("7d 7d"), MAR)[3] is None
