"""The 80-card double pack of ``maresciallo_80`` (docs/rules/escoba.md §2.18): the reference engine's multiset
mechanics (``tapete.reference.escoba_twins``), then the preset on both engines. The native twin
(``games/escoba/twins.rs``) has the same function-level hand calculations as Rust unit tests.

No docs/rules/escoba.md §3 vector exists for the 80-card rules: every expected value is a hand calculation from
docs/rules/escoba.md §2.18, shown in the comment next to it; none was obtained by running an engine.
"""

from __future__ import annotations

import pytest
from cardlib import PACK40, cid

from tapete.errors import InvalidStateError
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
    # docs/design.md §5 (as for tiles): ascending ids, the two copies adjacent
    assert len(PACK80) == 80 and PACK80[:4] == (0, 0, 1, 1) and PACK80[-1] == cid("Ks")


def test_twin_may_not_be_captured_except_to_sweep():
    # docs/rules/escoba.md §2.18: 5s may not take the other 5s; the twin is no match, so no match priority: the sum
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
    # docs/rules/escoba.md §2.18: Ks onto the only other Ks: +10 instead of any sweep value (not 3, not -4)
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
    # docs/rules/escoba.md §2.18 [D]: L1 over first copies, L2 needs both; (L1 if >= 3) + (L2 if >= 3)
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


# --- the preset on both engines (fixture ``engine``), through setup ---
# hand calculations of docs/rules/escoba.md §2.18


def game80(engine, **extra):
    return engine.Escoba(variant="maresciallo_80", **extra)


def test_preset_deal_is_four_hands_of_five(engine):
    """docs/rules/escoba.md §2.18: two packs, 5 cards to each of 4 players, no table; 80 = 4 hands x 20 cards."""
    s = game80(engine).new_state(3)
    v = s.view(0)
    assert v["hand_sizes"] == [5, 5, 5, 5] and v["table"] == [] and v["stock_size"] == 60


def test_card_may_not_take_its_twin_unless_sweeping(engine):
    """docs/rules/escoba.md §2.18: 5c onto 5c 5d: the twin 5c is no match for it (no sweep), so the only capture is 5d
    and it is applied at once; the table keeps 5c; no sweep."""
    s = game80(engine).setup(hands=[["Ah"], ["Ad"], ["Ac"], ["5c"]], table=["5c", "5d"], dealer=2, to_move=3)
    assert s.legal_actions() == [cid("5c")]
    s.apply("5c")
    v = s.view(0)
    assert v["table"] == ["5c"] and v["piles"] == [[], ["5c", "5d"]] and v["scope"] == [0, 0]


def test_a_sum_may_take_both_copies(engine):
    """docs/rules/escoba.md §2.18, §6.2 (read as non-decreasing): 7h onto 2c 2c 3d 5h: 2+2+3 = 7 and 2+5 = 7 (either
    copy of 2c: one move). Both start with 2c; after TAKE 2c both still fit, so TAKE 2c (the
    second copy) and TAKE 5h are legal; TAKE 2c again fixes 2c 2c 3d, applied at once."""
    s = game80(engine).setup(
        hands=[["Ah"], ["Ad"], ["Ac"], ["7h"]], table=["2c", "2c", "3d", "5h"], dealer=2, to_move=3
    )
    s.apply("7h")
    assert s.legal_actions() == [52 + cid("2c")]
    s.apply("take 2c")
    assert s.legal_actions() == [52 + cid("2c"), 52 + cid("5h")]
    s.apply("take 2c")
    v = s.view(0)
    assert v["table"] == ["5h"] and v["piles"][1] == ["2c", "2c", "3d", "7h"]


def _last_play(engine, card: str, taken: str):
    """Seat 3 (side 1) holds ``card`` and plays the last card of the deal onto ``taken`` (both
    copies of one id); side 0's pile holds the other 78 cards; sweeps on the last play count."""
    rest = [c for c in PACK40 for _ in range(2)]
    rest.remove(card)
    rest.remove(taken)
    g = game80(engine, scopa_on_last_play=True)
    s = g.setup(hands=[[], [], [], [card]], table=[taken], piles=[rest, []], dealer=3, to_move=3)
    s.apply(card)
    return s


def test_twin_sweep_scores_three(engine):
    """docs/rules/escoba.md §2.18: 6h onto the lone 6h is a twin sweep worth 3. Side 0 (78 cards, all 20 coins, both
    7d, Jd, Ks): cards 1 + coins 1 + settebello 2 (one per 7d copy) + primiera 1 (side 1 holds
    hearts only) + napola 10 + 10 (both runs A..K) - 2 (two Ks held) + polacca 2 (two Jd+7d
    pairs) = 25; side 1: the twin sweep 3."""
    s = _last_play(engine, "6h", "6h")
    assert s.is_terminal()
    assert s.view(0)["deal_points"] == [[25, 3]]


def test_ks_onto_ks_scores_ten(engine):
    """docs/rules/escoba.md §2.18: Ks onto the only other Ks scores +10 instead of a sweep value; the -1 per Ks held
    still applies (side 1 holds both: -2). Side 0: 1 + 1 + 2 + 1 + 20 + polacca 2 = 27 (no Ks);
    side 1: 10 - 2 = 8."""
    s = _last_play(engine, "Ks", "Ks")
    assert s.view(0)["deal_points"] == [[27, 8]]
    assert s.view(0)["twin_sweeps"] == [0, 1] and s.view(0)["ks_sweeps"] == [0, 1]


def test_twin_sweep_without_primiera(engine):
    """docs/rules/escoba.md §2.18 with ``primiera_mode=none`` (an option the double pack accepts): the deal of
    ``test_twin_sweep_scores_three`` without its primiera point: side 0 = 25 - 1 = 24, side 1 = 3."""
    rest = [c for c in PACK40 for _ in range(2)]
    rest.remove("6h")
    rest.remove("6h")
    g = game80(engine, scopa_on_last_play=True, primiera_mode="none")
    s = g.setup(hands=[[], [], [], ["6h"]], table=["6h"], piles=[rest, []], dealer=3, to_move=3)
    s.apply("6h")
    assert s.view(0)["deal_points"] == [[24, 3]]


# --- the rule primitives on multisets (docs/escoba_engine.md §1a, §7) ---
# hand calculations of docs/rules/escoba.md §2.18

M80 = {"variant": "maresciallo_80"}


def test_capture_options_on_a_multiset_table(engine):
    """docs/rules/escoba.md §2.18: the twin is no capture for a card unless it sweeps; captures that differ only in
    the copy taken are one; a sum may take both copies (listed twice)."""
    co = engine.escoba.capture_options
    # 5s onto 5s 2c 3d: the twin is no match, so the sum 2c + 3d = 5 is the only capture
    assert co("5s", ["5s", "2c", "3d"], **M80) == [["2c", "3d"]]
    # 5s onto the lone 5s: a twin sweep
    assert co("5s", ["5s"], **M80) == [["5s"]]
    # 7h onto 2c 2c 3d 5h: 2 + 2 + 3 and 2 + 5 (either copy of 2c: one outcome); sorted by ids
    assert co("7h", ["2c", "2c", "3d", "5h"], **M80) == [["2c", "2c", "3d"], ["2c", "5h"]]
    # 6c onto 3d 3d: 3 + 3 takes both copies; no match, so no trail either
    assert co("6c", ["3d", "3d"], **M80) == [["3d", "3d"]]
    # Kc onto Kc's twin and 5d: no capture, so the trail alone
    assert co("Kc", ["Kc", "5d"], **M80) == [[]]
    # the played card's twin may also be in the hand
    assert co("4c", ["2d", "2h"], hand=["4c"], **M80) == [["2d", "2h"]]


def test_capture_options_refuses_a_third_copy(engine):
    with pytest.raises(InvalidStateError):
        engine.escoba.capture_options("5s", ["5s", "5s"], **M80)
    with pytest.raises(InvalidStateError):
        engine.escoba.capture_options("5s", ["5s", "2c"], hand=["5s"], **M80)
    # one pack: a card given twice is still refused
    with pytest.raises(InvalidStateError):
        engine.escoba.capture_options("5s", ["2c", "2c"], variant="maresciallo")


def _piles_without_ks():
    """Side 0: the 78 cards that are not Ks; side 1: both Ks (as in ``test_ks_onto_ks_scores_ten``:
    side 0's categories are 27, side 1's are -2 for the two Ks held)."""
    rest = [c for c in PACK40 for _ in range(2) if c != "Ks"]
    return [rest, ["Ks", "Ks"]]


def test_score_deal_with_twin_and_ks_sweeps(engine):
    """docs/rules/escoba.md §2.18 on the double pack. Side 0: 27 (cards 1, coins 1, settebelli 2, primiera 1, napola
    10 + 10, polacca 2) plus one twin sweep 3 = 30.
    Side 1, scope 2 with one Ks sweep and one twin sweep:
    - the Ks sweep onto the other Ks (ks_on_ks=1, counted in both lists): +10, the other sweep +1,
      -2 for both Ks held: 9;
    - else a Ks sweep -4 and a twin sweep +3, with -2 for both Ks held (replace): -3;
    - with maresciallo_sweep=total the -4 replaces the -1 of the Ks it was: -4 + 3 - 1 = -2."""
    sd = engine.escoba.score_deal
    piles = _piles_without_ks()
    assert sd(piles, [1, 2], None, [0, 1], [1, 1], 1, **M80) == [30, 9]
    assert sd(piles, [1, 2], None, [0, 1], [1, 1], **M80) == [30, -3]
    assert sd(piles, [1, 2], None, [0, 1], [1, 1], maresciallo_sweep="total", **M80) == [30, -2]
    # no sweep records: plain sweeps, 1 each
    assert sd(piles, [1, 2], **M80) == [28, 0]
    # without maresciallo_penalty a Ks sweep is any sweep and Ks onto Ks a twin sweep (3); the
    # two Ks held cost nothing: side 1 = 3 + 1
    assert sd(piles, [1, 2], None, [0, 1], [1, 1], 1, maresciallo_penalty=False, **M80) == [30, 4]


@pytest.mark.parametrize(
    "args, extra",
    [
        (([["Ks", "Ks", "Ks"], []], [0, 0]), {}),  # a third copy
        ((_piles_without_ks(), [1, 2], None, [0, 0], [0, 1], 1), {}),  # ks_on_ks without a Ks sweep
        ((_piles_without_ks(), [1, 2], None, [0, 1], [0, 0], 1), {}),  # ...or without a twin sweep
        ((_piles_without_ks(), [1, 2], None, [0, 2], [0, 2]), {}),  # 2 + 2 records > scope 2
        ((_piles_without_ks(), [1, 2], None, [0, 0], [2, 0]), {}),  # twin_sweeps > scope
        ((_piles_without_ks(), [1, 2], None, [0, 1], [0, 1], 2), {}),  # ks_on_ks not a side
        (([["Ks"], ["Kc"]], [0, 1], None, None, [0, 1]), {"variant": "maresciallo"}),  # one pack
    ],
)
def test_score_deal_refuses_inconsistent_sweeps(engine, args, extra):
    with pytest.raises(InvalidStateError):
        engine.escoba.score_deal(*args, **(extra or M80))
