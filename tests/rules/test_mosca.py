"""Rules tests for La Mosca: the test vectors TV-M01..TV-M30 of ``docs/rules/mosca.md`` §9.

Every test runs against both engines (fixture ``engine`` in ``tests/conftest.py``) through the
public API only: the primitives ``engine.mosca.legal_cards / trick_winner / mosca_winner`` and
``engine.Mosca(...)`` states (``setup`` / ``new_state(deck=...)``, ``apply``, ``legal_actions``,
``view``, ``scores``, ``returns``, ``to_json``).

Every expected value comes from the rules file (docs/rules/mosca.md §9) or from a hand calculation written in the
comment next to it; none was obtained by running an engine. Where a vector needs a concrete deal
the rules do not give (e.g. "seats 1, 2, 3 took 3, 2 and 0 tricks"), the test builds one by hand
and the comment shows why every trick goes where it does. Positions are built with
``setup(hands, turnup, talon, dealer, balances, pot, deals_played, seed)`` (docs/mosca_engine.md §9: the deal
starts at the ante, so ``pot`` is the pot carried *before* the ante).

Card ids (docs/design.md §4): id = 13*suit + (rank - 1), suits c=0 d=1 h=2 s=3, J=11 Q=12 K=13.
Action ids (docs/rules/mosca.md §8): PLAY_CARD(c) = c, PASS = 52, PLAY(mask) = 53 + mask,
TAKE_TURNUP(slot) = 85 + slot, LEAVE_TURNUP = 90.
"""

from __future__ import annotations

import json

import pytest
from cardlib import RANKS, SUITS, cid

from tapete.errors import IllegalActionError

PASS, STAND, LEAVE = 52, 53, 90


def norm(card: str) -> str:
    """docs/design.md §4 text of a card written as in the rules file (``7D`` -> ``7d``)."""
    return card[0].upper() + card[1].lower()


def cards(text: str) -> list[str]:
    return [norm(c) for c in text.split()]


def by_id(cs) -> list[str]:
    return sorted((norm(c) for c in cs), key=cid)


def PLAY(mask: int) -> int:
    return 53 + mask


def TAKE_TURNUP(slot: int) -> int:
    return 85 + slot


def deck(size: int) -> list[str]:
    """docs/rules/mosca.md §1.2: K Q J A T 9 8 7 of every suit, plus the 6s, 5s, 4s, 3s, 2s as it grows;
    ascending id order."""
    extra = "65432"[: (size - 32) // 4]
    ranks = set("KQJAT987") | set(extra)
    return [r + s for s in SUITS for r in RANKS if r in ranks]


def interleaved(size: int) -> list[str]:
    """The deck cards ranked high to low with the suits interleaved: Kc Kd Kh Ks Qc Qd ..."""
    cards_in = set(deck(size))
    return [r + s for r in "KQJAT98765432" for s in SUITS if r + s in cards_in]


def state_json(state) -> dict:
    return json.loads(state.to_json())


# Hands without a mosca, one set per player count (each seat mixes suits), from the auto deck.
PLAIN = {
    3: ([cards("Ac 7d 8h 9s Tc"), cards("7c 8d 9h Ts Jc"), cards("8c 9d Th Js Qc")], "Kd"),
    4: ([cards("Ac 6d 7h 8s 9c"), cards("7c 8d 9h Ts Jc"), cards("8c 9d Th Js Qc"), cards("Tc Jd Qh Qs Kc")], "Kd"),
    5: (
        [
            cards("Ac 4d 5h 6s 7c"),
            cards("8c 9d Th Js Qc"),
            cards("Kc Ad 4h 5s 6c"),
            cards("9c Td Jh Qs Kd"),
            cards("Tc Jd Qh Ks Ah"),
        ],
        "4c",
    ),
}


def actions(state, *acts) -> None:
    for a in acts:
        state.apply(a)


# --------------------------------------------------------------------------------------------------
# TV-M01..M03 (docs/rules/mosca.md §9): deck, deal, ante


@pytest.mark.parametrize("players,size,talon", [(3, 32, 16), (4, 36, 15), (5, 44, 18), (6, 52, 21), (2, 32, 21)])
def test_tvm01_deck_sizes_auto(engine, players, size, talon):
    """TV-M01: N=3,4,5,6 -> deck 32,36,44,52, talon D-5N-1 = 16,15,18,21; N=2 -> 32, talon 21."""
    game = engine.Mosca(players=players, first_dealer=0)
    assert game.options["deck"] == size  # docs/mosca_engine.md §2: deck=auto resolves to the size
    # A stacked deck, ranks high to low, suits interleaved (Kc Kd Kh Ks Qc ...): each seat's
    # first packet is two cards of different suits, so nobody holds a mosca.
    state = game.new_state(seed=1, deck=interleaved(size))
    view = state.view(1)
    assert view["phase"] == "declare" and view["deals_played"] == 0  # (no mosca in this deal)
    assert view["talon_size"] == talon == size - 5 * players - 1
    doc = state_json(state)
    every = [c for h in doc["hands"] for c in h] + doc["talon"] + [doc["turnup"]]
    assert sorted(every) == sorted(cid(c) for c in deck(size))


def test_tvm01_fixed_32_deck_six_players(engine):
    """TV-M01: with deck=32 and N=6 the talon holds 32 - 30 - 1 = 1 card."""
    game = engine.Mosca(players=6, deck=32, first_dealer=0)
    assert game.options["deck"] == 32
    # The interleaved order: every seat's first packet d[2k], d[2k+1] holds two suits: no mosca.
    state = game.new_state(seed=0, deck=interleaved(32))
    view = state.view(0)
    assert view["phase"] == "declare" and view["deals_played"] == 0
    assert view["talon_size"] == 1


def test_tvm02_deal_order(engine):
    """TV-M02: N=3, dealer 0, mano 1, stacked d0..d31. Seat 1: d0 d1 d6 d7 d8; seat 2: d2 d3 d9
    d10 d11; seat 0: d4 d5 d12 d13 d14; turn-up d15; talon d16..d31, d16 on top."""
    d = list(reversed(deck(32)))  # d0 = Ks, d1 = Qs, ... (the reverse of the ascending pack)
    state = engine.Mosca(players=3, first_dealer=0).new_state(seed=5, deck=d)
    doc = state_json(state)
    expect = {1: [0, 1, 6, 7, 8], 2: [2, 3, 9, 10, 11], 0: [4, 5, 12, 13, 14]}
    for seat, idx in expect.items():
        assert doc["hands"][seat] == sorted(cid(d[i]) for i in idx)
        # Seat 1: Ks Qs 7s As Kh; seat 2: Js Ts Qh Jh Th; seat 0: 9s 8s 9h 8h 7h (no mosca)
    assert doc["turnup"] == cid(d[15])
    assert doc["talon"] == [cid(c) for c in d[16:]]
    assert doc["dealer"] == 0 and doc["phase"] == "declare" and doc["to_move"] == 1
    view = state.view(2)
    assert view["turnup"] == d[15] == "Ah" and view["trump"] == "h"
    assert view["mano"] == 1 and view["talon_size"] == 16


def test_tvm03_ante(engine):
    """TV-M03: N=4, 3 chips carried, dealer balance 100 -> after DEAL_START pot 7, dealer 96."""
    hands, up = PLAIN[4]
    state = engine.Mosca(players=4).setup(hands=hands, turnup=up, dealer=0, pot=3)
    view = state.view(0)
    assert view["pot"] == 7
    assert view["balances"] == [96, 100, 100, 100]
    assert view["phase"] == "declare" and view["current_player"] == 1


# --------------------------------------------------------------------------------------------------
# TV-M04..M07 (docs/rules/mosca.md §9): the mosca


def test_tvm04_single_mosca(engine):
    """TV-M04: N=4, dealer 0, trump S; seat 2 dealt 7D 9D TD JD KD takes the pot (4); no DECLARE
    phase; deal result dealer -4, seat 2 +4. (match_deals=1 so the match ends with this deal.)"""
    hands = [cards("Ac 6c 7h 8s 9c"), cards("7c 8d 9h Ts Jc"), cards("7d 9d Td Jd Kd"), cards("Tc Ad Qh Qs Kc")]
    game = engine.Mosca(players=4, match_deals=1)
    state = game.setup(hands=hands, turnup="Js", dealer=0)
    assert state.is_terminal()
    assert state.history() == []  # no declaration was made
    assert state.scores() == [96, 100, 104, 100]
    assert state_json(state)["pot"] == 0
    assert state_json(state)["declarations"] == [-1, -1, -1, -1]
    assert engine.mosca.mosca_winner([hands[1], hands[2], hands[3], hands[0]], "s") == [1]  # from the mano


def test_tvm04_mosca_ends_the_deal_and_the_next_one_starts(engine):
    """TV-M04 with the default match length: the deal is over at once, the next dealer (seat 1)
    antes 4: pot 4, balances 96, 96, 104, 100 (if the next deal is not a mosca too)."""
    hands = [cards("Ac 6c 7h 8s 9c"), cards("7c 8d 9h Ts Jc"), cards("7d 9d Td Jd Kd"), cards("Tc Ad Qh Qs Kc")]
    state = engine.Mosca(players=4).setup(hands=hands, turnup="Js", dealer=0, seed=3)
    view = state.view(0)
    assert view["deals_played"] == 1 and view["dealer"] == 1 and view["phase"] == "declare"
    assert view["pot"] == 4
    assert view["balances"] == [96, 96, 104, 100]


def test_tvm05_trump_mosca_beats_a_stronger_plain_mosca(engine):
    """TV-M05: N=3, turn-up KH. Seat 1 KC QC JC AC TC, seat 2 7H 8H 9H TH AH: seat 2 wins."""
    seat0, seat1, seat2 = cards("7c 8c 9s Kd Ks"), cards("Kc Qc Jc Ac Tc"), cards("7h 8h 9h Th Ah")
    # mosca_winner takes the hands from the mano: seat 1, seat 2, seat 0 -> index 1 is seat 2
    assert engine.mosca.mosca_winner([seat1, seat2, seat0], "h") == [1]
    assert engine.mosca.mosca_winner([seat1, seat2, seat0], "H") == [1]
    # In a deal (dealer 0, nothing carried: pot 3): seat 2 takes 3.
    state = engine.Mosca(players=3, match_deals=1).setup(hands=[seat0, seat1, seat2], turnup="Kh", dealer=0)
    assert state.is_terminal()
    assert state.scores() == [97, 100, 103]


def test_tvm06_plain_moscas_compared(engine):
    """TV-M06: trump D. Seat 1 KH QH JH AH 7H (13,12,11,10,6) beats seat 2 KC QC JC TC 9C
    (13,12,11,9,8): the first difference is the 4th card, A(10) > T(9)."""
    seat1, seat2 = cards("Kh Qh Jh Ah 7h"), cards("Kc Qc Jc Tc 9c")
    other = cards("8c 9d Ts Qs Ks")
    assert engine.mosca.mosca_winner([seat1, seat2, other], "d") == [0]
    assert engine.mosca.mosca_winner([other, seat2, seat1], "d") == [2]
    # With ace_rank=low the ace is the weakest card: (13,12,11,7,1) against (13,12,11,10,9).
    assert engine.mosca.mosca_winner([seat1, seat2, other], "d", ace_rank="low") == [1]


#: TV-M07's deal: seats 1 and 4 each hold a mosca of the same ranks (K Q J A T), an exact tie.
_TVM07_HANDS = [
    cards("2c 3d 4h 5s 6c"),
    cards("Kh Qh Jh Ah Th"),
    cards("7c 8d 9d Ts 2h"),
    cards("3c 4d 5h 6s 7d"),
    cards("Kc Qc Jc Ac Tc"),
    cards("8c 9s Jd Qd 3h"),
]


def test_tvm07_exact_mosca_tie(engine):
    """TV-M07: N=6 (52 cards), turn-up 2S. Seat 1 KH QH JH AH TH, seat 4 KC QC JC AC TC.
    Pot 6 + 1 carried = 7: each takes 3 and 1 stays. The next deal starts with pot 1 + 6 = 7."""
    hands = _TVM07_HANDS
    # The primitive, hands from the mano (seat 1): seats 1..5, 0 -> indexes 0 and 3
    from_mano = hands[1:] + hands[:1]
    assert engine.mosca.mosca_winner(from_mano, "s") == [0, 3]
    game = engine.Mosca(players=6, match_deals=1)
    state = game.setup(hands=hands, turnup="2s", dealer=0, pot=1)
    assert state.is_terminal()
    assert state.scores() == [94, 103, 100, 100, 103, 100]
    assert state_json(state)["pot"] == 1
    # Default match length: the next deal (dealer 1) antes 6 on top of the 1 left.
    nxt = engine.Mosca(players=6).setup(hands=hands, turnup="2s", dealer=0, pot=1, seed=2)
    view = nxt.view(0)
    assert view["deals_played"] == 1 and view["phase"] == "declare"
    assert view["pot"] == 7
    assert view["balances"] == [94, 97, 100, 100, 103, 100]


def test_tvm07_eldest_wins_option(engine):
    """TV-M07 with mosca_tie=eldest_wins: the first tied seat from the mano (seat 1) takes 7."""
    hands = _TVM07_HANDS
    from_mano = hands[1:] + hands[:1]
    assert engine.mosca.mosca_winner(from_mano, "s", mosca_tie="eldest_wins") == [0]
    state = engine.Mosca(players=6, match_deals=1, mosca_tie="eldest_wins").setup(
        hands=hands, turnup="2s", dealer=0, pot=1
    )
    assert state.scores() == [94, 107, 100, 100, 100, 100]
    assert state_json(state)["pot"] == 0


# --------------------------------------------------------------------------------------------------
# TV-M08..M12 (docs/rules/mosca.md §9): declarations, exchange, turn-up


def test_tvm08_talon_exhaustion(engine):
    """TV-M08: N=5, deck 44, talon 18. Three seats exchange 5 each (talon 13, 8, 3). The fourth:
    popcount 4 illegal, popcount 3 legal (talon 0). The dealer: only PASS and PLAY(0); after
    PLAY(0) he may still take the turn-up."""
    hands, up = PLAIN[5]
    state = engine.Mosca(players=5).setup(hands=hands, turnup=up, dealer=0)
    assert state.view(1)["talon_size"] == 18
    for seat, left in ((1, 13), (2, 8), (3, 3)):
        assert state.current_player() == seat
        state.apply(PLAY(0b11111))
        assert state.view(0)["talon_size"] == left
    assert state.current_player() == 4
    legal = state.legal_actions()
    assert PLAY(0b01111) not in legal and PLAY(0b11110) not in legal and PLAY(0b11111) not in legal
    assert PLAY(0b00111) in legal and PLAY(0b11100) in legal
    before = state.to_json()
    with pytest.raises(IllegalActionError):
        state.apply(PLAY(0b01111))
    assert state.to_json() == before
    state.apply(PLAY(0b00111))
    assert state.view(0)["talon_size"] == 0
    assert state.current_player() == 0
    assert state.legal_actions() == [PASS, STAND]
    state.apply(STAND)
    assert state.current_player() == 0
    assert state.legal_actions() == [85, 86, 87, 88, 89, 90]  # the turn-up is not in the talon
    assert state.view(2)["exchanged"] == [0, 5, 5, 5, 3]


def test_tvm08_max_3_option(engine):
    """docs/rules/mosca.md §4.1 / TV-M08 context: with exchange_limit=max_3, popcount 4 and 5 are illegal even
    with a full talon: 1 + C(5,0..3) = 1 + 1 + 5 + 10 + 10 = 27 legal declare actions."""
    hands, up = PLAIN[5]
    state = engine.Mosca(players=5, exchange_limit="max_3").setup(hands=hands, turnup=up, dealer=0)
    legal = state.legal_actions()
    assert len(legal) == 27
    assert PLAY(0b01111) not in legal and PLAY(0b00111) in legal


def test_tvm09_mask_mapping(engine):
    """TV-M09: hand {KS, 7H, AC, 9D, TD} sorted by id: AC(0) 9D(21) TD(22) 7H(32) KS(51).
    Action 72 = mask 19 = 0b10011: slots 0, 1, 4 -> discard AC, 9D, KS, draw 3. 53 = stand."""
    hand = cards("Ks 7h Ac 9d Td")
    others = [cards("6c 7c 8h 9s Kd"), cards("8c 9c Th Js Qd"), cards("Tc Jc Qh Qs Ad")]
    hands = [others[0], hand, others[1], others[2]]  # seat 1 is the mano (dealer 0)
    used = {c for h in hands for c in h} | {"Kh"}
    talon = ["6d", "7d", "8d"] + [c for c in deck(36) if c not in used | {"6d", "7d", "8d"}]
    state = engine.Mosca(players=4).setup(hands=hands, turnup="Kh", talon=talon, dealer=0)
    assert state.current_player() == 1
    assert state.action_to_string(72) == "play x Ac 9d Ks"
    assert state.string_to_action("play x Ks Ac 9d") == 72
    assert state.action_to_string(53) == "play"
    state.apply(72)
    view = state.view(1)
    assert view["hand"] == by_id(["Td", "7h", "6d", "7d", "8d"])
    assert view["discards"] == ["Ac", "9d", "Ks"]
    assert view["exchanged"] == [0, 3, 0, 0]
    assert view["talon_size"] == len(talon) - 3
    assert state.view(2)["discards"] == []  # seat 2 does not see them


def test_tvm10_throw_in(engine):
    """TV-M10: N=3, pot 3; seats 1, 2, 0 pass. The pot stays 3, nobody pays. Next dealer seat 1
    antes 3: pot 6. Balances: seat 0 97 (its ante), seat 1 97, seat 2 100."""
    hands, up = PLAIN[3]
    state = engine.Mosca(players=3).setup(hands=hands, turnup=up, dealer=0, seed=1)
    assert state.view(0)["pot"] == 3
    actions(state, PASS, PASS, PASS)
    view = state.view(0)
    assert view["deals_played"] == 1 and view["dealer"] == 1 and view["phase"] == "declare"
    assert view["pot"] == 6
    assert view["balances"] == [97, 97, 100]


def test_tvm10_throw_in_single_deal(engine):
    """TV-M10 with match_deals=1: the match ends with the pot at 3 and the dealer at 97."""
    hands, up = PLAIN[3]
    state = engine.Mosca(players=3, match_deals=1).setup(hands=hands, turnup=up, dealer=0)
    actions(state, PASS, PASS, PASS)
    assert state.is_terminal()
    assert state.scores() == [97, 100, 100]
    assert state_json(state)["pot"] == 3
    assert state.returns() == pytest.approx([-3 + 1, 1, 1])  # net change + pot/3 each


def test_tvm11_lone_player(engine):
    """TV-M11: N=4, dealer 0, pot 4. Seats 1, 2, 3 pass; the dealer plays PLAY(0); the TURNUP
    step is offered; LEAVE_TURNUP -> the dealer wins 4: every balance unchanged."""
    hands, up = PLAIN[4]
    state = engine.Mosca(players=4, match_deals=1).setup(hands=hands, turnup=up, dealer=0)
    actions(state, PASS, PASS, PASS, STAND)
    assert state.current_player() == 0
    assert state.legal_actions() == [85, 86, 87, 88, 89, 90]
    state.apply(LEAVE)
    assert state.is_terminal()
    assert state.scores() == [100, 100, 100, 100]
    assert state_json(state)["pot"] == 0


def test_tvm11_lone_player_options(engine):
    """docs/rules/mosca.md §5.3 options: pot_carries -> the pot (4) stays; must_play_tricks -> the lone dealer
    plays 5 one-card tricks (any card each) and then takes the pot."""
    hands, up = PLAIN[4]
    state = engine.Mosca(players=4, match_deals=1, lone_player="pot_carries").setup(hands=hands, turnup=up, dealer=0)
    actions(state, PASS, PASS, PASS, STAND, LEAVE)
    assert state.is_terminal() and state.scores() == [96, 100, 100, 100]
    assert state_json(state)["pot"] == 4
    state = engine.Mosca(players=4, match_deals=1, lone_player="must_play_tricks").setup(
        hands=hands, turnup=up, dealer=0
    )
    actions(state, PASS, PASS, PASS, STAND, LEAVE)
    own = sorted(cid(c) for c in hands[0])  # Ac 6d 7h 8s 9c
    for k in range(5):
        assert state.current_player() == 0
        assert state.legal_actions() == own[k:]  # any card of the hand
        state.apply(own[k])
    assert state.is_terminal() and state.scores() == [100, 100, 100, 100]


def test_tvm12_taking_the_turnup(engine):
    """TV-M12: the dealer's hand after the exchange AC 7C KD 8H QS (ids 0, 6, 25, 33, 50);
    turn-up 9D. TAKE_TURNUP(1) -> 7C out, hand AC KD 8H QS 9D; trump still D. A non-dealer has
    no TURNUP phase; a dealer who passed has none either."""
    dealer_hand = cards("Ac 7c Kd 8h Qs")
    hands = [dealer_hand, cards("8c 9c Th Js Qd"), cards("Tc Jc Qh Ks Ad"), cards("Kc 6d 7h 9s Ah")]
    game = engine.Mosca(players=4)
    state = game.setup(hands=hands, turnup="9d", dealer=0)
    # Seat 1 (a non-dealer) in its declare turn: TAKE_TURNUP is not legal.
    before = state.to_json()
    for a in range(85, 91):
        assert a not in state.legal_actions()
        with pytest.raises(IllegalActionError):
            state.apply(a)
    assert state.to_json() == before
    actions(state, STAND, STAND, PASS, STAND)  # seats 1, 2 play, seat 3 passes, the dealer stands
    assert state.current_player() == 0
    assert state.action_to_string(TAKE_TURNUP(1)) == "take turnup 7c"
    state.apply(TAKE_TURNUP(1))
    view = state.view(0)
    assert view["hand"] == ["Ac", "9d", "Kd", "8h", "Qs"]  # ascending ids 0, 21, 25, 33, 50
    assert view["trump"] == "d" and view["turnup"] == "9d"
    assert view["turnup_taken"] is True
    assert view["discards"] == ["7c"]
    assert view["phase"] == "trick"
    other = state.view(1)
    assert other["turnup_taken"] is True and other["discards"] == [] and "7c" not in json.dumps(other)
    assert state_json(state)["turnup_discard"] == cid("7c")
    # A dealer who passes has no TURNUP phase: the tricks start at once.
    state = game.setup(hands=hands, turnup="9d", dealer=0)
    actions(state, STAND, STAND, PASS, PASS)
    assert state.view(0)["phase"] == "trick"
    assert not set(state.legal_actions()) & set(range(52, 91))


def test_tvm12_option_dealer_may_not_take_turnup(engine):
    """docs/rules/mosca.md §7 dealer_may_take_turnup=false: after the dealer's PLAY the tricks start."""
    hands, up = PLAIN[4]
    state = engine.Mosca(players=4, dealer_may_take_turnup=False).setup(hands=hands, turnup=up, dealer=0)
    actions(state, STAND, PASS, PASS, STAND)
    assert state.view(0)["phase"] == "trick"
    assert state.current_player() == 1  # the first active seat from the mano leads


# --------------------------------------------------------------------------------------------------
# TV-M13..M23 (docs/rules/mosca.md §9): the trick obligations and the trick winner (primitives)


def legal(engine, hand, trick, trump="s", **options):
    return engine.mosca.legal_cards(cards(hand), cards(trick), trump, **options)


def test_tvm13_follow_suit(engine):
    """TV-M13: trump S, led 9H; actor 7H KC ... (no other heart) -> {7H}; KC is illegal."""
    assert legal(engine, "7h Kc Qd", "9h") == ["7h"]


def test_tvm14_must_head(engine):
    """TV-M14: trump S, led 9H; hand 7H JH KC -> {JH} (JH beats 9H)."""
    assert legal(engine, "7h Jh Kc", "9h") == ["Jh"]
    # must_head off: every heart ("7h" id 32 < "Jh" id 36)
    assert legal(engine, "7h Jh Kc", "9h", must_head=False) == ["7h", "Jh"]


def test_tvm15_ace_above_ten(engine):
    """TV-M15: trump S, led TH; hand AH 9H -> {AH} (A=10 beats T=9)."""
    assert legal(engine, "Ah 9h", "Th") == ["Ah"]


def test_tvm16_ace_below_jack(engine):
    """TV-M16: trump S, led JH; hand AH 7H -> {AH, 7H} (neither beats J). Ids: Ah 26, 7h 32."""
    assert legal(engine, "Ah 7h", "Jh") == ["Ah", "7h"]
    # ace_rank=high: A beats J, so must head -> {Ah}
    assert legal(engine, "Ah 7h", "Jh", ace_rank="high") == ["Ah"]


def test_tvm17_trick_already_trumped(engine):
    """TV-M17: trump S, led 8H then 7S; hand 7H KH QS -> {7H, KH}: follow hearts; none beats the
    trump; QS is illegal."""
    assert legal(engine, "7h Kh Qs", "8h 7s") == ["7h", "Kh"]


def test_tvm18_void_must_trump(engine):
    """TV-M18: trump S, led 8H; hand 7S KC -> {7S}."""
    assert legal(engine, "7s Kc", "8h") == ["7s"]
    assert legal(engine, "7s Kc", "8h", must_trump=False) == ["Kc", "7s"]  # Kc 12, 7s 45


def test_tvm19_must_overtrump(engine):
    """TV-M19: trump S, led 8H then QS; hand KS 7S AC -> {KS}."""
    assert legal(engine, "Ks 7s Ac", "8h Qs") == ["Ks"]
    # must_overtrump off: any trump (7s 45, Ks 51)
    assert legal(engine, "Ks 7s Ac", "8h Qs", must_overtrump=False) == ["7s", "Ks"]


def test_tvm20_cannot_overtrump(engine):
    """TV-M20: trump S, led 8H then KS; hand 7S AC -> {7S}; must_undertrump=false -> {7S, AC}."""
    assert legal(engine, "7s Ac", "8h Ks") == ["7s"]
    assert legal(engine, "7s Ac", "8h Ks", must_undertrump=False) == ["Ac", "7s"]


def test_tvm21_neither_suit_nor_trump(engine):
    """TV-M21: trump S, led 8H; hand AC 9D -> {AC, 9D}."""
    assert legal(engine, "Ac 9d", "8h") == ["Ac", "9d"]


def test_tvm22_trump_lead_must_head(engine):
    """TV-M22: trump S, led 9S; hand 7S JS AH -> {JS}."""
    assert legal(engine, "7s Js Ah", "9s") == ["Js"]


def test_tvm23_trick_winner(engine):
    """TV-M23: trump S; QD KD 7S AD -> the 7S player (index 2) wins."""
    assert engine.mosca.trick_winner(cards("Qd Kd 7s Ad"), "s") == 2
    # Without the trump the strongest diamond wins: K (index 1); the ace is below the king.
    assert engine.mosca.trick_winner(cards("Qd Kd 7h Ad"), "s") == 1
    assert engine.mosca.trick_winner(cards("Qd Kd 7h Ad"), "s", ace_rank="high") == 3
    # A card of another plain suit never wins: led 8h, then Kc -> 8h (index 0)
    assert engine.mosca.trick_winner(cards("8h Kc"), "s") == 0


def test_leader_may_play_any_card(engine):
    """docs/rules/mosca.md §4.3 rule 1: the leader (empty trick) may play any card of the hand."""
    assert legal(engine, "7h Kc Qs", "") == ["Kc", "7h", "Qs"]


# --------------------------------------------------------------------------------------------------
# TV-M24..M29 (docs/rules/mosca.md §9): complete deals and scoring


def test_tvm24_a_complete_deal(engine):
    """TV-M24: N=3, deck 32, dealer 0, turn-up 8H. Seat 1 KH 7H QS AS 9C; seat 2 JH TS 8S KC 7D;
    seat 0 AH 9H KS QC TD. All stand, the dealer leaves the turn-up. Five tricks with the legal
    sets of the vector; tricks 2-2-1 (seat 0, 1, 2): a tie, the pot (3) is carried over. Next
    deal: dealer 1 antes 3, pot 6."""
    hands = [cards("Ah 9h Ks Qc Td"), cards("Kh 7h Qs As 9c"), cards("Jh Ts 8s Kc 7d")]
    state = engine.Mosca(players=3).setup(hands=hands, turnup="8h", dealer=0, seed=4)
    actions(state, STAND, STAND, STAND, LEAVE)

    def trick(plays, tricks_won=None):
        """Each ``(seat, its legal cards, the card it plays)`` in turn, then the tricks won."""
        for seat, expected_legal, card in plays:
            assert state.current_player() == seat
            assert state.legal_actions() == sorted(cid(c) for c in cards(expected_legal))
            state.apply(norm(card))
        if tricks_won is not None:
            assert state.view(0)["tricks_won"] == tricks_won

    # T1: seat 1 leads 9C (any of its cards); seat 2 {KC}; seat 0 {QC}. Seat 2 wins.
    trick([(1, "Kh 7h Qs As 9c", "9c"), (2, "Kc", "Kc"), (0, "Qc", "Qc")], [0, 0, 1])
    # T2: seat 2 leads 7D (any of its 4 cards); seat 0 {TD}; seat 1 (void in D, TD not a trump)
    # {7H, KH} -> 7H. Seat 1 wins.
    trick([(2, "Jh Ts 8s 7d", "7d"), (0, "Td", "Td"), (1, "7h Kh", "7h")], [0, 1, 1])
    # T3: seat 1 leads QS; seat 2 {TS, 8S} (neither beats Q) -> 8S; seat 0 {KS}. Seat 0 wins.
    trick([(1, "Kh Qs As", "Qs"), (2, "Ts 8s", "8s"), (0, "Ks", "Ks")], [1, 1, 1])
    # T4: seat 0 leads AH; seat 1 {KH}; seat 2 {JH}. Seat 1 wins.
    trick([(0, "Ah 9h", "Ah"), (1, "Kh", "Kh"), (2, "Jh", "Jh")], [1, 2, 1])
    # T5: seat 1 leads AS; seat 2 {TS}; seat 0 (void in S) {9H}. Seat 0 wins.
    trick([(1, "As", "As"), (2, "Ts", "Ts")])
    assert state.current_player() == 0
    assert state.legal_actions() == [cid("9h")]
    state.apply("9h")
    # Tricks 2-2-1: a tie, nobody pays (no zero-trick player); the pot 3 is carried. The next
    # deal: dealer 1 antes 3 -> pot 6; balances 97 (seat 0's ante), 97 (seat 1's), 100.
    view = state.view(0)
    assert view["deals_played"] == 1 and view["dealer"] == 1 and view["phase"] == "declare"
    assert view["pot"] == 6
    assert view["balances"] == [97, 97, 100]


def test_tvm24_trick_view_and_order(engine):
    """TV-M24, T1 in the view: the trick in play order with its seats, the leader, the number."""
    hands = [cards("Ah 9h Ks Qc Td"), cards("Kh 7h Qs As 9c"), cards("Jh Ts 8s Kc 7d")]
    state = engine.Mosca(players=3).setup(hands=hands, turnup="8h", dealer=0)
    actions(state, STAND, STAND, STAND, LEAVE, "9c", "Kc")
    view = state.view(2)
    assert view["trick"] == ["9c", "Kc"] and view["trick_seats"] == [1, 2]
    assert view["leader"] == 1 and view["trick_number"] == 1
    assert view["played"] == ["9c", "Kc"]  # ids 8, 12
    state.apply("Qc")
    view = state.view(2)
    assert view["trick"] == [] and view["leader"] == 2 and view["trick_number"] == 2
    assert view["played"] == ["9c", "Qc", "Kc"]  # ids 8, 11, 12


# A deal for TV-M25 / M28 / M29 (N=4, trump S, dealer 0 passes; seats 1, 2, 3 stand):
#   seat 1: Kc Qc Jc 7h 8d   seat 2: Ac Tc 9c Kh Kd   seat 3: 8c 7c 6c 8h 9d   seat 0: Js Ts 9s Ah Ad
# T1-T3: seat 1 leads Kc, Qc, Jc; seats 2 and 3 must follow clubs and cannot beat (A=10 < J=11):
# seat 1 wins 3. T4: seat 1 leads 7h; seat 2 must head with Kh; seat 3 follows 8h: seat 2 wins.
# T5: seat 2 leads Kd; seat 3 9d, seat 1 8d: seat 2 wins. Tricks: seat 1 3, seat 2 2, seat 3 0.
M25_HANDS = [cards("Js Ts 9s Ah Ad"), cards("Kc Qc Jc 7h 8d"), cards("Ac Tc 9c Kh Kd"), cards("8c 7c 6c 8h 9d")]
M25_PLAYS = ["Kc", "Ac", "8c", "Qc", "Tc", "7c", "Jc", "9c", "6c", "7h", "Kh", "8h", "Kd", "9d", "8d"]


def play_m25(engine, pot=0, seed=0, **options):
    state = engine.Mosca(players=4, **options).setup(hands=M25_HANDS, turnup="Qs", dealer=0, pot=pot, seed=seed)
    actions(state, STAND, STAND, STAND, PASS)
    for k, card in enumerate(M25_PLAYS):
        if k < 14:
            assert state.view(0)["tricks_won"][3] == 0
        state.apply(card)
    return state


def test_tvm25_scoring_with_a_penalty(engine):
    """TV-M25: N=4, dealer 0 passed, pot 4. Seats 1, 2, 3 took 3, 2, 0: seat 3 pays 2 (pot 6),
    seat 1 wins 6. Changes: seat 0 -4, seat 1 +6, seat 2 0, seat 3 -2 (sum 0)."""
    state = play_m25(engine, match_deals=1)
    assert state.is_terminal()
    doc = state_json(state)
    assert doc["tricks_won"] == [0, 3, 2, 0]
    assert state.scores() == [96, 106, 100, 98]
    assert doc["pot"] == 0


def test_tvm26_tie_plus_a_penalty(engine):
    """TV-M26: N=5, pot 5 (ante). Four active seats took 2, 2, 1, 0: the 0-trick seat pays 2
    -> pot 7, carried over (tie). Next deal: 7 + 5 = 12.

    The deal (trump H, turn-up Ah, deck 44; dealer 0 passes; seats 1..4 stand; seat 1 leads):
      seat 1 Kc Qc 4h 4d 6s; seat 2 Jc Tc Kh Kd 4s; seat 3 9c 8c 5h 5d Ks; seat 4 7c 6c 6h 6d 5s.
    T1, T2: seat 1 leads Kc, Qc; all follow lower clubs: seat 1 wins both.
    T3: seat 1 leads 4h; seat 2 must head with Kh; 5h, 6h follow: seat 2 wins.
    T4: seat 2 leads Kd; 5d, 6d, 4d follow: seat 2 wins.
    T5: seat 2 leads 4s; seat 3 must head with Ks; 5s, 6s follow: seat 3 wins.
    Tricks: seats 1, 2, 3, 4 = 2, 2, 1, 0."""
    hands = [
        cards("Qs Js Ts Qh Qd"),
        cards("Kc Qc 4h 4d 6s"),
        cards("Jc Tc Kh Kd 4s"),
        cards("9c 8c 5h 5d Ks"),
        cards("7c 6c 6h 6d 5s"),
    ]
    plays = [
        "Kc",
        "Jc",
        "9c",
        "7c",
        "Qc",
        "Tc",
        "8c",
        "6c",
        "4h",
        "Kh",
        "5h",
        "6h",
        "Kd",
        "5d",
        "6d",
        "4d",
        "4s",
        "Ks",
        "5s",
        "6s",
    ]
    game = engine.Mosca(players=5)
    state = game.setup(hands=hands, turnup="Ah", dealer=0, seed=6)
    actions(state, STAND, STAND, STAND, STAND, PASS)
    for card in plays:
        state.apply(card)
    view = state.view(0)
    assert view["deals_played"] == 1 and view["dealer"] == 1 and view["phase"] == "declare"
    assert view["pot"] == 12
    # seat 0 paid the first ante, seat 4 the penalty, seat 1 the second ante
    assert view["balances"] == [95, 95, 100, 100, 98]


def test_tvm27_first_lead_when_the_mano_folds(engine):
    """TV-M27: N=4, dealer 0. Seat 1 passes, seats 2 and 3 play, the dealer plays and leaves the
    turn-up. Trick 1 is led by seat 2 and played in the order 2, 3, 0."""
    hands, up = PLAIN[4]
    state = engine.Mosca(players=4).setup(hands=hands, turnup=up, dealer=0)
    actions(state, PASS, STAND, STAND, STAND, LEAVE)
    view = state.view(1)
    assert view["phase"] == "trick" and view["leader"] == 2 and view["trick_number"] == 1
    order = []
    for _ in range(3):
        order.append(state.current_player())
        state.apply(state.legal_actions()[0])
    assert order == [2, 3, 0]


def test_tvm28_per_trick_award(engine):
    """TV-M28: pot_award=per_trick, pot 12 (8 carried + the ante 4): each trick is worth
    floor(12/5) = 2. Seats 1, 2, 3 took 3, 2, 0 -> +6, +4; 2 chips stay; then seat 3 pays 2:
    pot 4, carried over."""
    state = play_m25(engine, pot=8, match_deals=1, pot_award="per_trick")
    assert state.is_terminal()
    assert state.scores() == [96, 106, 104, 98]
    assert state_json(state)["pot"] == 4


def test_tvm29_penalty_after_the_award(engine):
    """TV-M29: penalty_timing=next_pot, as TV-M25: seat 1 wins 4, then seat 3 pays 2: pot 2.
    Next deal (dealer 1 antes 4): pot 2 + 4 = 6."""
    state = play_m25(engine, match_deals=1, penalty_timing="next_pot")
    assert state.scores() == [96, 104, 100, 98]
    assert state_json(state)["pot"] == 2
    state = play_m25(engine, seed=2, penalty_timing="next_pot")
    view = state.view(0)
    assert view["deals_played"] == 1 and view["dealer"] == 1 and view["phase"] == "declare"
    assert view["pot"] == 6
    assert view["balances"] == [96, 100, 100, 98]


def test_tvm25_trick_tie_split_option(engine):
    """docs/rules/mosca.md §5.4 trick_tie=split_equally on TV-M24's 2-2-1 deal: seats 0 and 1 share the pot 3:
    1 each, 1 stays (match_deals=1)."""
    hands = [cards("Ah 9h Ks Qc Td"), cards("Kh 7h Qs As 9c"), cards("Jh Ts 8s Kc 7d")]
    state = engine.Mosca(players=3, match_deals=1, trick_tie="split_equally").setup(hands=hands, turnup="8h", dealer=0)
    actions(state, STAND, STAND, STAND, LEAVE)
    for card in ["9c", "Kc", "Qc", "7d", "Td", "7h", "Qs", "8s", "Ks", "Ah", "Kh", "Jh", "As", "Ts", "9h"]:
        state.apply(card)
    assert state.is_terminal()
    assert state.scores() == [98, 101, 100]
    assert state_json(state)["pot"] == 1


# --------------------------------------------------------------------------------------------------
# TV-M30 (docs/rules/mosca.md §9): the end of the match

# Three plain moscas of equal strength (K Q J A T of c, d, h; trump S): an exact three-way tie,
# each takes floor(pot / 3). With 2 carried and the ante 3, pot 5: 1 each and 2 stay.
TRIPLE = [cards("Kc Qc Jc Ac Tc"), cards("Kd Qd Jd Ad Td"), cards("Kh Qh Jh Ah Th")]


def test_tvm30_end_of_the_match(engine):
    """TV-M30: N=3, match_deals=6. After deal 6 the balances are 112, 95, 91 with 2 chips in the
    pot. The pot goes to no balance; returns = [12 + 2/3, -5 + 2/3, -9 + 2/3] (sum 0).

    Deal 6 here: dealer 0, balances 114, 94, 90, 2 carried; the ante (3) -> 111 and pot 5; the
    three-way mosca tie gives 1 each: 112, 95, 91 and 2 stay."""
    game = engine.Mosca(players=3, match_deals=6)
    state = game.setup(hands=TRIPLE, turnup="7s", dealer=0, balances=[114, 94, 90], pot=2, deals_played=5)
    assert state.is_terminal()
    assert state.current_player() == -1 and state.legal_actions() == []
    assert state.scores() == [112, 95, 91]
    assert state_json(state)["pot"] == 2
    assert state_json(state)["deals_played"] == 6
    returns = state.returns()
    assert returns == pytest.approx([12 + 2 / 3, -5 + 2 / 3, -9 + 2 / 3], abs=1e-12)
    assert sum(returns) == pytest.approx(0, abs=1e-9)
    assert max(range(3), key=lambda s: returns[s]) == 0  # seat 0 wins


def test_tvm30_shared_first_place(engine):
    """TV-M30: balances 104, 104, 90 (2 in the pot) -> seats 0 and 1 share first place: equal
    returns 4 + 2/3, and -10 + 2/3. Before: 106, 103, 89 (the ante 3, then 1 each)."""
    game = engine.Mosca(players=3, match_deals=6)
    state = game.setup(hands=TRIPLE, turnup="7s", dealer=0, balances=[106, 103, 89], pot=2, deals_played=5)
    assert state.scores() == [104, 104, 90]
    returns = state.returns()
    assert returns[0] == returns[1] == pytest.approx(4 + 2 / 3)
    assert returns[2] == pytest.approx(-10 + 2 / 3)


def test_tvm30_leftover_pot_split_option(engine):
    """docs/rules/mosca.md §6 leftover_pot=split_equally_among_all: each seat receives floor(pot/3) at the end,
    the remainder stays. TV-M30's ending: pot 2 -> 0 each, balances 112, 95, 91, pot 2. A final
    throw-in on 2 carried: pot 2 + 3 = 5 -> 1 each, 2 stay: 97 + 1, 100 + 1, 100 + 1."""
    game = engine.Mosca(players=3, match_deals=6, leftover_pot="split_equally_among_all")
    state = game.setup(hands=TRIPLE, turnup="7s", dealer=0, balances=[114, 94, 90], pot=2, deals_played=5)
    assert state.scores() == [112, 95, 91] and state_json(state)["pot"] == 2
    hands, up = PLAIN[3]
    state = game.setup(hands=hands, turnup=up, dealer=0, pot=2, deals_played=5)
    actions(state, PASS, PASS, PASS)
    assert state.is_terminal()
    assert state.scores() == [98, 101, 101] and state_json(state)["pot"] == 2


def test_chips_are_conserved_in_a_deal(engine):
    """docs/rules/mosca.md §5.4: the sum of balances and pot never changes (TV-M25: 400 before and after)."""
    state = play_m25(engine, match_deals=1)
    assert sum(state.scores()) + state_json(state)["pot"] == 400
