"""Rules tests for Musta Maija: the test vectors TV-MM01..TV-MM25 of ``docs/rules/musta_maija.md`` §9.

Every test runs against both engines (fixture ``engine`` in ``tests/conftest.py``) through the
public API only: the primitives ``engine.musta_maija.can_beat`` / ``legal_attacks`` /
``trump_from_stock`` and ``engine.MustaMaija(...)`` states (``setup``/``new_state``, ``apply``/``play``,
``legal_actions``, ``view``, ``scores``, ``returns``, ``to_json``).

Every expected value comes from the rules file (docs/rules/musta_maija.md §9) or from a hand calculation written next to
it; none was obtained by running an engine. Where a test goes beyond the vector (an option, a protocol
detail), the comment names the section of the rules file or of the contract
(``docs/musta_maija_engine.md``) it follows.

Card ids (docs/design.md §4): id = 13*suit + (rank - 1), suits c=0 d=1 h=2 s=3, J=11 Q=12 K=13; Qs = 50.
Action ids (docs/rules/musta_maija.md §8): CARD(c) = c, DONE = 52, TAKE_ALL = 53.
"""

from __future__ import annotations

import json

import pytest
from cardlib import PACK52 as PACK
from cardlib import SplitMix64, cid, rest_of

from tapete.errors import IllegalActionError

DONE, TAKE_ALL = 52, 53


def ids(*cards: str) -> list[int]:
    return [cid(c) for c in cards]


def by_id(cards) -> list[str]:
    return sorted(cards, key=cid)


def state_json(state) -> dict:
    return json.loads(state.to_json())


def attack(state, *cards: str) -> None:
    """CARD(c) for each card (ascending id, docs/rules/musta_maija.md §8), then DONE."""
    for c in by_id(cards):
        state.apply(cid(c))
    state.apply(DONE)


# --------------------------------------------------------------------------------------------------
# Trump determination (docs/rules/musta_maija.md §2 step 3)


# x1..x29 of TV-MM01: 29 other cards; any cards will do (8D is turned before any of them).
X29 = [c for c in PACK if c not in ("Qs", "4s", "8d")][:29]


def test_tv_mm01_spades_reinserted_into_the_middle(engine):
    """TV-MM01: [QS, 4S, 8D, x1..x29] -> QS to index 15, then 4S to index 15, then 8D is trump:
    final stock [x1..x13, QS, 4S, x14..x29, 8D]."""
    trump, stock = engine.musta_maija.trump_from_stock(["QS", "4S", "8D", *X29])
    assert trump == "8d"
    assert stock == [*X29[:13], "Qs", "4s", *X29[13:], "8d"]
    assert len(stock) == 32


def test_tv_mm01_in_a_dealt_hand(engine):
    """TV-MM01 through new_state(deck=...): N=4, hand_size 5, so d[20..51] is the stock (docs/rules/musta_maija.md §2
    step 2).

    first_dealer=3: the seat at position k (k=0 is next(3) = seat 0) receives d[k], d[k+4], ...
    The 20 dealt cards are the last 20 of the pack (none of QS, 4S, 8D, x1..x29).
    """
    dealt = [c for c in PACK if c not in ("Qs", "4s", "8d", *X29)]
    assert len(dealt) == 20
    deck = dealt + ["Qs", "4s", "8d", *X29]
    s = engine.MustaMaija(first_dealer=3).new_state(seed=1, deck=deck)
    doc = state_json(s)
    assert doc["stock"] == ids(*X29[:13], "Qs", "4s", *X29[13:], "8d")
    assert doc["trump"] == cid("8d")
    for seat in range(4):
        assert doc["hands"][seat] == sorted(cid(dealt[seat + 4 * i]) for i in range(5))
    v = s.view(0)
    assert v["trump"] == "d" and v["trump_card"] == "8d" and v["trump_in_stock"] is True
    # docs/musta_maija_engine.md §5 step 3: every card turned, the trump card included, ascending id (8d=20 4s=42 Qs=50)
    assert v["turned"] == ["8d", "4s", "Qs"]
    # docs/rules/musta_maija.md §2 step 4: the first attacker is next(dealer) = seat 0, the defender seat 1
    assert (v["attacker"], v["defender"], s.current_player()) == (0, 1, 0)


def test_tv_mm02_non_spade_turned_directly(engine):
    """TV-MM02: N=5, [7H, y1..y26] -> trumps H, stock [y1..y26, 7H]."""
    ys = [c for c in PACK if c != "7h"][:26]
    trump, stock = engine.musta_maija.trump_from_stock(["7H", *ys], players=5)
    assert trump == "7h"
    assert stock == [*ys, "7h"]


def test_spades_can_be_trump_turns_the_first_card(engine):
    """docs/rules/musta_maija.md §7 spades_can_be_trump=true: the first turned card is always trump, Maija included."""
    trump, stock = engine.musta_maija.trump_from_stock(["Qs", "2c", "3c"], spades_can_be_trump=True)
    assert trump == "Qs"
    assert stock == ["2c", "3c", "Qs"]


def test_spade_turned_twice_ends_the_search(engine):
    """docs/rules/musta_maija.md §2 step 3: stock [4s, 5s]: 4s goes to index floor(1/2)=0 -> [4s, 5s] again; 4s turned a
    second time -> the first non-spade from the top; there is none -> 4s itself, moved to the bottom."""
    assert engine.musta_maija.trump_from_stock(["4s", "5s"]) == ("4s", ["5s", "4s"])
    # [4s, 5s, 2h]: 4s to index 1 -> [5s, 4s, 2h]; 5s to index 1 -> [4s, 5s, 2h]; 4s again ->
    # the first non-spade from the top is 2h.
    assert engine.musta_maija.trump_from_stock(["4s", "5s", "2h"]) == ("2h", ["4s", "5s", "2h"])


def test_random_reinsertion_draws_from_the_stream(engine):
    """docs/rules/musta_maija.md §2 step 3 spade_reinsert=random_position: index next() mod (len(R)+1), from the seeded
    stream.

    Stock [Qs, 2c, 3c, 4c]: R has 3 cards, index = next() mod 4 of SplitMix64(seed); the top is
    then a club unless the index is 0 (Qs on top again: turned twice -> first non-spade 2c).
    """
    for seed in range(6):
        index = SplitMix64(seed).next() % 4
        rest = ["2c", "3c", "4c"]
        after = rest[:index] + ["Qs"] + rest[index:]
        top = after[0] if after[0] != "Qs" else "2c"
        expected = [c for c in after if c != top] + [top]
        got = engine.musta_maija.trump_from_stock(["Qs", "2c", "3c", "4c"], seed=seed, spade_reinsert="random_position")
        assert got == (top, expected), seed


# --------------------------------------------------------------------------------------------------
# Attacks (docs/rules/musta_maija.md §4.1)


def test_tv_mm03_single_suit(engine):
    """TV-MM03: 7H 7D 9H: {7H,7D} illegal (two suits), {7H,9H} legal against >= 2 cards.
    Every set, sorted by id lists (7d=19, 7h=32, 9h=34): [7d] [7h] [7h,9h] [9h]."""
    sets = engine.musta_maija.legal_attacks(["7H", "7D", "9H"], 2)
    assert sets == [["7d"], ["7h"], ["7h", "9h"], ["9h"]]


def test_tv_mm03_single_suit_in_play(engine):
    """TV-MM03 step by step: after 7h only higher hearts (9h) and DONE."""
    s = engine.MustaMaija(players=2).setup(hands=[["7h", "7d", "9h"], ["2c", "3c", "Qs"]], trump="Kd", attacker=0)
    assert s.legal_actions() == ids("7d", "7h", "9h")
    s.apply("7h")
    assert s.legal_actions() == [cid("9h"), DONE]
    with pytest.raises(IllegalActionError):
        s.apply("7d")


def test_tv_mm04_maija_counts_as_a_spade(engine):
    """TV-MM04: {QS, 9S} legal (CARD(47) then CARD(50)); {QS, 9H} illegal."""
    sets = engine.musta_maija.legal_attacks(["Qs", "9s", "9h"], 2)
    assert ["9s", "Qs"] in sets
    assert not any("9h" in x and "Qs" in x for x in sets)
    s = engine.MustaMaija(players=2).setup(hands=[["Qs", "9s", "9h"], ["2c", "3c"]], trump="Kd")
    s.apply(47)
    assert s.legal_actions() == [50, DONE]
    s.apply(50)
    assert s.legal_actions() == [DONE]  # the defender holds 2 cards: the cap is reached
    s2 = engine.MustaMaija(players=2).setup(hands=[["Qs", "9s", "9h"], ["2c", "3c"]], trump="Kd")
    s2.apply("9h")
    assert 50 not in s2.legal_actions()


def test_tv_mm05_size_limit(engine):
    """TV-MM05: the defender holds 2: {3H,5H,9H} illegal, {5H,9H} legal.
    Ids 3h=28 5h=30 9h=34: [3h] [3h,5h] [3h,9h] [5h] [5h,9h] [9h]."""
    sets = engine.musta_maija.legal_attacks(["3h", "5h", "9h"], 2)
    assert sets == [["3h"], ["3h", "5h"], ["3h", "9h"], ["5h"], ["5h", "9h"], ["9h"]]
    s = engine.MustaMaija(players=2).setup(hands=[["3h", "5h", "9h"], ["2c", "Qs"]], trump="Kd")
    s.apply("5h")
    assert s.legal_actions() == [cid("9h"), DONE]
    s.apply("9h")
    assert s.legal_actions() == [DONE]


def test_tv_mm06_attack_larger_than_five(engine):
    """TV-MM06: the defender holds 7; all six clubs 2C 4C 6C 8C TC QC is legal (6 <= 7)."""
    hand = ["2c", "4c", "6c", "8c", "Tc", "Qc", "5h"]
    assert ["2c", "4c", "6c", "8c", "Tc", "Qc"] in engine.musta_maija.legal_attacks(hand, 7)
    # docs/rules/musta_maija.md §7 attack_limit=defender_hand_size_max_5: at most 5 cards
    capped = engine.musta_maija.legal_attacks(hand, 7, attack_limit="defender_hand_size_max_5")
    assert max(len(x) for x in capped) == 5
    s = engine.MustaMaija(players=2).setup(hands=[hand, ["Ad", "2d", "3d", "4d", "5d", "6d", "Qs"]], trump="Kh")
    for c in ["2c", "4c", "6c", "8c", "Tc"]:
        s.apply(c)
    assert s.legal_actions() == [cid("Qc"), DONE]
    s.apply("Qc")
    s.apply(DONE)
    assert s.view(0)["attack"] == ["2c", "4c", "6c", "8c", "Tc", "Qc"]
    assert s.current_player() == 1


def test_tv_mm24_encoding_order(engine):
    """TV-MM24: after CARD(32) (7H): CARD(30) (5H) illegal, CARD(34) (9H) legal, CARD(20) (8D) illegal."""
    s = engine.MustaMaija(players=2).setup(hands=[["5h", "7h", "9h", "8d"], ["2c", "3c", "Qs"]], trump="Kd")
    s.apply(32)
    before = s.to_json()
    for bad in (30, 20):
        with pytest.raises(IllegalActionError):
            s.apply(bad)
        assert s.to_json() == before
    assert s.legal_actions() == [34, DONE]
    assert TAKE_ALL not in s.legal_actions()


# --------------------------------------------------------------------------------------------------
# Beating (docs/rules/musta_maija.md §4.2)


def _beats(engine, target, trump, verdicts):
    """``can_beat(target, card, trump)`` is the bool ``verdicts[card]`` for every card listed."""
    got = {card: engine.musta_maija.can_beat(target, card, trump) for card in verdicts}
    assert got == verdicts and all(type(v) is bool for v in got.values())


def test_tv_mm07_beating_a_plain_card(engine):
    """TV-MM07: trump D, target 9H: JH yes, 8H no, 2D yes, KS no."""
    _beats(engine, "9h", "d", {"Jh": True, "8h": False, "2d": True, "Ks": False})


def test_tv_mm08_beating_a_trump(engine):
    """TV-MM08: trump D, target 9D: TD yes, AH no, 2D no."""
    _beats(engine, "9d", "D", {"Td": True, "Ah": False, "2d": False})


def test_tv_mm10_maija_cannot_beat(engine):
    """TV-MM10: trump H, target JS: QS no, KS yes, 3H yes."""
    _beats(engine, "Js", "h", {"Qs": False, "Ks": True, "3h": True})


def test_tv_mm11_spades_as_trumps(engine):
    """TV-MM11: trump S, target JS: QS no, KS yes, AH no; target QS: nothing beats it."""
    _beats(engine, "Js", "s", {"Qs": False, "Ks": True, "Ah": False})
    cb = engine.musta_maija.can_beat
    assert not any(cb("Qs", c, "s") for c in PACK if c != "Qs")


def test_can_beat_ace_high_and_no_trump(engine):
    """docs/rules/musta_maija.md §1 ace high (A=14): Ah beats Kh; 2h does not beat Ah. docs/musta_maija_engine.md §1:
    trump None = no trump."""
    cb = engine.musta_maija.can_beat
    assert cb("Kh", "Ah", 0) is True
    assert cb("Ah", "2h", 0) is False
    assert cb("9h", "2d", None) is False
    assert cb("9h", "Th", None) is True


def test_tv_mm09_maija_cannot_be_beaten(engine):
    """TV-MM09: trump H, attack {QS}; the defender holds KS, AS, 2H: only DONE / TAKE_ALL. He
    picks up QS and the next attacker is next_active(defender).

    Position (N=3, stock empty, trump card Th out of play): seat 0 {Qs 3c}, seat 1 {Ks As 2h},
    seat 2 {4d 5d}. After seat 1 fails: attacker next_active(1) = 2, defender next_active(2) = 0.
    """
    assert not any(engine.musta_maija.can_beat("Qs", c, "h") for c in ("Ks", "As", "2h"))
    s = engine.MustaMaija(players=3).setup(hands=[["Qs", "3c"], ["Ks", "As", "2h"], ["4d", "5d"]], trump="Th")
    attack(s, "Qs")
    assert s.current_player() == 1
    assert s.view(1)["target"] == "Qs"
    assert s.legal_actions() == [DONE, TAKE_ALL]
    s.apply(DONE)
    v = s.view(0)
    assert s.view(1)["hand"] == ["2h", "As", "Qs", "Ks"]  # ids 27 39 50 51
    assert v["known"][1] == ["Qs"]  # picked up in view of everyone (docs/rules/musta_maija.md §1)
    assert (v["attacker"], v["defender"]) == (2, 0)


def test_tv_mm12_one_card_beats_one_card(engine):
    """TV-MM12: trump D, attack {5H, 6H}; defender AH 3C 4C 7S 9S. Target 5H (30): {26, 52, 53};
    after CARD(AH) target 6H (31): {52, 53}. 5H+AH go out of play, the defender picks up 6H.

    N=2, stock empty, trump card 2d out of play; the attacker also holds Qs.
    """
    s = engine.MustaMaija(players=2).setup(hands=[["5h", "6h", "Qs"], ["Ah", "3c", "4c", "7s", "9s"]], trump="2d")
    attack(s, "5h", "6h")
    assert s.view(1)["target"] == "5h"
    assert s.legal_actions() == [26, 52, 53]
    s.apply(26)
    assert s.view(1)["target"] == "6h"
    assert s.view(1)["beaten"] == [["5h", "Ah"]]
    assert s.legal_actions() == [52, 53]
    s.apply(52)
    v = s.view(1)
    assert {"5h", "Ah"} <= set(v["out_of_play"])
    assert v["hand"] == by_id(["3c", "4c", "7s", "9s", "6h"])
    # docs/rules/musta_maija.md §6 two players: the defender failed, so next_active(1) = seat 0 attacks again
    assert (v["attacker"], v["defender"]) == (0, 1)


# --------------------------------------------------------------------------------------------------
# Resolution, refills and the next attacker (docs/rules/musta_maija.md §3; N=4 with a stock)

# N=4, trump card 5d at the bottom of a 5-card stock; the other cards are out of play.
HANDS4 = [
    ["4c", "7h", "8h", "Jd", "Kd"],
    ["9c", "2h", "3h", "5s", "6s"],
    ["Ac", "2c", "3c", "5c", "6c"],
    ["7c", "8c", "Tc", "Jc", "Qc"],
]
STOCK4 = ["Kc", "Ad", "2d", "Qs", "5d"]


def test_tv_mm13_full_beat(engine):
    """TV-MM13: seat 0 attacks seat 1 with {4C}, seat 1 beats it with 9C -> attacker seat 1,
    defender seat 2. Refills (docs/rules/musta_maija.md §3): seat 0 draws Kc after committing, seat 1 draws Ad after the
    defence."""
    s = engine.MustaMaija().setup(hands=HANDS4, stock=STOCK4, attacker=0)
    attack(s, "4c")
    assert s.view(0)["hand"] == by_id(["7h", "8h", "Jd", "Kd", "Kc"])
    assert s.legal_actions() == [cid("9c"), DONE, TAKE_ALL]  # no diamond (trump) in seat 1's hand
    s.apply("9c")
    v = s.view(1)
    assert (v["attacker"], v["defender"], v["current_player"]) == (1, 2, 1)
    assert v["hand"] == by_id(["2h", "3h", "5s", "6s", "Ad"])
    assert v["out_of_play"] == by_id(rest_of(*HANDS4, STOCK4, pack=PACK) + ["4c", "9c"])
    assert v["stock_size"] == 3


def test_tv_mm15_voluntary_refusal(engine):
    """TV-MM15: as TV-MM13 but seat 1 plays DONE holding 9C -> legal; he picks up 4C (6 cards, no
    draw) and the next attacker is seat 2 (defender seat 3)."""
    s = engine.MustaMaija().setup(hands=HANDS4, stock=STOCK4, attacker=0)
    attack(s, "4c")
    s.apply(DONE)
    v = s.view(1)
    assert v["hand"] == by_id(["9c", "2h", "3h", "5s", "6s", "4c"])
    assert v["known"][1] == ["4c"]
    assert (v["attacker"], v["defender"]) == (2, 3)
    assert v["stock_size"] == 4  # only the attacker drew (Kc)


def test_tv_mm14_partial_beat(engine):
    """TV-MM14: seat 0 attacks seat 1 with {5H, 9H}; seat 1 beats 5H with 6H and leaves 9H ->
    picks up 9H. Next attacker seat 2, defender seat 3. The full move `defend 6h -` does the same."""
    hands = [
        ["5h", "9h", "2c", "3c", "4c"],
        ["6h", "7c", "8c", "Tc", "Jc"],
        ["Ac", "5c", "6c", "Qc", "Kc"],
        ["2s", "3s", "4s", "5s", "6s"],
    ]
    stock = ["7s", "8s", "Qs", "Ad"]
    for full_move in (False, True):
        s = engine.MustaMaija().setup(hands=hands, stock=stock, attacker=0)
        attack(s, "5h", "9h")  # seat 0 draws 7s, 8s
        if full_move:
            s.play("defend 6h -")
        else:
            assert s.legal_actions() == [cid("6h"), DONE, TAKE_ALL]
            s.apply("6h")
            assert s.legal_actions() == [DONE, TAKE_ALL]  # no higher heart, no diamond
            s.apply("done")
        v = s.view(1)
        assert v["hand"] == by_id(["7c", "8c", "Tc", "Jc", "9h"])  # 5 cards: no draw
        assert (v["attacker"], v["defender"]) == (2, 3)
        assert {"5h", "6h"} <= set(v["out_of_play"])
        assert v["stock_size"] == 2


def test_tv_mm16_refill_order_with_a_short_stock(engine):
    """TV-MM16: stock of 3. The attacker (5) attacks with 3, draws 3 -> 5, stock empty. The
    defender (5) beats 2 of 3 and picks up 1 -> 5 - 2 + 1 = 4 and draws nothing.

    N=3, trump card 3d (the last of the stock Ad 2d 3d)."""
    hands = [["2h", "3h", "4h", "Ac", "Kc"], ["5h", "6h", "7c", "8c", "9c"], ["Qs", "Jd"]]
    s = engine.MustaMaija(players=3).setup(hands=hands, stock=["Ad", "2d", "3d"], attacker=0)
    attack(s, "2h", "3h", "4h")
    v = s.view(0)
    assert v["hand"] == by_id(["Ac", "Kc", "Ad", "2d", "3d"])
    assert v["stock_size"] == 0
    assert v["known"][0] == ["3d"]  # the face-up trump card was drawn (docs/musta_maija_engine.md §3)
    assert v["trump_in_stock"] is False
    s.play("defend 5h 6h -")
    v = s.view(1)
    assert v["hand_sizes"][1] == 4
    assert v["hand"] == by_id(["7c", "8c", "9c", "4h"])


def test_tv_mm17_trump_card_is_drawn_last(engine):
    """TV-MM17: trump D, stock [5C, 8D]. The attacker attacks with 3 of 5 and draws 5C then 8D;
    the stock is empty and the defender draws nothing (here he beats all three and keeps 2)."""
    hands = [["2h", "3h", "4h", "Ac", "Kc"], ["5h", "6h", "7h", "9c", "Tc"], ["Qs", "Jd"]]
    s = engine.MustaMaija(players=3).setup(hands=hands, stock=["5c", "8d"], attacker=0)
    assert s.view(2)["trump_card"] == "8d" and s.view(2)["trump_in_stock"] is True
    attack(s, "2h", "3h", "4h")
    v = s.view(0)
    assert v["hand"] == by_id(["Ac", "Kc", "5c", "8d"])
    assert v["stock_size"] == 0 and v["trump_in_stock"] is False
    s.play("defend 5h 6h 7h")
    v = s.view(1)
    assert v["hand"] == ["9c", "Tc"]
    # he beat everything and still holds cards: he attacks next (docs/rules/musta_maija.md §3 NEXT)
    assert (v["attacker"], v["defender"]) == (1, 2)


def test_tv_mm18_an_attack_with_maija_always_fails(engine):
    """TV-MM18: trump H. Seat 0 attacks seat 1 with {7S, QS}; seat 1 holds 9S, AH, 3C. Target 7S
    (45): beaters 9S and AH; target QS (50): none. Whatever seat 1 does, it ends holding QS, and the
    next attacker is next_active(1) = 2 (N=3, seat 2 holds 4d 5d)."""
    game = engine.MustaMaija(players=3)
    s = game.setup(hands=[["7s", "Qs", "2c"], ["9s", "Ah", "3c"], ["4d", "5d"]], trump="Kh")
    attack(s, "7s", "Qs")
    assert s.legal_actions() == [26, 47, DONE, TAKE_ALL]
    paths = [[47, DONE], [47, TAKE_ALL], [26, DONE], [DONE, DONE], [TAKE_ALL], [DONE, TAKE_ALL]]
    for path in paths:
        t = s.clone()
        for a in path[:-1]:
            t.apply(a)
        if path[:-1]:
            assert t.legal_actions() == [DONE, TAKE_ALL]  # target QS: nothing beats it
        t.apply(path[-1])
        v = t.view(1)
        assert "Qs" in v["hand"], path
        assert (v["attacker"], v["defender"]) == (2, 0), path


def test_tv_mm19_skipping_a_seat_that_is_out(engine):
    """TV-MM19: N=4, stock empty, seat 1 out. Seat 0 attacks -> defender seat 2; if seat 2 fails,
    the next attacker is seat 3 (defender next_active(3) = 0)."""
    s = engine.MustaMaija().setup(hands=[["2c", "3c"], [], ["4d", "5d"], ["Qs", "6h"]], trump="Kh")
    v = s.view(0)
    assert v["out"] == [False, True, False, False]
    assert (v["attacker"], v["defender"]) == (0, 2)
    attack(s, "2c")
    assert s.current_player() == 2
    s.apply(TAKE_ALL)
    v = s.view(0)
    assert (v["attacker"], v["defender"]) == (3, 0)


def test_tv_mm20_defender_beats_everything_and_goes_out(engine):
    """TV-MM20: N=3, stock empty. Seat 0 attacks seat 1 (6C, 2H; trump H) with {5C, 9C}; 5C<-6C,
    9C<-2H -> seat 1 has 0 cards and is out; the next attacker is next_active(1) = seat 2."""
    s = engine.MustaMaija(players=3).setup(hands=[["5c", "9c", "Qs"], ["6c", "2h"], ["Kd", "3s"]], trump="Th")
    attack(s, "5c", "9c")
    s.apply("6c")
    s.apply("2h")
    v = s.view(0)
    assert v["hand_sizes"][1] == 0 and v["out"] == [False, True, False]
    assert v["attacker"] == 2
    assert v["defender"] == 0  # next_active(2) skips seat 1


def test_tv_mm21_complete_endgame(engine):
    """TV-MM21: trump H, stock empty; seat 0 {5C 9C QS}, seat 1 {6C 2H}, seat 2 {KD 3S}.
    1. 0 attacks 1 with {5C, 9C}; 6C and 2H beat them; seat 1 out; attacker 2, defender 0.
    2. 2 attacks 0 with {3S} (<= 1); QS cannot beat; 0 picks up 3S; attacker 2, defender 0.
    3. 2 attacks with {KD}; seat 2 out; 0 picks up KD.
    4. Only seat 0 holds cards: seat 0 loses (QS 3S KD); returns [-1, +0.5, +0.5]."""
    s = engine.MustaMaija(players=3).setup(hands=[["5c", "9c", "Qs"], ["6c", "2h"], ["Kd", "3s"]], trump="Th")
    # 1.
    assert s.legal_actions() == ids("5c", "9c", "Qs")
    s.play("attack 9c 5c")
    assert s.legal_actions() == [cid("6c"), cid("2h"), DONE, TAKE_ALL]  # 2h is a trump
    s.play("defend 6c 2h")
    v = s.view(0)
    assert (v["attacker"], v["defender"]) == (2, 0) and v["out"] == [False, True, False]
    # 2. the defender (seat 0) holds 1 card: a single card only
    assert s.legal_actions() == ids("Kd", "3s")
    s.apply("3s")
    assert s.legal_actions() == [DONE]
    s.apply(DONE)
    assert s.legal_actions() == [DONE, TAKE_ALL]
    s.apply(DONE)
    v = s.view(0)
    assert v["hand"] == ["3s", "Qs"]
    assert (v["attacker"], v["defender"]) == (2, 0)
    assert not s.is_terminal()
    # 3.
    s.play("attack Kd")
    assert s.legal_actions() == [DONE, TAKE_ALL]  # no diamond above K, no heart
    s.apply(TAKE_ALL)
    # 4.
    assert s.is_terminal()
    assert s.current_player() == -1 and s.legal_actions() == []
    assert s.returns() == [-1.0, 0.5, 0.5]
    assert s.scores() == [1, 0, 0]
    v = s.view(1)
    assert v["losers"] == [0] and v["terminal"] is True
    assert state_json(s)["hands"] == [ids("Kd", "3s", "Qs"), [], []]


def test_tv_mm22_defence_order_inside_the_matching(engine):
    """TV-MM22: trump D, attack {3D, 5D}; the defender holds 4D, 6D and 2 clubs. Path A: 3D<-4D,
    5D<-6D, a full beat, the defender attacks next. Path B: 3D<-6D, then 5D: {DONE, TAKE_ALL}."""
    game = engine.MustaMaija(players=3)
    s = game.setup(hands=[["3d", "5d", "7c"], ["4d", "6d", "2c", "3c"], ["Qs", "9h"]], trump="Kd")
    attack(s, "3d", "5d")
    assert s.view(1)["target"] == "3d"
    assert s.legal_actions() == [16, 18, DONE, TAKE_ALL]
    a = s.clone()
    a.apply(16)
    assert a.legal_actions() == [18, DONE, TAKE_ALL]
    a.apply(18)
    v = a.view(1)
    assert (v["attacker"], v["defender"]) == (1, 2)
    b = s.clone()
    b.apply(18)
    assert b.legal_actions() == [DONE, TAKE_ALL]
    b.apply(DONE)
    assert "5d" in b.view(1)["hand"]
    assert b.view(1)["attacker"] == 2


def test_tv_mm22_with_compulsory_beating(engine):
    """docs/rules/musta_maija.md §4.2 beat_optional=false on the TV-MM22 position: the maximum matching is 2 (3d<-4d,
    5d<-6d). At 3d: CARD(4d) leaves 1 + mm({5d}, {6d, ...}) = 2 -> legal; CARD(6d) leaves
    1 + 0 -> illegal; DONE 0 + 1 -> illegal; TAKE_ALL 0 -> illegal."""
    s = engine.MustaMaija(players=3, beat_optional=False).setup(
        hands=[["3d", "5d", "7c"], ["4d", "6d", "2c", "3c"], ["Qs", "9h"]], trump="Kd"
    )
    attack(s, "3d", "5d")
    assert s.legal_actions() == [16]
    s.apply(16)
    assert s.legal_actions() == [18]


def test_tv_mm23_empty_hand_with_a_non_empty_stock(engine):
    """TV-MM23: stock of 10; the attacker attacks with all 5 (the defender holds 5 clubs); he has 0
    cards but is not out, and draws 5 at once: the stock has 5."""
    hands = [["2h", "3h", "4h", "5h", "6h"], ["2c", "3c", "4c", "5c", "6c"]]
    stock = ["7d", "8d", "9d", "Td", "Jd", "Kd", "Ad", "Qs", "Ac", "2d"]
    s = engine.MustaMaija(players=2).setup(hands=hands, stock=stock)
    for c in hands[0]:
        s.apply(c)
    v = s.view(1)
    assert v["hand_sizes"] == [0, 5] and v["out"] == [False, False]
    s.apply(DONE)
    v = s.view(0)
    assert v["hand"] == by_id(["7d", "8d", "9d", "Td", "Jd"])
    assert v["stock_size"] == 5
    assert s.legal_actions() == [DONE, TAKE_ALL]  # clubs against hearts, no diamond


def test_tv_mm25_end_condition_check(engine):
    """TV-MM25: N=3, stock empty; seat 0 {QS}, seat 1 {}, seat 2 {4H}: not over. Seat 2 attacks
    seat 0 with {4H}; Maija cannot beat; seat 0 picks it up; seat 2 is out -> seat 0 loses."""
    s = engine.MustaMaija(players=3).setup(hands=[["Qs"], [], ["4h"]], trump="Kd", attacker=2)
    assert not s.is_terminal()
    assert s.current_player() == 2 and s.view(2)["defender"] == 0
    attack(s, "4h")
    assert s.legal_actions() == [DONE, TAKE_ALL]
    s.apply(DONE)
    assert s.is_terminal()
    assert s.returns() == [-1.0, 0.5, 0.5]
    assert s.view(0)["losers"] == [0]


# --------------------------------------------------------------------------------------------------
# Beyond the vectors: the deal from the seed, the first lead, the attack cap, matches


def test_first_dealer_and_deal_from_the_seed(engine):
    """docs/rules/musta_maija.md §2 steps 1-2 and docs/design.md §5: dealer = next() mod N, then the
    ascending pack shuffled with the same stream; one card at a time from next(dealer); trump
    determination on the rest (step 3, computed here for the middle rule with the helper below)."""
    for seed in (0, 7, 12345):
        rng = SplitMix64(seed)
        dealer = rng.next() % 4
        pack = list(range(52))
        rng.shuffle(pack)
        s = engine.MustaMaija().new_state(seed=seed)
        doc = state_json(s)
        assert doc["dealer"] == dealer
        for k in range(4):
            seat = (dealer + 1 + k) % 4
            assert doc["hands"][seat] == sorted(pack[k + 4 * i] for i in range(5))
        expected_trump, expected_stock = _middle_trump(pack[20:])
        assert doc["trump"] == expected_trump
        assert doc["stock"] == expected_stock
        assert s.current_player() == (dealer + 1) % 4


def _middle_trump(stock: list[int]) -> tuple[int, list[int]]:
    """docs/rules/musta_maija.md §2 step 3 with spade_reinsert=middle, written from the rules text for these tests."""
    stock, turned = list(stock), set()
    while True:
        c = stock[0]
        if c // 13 != 3:
            trump = c
            break
        if c in turned:
            trump = next((x for x in stock if x // 13 != 3), c)
            break
        turned.add(c)
        rest = stock[1:]
        stock = rest[: len(rest) // 2] + [c] + rest[len(rest) // 2 :]
    stock.remove(trump)
    return trump, stock + [trump]


def test_trump_turned_after_the_first_lead(engine):
    """docs/rules/musta_maija.md §6 trump_reveal=after_first_lead (preset pagat): no trump while the first attack is
    built; trump determination at the commit, before the attacker's refill.

    deck (first_dealer=3, N=4): the 20 dealt cards, then the stock [Ks, 2h, ...]: Ks is a spade
    -> reinserted at floor(31/2) = 15; 2h is then on top and is the trump card."""
    dealt = PACK[:20]  # Ac..Kc, Ad..7d: seat 0 gets d[0], d[4], ... = Ac 5c 9c Kc 4d
    stock = ["Ks", "2h"] + [c for c in PACK[20:] if c not in ("Ks", "2h")]
    s = engine.MustaMaija(variant="pagat", first_dealer=3).new_state(seed=5, deck=dealt + stock)
    v = s.view(0)
    assert v["trump"] is None and v["trump_card"] is None and v["turned"] == []
    assert state_json(s)["stock"] == ids(*stock)
    s.apply("Ac")
    assert s.view(0)["trump"] is None
    s.apply(DONE)
    v = s.view(0)
    assert v["trump"] == "h" and v["trump_card"] == "2h" and v["trump_in_stock"] is True
    assert v["turned"] == ["2h", "Ks"]
    # R = [2h, *rest] gets Ks at index 15; 2h then leaves the top for the bottom:
    rest = stock[2:]
    final = rest[:14] + ["Ks"] + rest[14:] + ["2h"]
    # the attacker then draws the top card
    assert v["hand"] == by_id(["5c", "9c", "Kc", "4d", final[0]])
    assert state_json(s)["stock"] == ids(*final[1:])


def test_attack_cap_ends_the_hand_with_the_maija_holder(engine):
    """docs/rules/musta_maija.md §4.3 max_attacks: after that many attacks the hand ends (tested after the natural end);
    the Maija holder loses. max_attacks=1: seat 0 attacks with 2c, seat 1 (holding Qs) beats it."""
    s = engine.MustaMaija(players=2, max_attacks=1).setup(hands=[["2c", "3c"], ["Qs", "5c"]], trump="Kd")
    attack(s, "2c")
    s.apply("5c")
    assert s.is_terminal()
    assert s.returns() == [1.0, -1.0]


def test_match_of_several_hands(engine):
    """docs/rules/musta_maija.md §5 first_to_losses with match_losses=2: one lost hand does not end the match; the loser
    deals the next hand (next_dealer=loser) and the first attacker is next(dealer)."""
    s = engine.MustaMaija(players=3, match="first_to_losses", match_losses=2).setup(
        hands=[["Qs"], [], ["4h"]], trump="Kd", attacker=2
    )
    attack(s, "4h")
    s.apply(DONE)  # seat 0 loses the hand (TV-MM25)
    assert not s.is_terminal()
    doc = state_json(s)
    assert doc["losses"] == [1, 0, 0] and doc["hand"] == 2
    assert doc["dealer"] == 0 and s.current_player() == 1
    assert s.returns() == [0.0, 0.0, 0.0]
    assert sum(len(h) for h in doc["hands"]) == 15 and len(doc["stock"]) == 37


def test_tv_mm16_with_the_defender_drawing_first(engine):
    """TV-MM16's position with docs/rules/musta_maija.md §7 draw_order=defender_then_attacker: the attacker does not
    refill after committing (2 cards left); at resolution the defender (5 - 2 + 1 = 4) draws Ad, then the
    attacker draws 2d and the face-up trump card 3d."""
    hands = [["2h", "3h", "4h", "Ac", "Kc"], ["5h", "6h", "7c", "8c", "9c"], ["Qs", "Jd"]]
    game = engine.MustaMaija(players=3, draw_order="defender_then_attacker")
    s = game.setup(hands=hands, stock=["Ad", "2d", "3d"], attacker=0)
    attack(s, "2h", "3h", "4h")
    v = s.view(0)
    assert v["hand"] == ["Ac", "Kc"] and v["stock_size"] == 3
    s.play("defend 5h 6h -")
    v = s.view(0)
    assert v["hand"] == by_id(["Ac", "Kc", "2d", "3d"])
    assert v["known"][0] == ["3d"]
    assert s.view(1)["hand"] == by_id(["7c", "8c", "9c", "4h", "Ad"])
    assert v["stock_size"] == 0


def test_fixed_hands_losers_share_the_loss(engine):
    """docs/rules/musta_maija.md §5 match=fixed_hands: after match_hands hands the seats with the most losses lose and
    share -1; the others share +1. N=3, match_hands=2, losses [1,0,0] before hand 2; in hand 2 seat 1
    ends with Qs (TV-MM25's pattern) -> losses [1,1,0] -> losers 0 and 1: [-1/2, -1/2, +1]."""
    game = engine.MustaMaija(players=3, match="fixed_hands", match_hands=2)
    s = game.setup(hands=[["4h"], ["Qs"], []], trump="Kd", attacker=0, losses=[1, 0, 0])
    assert state_json(s)["hand"] == 2
    attack(s, "4h")
    s.apply(DONE)
    assert s.is_terminal()
    assert s.scores() == [1, 1, 0]
    assert s.returns() == [-0.5, -0.5, 1.0]
    assert s.view(2)["losers"] == [0, 1]


def test_every_seat_losing_the_match_gives_zero_returns(engine):
    """docs/rules/musta_maija.md §5: if every seat loses the match (fixed_hands, equal loss counts) the returns are all
    0."""
    game = engine.MustaMaija(players=2, match="fixed_hands", match_hands=2)
    s = game.setup(hands=[["4h"], ["Qs"]], trump="Kd", attacker=0, losses=[1, 0])
    attack(s, "4h")
    s.apply(DONE)
    assert s.is_terminal()
    assert s.scores() == [1, 1]
    assert s.returns() == [0.0, 0.0]
    assert s.view(0)["losers"] == [0, 1]


def test_next_dealer_rotates_left(engine):
    """docs/rules/musta_maija.md §5 next_dealer=rotate_left: the next dealer is next(previous dealer), not the loser.
    The setup dealer defaults to attacker - 1 = seat 1 (docs/musta_maija_engine.md §7), so hand 2 is dealt by seat 2 and
    seat 0 attacks first."""
    game = engine.MustaMaija(players=3, match="first_to_losses", match_losses=2, next_dealer="rotate_left")
    s = game.setup(hands=[["Qs"], [], ["4h"]], trump="Kd", attacker=2)
    attack(s, "4h")
    s.apply(DONE)  # seat 0 loses the hand
    doc = state_json(s)
    assert doc["losses"] == [1, 0, 0]
    assert doc["dealer"] == 2 and s.current_player() == 0
