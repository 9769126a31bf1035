"""Rules tests for Escoba/Scopa: the test vectors TV-01..TV-50 of ``docs/rules/escoba.md`` §3.

Every test runs against both engines (fixture ``engine`` in ``tests/conftest.py``) through the
public API only: ``engine.escoba.capture_options``, ``engine.escoba.score_deal`` and
``engine.Escoba(...)`` states (``setup``/``new_state``, ``apply``/``play``, ``view``, ``scores``,
``is_terminal``, ``returns``, ``to_json``).

Every expected value comes from the rules file (docs/rules/escoba.md §3) or from a hand calculation written in the
comment next to it; none was obtained by running an engine. Where a test goes beyond the vector
(an option the vector does not mention, a protocol detail), the comment names the section of the
rules file or of the engine contract (``docs/escoba_engine.md``) it follows.

Card ids (docs/design.md §4): id = 13*suit + (rank - 1), suits c=0 d=1 h=2 s=3, J=11 Q=12 K=13.
Action ids (docs/escoba_engine.md §4): PLAY(c) = c, TAKE(t) = 52 + t, DONE = 104.
"""

from __future__ import annotations

import json

import pytest
from cardlib import PACK40, SUITS, SplitMix64, cid, rest_of

# --------------------------------------------------------------------------------------------------
# Test helpers: card text <-> id, the 40-card pack, a tiny SplitMix64 (docs/design.md §5). These build the
# inputs and the expected values; they never call an engine.


PLAY = lambda c: cid(c)  # noqa: E731
TAKE = lambda c: 52 + cid(c)  # noqa: E731
DONE = 104


def by_id(cards) -> list[str]:
    return sorted(cards, key=cid)


def check_partition(*groups) -> None:
    """Sanity check of a hand-written position (the test's own input): the 40 cards, once each."""
    cards = [c for g in groups for c in g]
    assert len(cards) == len(set(cards)) == 40, sorted(cards, key=cid)
    assert set(cards) == set(PACK40)


def outcome_sets(result) -> set[frozenset]:
    """capture_options output as a set of outcomes (each a frozenset of card text)."""
    sets = {frozenset(o) for o in result}
    assert len(sets) == len(result), f"duplicate outcomes in {result}"
    return sets


def outcome_set(*outcomes) -> set[frozenset]:
    """Expected outcomes, each given as a space-separated card list ('' = the trail)."""
    return {frozenset(o.split()) for o in outcomes}


def canonical_deal(pack, dealer, players, cards_per_hand=3, table_cards=4):
    """docs/escoba_engine.md §5 step 2: one card at a time to seats D+1 .. D, then the table; the rest is the stock."""
    hands = [[] for _ in range(players)]
    n = players * cards_per_hand
    for i in range(n):
        hands[(dealer + 1 + i) % players].append(pack[i])
    return hands, pack[n : n + table_cards], pack[n + table_cards :]


def state_json(state) -> dict:
    return json.loads(state.to_json())


def caps(engine, card, table, **options) -> set[frozenset]:
    return outcome_sets(engine.escoba.capture_options(card, table, **options))


# --------------------------------------------------------------------------------------------------
# Base capture legality (docs/rules/escoba.md §3.1)


def test_tv01_match_forbids_sum(engine):
    """TV-01: T 3h 5s Jc, P Jd -> only {Jc}; the sum 3+5=8 is forbidden by the match."""
    assert caps(engine, "Jd", ["3h", "5s", "Jc"]) == outcome_set("Jc")


def test_tv02_free_choice_among_sums(engine):
    """TV-02: T Ah 3s 4c 5d, P Qh (9) -> {Ah,3s,5d} (1+3+5) or {4c,5d} (4+5); no fewest-cards rule."""
    assert caps(engine, "Qh", ["Ah", "3s", "4c", "5d"]) == outcome_set("Ah 3s 5d", "4c 5d")


def test_tv02_tv10_output_format(engine):
    """TV-02, TV-10 (docs/escoba_engine.md §7 format): each outcome ascending by id, outcomes sorted by id list.

    TV-02: {4c,5d} = ids [3,17]; {5d,Ah,3s} = [17,26,41] -> [[4c,5d],[5d,Ah,3s]].
    TV-10: 3c=2 3d=15 6h=31 6s=44 -> [2,31] [2,44] [15,31] [15,44].
    Trail: [[]].
    """
    f = engine.escoba.capture_options
    assert f("Qh", ["Ah", "3s", "4c", "5d"]) == [["4c", "5d"], ["5d", "Ah", "3s"]]
    assert f("Qd", ["6h", "6s", "3c", "3d"]) == [["3c", "6h"], ["3c", "6s"], ["3d", "6h"], ["3d", "6s"]]
    assert f("Kd", ["2h", "3s", "4c"]) == [[]]


def test_tv03_match_priority(engine):
    """TV-03: T 7h 4s 3c, P 7d -> {7h} only (4+3 suppressed by the match)."""
    assert caps(engine, "7d", ["7h", "4s", "3c"]) == outcome_set("7h")


def test_tv04_match_takes_one_card_choose_which(engine):
    """TV-04: T 5h 5s 2c, P 5d -> {5h} or {5s}: one card only."""
    assert caps(engine, "5d", ["5h", "5s", "2c"]) == outcome_set("5h", "5s")


def test_tv05_no_subset_trail(engine):
    """TV-05: T 2h 3s 4c, P Kd -> none (no subset sums to 10: 2+3+4=9): the trail only."""
    assert caps(engine, "Kd", ["2h", "3s", "4c"]) == outcome_set("")


def test_tv06_king_sweeps_four_cards(engine):
    """TV-06: T Ah 2s 3c 4d, P Kh -> {Ah,2s,3c,4d} (1+2+3+4=10), a sweep."""
    assert caps(engine, "Kh", ["Ah", "2s", "3c", "4d"]) == outcome_set("Ah 2s 3c 4d")


def test_tv06_sweep_scores_scopa_when_not_last_play(engine):
    """TV-06 in a state: the sweep is not the last play of the deal (stock not empty): scopa +1."""
    game = engine.Escoba()
    s = game.setup(hands=[["Kh", "5c"], ["6c", "7c"]], table=["Ah", "2s", "3c", "4d"], to_move=0)
    s.apply(PLAY("Kh"))  # a single outcome: resolved at once
    v = s.view(0)
    assert v["pending"] is None
    assert v["table"] == []
    assert v["scope"] == [1, 0]
    assert set(v["piles"][0]) == {"Kh", "Ah", "2s", "3c", "4d"}
    assert v["last_capturer"] == 0
    assert v["current_player"] == 1
    assert state_json(s)["sweeps"] == [0]


def test_tv07_two_sums(engine):
    """TV-07: T Ah 2s 3c 4d, P 6h -> {2s,4d} (2+4) or {Ah,2s,3c} (1+2+3)."""
    assert caps(engine, "6h", ["Ah", "2s", "3c", "4d"]) == outcome_set("2s 4d", "Ah 2s 3c")


def test_tv08_ace_only_takes_ace(engine):
    """TV-08: T Kh, P Ad -> none: an Ace takes only an Ace, a King only by a King."""
    assert caps(engine, "Ad", ["Kh"]) == outcome_set("")
    # and the King on the table is not taken by a sum either (a sum needs >= 2 table cards)
    assert caps(engine, "Kd", ["Kh"]) == outcome_set("Kh")


def test_tv09_two_aces_by_sum_is_scopa(engine):
    """TV-09: T Ah Ac, P 2d -> {Ah,Ac} (1+1), a sweep; scopa when not the last play."""
    assert caps(engine, "2d", ["Ah", "Ac"]) == outcome_set("Ah Ac")
    s = engine.Escoba().setup(hands=[["2d", "5c"], ["6c", "7c"]], table=["Ah", "Ac"], to_move=0)
    s.apply(PLAY("2d"))
    v = s.view(1)
    assert v["table"] == []
    assert v["scope"] == [1, 0]


def test_tv10_suits_make_distinct_moves(engine):
    """TV-10: T 6h 6s 3c 3d, P Qd (9) -> the four 6+3 pairs; 6+6=12, 3+3=6 do not qualify."""
    assert caps(engine, "Qd", ["6h", "6s", "3c", "3d"]) == outcome_set("6h 3c", "6h 3d", "6s 3c", "6s 3d")


def test_tv11_no_fewest_cards_in_base(engine):
    """TV-11: T Ah 2h 3h 4h 5h, P 6d -> {Ah,5h}, {2h,4h}, {Ah,2h,3h}."""
    assert caps(engine, "6d", ["Ah", "2h", "3h", "4h", "5h"]) == outcome_set("Ah 5h", "2h 4h", "Ah 2h 3h")


def test_tv12_empty_table_trail_not_scopa(engine):
    """TV-12: empty table, any card -> trail only; it is not a scopa."""
    for card in ["7d", "Kc", "Ad", "Jh"]:
        assert caps(engine, card, []) == outcome_set(""), card
    s = engine.Escoba().setup(hands=[["7d", "5c"], ["6c", "7c"]], table=[], to_move=0)
    s.apply(PLAY("7d"))
    v = s.view(0)
    assert v["table"] == ["7d"]
    assert v["scope"] == [0, 0]
    assert v["piles"] == [[], []]
    assert v["last_capturer"] == -1


def test_tv13_capture_obligation_capture_options(engine):
    """TV-13 via capture_options: T 4h 3s; 7d captures {4h,3s}; Kc can only trail.

    played_card: 7d -> {4h,3s} only. any_card (capture_options uses hand {card}, docs/escoba_engine.md §7,
    so it behaves as played_card): the same. optional: also the trail.
    """
    t = ["4h", "3s"]
    assert caps(engine, "7d", t) == outcome_set("4h 3s")
    assert caps(engine, "7d", t, capture_obligation="any_card") == outcome_set("4h 3s")
    assert caps(engine, "7d", t, capture_obligation="optional") == outcome_set("", "4h 3s")
    assert caps(engine, "Kc", t) == outcome_set("")
    assert caps(engine, "Kc", t, capture_obligation="optional") == outcome_set("")


def _tv13_state(engine, **options):
    # seat 0 to move with 7d Kc; the dealer (seat 1) holds 2c 5c (same hand size, docs/escoba_engine.md §9)
    return engine.Escoba(**options).setup(hands=[["7d", "Kc"], ["2c", "5c"]], table=["4h", "3s"], to_move=0)


def test_tv13_played_card_obligation(engine):
    """TV-13, played_card (default): legal moves (7d,{4h,3s}) and (Kc,trail); 7d may not trail.

    PLAY(Kc)=12, PLAY(7d)=19; each has one outcome, so it resolves at once.
    """
    s = _tv13_state(engine)
    assert s.legal_actions() == [12, 19]
    a = s.clone()
    a.apply(PLAY("7d"))
    va = a.view(0)
    assert va["pending"] is None and va["table"] == []
    assert set(va["piles"][0]) == {"7d", "4h", "3s"}
    b = s.clone()
    b.apply(PLAY("Kc"))
    vb = b.view(0)
    assert vb["pending"] is None
    assert set(vb["table"]) == {"4h", "3s", "Kc"}
    assert vb["piles"] == [[], []]


def test_tv13_any_card_obligation(engine):
    """TV-13, any_card: 7d can capture, so only (7d,{4h,3s}) is legal; PLAY(Kc) is not."""
    s = _tv13_state(engine, capture_obligation="any_card")
    assert s.legal_actions() == [19]


def test_tv13_optional_obligation_step_protocol(engine):
    """TV-13, optional: (7d,trail) is legal too. After PLAY(7d) the outcomes are [] and [4h,3s]
    (ids [29,41]): legal = TAKE(4h)=81 and DONE=104 (TAKE(3s) is not a prefix). DONE trails."""
    s = _tv13_state(engine, capture_obligation="optional")
    assert s.legal_actions() == [12, 19]
    s.apply(PLAY("7d"))
    v = s.view(0)
    assert v["pending"] == "7d"
    assert v["selection"] == []
    assert v["current_player"] == 0
    assert "7d" not in v["hand"]
    assert s.legal_actions() == [81, DONE]
    t = s.clone()
    t.apply(DONE)
    assert set(t.view(0)["table"]) == {"4h", "3s", "7d"}
    assert t.view(0)["pending"] is None
    s.apply(TAKE("4h"))  # exactly one outcome extends [4h]: applied at once
    v = s.view(0)
    assert v["pending"] is None and v["table"] == []
    assert set(v["piles"][0]) == {"7d", "4h", "3s"}


# --------------------------------------------------------------------------------------------------
# Scopa, end of deal, deal mechanics (docs/rules/escoba.md §3.2)


def _tv14_state(engine, scores=None, **options):
    """The last play of a deal: seat 1 (dealer) holds 7d; T 4h 3s; seat 0 holds nothing.

    Side 0's pile = every other card (37: all suits, 9 coins); side 1's pile is empty; stock empty.
    Seat 1 plays 7d, which captures {4h,3s} (4+3=7, no 7 on the table): a sweep on the last play.

    Hand-scored deal (default options):
      cards   37 vs 3  -> side 0
      coins    9 vs 1  -> side 0
      settebello 7d    -> side 1
      primiera: side 1 holds d h s but no clubs -> ineligible; side 0 has every suit -> side 0
      scopa: none (last play, scopa_on_last_play=false)
    => deal points [3, 1]; with scopa_on_last_play=true: [3, 2].
    """
    pile0 = rest_of(["7d", "4h", "3s"])
    check_partition(pile0, ["7d"], ["4h", "3s"])
    return engine.Escoba(**options).setup(
        hands=[[], ["7d"]], table=["4h", "3s"], piles=[pile0, []], dealer=1, to_move=1, scores=scores
    )


def test_tv14_last_play_sweep_not_scopa(engine):
    """TV-14: the last card of the deal, 7d on 4h 3s: captures, the table empties, no scopa."""
    s = _tv14_state(engine)
    assert s.legal_actions() == [PLAY("7d")]
    s.apply(PLAY("7d"))
    v = s.view(0)
    assert v["deal_points"] == [[3, 1]]
    assert s.scores() == [3, 1]
    assert not s.is_terminal()
    assert v["deal"] == 2


def test_tv14_last_play_sweep_counts_with_option(engine):
    """TV-14 with scopa_on_last_play=true: +1 scopa for side 1 -> deal points [3, 2]."""
    s = _tv14_state(engine, scopa_on_last_play=True)
    s.apply(PLAY("7d"))
    assert s.view(0)["deal_points"] == [[3, 2]]
    assert s.scores() == [3, 2]


def _tv15_piles():
    # side 0: 9 coins (all but 4d) + 8 spades (all but 4s and Ks) = 17 cards
    pile0 = ["Ad", "2d", "3d", "5d", "6d", "7d", "Jd", "Qd", "Kd", "As", "2s", "3s", "5s", "6s", "7s", "Js", "Qs"]
    # side 1: 9 clubs (all but Kc) + 9 hearts (all but 2h) + Ks = 19 cards
    pile1 = [
        "Ac",
        "2c",
        "3c",
        "4c",
        "5c",
        "6c",
        "7c",
        "Jc",
        "Qc",
        "Ah",
        "3h",
        "4h",
        "5h",
        "6h",
        "7h",
        "Jh",
        "Qh",
        "Kh",
        "Ks",
    ]
    check_partition(pile0, pile1, ["4d"], ["2h", "Kc", "4s"])
    return pile0, pile1


def _tv15_state(engine, **options):
    """The last play: seat 0 (dealer) plays 4d on T 2h Kc 4s -> {4s} (match; 2h alone is not 4).
    The table then holds 2h Kc, and the last capture of the deal was by side 0 (A)."""
    pile0, pile1 = _tv15_piles()
    return engine.Escoba(**options).setup(
        hands=[["4d"], []], table=["2h", "Kc", "4s"], piles=[pile0, pile1], dealer=0, to_move=0
    )


def test_tv15_rest_goes_to_last_capturer(engine):
    """TV-15: after the final play the table holds 2h Kc; they go to side A (0), no scopa.

    Side 0 ends with 17 + {4d,4s} + {2h,Kc} = 21 cards: 10 coins, 9 spades, 2h, Kc.
    Side 1: 19 cards (9 clubs, 9 hearts, Ks), no coins.
      cards 21-19 -> 0; coins 10-0 -> 0; settebello -> 0;
      primiera: side 0 = 7d 21 + 7s 21 + 2h 12 + Kc 10 = 64 (eligible), side 1 has no coins -> 0.
      scope: none (4d took one card; taking the rest is never a scopa).
    => [4, 0]. (Were 2h Kc not given to side 0: 19-19 cards, side 0 missing h and c -> [2, 0].)
    """
    s = _tv15_state(engine)
    s.apply(PLAY("4d"))
    v = s.view(1)
    assert v["deal_points"] == [[4, 0]]
    assert s.scores() == [4, 0]


def test_tv15_rest_to_nobody_when_option_off(engine):
    """TV-15 with last_capturer_takes_rest=false (docs/rules/escoba.md §1.6): 2h Kc belong to nobody.

    Side 0: 19 cards (coins 10, spades 9) vs 19 -> no cards point; coins 0; settebello 0;
    primiera: side 0 lacks h and c, side 1 lacks d -> nobody. => [2, 0].
    """
    s = _tv15_state(engine, last_capturer_takes_rest=False)
    s.apply(PLAY("4d"))
    assert s.view(0)["deal_points"] == [[2, 0]]


def test_tv16_sweep_on_last_card_of_earlier_hand_counts(engine):
    """TV-16: 2 players, a sweep with the 3rd card of hand 4 of 6 (12 cards left in the stock).

    Seat 1 (dealer) plays Kh on Ah 2s 3c 4d (1+2+3+4=10): the stock is not empty, so +1 scopa.
    Then hand 5 is dealt from the stock top, one card at a time to seats 0,1,0,1,0,1 (docs/escoba_engine.md §5 step 5):
    seat 0 gets 5c 7c Qc, seat 1 gets 6c Jc Kc; 6 cards remain; seat 0 (D+1) moves.
    """
    stock = ["5c", "6c", "7c", "Jc", "Qc", "Kc", "5h", "6h", "7h", "Jh", "Qh", "Qs"]
    table = ["Ah", "2s", "3c", "4d"]
    pile0 = rest_of(stock, table, ["Kh"])  # 23 cards
    check_partition(stock, table, ["Kh"], pile0)
    s = engine.Escoba().setup(hands=[[], ["Kh"]], table=table, stock=stock, piles=[pile0, []], dealer=1, to_move=1)
    s.apply(PLAY("Kh"))
    v0, v1 = s.view(0), s.view(1)
    assert v0["scope"] == [0, 1]
    assert v0["deal"] == 1
    assert v0["table"] == []
    assert v0["stock_size"] == 6
    assert v0["hand_sizes"] == [3, 3]
    assert v0["current_player"] == 0
    assert set(v0["hand"]) == {"5c", "7c", "Qc"}
    assert set(v1["hand"]) == {"6c", "Jc", "Kc"}
    j = state_json(s)
    assert j["sweeps"] == [1]
    assert j["stock"] == [cid(c) for c in ["5h", "6h", "7h", "Jh", "Qh", "Qs"]]
    assert j["last_capturer"] == 1


def _deck_with_table(table, players=2, cards_per_hand=3, hand_cards=None):
    """A deck (top first) whose initial table (after players*cards_per_hand cards) is `table`."""
    n = players * cards_per_hand
    if hand_cards is None:
        hand_cards = [c for c in PACK40 if c not in table][:n]
    rest = rest_of(hand_cards, table)
    deck = list(hand_cards) + list(table) + rest
    check_partition(deck)
    return deck


@pytest.mark.parametrize("seed", [7, 2024])
def test_tv17_void_deal_redeals_same_dealer(engine, seed):
    """TV-17: initial table Kh Kd Ks 5c (3 Kings) -> void; the same dealer deals a fresh shuffle.

    Expected deal computed from docs/design.md §5 / docs/escoba_engine.md §5 with cardlib's SplitMix64: first draw
    dealer = next() mod 2; the given deck is dealt (no draw), found void; then a fresh ascending
    pack is shuffled with the same stream and dealt by the same dealer (repeated while void).
    """
    deck = _deck_with_table(["Kh", "Kd", "Ks", "5c"])
    rng = SplitMix64(seed)
    dealer = rng.next() % 2
    while True:
        pack = [cid(c) for c in PACK40]
        rng.shuffle(pack)
        hands, table, stock = canonical_deal(pack, dealer, 2)
        if sum(1 for t in table if t % 13 == 12) < 3:
            break
    s = engine.Escoba().new_state(seed=seed, deck=deck)
    v = s.view(0)
    assert v["dealer"] == dealer
    assert v["deal"] == 1
    assert v["current_player"] == (dealer + 1) % 2
    assert sorted(cid(c) for c in v["table"]) == sorted(table)
    for p in range(2):
        assert sorted(cid(c) for c in s.view(p)["hand"]) == sorted(hands[p])
    j = state_json(s)
    assert j["stock"] == stock
    assert j["rng"] == str(rng.x)


def test_tv17_two_kings_play_on(engine):
    """TV-17: initial table Kh Kd 5s 5c (2 Kings) -> the deal stands, exactly as dealt.

    Hands from the deck top: the first 6 pack cards not on the table (Ac 2c 3c 4c 6c 7c): seat D+1
    gets deck[0,2,4] = Ac 3c 6c, the dealer deck[1,3,5] = 2c 4c 7c. Only the dealer draw is made.
    """
    deck = _deck_with_table(["Kh", "Kd", "5s", "5c"])
    assert deck[:6] == ["Ac", "2c", "3c", "4c", "6c", "7c"]
    seed = 11
    rng = SplitMix64(seed)
    dealer = rng.next() % 2
    s = engine.Escoba().new_state(seed=seed, deck=deck)
    v = s.view(0)
    assert v["dealer"] == dealer
    assert set(v["table"]) == {"Kh", "Kd", "5s", "5c"}
    assert set(s.view((dealer + 1) % 2)["hand"]) == {"Ac", "3c", "6c"}
    assert set(s.view(dealer)["hand"]) == {"2c", "4c", "7c"}
    assert state_json(s)["rng"] == str(rng.x)


def test_tv17_void_deal_disabled(engine):
    """TV-17 with void_deal_min_kings=null (docs/rules/escoba.md §1.2): Kh Kd Ks 5c plays on."""
    deck = _deck_with_table(["Kh", "Kd", "Ks", "5c"])
    s = engine.Escoba(void_deal_min_kings=None).new_state(seed=3, deck=deck)
    assert set(s.view(0)["table"]) == {"Kh", "Kd", "Ks", "5c"}


@pytest.mark.parametrize("players,hands", [(2, 6), (3, 4), (4, 3), (6, 2)])
def test_tv18_hand_counts(engine, players, hands):
    """TV-18: with 36 cards after the table: 2p 6 hands of 3, 3p 4, 4p 3, 6p 2; the stock is exactly
    empty after the last hand. Played out with the first legal action; at the start of each hand
    (every hand holding 3 cards, nothing pending) the stock must hold 36 - 3*players*k cards."""
    for seed in (1, 2):
        s = engine.Escoba(players=players).new_state(seed=seed)
        seen = []
        for _ in range(1000):
            if s.is_terminal():
                break
            v = s.view(0)
            if v["deal"] != 1:
                break
            if v["pending"] is None and all(h == 3 for h in v["hand_sizes"]):
                if not seen or seen[-1] != v["stock_size"]:
                    seen.append(v["stock_size"])
            s.apply(s.legal_actions()[0])
        assert s.is_terminal() or s.view(0)["deal"] == 2
        assert seen == [36 - 3 * players * k for k in range(1, hands + 1)]


# --------------------------------------------------------------------------------------------------
# Scoring, base and scoring options (docs/rules/escoba.md §3.3), through score_deal(piles, scope, **options)

NO_OTHERS = dict(cards=0, coins=0, settebello=0)


def test_tv19_primiera_value_70(engine):
    """TV-19: A's best per suit 7d 6h As 5c (pile also 2c Kh) -> 21+18+16+15 = 70.

    Checked against B piles worth 69, 70 and 71 (only the primiera category scores):
      B = 7h 6d 4s Ac -> 21+18+14+16 = 69 -> A;  7h 6d Ac 5s -> 21+18+16+15 = 70 -> tie;
      B = 7h 7s Ad 3c -> 21+21+16+13 = 71 -> B.
    """
    a = ["7d", "6h", "As", "5c", "2c", "Kh"]
    sd = engine.escoba.score_deal
    assert sd([a, ["7h", "6d", "4s", "Ac"]], [0, 0], **NO_OTHERS) == [1, 0]
    assert sd([a, ["7h", "6d", "Ac", "5s"]], [0, 0], **NO_OTHERS) == [0, 0]
    assert sd([a, ["7h", "7s", "Ad", "3c"]], [0, 0], **NO_OTHERS) == [0, 1]


def test_tv20_standard_vs_veneto(engine):
    """TV-20: X = 7d 7h Js Jc, Y = 6d 6h 2s 2c.

    Cards 4-4 and coins 1-1 tie; settebello X.
    Standard: X = 21+21+10+10 = 62, Y = 18+18+12+12 = 60 -> X: [2, 0].
    Veneto x2: X = 14+14+1+1 = 30, Y = 12+12+4+4 = 32 -> Y: [1, 1].
    """
    piles = [["7d", "7h", "Js", "Jc"], ["6d", "6h", "2s", "2c"]]
    sd = engine.escoba.score_deal
    assert sd(piles, [0, 0]) == [2, 0]
    assert sd(piles, [0, 0], primiera_mode="veneto") == [1, 1]


def test_tv21_primiera_tie_nobody(engine):
    """TV-21: A 7d 6h As 5c = 70, B 7h 6d Ac 5s = 70 -> primiera to nobody.

    Cards 4-4, coins 1-1 tie; settebello A -> [1, 0].
    With category_tie_policy=all_tied (docs/rules/escoba.md §1.7): cards, coins and primiera to both -> [4, 3].
    """
    piles = [["7d", "6h", "As", "5c"], ["7h", "6d", "Ac", "5s"]]
    sd = engine.escoba.score_deal
    assert sd(piles, [0, 0]) == [1, 0]
    assert sd(piles, [0, 0], **NO_OTHERS) == [0, 0]
    assert sd(piles, [0, 0], category_tie_policy="all_tied") == [4, 3]


def test_tv22_primiera_requires_all_suits(engine):
    """TV-22: A = 7 6 A 5 4 of d, h, s (15 cards, no clubs); B = the other 25 cards.

    B's best: 3d 3h 3s 7c = 13+13+13+21 = 60. A without clubs: 21+21+21 = 63.
    Cards 15-25 -> B; coins 5-5 tie; settebello A.
    Default: A ineligible -> primiera B: A 1, B 2.
    primiera_requires_all_suits=false: A 63 > 60 -> primiera A: A 2, B 1.
    """
    a = [r + s for s in "dhs" for r in "76A54"]
    b = rest_of(a)
    assert len(a) == 15 and len(b) == 25
    sd = engine.escoba.score_deal
    assert sd([a, b], [0, 0]) == [1, 2]
    assert sd([a, b], [0, 0], primiera_requires_all_suits=False) == [2, 1]


def test_tv23_milan_most_sevens_then_sixes(engine):
    """TV-23: milan; A 7d 7h + 6d 6h 6s, B 7s 7c + 6c: sevens 2-2, sixes 3-1 -> A.
    With milan_tiebreak=[7] (setenta most_sevens, docs/rules/escoba.md §2.5): 2-2 -> nobody."""
    piles = [["7d", "7h", "6d", "6h", "6s"], ["7s", "7c", "6c"]]
    sd = engine.escoba.score_deal
    assert sd(piles, [0, 0], primiera_mode="milan", **NO_OTHERS) == [1, 0]
    assert sd(piles, [0, 0], primiera_mode="milan", milan_tiebreak=["7"], **NO_OTHERS) == [0, 0]


def test_tv24_milan_full_tie(engine):
    """TV-24: milan; A and B each hold two 7s, two 6s, two Aces -> no point.
    Extra (docs/rules/escoba.md §1.8, [7,6,A,5]): give A also 5d -> the 5s break the tie for A; with the default
    [7,6,A] the 5 is not compared -> still nobody."""
    a = ["7d", "7h", "6d", "6h", "Ad", "Ah"]
    b = ["7s", "7c", "6s", "6c", "As", "Ac"]
    sd = engine.escoba.score_deal
    assert sd([a, b], [0, 0], primiera_mode="milan", **NO_OTHERS) == [0, 0]
    assert sd([a + ["5d"], b], [0, 0], primiera_mode="milan", **NO_OTHERS) == [0, 0]
    assert sd([a + ["5d"], b], [0, 0], primiera_mode="milan", milan_tiebreak=["7", "6", "A", "5"], **NO_OTHERS) == [
        1,
        0,
    ]


def test_tv25_settanta_bonus(engine):
    """TV-25: A captured all four 7s: primiera 84 (B = four 6s = 72) +1, settanta +1 = 2."""
    piles = [["7c", "7d", "7h", "7s"], ["6c", "6d", "6h", "6s"]]
    sd = engine.escoba.score_deal
    assert sd(piles, [0, 0], settanta_bonus=True, **NO_OTHERS) == [2, 0]
    assert sd(piles, [0, 0], **NO_OTHERS) == [1, 0]


TV26_A = [
    "7d",
    "7h",
    "7s",
    "6d",
    "6c",
    "Ad",
    "2d",
    "3d",
    "4d",
    "Kd",
    "Jh",
    "Qh",
    "Kh",
    "5s",
    "4s",
    "3s",
    "2s",
    "As",
    "Jc",
    "Qc",
    "Kc",
    "5c",
]
TV26_B = ["2c", "2h", "3c", "3h", "4c", "4h", "5d", "5h", "6h", "6s", "7c", "Ac", "Ah", "Jd", "Js", "Ks", "Qd", "Qs"]


def test_tv26_full_deal(engine):
    """TV-26: A (22 cards), B (18), scope A 1 B 2.
    Cards A 22-18; coins A 7-3; settebello A; primiera A 81 (7d 7h 7s 6c) vs B 72 (5d 6h 6s 7c).
    A = 4 + 1 scopa = 5, B = 2 scope."""
    check_partition(TV26_A, TV26_B)
    assert engine.escoba.score_deal([TV26_A, TV26_B], [1, 2]) == [5, 2]


def test_tv27_napola_and_re_bello(engine):
    """TV-27: TV-26 with napola and re_bello: A's coins A-2-3-4 (5d is B's) -> 4, Kd -> +1.
    A = 5 + 4 + 1 = 10, B = 2 (B's coins 5d Jd Qd: no Ace, napola 0)."""
    sd = engine.escoba.score_deal
    assert sd([TV26_A, TV26_B], [1, 2], napola=True, re_bello=True) == [10, 2]
    assert sd([TV26_A, TV26_B], [1, 2], napola=True) == [9, 2]
    assert sd([TV26_A, TV26_B], [1, 2], re_bello=True) == [6, 2]


@pytest.mark.parametrize(
    "coins,points",
    [
        ("A 2 3 4 5 J", 5),
        ("2 3 4 5 6 7 J Q K", 0),
        ("A 2 7", 0),
        ("A 2 3 5 6", 3),
        ("A 2 3 4 5 6 7 J Q K", 10),
    ],
)
def test_tv28_napola_runs(engine, coins, points):
    """TV-28: napola runs over the coins held (only the napola category scores here)."""
    pile = [r + "d" for r in coins.split()]
    got = engine.escoba.score_deal([pile, []], [0, 0], napola=True, primiera=0, **NO_OTHERS)
    assert got == [points, 0]


def test_tv28_all_ten_coins_wins_the_game(engine):
    """TV-28: all ten coins wins the game if napola_all_coins_wins (docs/escoba_engine.md §6 rule 1).

    TV-15's last play with napola on: side 0 ends with all ten coins. Deal points: TV-15's [4, 0]
    + napola 10 = [14, 0]. target=50, so only the napoleone can end the match.
    """
    s = _tv15_state(engine, napola=True, napola_all_coins_wins=True, target=50)
    s.apply(PLAY("4d"))
    assert s.scores() == [14, 0]
    assert s.is_terminal()
    assert s.returns() == pytest.approx([1.0, -1.0])
    assert s.view(0)["winner"] == 0
    t = _tv15_state(engine, napola=True, target=50)
    t.apply(PLAY("4d"))
    assert t.scores() == [14, 0]
    assert not t.is_terminal()
    assert t.returns() == pytest.approx([0.0, 0.0])


def test_tv29_three_players_top_tie(engine):
    """TV-29: 3 players, cards 14/14/12, coins 4/3/3 -> cards nobody, coins player 0.

    P0 = Ad 2d 3d 4d + 10 clubs (14); P1 = 5d 6d 7d + 10 hearts + As (14);
    P2 = Jd Qd Kd + 2s..Ks (12). Settebello and primiera switched off.
    nobody: [1, 0, 0]. all_tied: cards to P0 and P1, coins P0 -> [2, 1, 0].
    """
    p0 = ["Ad", "2d", "3d", "4d"] + [r + "c" for r in "A234567JQK"]
    p1 = ["5d", "6d", "7d"] + [r + "h" for r in "A234567JQK"] + ["As"]
    p2 = ["Jd", "Qd", "Kd"] + [r + "s" for r in "234567JQK"]
    check_partition(p0, p1, p2)
    sd = engine.escoba.score_deal
    opts = dict(players=3, settebello=0, primiera=0)
    assert sd([p0, p1, p2], [0, 0, 0], **opts) == [1, 0, 0]
    assert sd([p0, p1, p2], [0, 0, 0], category_tie_policy="all_tied", **opts) == [2, 1, 0]


def _tv30_piles():
    # side 0 (seats 0, 2): 9 clubs (not 5c) + 9 hearts (not 5h) + Ks = 19
    pile0 = [r + "c" for r in "A23467JQK"] + [r + "h" for r in "A23467JQK"] + ["Ks"]
    # side 1 (seats 1, 3): 10 coins + As..Qs = 19
    pile1 = [r + "d" for r in "A234567JQK"] + [r + "s" for r in "A234567JQ"]
    check_partition(pile0, pile1, ["5c"], ["5h"])
    return pile0, pile1


def test_tv30_teams_pool_cards(engine):
    """TV-30: 4 players in teams; team {0,2} 21 cards vs team {1,3} 19 -> cards to team {0,2}.

    The engine keeps one pile per team (docs/rules/escoba.md §1.1), so this is a position where team {0,2} holds 19
    and seat 2 (dealer, last play) captures 5h with 5c: 21 vs 19. The sweep is the last play:
    no scopa. Cards -> side 0; coins 0-10 -> side 1; settebello -> side 1; primiera: side 0 has no
    coins, side 1 no clubs/hearts -> nobody. Deal [1, 2]; scores per seat [1, 2, 1, 2].
    Same piles through score_deal(players=4) -> [1, 2].
    """
    pile0, pile1 = _tv30_piles()
    s = engine.Escoba(players=4).setup(
        hands=[[], [], ["5c"], []], table=["5h"], piles=[pile0, pile1], dealer=2, to_move=2
    )
    s.apply(PLAY("5c"))
    assert s.view(0)["deal_points"] == [[1, 2]]
    assert s.scores() == [1, 2, 1, 2]
    assert engine.escoba.score_deal([pile0 + ["5c", "5h"], pile1], [0, 0], players=4) == [1, 2]


# --------------------------------------------------------------------------------------------------
# Winning and ties (docs/rules/escoba.md §3.4; TV-14's last play scores the deal [3, 1])


def test_tv31_unique_leader_at_target_wins(engine):
    """TV-31: A 12, B 11 (target 11) -> A wins. Scores before [9, 10] + deal [3, 1]."""
    s = _tv14_state(engine, scores=[9, 10])
    s.apply(PLAY("7d"))
    assert s.scores() == [12, 11]
    assert s.is_terminal()
    assert s.current_player() == -1
    assert s.returns() == pytest.approx([1.0, -1.0])
    v = s.view(1)
    assert v["winner"] == 0 and v["terminal"] is True


def test_tv32_tie_at_target_plays_another_deal(engine):
    """TV-32: A 11, B 11 (target 11) -> another deal. Scores before [8, 10] + deal [3, 1].
    The new deal: deal 2, dealer D+1 = 0, seat 1 to move, 3 cards each."""
    s = _tv14_state(engine, scores=[8, 10])
    s.apply(PLAY("7d"))
    assert s.scores() == [11, 11]
    assert not s.is_terminal()
    assert s.returns() == pytest.approx([0.0, 0.0])
    v = s.view(0)
    assert v["deal"] == 2
    assert v["dealer"] == 0
    assert v["current_player"] == 1
    assert v["hand_sizes"] == [3, 3]
    assert v["winner"] == -1


def _tv33_state(engine, scores, scope):
    """3 players, the last play: seat 2 (dealer) plays 7d on 4h 3s (captures; no scopa).

    Piles: side 0 = 10 clubs + 9 hearts (not 4h) = 19; side 1 = 9 coins (not 7d) + As 2s 4s 5s = 13;
    side 2 = 6s 7s Js Qs Ks, plus 7d 4h 3s after the play = 8.
    cards 19/13/8 -> 0; coins 0/9/1 -> 1; settebello -> 2; primiera: nobody eligible
    (0: c h; 1: d s; 2: d h s). Deal = [1, 1, 1] + scope.
    """
    p0 = [r + "c" for r in "A234567JQK"] + [r + "h" for r in "A23567JQK"]
    p1 = [r + "d" for r in "A23456JQK"] + ["As", "2s", "4s", "5s"]
    p2 = ["6s", "7s", "Js", "Qs", "Ks"]
    check_partition(p0, p1, p2, ["7d", "4h", "3s"])
    return engine.Escoba(players=3).setup(
        hands=[[], [], ["7d"]],
        table=["4h", "3s"],
        piles=[p0, p1, p2],
        dealer=2,
        to_move=2,
        scores=scores,
        scope=scope,
    )


def test_tv33_three_players_tie_for_lead_then_leader_wins(engine):
    """TV-33: 3 players, target 16.
    First: before [15,15,13], scope [1,1,0] -> deal [2,2,1] -> A 17, B 17, C 14: top tie, continue.
    Second: before [15,15,15], scope [3,2,2] -> deal [4,3,3] -> A 19, B 18, C 18: A wins
    (the 18-18 tie below the leader is irrelevant). Returns: A +1, the others -1/2 each."""
    s = _tv33_state(engine, scores=[15, 15, 13], scope=[1, 1, 0])
    s.apply(PLAY("7d"))
    assert s.view(0)["deal_points"] == [[2, 2, 1]]
    assert s.scores() == [17, 17, 14]
    assert not s.is_terminal()
    assert s.view(0)["deal"] == 2

    t = _tv33_state(engine, scores=[15, 15, 15], scope=[3, 2, 2])
    t.apply(PLAY("7d"))
    assert t.scores() == [19, 18, 18]
    assert t.is_terminal()
    assert t.view(2)["winner"] == 0
    assert t.returns() == pytest.approx([1.0, -0.5, -0.5])


def _tv34_state(engine, **options):
    """Last play: seat 1 (dealer) plays 7d on 4h 3s. Scores before: A 9, B 10; B made 1 scopa.

    A (side 0) = 9 coins (not 7d) + 9 hearts (not 4h) + Ac 2c 3c = 21 cards, no spades.
    B (side 1) = 4c 5c 6c 7c Jc Qc Kc + 9 spades (not 3s) = 16, + 7d 4h 3s = 19.
    cards 21-19 -> A; coins 9-1 -> A; settebello -> B; primiera: A ineligible (no spades),
    B eligible -> B; scope: B 1 (the last-play sweep does not count). Deal A 2, B 3.
    """
    pa = [r + "d" for r in "A23456JQK"] + [r + "h" for r in "A23567JQK"] + ["Ac", "2c", "3c"]
    pb = [r + "c" for r in "4567JQK"] + [r + "s" for r in "A24567JQK"]
    check_partition(pa, pb, ["7d", "4h", "3s"])
    return engine.Escoba(**options).setup(
        hands=[[], ["7d"]],
        table=["4h", "3s"],
        piles=[pa, pb],
        dealer=1,
        to_move=1,
        scores=[9, 10],
        scope=[0, 1],
    )


def test_tv34_default_highest_total_wins(engine):
    """TV-34, default win check: A 9+2 = 11, B 10+3 = 13 -> B wins."""
    s = _tv34_state(engine)
    s.apply(PLAY("7d"))
    assert s.view(0)["deal_points"] == [[2, 3]]
    assert s.scores() == [11, 13]
    assert s.is_terminal()
    assert s.view(0)["winner"] == 1
    assert s.returns() == pytest.approx([-1.0, 1.0])


def test_tv34_count_out(engine):
    """TV-34, win_check=count_out: replay from A 9, B 10 in the order cards, coins, settebello,
    primiera, scope: after cards A 10, after coins A 11 (B still 10) -> A wins."""
    s = _tv34_state(engine, win_check="count_out")
    s.apply(PLAY("7d"))
    assert s.scores() == [11, 13]
    assert s.is_terminal()
    assert s.view(0)["winner"] == 0
    assert s.returns() == pytest.approx([1.0, -1.0])


# --------------------------------------------------------------------------------------------------
# Ace variants (docs/rules/escoba.md §3.5)


def test_tv35_ace_takes_all_capture(engine):
    """TV-35: T 5h 3s Kc, P As -> {5h,3s,Kc} in every Ace preset (no normal capture for value 1)."""
    for variant in ["asso_piglia_tutto", "scopa_d_assi", "sbarazzina"]:
        assert caps(engine, "As", ["5h", "3s", "Kc"], variant=variant) == outcome_set("5h 3s Kc"), variant
    assert caps(engine, "As", ["5h", "3s", "Kc"]) == outcome_set("")  # base game: the Ace trails


@pytest.mark.parametrize("variant,scopa", [("asso_piglia_tutto", 1), ("scopa_d_assi", 0), ("sbarazzina", 0)])
def test_tv35_ace_sweep_scopa_by_variant(engine, variant, scopa):
    """TV-35: the Ace sweep is +1 scopa in Asso piglia tutto; 0 in Scopa d'assi and Sbarazzina."""
    s = engine.Escoba(variant=variant).setup(hands=[["As", "2c"], ["3c", "4c"]], table=["5h", "3s", "Kc"], to_move=0)
    s.apply(PLAY("As"))
    v = s.view(0)
    assert v["pending"] is None
    assert v["table"] == []
    assert set(v["piles"][0]) == {"As", "5h", "3s", "Kc"}
    assert v["last_capturer"] == 0
    assert v["scope"] == [scopa, 0]


def test_tv36_ace_blocked_by_table_ace(engine):
    """TV-36: T Ah 5s, P Ad: blocked -> only {Ah}; with the option off -> {Ah} or {Ah,5s}."""
    for variant in ["asso_piglia_tutto", "scopa_d_assi", "sbarazzina"]:
        assert caps(engine, "Ad", ["Ah", "5s"], variant=variant) == outcome_set("Ah"), variant
        assert caps(engine, "Ad", ["Ah", "5s"], variant=variant, ace_blocked_by_table_ace=False) == outcome_set(
            "Ah", "Ah 5s"
        ), variant


def test_tv36_blocked_ace_leaves_table_no_sweep(engine):
    """TV-36 in a state: Ad takes Ah only (one outcome: resolved at once); 5s stays; no scopa."""
    s = engine.Escoba(variant="asso_piglia_tutto").setup(
        hands=[["Ad", "2c"], ["3c", "4c"]], table=["Ah", "5s"], to_move=0
    )
    s.apply(PLAY("Ad"))
    v = s.view(0)
    assert v["pending"] is None
    assert v["table"] == ["5s"]
    assert set(v["piles"][0]) == {"Ad", "Ah"}
    assert v["scope"] == [0, 0]


def test_tv37_ace_on_empty_table(engine):
    """TV-37: empty table, Ad: self_capture -> [Ad] only (under every capture_obligation, docs/rules/escoba.md §2.1);
    trail -> the trail."""
    for variant in ["asso_piglia_tutto", "scopa_d_assi", "sbarazzina"]:
        assert caps(engine, "Ad", [], variant=variant) == outcome_set("Ad"), variant
        assert caps(engine, "Ad", [], variant=variant, capture_obligation="optional") == outcome_set("Ad")
        assert caps(engine, "Ad", [], variant=variant, ace_on_empty_table="trail") == outcome_set(""), variant


def test_tv37_self_capture_state(engine):
    """TV-37 in a state: self_capture: Ad goes to the player's pile, no scopa, last capturer 0."""
    s = engine.Escoba(variant="asso_piglia_tutto").setup(hands=[["Ad", "5c"], ["6c", "7c"]], table=[], to_move=0)
    s.apply(PLAY("Ad"))
    v = s.view(0)
    assert v["pending"] is None
    assert v["table"] == []
    assert v["piles"] == [["Ad"], []]
    assert v["scope"] == [0, 0]
    assert v["last_capturer"] == 0
    assert v["current_player"] == 1


def test_tv37_trail_option_state(engine):
    """TV-37 in a state: ace_on_empty_table=trail: Ad stays on the table; nobody captured."""
    s = engine.Escoba(variant="asso_piglia_tutto", ace_on_empty_table="trail").setup(
        hands=[["Ad", "5c"], ["6c", "7c"]], table=[], to_move=0
    )
    s.apply(PLAY("Ad"))
    v = s.view(0)
    assert v["table"] == ["Ad"]
    assert v["piles"] == [[], []]
    assert v["last_capturer"] == -1


def test_tv38_forbid_ace_first_play(engine):
    """TV-38: asso_piglia_tutto, 4 players (10 cards each, no table), forbid_ace_first_play.

    Deck = Ac Ad Ah As 2c 2d 2h 2s ... (one card at a time to D+1, D+2, D+3, D): seat D+1 gets
    all clubs, D+2 all coins, D+3 all hearts, the dealer all spades. On the first play D+1 may
    play any club but Ac (ids 1..6, 10..12). Without the option, Ac is playable too (0..6, 10..12).
    After D+1 trails 2c, D+2 may play Ad (the Ace takes the 2c): all ten coins are legal.
    """
    deck = [r + s for r in "A234567JQK" for s in SUITS]
    check_partition(deck)
    clubs = [cid(r + "c") for r in "A234567JQK"]
    coins = [cid(r + "d") for r in "A234567JQK"]
    s = engine.Escoba(variant="asso_piglia_tutto", players=4, forbid_ace_first_play=True).new_state(seed=5, deck=deck)
    d = s.view(0)["dealer"]
    assert s.current_player() == (d + 1) % 4
    assert set(s.view((d + 1) % 4)["hand"]) == {r + "c" for r in "A234567JQK"}
    assert s.legal_actions() == [c for c in clubs if c != cid("Ac")]
    s.apply(PLAY("2c"))
    assert s.current_player() == (d + 2) % 4
    assert s.legal_actions() == coins

    t = engine.Escoba(variant="asso_piglia_tutto", players=4).new_state(seed=5, deck=deck)
    assert t.legal_actions() == clubs


# --------------------------------------------------------------------------------------------------
# Scopa a 15 and Scopa a 11 (docs/rules/escoba.md §3.6)


def test_tv39_scopa_15_fewest_cards(engine):
    """TV-39: scopa_15, T Ah 3s 4c 5d Jh, P 6d.

    Match: none. Sum (6): {Ah,5d}. Sum15 (table 9): {Ah,Jh}, {4c,5d}, {Ah,3s,5d}.
    fewest_cards=all keeps the 2-card sets: {Ah,5d}, {Ah,Jh}, {4c,5d}; not {Ah,3s,5d}.
    Extra (docs/rules/escoba.md §2.4): sum15_only gives the same three; fewest_cards=none adds {Ah,3s,5d}.
    """
    t = ["Ah", "3s", "4c", "5d", "Jh"]
    assert caps(engine, "6d", t, variant="scopa_15") == outcome_set("Ah 5d", "Ah Jh", "4c 5d")
    assert caps(engine, "6d", t, variant="scopa_15", fewest_cards="sum15_only") == outcome_set(
        "Ah 5d", "Ah Jh", "4c 5d"
    )
    assert caps(engine, "6d", t, variant="scopa_15", fewest_cards="none") == outcome_set(
        "Ah 5d", "Ah Jh", "4c 5d", "Ah 3s 5d"
    )


def test_tv40_scopa_15_match_and_fifteen(engine):
    """TV-40: scopa_15, T 7h Jc, P 7d -> {7h} (match) and {Jc} (7+8=15): both 1 card."""
    assert caps(engine, "7d", ["7h", "Jc"], variant="scopa_15") == outcome_set("7h", "Jc")


def test_tv41_fewest_all_vs_sum15_only(engine):
    """TV-41: scopa_15, T Kh 2s 3c, P 3d: match {3c}; Sum15 (table 12) {Kh,2s}.
    fewest_cards=all -> {3c} only; sum15_only -> {3c} and {Kh,2s}."""
    t = ["Kh", "2s", "3c"]
    assert caps(engine, "3d", t, variant="scopa_15") == outcome_set("3c")
    assert caps(engine, "3d", t, variant="scopa_15", fewest_cards="sum15_only") == outcome_set("3c", "Kh 2s")


def test_tv42_scopa_11_jack_takes_three(engine):
    """TV-42: scopa_11, T 3h, P Jd -> {3h} (8+3=11); a sweep (scopa when not the last play)."""
    assert caps(engine, "Jd", ["3h"], variant="scopa_11") == outcome_set("3h")
    assert caps(engine, "Jd", ["3h"]) == outcome_set("")  # base game: no capture
    s = engine.Escoba(variant="scopa_11").setup(hands=[["Jd", "5c"], ["6c", "7c"]], table=["3h"], to_move=0)
    s.apply(PLAY("Jd"))
    v = s.view(0)
    assert v["table"] == []
    assert v["scope"] == [1, 0]


def test_tv43_scopa_11_not_blocked_by_match(engine):
    """TV-43: scopa_11, T Jh 3s, P Jd -> {Jh} (match) or {3s} (11-capture despite the equal card)."""
    assert caps(engine, "Jd", ["Jh", "3s"], variant="scopa_11") == outcome_set("Jh", "3s")


def test_tv44_scopa_11_ace(engine):
    """TV-44: T Kh 4s 6c, P Ad. scopa_11 -> {Kh} (1+10) or {4s,6c} (1+4+6). Base: none (trail)."""
    t = ["Kh", "4s", "6c"]
    assert caps(engine, "Ad", t, variant="scopa_11") == outcome_set("Kh", "4s 6c")
    assert caps(engine, "Ad", t) == outcome_set("")


# --------------------------------------------------------------------------------------------------
# Escoba (docs/rules/escoba.md §3.7)


def test_tv45_escoba_sum15(engine):
    """TV-45: escoba, T Ah 3s 4c 5d, P 7h -> table 8: {3s,5d}, {Ah,3s,4c}."""
    assert caps(engine, "7h", ["Ah", "3s", "4c", "5d"], variant="escoba") == outcome_set("3s 5d", "Ah 3s 4c")


def test_tv46_escoba_king_cannot_take_king(engine):
    """TV-46: escoba, T Kh 5s 5c, P Kd -> {5s}, {5c} (10+5); not the King."""
    assert caps(engine, "Kd", ["Kh", "5s", "5c"], variant="escoba") == outcome_set("5s", "5c")


def test_tv47_escoba_two_pairs(engine):
    """TV-47: escoba, T 2h 3s Jc Qd, P 4c -> table 11: {2h,Qd} (2+9), {3s,Jc} (3+8)."""
    assert caps(engine, "4c", ["2h", "3s", "Jc", "Qd"], variant="escoba") == outcome_set("2h Qd", "3s Jc")


def test_tv48_escoba_sweep(engine):
    """TV-48: escoba, T Kh, P 5d -> {Kh}: an escoba (+1 sweep, not the last play)."""
    assert caps(engine, "5d", ["Kh"], variant="escoba") == outcome_set("Kh")
    s = engine.Escoba(variant="escoba").setup(hands=[["5d", "2c"], ["6c", "7c"]], table=["Kh"], to_move=0)
    s.apply(PLAY("5d"))
    v = s.view(0)
    assert v["table"] == []
    assert v["scope"] == [1, 0]
    assert state_json(s)["sweeps"] == [0]


def _escoba_de_mano(engine, table, players=2, seed=9, **options):
    deck = _deck_with_table(table, players=players)
    rng = SplitMix64(seed)
    dealer = rng.next() % players  # docs/escoba_engine.md §5 step 1: the first draw
    s = engine.Escoba(variant="escoba", players=players, **options).new_state(seed=seed, deck=deck)
    assert s.view(0)["dealer"] == dealer
    return s, dealer


def test_tv49_escoba_de_mano_15(engine):
    """TV-49: initial table Kc 2d 2s Ac (10+2+2+1 = 15): the dealer takes the 4 cards, 1 escoba;
    the dealer's side becomes the last capturer; seat D+1 faces an empty table."""
    s, d = _escoba_de_mano(engine, ["Kc", "2d", "2s", "Ac"])
    v = s.view(0)
    assert v["table"] == []
    assert set(v["piles"][d]) == {"Kc", "2d", "2s", "Ac"}
    assert v["piles"][1 - d] == []
    assert v["scope"][d] == 1 and v["scope"][1 - d] == 0
    assert v["last_capturer"] == d
    assert v["current_player"] == (d + 1) % 2
    assert state_json(s)["sweeps"] == [d]


def test_tv49_escoba_de_mano_to_eldest(engine):
    """TV-49 with escoba_de_mano_to=eldest (docs/rules/escoba.md §2.5): the cards and the escoba go to seat D+1."""
    s, d = _escoba_de_mano(engine, ["Kc", "2d", "2s", "Ac"], escoba_de_mano_to="eldest")
    e = (d + 1) % 2
    v = s.view(0)
    assert set(v["piles"][e]) == {"Kc", "2d", "2s", "Ac"}
    assert v["scope"][e] == 1 and v["scope"][d] == 0
    assert v["last_capturer"] == e


def test_tv49_escoba_de_mano_teams(engine):
    """TV-49, 4 players in teams: the table goes to the dealer's team (side D mod 2), 1 escoba."""
    s, d = _escoba_de_mano(engine, ["Kc", "2d", "2s", "Ac"], players=4)
    v = s.view(0)
    assert v["table"] == []
    assert set(v["piles"][d % 2]) == {"Kc", "2d", "2s", "Ac"}
    assert v["scope"][d % 2] == 1 and v["scope"][1 - d % 2] == 0
    assert s.current_player() == (d + 1) % 4


def test_tv50_escoba_de_mano_30(engine):
    """TV-50: Kh Kd 5s 5c (30) -> the dealer takes all, 2 escobas (also under partition: K+5, K+5).
    Kh Kd Qs Ac (30): total -> 2 escobas; partition -> 0 (no split into two 15s: K+K=20, K+Q=19,
    K+A=11, Q+A=10): the table stays, nobody captured."""
    for table, mode, sweeps in [
        (["Kh", "Kd", "5s", "5c"], "total", 2),
        (["Kh", "Kd", "5s", "5c"], "partition", 2),
        (["Kh", "Kd", "Qs", "Ac"], "total", 2),
        (["Kh", "Kd", "Qs", "Ac"], "partition", 0),
    ]:
        s, d = _escoba_de_mano(engine, table, escoba_de_mano_30=mode)
        v = s.view(0)
        assert v["scope"][d] == sweeps, (table, mode)
        assert v["scope"][1 - d] == 0
        if sweeps:
            assert v["table"] == []
            assert set(v["piles"][d]) == set(table)
            assert v["last_capturer"] == d
            assert state_json(s)["sweeps"] == [d, d]
        else:
            assert set(v["table"]) == set(table)
            assert v["piles"] == [[], []]
            assert v["last_capturer"] == -1
            assert state_json(s)["sweeps"] == []


# --------------------------------------------------------------------------------------------------
# Step protocol (docs/escoba_engine.md §4) and notation


def _tv02_state(engine):
    # TV-02 position: seat 0 holds Qh Kc; T Ah 3s 4c 5d
    return engine.Escoba().setup(hands=[["Qh", "Kc"], ["6c", "7c"]], table=["Ah", "3s", "4c", "5d"], to_move=0)


def test_protocol_several_outcomes_take_ids(engine):
    """docs/escoba_engine.md §4 on TV-02: PLAY(Qh)=37 has outcomes [4c,5d]=[3,17] and [5d,Ah,3s]=[17,26,41].
    Pending Qh, selection []: legal = TAKE(4c)=55, TAKE(5d)=69; no DONE (no trail).
    TAKE(5d) -> only [17,26,41] extends [17]: applied at once.
    TAKE(4c) -> only [3,17] extends [3]: applied at once.
    An illegal TAKE(3s) raises IllegalActionError and changes nothing."""
    from tapete.errors import IllegalActionError

    s = _tv02_state(engine)
    assert s.legal_actions() == [12, 37]
    s.apply(37)
    v = s.view(0)
    assert v["pending"] == "Qh"
    assert v["selection"] == []
    assert v["hand"] == ["Kc"]
    assert s.current_player() == 0
    assert s.legal_actions() == [55, 69]
    before = s.to_json()
    with pytest.raises(IllegalActionError):
        s.apply(TAKE("3s"))
    with pytest.raises(IllegalActionError):
        s.apply(DONE)
    assert s.to_json() == before

    a = s.clone()
    a.apply(69)
    va = a.view(0)
    assert va["pending"] is None
    assert va["table"] == ["4c"]
    assert set(va["piles"][0]) == {"Qh", "Ah", "3s", "5d"}
    assert a.current_player() == 1

    b = s.clone()
    b.apply(55)
    vb = b.view(0)
    assert vb["pending"] is None
    assert vb["table"] == ["Ah", "3s"]
    assert set(vb["piles"][0]) == {"Qh", "4c", "5d"}


def test_protocol_done_when_selection_is_an_outcome(engine):
    """docs/escoba_engine.md §4 on TV-36 with ace_blocked_by_table_ace=false (asso_piglia_tutto):
    PLAY(Ad)=13, outcomes [Ah]=[26] and [Ah,5s]=[26,43]. Legal: TAKE(Ah)=78 only.
    After TAKE(Ah), S=[26] is an outcome and a prefix of [26,43]: legal TAKE(5s)=95 and DONE.
    DONE -> takes Ah only. TAKE(5s) -> takes the whole table by AceAll: in asso_piglia_tutto a
    scopa (ace_takes_all_is_scopa), in scopa_d_assi not (no normal kind makes {Ah,5s} for an Ace)."""
    for variant, scopa in [("asso_piglia_tutto", 1), ("scopa_d_assi", 0)]:
        s = engine.Escoba(variant=variant, ace_blocked_by_table_ace=False).setup(
            hands=[["Ad", "2c"], ["3c", "4c"]], table=["Ah", "5s"], to_move=0
        )
        s.apply(13)
        assert s.legal_actions() == [78]
        s.apply(78)
        v = s.view(0)
        assert v["pending"] == "Ad"
        assert v["selection"] == ["Ah"]
        assert s.legal_actions() == [95, DONE]
        a = s.clone()
        a.apply(DONE)
        va = a.view(0)
        assert va["table"] == ["5s"] and va["scope"] == [0, 0]
        s.apply(95)
        v = s.view(0)
        assert v["table"] == [] and v["pending"] is None
        assert v["scope"] == [scopa, 0], variant


def test_protocol_unique_outcome_resolves_at_once(engine):
    """docs/escoba_engine.md §4 on TV-01: PLAY(Jd) has the single outcome {Jc}: applied at once."""
    s = engine.Escoba().setup(hands=[["Jd", "2c"], ["6c", "7c"]], table=["3h", "5s", "Jc"], to_move=0)
    s.apply(PLAY("Jd"))
    v = s.view(0)
    assert v["pending"] is None
    assert set(v["table"]) == {"3h", "5s"}
    assert set(v["piles"][0]) == {"Jd", "Jc"}
    assert s.current_player() == 1
    assert state_json(s)["history"] == [PLAY("Jd")]


def test_protocol_full_move_equals_steps(engine):
    """docs/escoba_engine.md §4: play("Qh x Ah 3s 5d") = PLAY(Qh), TAKE(5d) (the move resolves after it);
    play("Qh x 4c 5d") = PLAY(Qh), TAKE(4c). Same JSON (history included) as the step form."""
    for move, actions in (("Qh x Ah 3s 5d", [37, 69]), ("Qh x 4c 5d", [37, 55])):
        steps = _tv02_state(engine)
        for action in actions:
            steps.apply(action)
        full = _tv02_state(engine)
        full.play(move)
        assert full.to_json() == steps.to_json()
        assert state_json(full)["history"] == actions


def test_protocol_full_move_with_done(engine):
    """docs/escoba_engine.md §4: a full move whose selection is a prefix of another outcome ends with DONE:
    TV-36 option off, play("Ad x Ah") = PLAY(Ad), TAKE(Ah), DONE; TV-13 optional, play("7d") =
    PLAY(7d), DONE (the trail)."""
    s = engine.Escoba(variant="asso_piglia_tutto", ace_blocked_by_table_ace=False).setup(
        hands=[["Ad", "2c"], ["3c", "4c"]], table=["Ah", "5s"], to_move=0
    )
    s.play("Ad x Ah")
    assert state_json(s)["history"] == [13, 78, DONE]
    assert s.view(0)["table"] == ["5s"]

    t = _tv13_state(engine, capture_obligation="optional")
    t.play("7d")
    assert state_json(t)["history"] == [19, DONE]
    assert set(t.view(0)["table"]) == {"4h", "3s", "7d"}


def test_protocol_full_move_trail_and_self_capture(engine):
    """docs/escoba_engine.md §4: play("Kc") is a trail (TV-13); play("Ad") a self-capture (TV-37)."""
    s = _tv13_state(engine)
    s.play("Kc")
    assert state_json(s)["history"] == [12]
    assert set(s.view(0)["table"]) == {"4h", "3s", "Kc"}

    t = engine.Escoba(variant="asso_piglia_tutto").setup(hands=[["Ad", "5c"], ["6c", "7c"]], table=[], to_move=0)
    t.play("Ad")
    assert t.view(0)["piles"] == [["Ad"], []]


def test_protocol_full_move_illegal_is_atomic(engine):
    """docs/escoba_engine.md §4: a written set that is not an outcome raises IllegalActionError, state unchanged.
    TV-02: {Ah,3s} is not a capture of Qh; TV-13 (played_card): 7d may not trail."""
    from tapete.errors import IllegalActionError

    s = _tv02_state(engine)
    before = s.to_json()
    for move in ["Qh x Ah 3s", "Qh", "Qh x 4c 5d Ah"]:
        with pytest.raises(IllegalActionError):
            s.play(move)
        assert s.to_json() == before
    t = _tv13_state(engine)
    before = t.to_json()
    with pytest.raises(IllegalActionError):
        t.play("7d")
    assert t.to_json() == before


def test_notation_round_trip_all_219_ids(engine):
    """docs/escoba_engine.md §4: action_to_string / string_to_action round-trip for every id 0..218."""
    s = engine.Escoba().new_state(seed=1)
    for a in range(219):
        text = s.action_to_string(a)
        assert s.string_to_action(text) == a, (a, text)
        assert s.string_to_action(text.upper()) == a, (a, text)


def test_notation_examples(engine):
    """docs/escoba_engine.md §4 / docs/rules/escoba.md §6.2 notation, ids computed by hand:
    7d=19; take 5d=52+17=69; done=104; take pile 2=105+2=107; build on 3h=111+28=139;
    claim 7d=163+19=182; trust 215; doubt 216; knock 217; no knock 218; Ts=13*3+9=48; Ac=0."""
    from tapete.errors import IllegalActionError, InvalidNotationError

    s = engine.Escoba().new_state(seed=1)
    expected = {
        0: "Ac",
        19: "7d",
        48: "Ts",
        51: "Ks",
        69: "take 5d",
        104: "done",
        105: "take pile 0",
        107: "take pile 2",
        139: "build on 3h",
        182: "claim 7d",
        215: "trust",
        216: "doubt",
        217: "knock",
        218: "no knock",
    }
    for a, text in expected.items():
        assert s.action_to_string(a) == text
        assert s.string_to_action(text) == a
    assert s.string_to_action("TAKE 5D") == 69
    assert s.string_to_action("10s") == 48
    for bad in ["bogus", "take", "take 1x", "7x"]:
        with pytest.raises(InvalidNotationError):
            s.string_to_action(bad)
    for bad_id in [219, -1]:
        with pytest.raises(IllegalActionError):
            s.action_to_string(bad_id)


# --------------------------------------------------------------------------------------------------
# Issue 6 presets (docs/rules/escoba.md §3.9, §3.10): differences, modulo 7, FRAC; other scoring variants


@pytest.mark.parametrize("variant", ["differenze", "inversa"])
def test_tv58_difference_two_cards(engine, variant):
    """TV-58 (source text): table J 2, play 6 -> {J, 2} (8 - 2 = 6)."""
    assert caps(engine, "6d", ["Jh", "2s"], variant=variant) == outcome_set("Jh 2s")


@pytest.mark.parametrize("variant", ["differenze", "inversa"])
def test_tv59_difference_three_cards(engine, variant):
    """TV-59 (source text): table A K 7, play 2 -> {A, K, 7} (10 - 7 - 1 = 2).
    By hand: K-7 = 3, K-A = 9, 7-A = 6: no two-card set gives 2."""
    assert caps(engine, "2d", ["Ah", "Ks", "7c"], variant=variant) == outcome_set("Ah Ks 7c")


def test_tv60_sum_difference_hybrid(engine):
    """TV-60: table 4h 3s Kc, play 7d. Pure sum -> {4h,3s}; pure difference -> {Kc,3s} (10-3);
    the hybrid somma_e_differenza -> both. By hand the other differences: K-4 = 6, 4-3 = 1,
    K-4-3 = 3."""
    table = ["4h", "3s", "Kc"]
    assert caps(engine, "7d", table) == outcome_set("4h 3s")
    assert caps(engine, "7d", table, variant="differenze") == outcome_set("Kc 3s")
    assert caps(engine, "7d", table, variant="somma_e_differenza") == outcome_set("4h 3s", "Kc 3s")


def test_differenze_match_priority_filters_differences(engine):
    """docs/rules/escoba.md §2.14: match_priority_kinds = {diff}: table 6h Jh 2s, play 6d -> only {6h}
    (the difference {Jh,2s} = 6 is suppressed); with match_priority=false both.
    somma_e_differenza filters sums and differences: table 6h 4c 2s Jh, play 6d -> {6h} only."""
    assert caps(engine, "6d", ["6h", "Jh", "2s"], variant="differenze") == outcome_set("6h")
    assert caps(engine, "6d", ["6h", "Jh", "2s"], variant="differenze", match_priority=False) == outcome_set(
        "6h", "Jh 2s"
    )
    assert caps(engine, "6d", ["6h", "4c", "2s", "Jh"], variant="somma_e_differenza") == outcome_set("6h")


def test_differenze_no_plain_sums(engine):
    """docs/rules/escoba.md §2.14: the sum kind is replaced: table 2h 3s, play 5d -> no sum {2h,3s};
    the difference 3-2 = 1 does not give 5 either, so 5d trails."""
    assert caps(engine, "5d", ["2h", "3s"], variant="differenze") == outcome_set("")


@pytest.mark.parametrize(
    "table,played,expected",
    [
        (["5h", "Jc"], "6d", ["5h Jc"]),  # 5 + 1 = 6 (source text)
        (["Ah"], "Jd", ["Ah"]),  # J = 8 = 1 (mod 7): matches an Ace
        (["4h", "4s"], "Ad", ["4h 4s"]),  # 8 = 1
        (["Kh", "4s"], "7d", ["Kh 4s"]),  # K = 3, 3 + 4 = 7
    ],
)
def test_tv61_modulo_sette(engine, table, played, expected):
    """TV-61: modulo 7 captures, by hand with W(J)=1, W(Q)=2, W(K)=3."""
    assert caps(engine, played, table, variant="modulo_sette") == outcome_set(*expected)


def test_tv62_modulo_sette_match_priority(engine):
    """TV-62: table Ah Jc 4s 4c, play Jd (W=1). Match priority -> {Ah} or {Jc}.
    Without it also the sum {4s,4c} (8 = 1). By hand the other subsets: A+J = 2, A+4 = 5,
    A+J+4 = 6, A+4+4 = 9 = 2, all four 10 = 3: none is 1."""
    table = ["Ah", "Jc", "4s", "4c"]
    assert caps(engine, "Jd", table, variant="modulo_sette") == outcome_set("Ah", "Jc")
    assert caps(engine, "Jd", table, variant="modulo_sette", match_priority=False) == outcome_set("Ah", "Jc", "4s 4c")


def test_modulo_sette_sweep_and_ace_rules_use_rank(engine):
    """docs/rules/escoba.md §2.15 example: 5 and J on the table, a 6 sweeps (5 + 1 = 6): a scopa.
    docs/escoba_engine.md §3: the Ace rules mean the rank A: with ace_takes_all a J (W = 1) does not take all.
    """
    g = engine.Escoba(variant="modulo_sette")
    s = g.setup(hands=[["6d", "2c"], ["3c", "4c"]], table=["5h", "Jc"], dealer=1)
    s.apply(PLAY("6d"))
    assert s.view(0)["scope"] == [1, 0]
    # table 5h 2c: W 5 + 2 = 7, no subset is 1 (mod 7), no card has W = 1
    assert caps(engine, "Jd", ["5h", "2c"], variant="modulo_sette", ace_takes_all=True) == outcome_set("")
    assert caps(engine, "Ad", ["5h", "2c"], variant="modulo_sette", ace_takes_all=True) == outcome_set("5h 2c")


def test_tv63_frac_no_match_priority(engine):
    """TV-63: table 5h 3s 2c, play 5d. FRAC -> {5h} or {3s,2c}; base game -> {5h} only."""
    table = ["5h", "3s", "2c"]
    assert caps(engine, "5d", table, variant="frac") == outcome_set("5h", "3s 2c")
    assert caps(engine, "5d", table) == outcome_set("5h")


def test_tv64_frac_scoring(engine):
    """TV-64: TV-26's piles. A: Ad As Jh Qh Kh Jc Qc Kc Kd = 9; B: Ah Ac Jd Qd Js Qs Ks = 7;
    16 in all. Scope do not score by default (frac_counts_scope=false); with it A 9+1, B 7+2."""
    sd = engine.escoba.score_deal
    assert sd([TV26_A, TV26_B], [1, 2], variant="frac") == [9, 7]
    assert sd([TV26_A, TV26_B], [0, 0], variant="frac") == [9, 7]
    assert sd([TV26_A, TV26_B], [1, 2], variant="frac", frac_counts_scope=True) == [10, 9]


def _tv64_state(engine, **options):
    """Last play, 2 players: seat 1 (dealer) plays 7d on 4h 3s (no FRAC card moves).
    Side 0: Kd Ad Ac Ah As Jd Jc Jh = 8 FRAC cards + the other 21 numerals; side 1: Js Qd Qc Qh
    Qs Kc Kh Ks = 8. The deal is 8-8."""
    frac0 = ["Kd", "Ad", "Ac", "Ah", "As", "Jd", "Jc", "Jh"]
    frac1 = ["Js", "Qd", "Qc", "Qh", "Qs", "Kc", "Kh", "Ks"]
    rest = rest_of(frac0, frac1, ["7d", "4h", "3s"])
    check_partition(frac0, frac1, rest, ["7d", "4h", "3s"])
    return engine.Escoba(variant="frac", **options).setup(
        hands=[[], ["7d"]],
        table=["4h", "3s"],
        piles=[frac0 + rest, frac1],
        dealer=1,
        to_move=1,
    )


def test_tv64_frac_single_deal_kd_breaks_8_8(engine):
    """TV-64 / docs/rules/escoba.md §2.16: single-deal FRAC, 8-8 -> the holder of Kd (side 0) wins.
    Without frac_single_deal a single-deal tie plays another deal; the multi-deal game (target 50)
    just adds 8 each."""
    s = _tv64_state(engine, frac_single_deal=True)
    assert s.view(0)["deal"] == 1
    s.apply(PLAY("7d"))
    assert s.view(0)["deal_points"] == [[8, 8]]
    assert s.is_terminal() and s.view(0)["winner"] == 0
    assert s.returns() == pytest.approx([1.0, -1.0])

    t = _tv64_state(engine, game="single_deal")
    t.apply(PLAY("7d"))
    assert not t.is_terminal() and t.view(0)["deal"] == 2

    u = _tv64_state(engine)
    u.apply(PLAY("7d"))
    assert u.scores() == [8, 8] and not u.is_terminal()


def test_frac_single_deal_sets_single_deal_game(engine):
    """docs/escoba_engine.md §2: frac_single_deal=true resolves game=single_deal."""
    assert engine.Escoba(variant="frac", frac_single_deal=True).options["game"] == "single_deal"
    assert engine.Escoba(variant="frac").options["target"] == 50


def test_tv65_scopone_romano(engine):
    """TV-65: TV-26's piles, no scope. A: coins other than 7d = 6 (Ad 2d 3d 4d 6d Kd), settebello
    2 (1 coin point + 1 settebello), cards 1, primiera 1 -> 10. B: coins 5d Jd Qd -> 3. 13 in all."""
    assert engine.escoba.score_deal([TV26_A, TV26_B], [0, 0], variant="scopone_romano") == [10, 3]
    g = engine.Escoba(variant="scopone_romano")
    assert g.num_players == 4 and g.options["cards_per_hand"] == 9 and g.options["target"] == 21


def test_tv66_punti_a_denari(engine):
    """TV-66: TV-26's piles, no scope. A: cards 1 + coins 1 + 7d 1 + Kd 1 = 4 (no primiera);
    B: Jd 1 + Qd 1 = 2."""
    assert engine.escoba.score_deal([TV26_A, TV26_B], [0, 0], variant="punti_a_denari") == [4, 2]


def _tv69_piles():
    """4 players: coins 3/3/2/2, cards 10/10/10/10. p2 holds 7d."""
    p0 = ["Ad", "2d", "3d", "Ac", "2c", "3c", "4c", "5c", "6c", "7c"]
    p1 = ["4d", "5d", "6d", "Jc", "Qc", "Kc", "Ah", "2h", "3h", "4h"]
    p2 = ["7d", "Jd", "5h", "6h", "7h", "Jh", "Qh", "Kh", "As", "2s"]
    p3 = ["Qd", "Kd", "3s", "4s", "5s", "6s", "7s", "Js", "Qs", "Ks"]
    check_partition(p0, p1, p2, p3)
    return [p0, p1, p2, p3]


def test_tv69_all_tied(engine):
    """TV-69: assi_non_prendere (category_tie_policy=all_tied), coins 3/3/2/2 -> players 0 and 1
    +1 each; cards 10/10/10/10 -> all four +1. With settebello and primiera off: [2, 2, 1, 1].
    With the preset's defaults also the settebello to player 2; primiera: nobody holds all four
    suits (p0 c d; p1 c d h; p2 d h s; p3 d s) -> [2, 2, 2, 1]."""
    sd = engine.escoba.score_deal
    piles = _tv69_piles()
    assert sd(piles, [0, 0, 0, 0], variant="assi_non_prendere", settebello=0, primiera=0) == [2, 2, 1, 1]
    assert sd(piles, [0, 0, 0, 0], variant="assi_non_prendere") == [2, 2, 2, 1]
    # the base policy (nobody) for comparison: the 3-3 and 10-10-10-10 ties give nothing
    assert sd(piles, [0, 0, 0, 0], settebello=0, primiera=0) == [0, 0, 0, 0]


def _tv70_state(engine, scores):
    """non_prendere, 4 players each alone, the last play: seat 3 (dealer) trails Kc on the empty
    table; seat 3 is the last capturer, so Kc ends in its pile.
    Piles after: p0 (8) 7d Ad Ac-6c: suits c d; p3 (8) 2d 3d 7c Jc Qc Kc Ah 2h: no s;
    p1 (12) 4d 5d 6d 3h-6h As-5s: no c; p2 (12) Jd Qd Kd 7h Jh Qh Kh 6s 7s Js Qs Ks: no c.
    Cards 8/12/12/8: top tie -> nobody; coins 2/3/3/2: top tie -> nobody; settebello -> 0;
    primiera: nobody eligible. The deal is [1, 0, 0, 0]."""
    return _tv70_last_play(engine, "non_prendere", scores)


def _tv70_last_play(engine, variant, scores):
    """TV-70's last play under ``variant``, 4 players each alone: seat 3 (dealer, the last
    capturer) trails Kc on the empty table, which ends in its pile."""
    p0 = ["7d", "Ad", "Ac", "2c", "3c", "4c", "5c", "6c"]
    p3 = ["2d", "3d", "7c", "Jc", "Qc", "Ah", "2h"]
    p1 = ["4d", "5d", "6d", "3h", "4h", "5h", "6h", "As", "2s", "3s", "4s", "5s"]
    p2 = ["Jd", "Qd", "Kd", "7h", "Jh", "Qh", "Kh", "6s", "7s", "Js", "Qs", "Ks"]
    check_partition(p0, p1, p2, p3, ["Kc"])
    return engine.Escoba(variant=variant).setup(
        hands=[[], [], [], ["Kc"]],
        piles=[p0, p1, p2, p3],
        dealer=3,
        to_move=3,
        last_capturer=3,
        scores=scores,
    )


def test_tv70_non_prendere_end(engine):
    """TV-70: target 11, target_mode lose. Totals 11, 9, 11, 4 -> top tie, another deal;
    then 12, 9, 11, 4 -> player 0 loses (returns -1 and +1/3 each for the others)."""
    s = _tv70_state(engine, [10, 9, 11, 4])
    s.apply(PLAY("Kc"))
    assert s.view(0)["deal_points"] == [[1, 0, 0, 0]]
    assert s.scores() == [11, 9, 11, 4]
    assert not s.is_terminal() and s.view(0)["deal"] == 2

    t = _tv70_state(engine, [11, 9, 11, 4])
    t.apply(PLAY("Kc"))
    assert t.scores() == [12, 9, 11, 4]
    assert t.is_terminal() and t.view(0)["loser"] == 0 and t.view(0)["winner"] == -1
    assert t.returns() == pytest.approx([-1.0, 1 / 3, 1 / 3, 1 / 3])


def test_non_prendere_deal_and_obligation(engine):
    """docs/rules/escoba.md §2.12: 4 players 10 each, no table; 6 players 6 each + 4 table; each alone;
    capture_obligation any_card (TV-13's hand 7d Kc on 4h 3s: only 7d x 4h 3s)."""
    g4 = engine.Escoba(variant="non_prendere")
    assert g4.num_players == 4
    v = g4.new_state(seed=3).view(0)
    assert v["hand_sizes"] == [10, 10, 10, 10] and v["table"] == [] and v["stock_size"] == 0
    assert len(v["scores"]) == 4
    v6 = engine.Escoba(variant="non_prendere", players=6).new_state(seed=3).view(0)
    assert v6["hand_sizes"] == [6] * 6 and len(v6["table"]) == 4 and v6["stock_size"] == 0
    s = g4.setup(hands=[["7d", "Kc"], ["2c", "2h"], ["3c", "3h"], ["5c", "5h"]], table=["4h", "3s"], dealer=3)
    assert s.legal_actions() == [PLAY("7d")]


def test_assi_non_prendere_preset(engine):
    """docs/rules/escoba.md §2.13: 4 players each alone, 10 cards each, no table; the Ace takes all, no scopa."""
    g = engine.Escoba(variant="assi_non_prendere")
    o = g.options
    assert g.num_players == 4 and o["partnership"] == "none" and o["category_tie_policy"] == "all_tied"
    assert o["target"] == 11 and o["target_mode"] == "lose" and o["capture_obligation"] == "played_card"
    s = g.setup(hands=[["Ad", "2c"], ["2h", "3c"], ["3h", "4c"], ["4h", "5c"]], table=["5h", "Kc"], dealer=3)
    s.apply(PLAY("Ad"))  # TV-35: takes the whole table, not a scopa in Scopa d'assi
    assert s.view(0)["scope"] == [0, 0, 0, 0] and s.view(0)["table"] == []


@pytest.mark.parametrize(
    "variant,players",
    [("non_prendere", 2), ("non_prendere", 3), ("assi_non_prendere", 6), ("scopone_romano", 2)],
)
def test_preset_player_counts(engine, variant, players):
    """docs/escoba_engine.md §2: the presets' player counts; any other is an InvalidOptionError."""
    from tapete.errors import InvalidOptionError

    with pytest.raises(InvalidOptionError):
        engine.Escoba(variant=variant, players=players)


# --------------------------------------------------------------------------------------------------
# Tuzzulicchio and Cocchiaundici (docs/rules/escoba.md §2.8): mandatory tuzzoli


@pytest.mark.parametrize(
    "hand,points,points_no_hybrids",
    [
        ("Ac Ad 7s", 3, 3),  # one pair of the same rank
        ("Ac Ad As", 6, 6),  # buongioco
        ("Ad 2d 3d", 7, 7),  # napoli
        ("Ac Ad 2d", 6, 3),  # Ac-Ad rank, Ad-2d suit: two tuzzoli (capped at one without hybrids)
        ("2c 2d 3d", 6, 3),  # 2c-2d rank, 2d-3d suit
        ("Ad 2c 3s", 0, 0),  # no pair shares rank or suit
        ("2d 3d Kc", 3, 3),  # 2d-3d suit
        ("Ac 2d 3d", 3, 3),  # only 2d-3d
    ],
)
def test_tv67_tuzzoli(engine, hand, points, points_no_hybrids):
    """TV-67: tuzzoli of 3-card hands (option tuzzoli_hybrids as noted)."""
    tz = engine.escoba.tuzzoli
    assert tz(hand.split(), variant="tuzzulicchio")[1] == points
    assert tz(hand.split(), variant="tuzzulicchio", tuzzoli_hybrids=False)[1] == points_no_hybrids


def test_tv67_declaration_names(engine):
    """docs/rules/escoba.md §2.8: the announced type (Buongioco / Napoli / one or two knocks)."""
    tz = engine.escoba.tuzzoli
    assert tz(["Ac", "Ad", "As"]) == ("buongioco", 6)
    assert tz(["Ad", "2d", "3d"]) == ("napoli", 7)
    assert tz(["2c", "2d", "3d"]) == ("two_tuzzoli", 6)
    assert tz(["Ac", "Ad", "7s"]) == ("tuzzolo", 3)
    assert tz(["Ad", "2c", "3s"]) == ("none", 0)


def test_tuzzulicchio_deal_declares_every_hand(engine):
    """docs/escoba_engine.md §5: every hand dealt is declared at once, in play order D+1 .. D; the announcement
    (seat, type, points) is public, the cards are not. Deck: seat D+1 gets deck[0,2,4] = Ad 2d 3d
    (napoli 7), the dealer deck[1,3,5] = Ac Ah 7s (Ac-Ah: one tuzzolo, 3); table 4c 5c 6c 7c."""
    seed = 5
    dealer = SplitMix64(seed).next() % 2
    first = ["Ad", "Ac", "2d", "Ah", "3d", "7s", "4c", "5c", "6c", "7c"]
    deck = first + rest_of(first)
    check_partition(deck)
    s = engine.Escoba(variant="tuzzulicchio").new_state(seed=seed, deck=deck)
    eldest = (dealer + 1) % 2
    expected = [
        {"seat": eldest, "declaration": "napoli", "points": 7},
        {"seat": dealer, "declaration": "tuzzolo", "points": 3},
    ]
    for p in range(2):
        assert s.view(p)["declarations"] == expected
    assert state_json(s)["declarations"] == [[eldest, 4, 0], [dealer, 1, 0]]
    # the observation's last 2 floats: declared points per side
    obs = s.observation(0)
    assert list(obs[-2:]) == [7.0 if eldest == 0 else 3.0, 3.0 if eldest == 0 else 7.0]
    assert "declarations" not in engine.Escoba().new_state(seed=seed).view(0)


def test_tuzzoli_points_scored_at_end_of_deal(engine):
    """docs/rules/escoba.md §2.8: the declared points are added in the deal's scoring. TV-14's last play in
    tuzzulicchio (deal [3, 1], no re bello) with a napoli (7) declared by seat 0 and a tuzzolo (3)
    by seat 1 earlier in the deal -> deal points [10, 4]."""
    pile0 = rest_of(["7d", "4h", "3s"])
    g = engine.Escoba(variant="tuzzulicchio")
    s = g.setup(hands=[[], ["7d"]], table=["4h", "3s"], piles=[pile0, []], dealer=1, to_move=1)
    doc = state_json(s)
    assert doc["declarations"] == []  # setup declares nothing
    doc["declarations"] = [[0, 4, 0], [1, 1, 0]]
    t = g.state_from_json(json.dumps(doc, sort_keys=True, separators=(",", ":")))
    t.apply(PLAY("7d"))
    assert t.view(0)["deal_points"] == [[10, 4]]
    assert engine.escoba.score_deal([pile0, ["7d", "4h", "3s"]], [0, 0], declared=[7, 3]) == [10, 4]


@pytest.mark.parametrize("at,winner", [(0, 1), (1, 0)])
def test_tuzzoli_count_out_order(engine, at, winner):
    """docs/rules/escoba.md §1.9: count-out replays each hand declaration at the moment it was made. TV-14's last
    play in tuzzulicchio, target 10, scores before [6, 6]; side 0 made 1 sweep earlier (scope);
    side 1 declared a tuzzolo (3) before that sweep (at 0) or after it (at 1).
    Deal: cards, coins, primiera -> A 3; settebello -> B 1; the sweep A 1; the tuzzolo B 3:
    totals [10, 10], a tie, so both orders need the replay: after the categories A 9, B 7;
    at 0: B's tuzzolo -> 10 first, B wins; at 1: A's sweep -> 10 first, A wins."""
    pile0 = rest_of(["7d", "4h", "3s"])
    g = engine.Escoba(variant="tuzzulicchio", target=10, win_check="count_out")
    s = g.setup(
        hands=[[], ["7d"]],
        table=["4h", "3s"],
        piles=[pile0, []],
        dealer=1,
        to_move=1,
        scores=[6, 6],
        scope=[1, 0],
    )
    doc = state_json(s)
    doc["declarations"] = [[1, 1, at]]
    t = g.state_from_json(json.dumps(doc, sort_keys=True, separators=(",", ":")))
    t.apply(PLAY("7d"))
    assert t.scores() == [10, 10]
    assert t.is_terminal() and t.view(0)["winner"] == winner


def test_cocchiaundici_adds_sum11(engine):
    """docs/rules/escoba.md §2.8: Cocchiaundici = Tuzzulicchio + 11-captures (TV-43: Jd on Jh 3s -> {Jh} or {3s});
    Tuzzulicchio alone -> {Jh} only."""
    assert caps(engine, "Jd", ["Jh", "3s"], variant="cocchiaundici") == outcome_set("Jh", "3s")
    assert caps(engine, "Jd", ["Jh", "3s"], variant="tuzzulicchio") == outcome_set("Jh")


def test_tuzzoli_needs_three_card_hands(engine):
    from tapete.errors import InvalidOptionError

    with pytest.raises(InvalidOptionError):
        engine.Escoba(variant="tuzzulicchio", players=4, cards_per_hand=9)


# --------------------------------------------------------------------------------------------------
# Cirulla (docs/rules/escoba.md §3.8, §2.7): three capture kinds, the initial table, knocks and the matta, piccola
# and grande. Knock and NO_KNOCK are action ids 217 and 218 (docs/rules/escoba.md §6.2).

KNOCK, NO_KNOCK = 217, 218


def test_tv51_cirulla_match_or_fifteen(engine):
    """TV-51: T 3h 5s 6c 7d, P 7s -> {7d} (match) or {3h,5s} (7+3+5 = 15). T 3h 4c 5s 7d: {7d} or
    {3h,5s}; the simple sum {3h,4c} is excluded by the match within the simple kind."""
    assert caps(engine, "7s", ["3h", "5s", "6c", "7d"], variant="cirulla") == outcome_set("7d", "3h 5s")
    assert caps(engine, "7s", ["3h", "4c", "5s", "7d"], variant="cirulla") == outcome_set("7d", "3h 5s")


def test_tv52_cirulla_ace_takes_all_or_fifteen(engine):
    """TV-52: T Kh 4s 2c, P Ad -> {Kh,4s,2c} (Ace takes all) or {Kh,4s} (1+10+4 = 15)."""
    assert caps(engine, "Ad", ["Kh", "4s", "2c"], variant="cirulla") == outcome_set("Kh 4s 2c", "Kh 4s")


def test_tv52_cirulla_ace_take_all_is_a_scopa(engine):
    """TV-52: the Ace's take-all scores a scopa (ace_takes_all_is_scopa, docs/rules/escoba.md §2.7 item 3).
    Two-card hands, so no knock decision comes first; the stock is not empty."""
    g = engine.Escoba(variant="cirulla")
    s = g.setup(hands=[["Ad", "Kc"], ["Qs", "Qh"]], table=["Kh", "4s", "2c"], to_move=0)
    s.play("Ad x Kh 4s 2c")
    v = s.view(0)
    assert v["table"] == [] and v["scope"] == [1, 0]


def test_tv53_cirulla_ace_on_table_blocks_take_all(engine):
    """TV-53: T Ah 4s Kc, P Ad -> {Ah} or {4s,Kc} (1+4+10 = 15); no take-all."""
    assert caps(engine, "Ad", ["Ah", "4s", "Kc"], variant="cirulla") == outcome_set("Ah", "4s Kc")


def test_tv54_cirulla_fewest_cards_only_in_simple_captures(engine):
    """TV-54: T Ah 2s 3c 4d 5h, P 6d. Simple (fewest): {Ah,5h}, {2s,4d}; 15-captures (need 9):
    {4d,5h}, {2s,3c,4d}, {Ah,3c,5h}."""
    assert caps(engine, "6d", ["Ah", "2s", "3c", "4d", "5h"], variant="cirulla") == outcome_set(
        "Ah 5h", "2s 4d", "4d 5h", "2s 3c 4d", "Ah 3c 5h"
    )


def _cirulla_deal(engine, table, seed=3, **options):
    """A new cirulla match whose first deal has this initial table (2 players)."""
    deck = _deck_with_table(table)
    dealer = SplitMix64(seed).next() % 2  # docs/escoba_engine.md §5 step 1: the first draw
    s = engine.Escoba(variant="cirulla", **options).new_state(seed=seed, deck=deck)
    return s, dealer, deck


@pytest.mark.parametrize(
    "table,sweeps",
    [
        (["Kh", "Kd", "5s", "5c"], 2),  # 10+10+5+5 = 30
        (["Kh", "2s", "2c", "Ad"], 1),  # 10+2+2+1 = 15
        (["7h", "Kc", "2s", "Ac"], 1),  # the matta as 2: 2+10+2+1 = 15 (30 would need 17)
    ],
)
def test_tv55_cirulla_initial_table_bonus(engine, table, sweeps):
    """TV-55: the dealer takes a table worth 15 (1 scopa) or 30 (2 scope); 7h counts at any 1..10."""
    s, d, _ = _cirulla_deal(engine, table)
    v = s.view(0)
    assert v["table"] == []
    assert set(v["piles"][d]) == set(table)
    assert v["scope"][d] == sweeps and v["scope"][1 - d] == 0
    assert v["last_capturer"] == d


def test_tv55_cirulla_matta_not_on_table_counts_seven(engine):
    """docs/rules/escoba.md §2.7: only a 7h on the table may change value. Table 7c Kc 2s Ac = 7+10+2+1 = 20:
    no bonus; the table stays."""
    s, d, _ = _cirulla_deal(engine, ["7c", "Kc", "2s", "Ac"])
    v = s.view(0)
    assert set(v["table"]) == {"7c", "Kc", "2s", "Ac"} and v["scope"] == [0, 0]


def test_tv55_cirulla_initial_table_le9(engine):
    """docs/rules/escoba.md §2.7: initial_table_le9 = 3 awards 3 scope for a table worth at most 9
    (2s 3c 2h Ac = 2+3+2+1 = 8); off by default."""
    s, d, _ = _cirulla_deal(engine, ["2s", "3c", "2h", "Ac"], initial_table_le9=3)
    v = s.view(0)
    assert v["table"] == [] and v["scope"][d] == 3
    s, d, _ = _cirulla_deal(engine, ["2s", "3c", "2h", "Ac"])
    assert s.view(0)["scope"] == [0, 0]


@pytest.mark.parametrize("seed", [3, 99])
def test_tv55_cirulla_two_aces_void_the_deal(engine, seed):
    """TV-55: initial table Ah Ad 5s 7c -> void (2 Aces); the same dealer deals a fresh shuffle
    (docs/escoba_engine.md §5 step 3), repeated while void (2 Aces; no Kings rule in cirulla)."""
    s, d, _ = _cirulla_deal(engine, ["Ah", "Ad", "5s", "7c"], seed=seed)
    rng = SplitMix64(seed)
    assert rng.next() % 2 == d
    while True:
        pack = list(PACK40)
        rng.shuffle(pack)
        hands, table, _ = canonical_deal(pack, d, 2)
        if sum(1 for c in table if c[0] == "A") < 2:
            break
    assert s.view(0)["dealer"] == d
    for p in range(2):
        assert s.view(p)["hand"] == by_id(hands[p])


@pytest.mark.parametrize(
    "hand,expected",
    [
        ("Ac 2d 5s", ("cirulla", 3, None)),  # 1+2+5 = 8 <= 9
        ("4c 4d 4s", ("decino", 10, None)),  # three of a kind
        ("7h 2c 2d", ("decino", 10, 2)),  # the matta as 2 (better than the low total's 3)
        ("7h Kc Qd", ("none", 0, None)),  # 10+9+v > 9, K != Q
        ("Ac Ad Ah", ("decino", 10, None)),  # both: only the higher, not 13
    ],
)
def test_tv56_knock_declarations(engine, hand, expected):
    """TV-56: what a hand may declare (knocks = {cirulla: 3, decino: 10})."""
    assert engine.escoba.knock(hand.split(), variant="cirulla") == expected


def test_tv56_knock_options(engine):
    """TV-56 with knocks_cumulative (A,A,A -> 3 + 10 = 13, docs/rules/escoba.md §2.7 [D]); the matta's tie rule:
    7h Ac 2c is a cirulla for any matta value 1..6 (1+2+v <= 9), so it takes the highest, 6."""
    kn = engine.escoba.knock
    assert kn(["Ac", "Ad", "Ah"], variant="cirulla", knocks_cumulative=True) == ("cirulla_decino", 13, None)
    assert kn(["7h", "Ac", "2c"], variant="cirulla") == ("cirulla", 3, 6)
    # equal points: decino (the brief's reading of "only the higher")
    assert kn(["Ac", "Ad", "Ah"], variant="cirulla", knocks={"cirulla": 5, "decino": 5}) == ("decino", 5, None)
    assert kn(["Ac", "Ad", "Ah"], variant="cirulla", knocks={"cirulla": 11, "decino": 10}) == ("cirulla", 11, None)
    assert kn(["Ac", "2d", "5s"], variant="scopa") == ("none", 0, None)  # no knocks offered


def _knock_state(engine, hand0, hand1=("Kc", "Qd", "Jh"), table=("5c", "3h"), **options):
    g = engine.Escoba(variant="cirulla", **options)
    return g, g.setup(hands=[list(hand0), list(hand1)], table=list(table), dealer=1, to_move=0)


def test_knock_decision_comes_first(engine):
    """docs/rules/escoba.md §2.7: at the first turn of a hand that qualifies the legal actions are exactly KNOCK
    and NO_KNOCK; KNOCK scores the declaration and shows the hand, which then plays."""
    from tapete.errors import IllegalActionError

    g, s = _knock_state(engine, ["Ac", "2d", "5s"])
    assert s.legal_actions() == [KNOCK, NO_KNOCK]
    with pytest.raises(IllegalActionError):
        s.apply(PLAY("Ac"))
    with pytest.raises(IllegalActionError):
        s.play("5s x 5c")
    s.apply("knock")
    assert s.current_player() == 0
    assert s.legal_actions() == sorted(PLAY(c) for c in ["Ac", "2d", "5s"])
    for p in range(2):
        v = s.view(p)
        assert v["declarations"] == [{"seat": 0, "declaration": "cirulla", "points": 3}]
        assert v["shown"] == [["Ac", "2d", "5s"], []]
    doc = state_json(s)
    assert doc["declarations"] == [[0, 5, 0]] and doc["knock_state"] == [2, 0]
    s.play("5s x 5c")
    assert s.view(1)["shown"] == [["Ac", "2d"], []]  # the rest of the hand stays face up
    # seat 1's K Q J declares nothing: it plays at once
    assert KNOCK not in s.legal_actions()


def test_no_knock_keeps_the_hand_hidden(engine):
    """docs/rules/escoba.md §2.7: after NO_KNOCK nothing is declared or shown, and the same seat plays."""
    g, s = _knock_state(engine, ["Ac", "2d", "5s"])
    s.apply(NO_KNOCK)
    assert s.current_player() == 0 and KNOCK not in s.legal_actions()
    v = s.view(1)
    assert v["declarations"] == [] and v["shown"] == [[], []]
    assert "Ac" not in json.dumps(v)
    assert state_json(s)["knock_state"] == [1, 0]


def test_knocked_matta_as_ace_takes_all(engine):
    """docs/rules/escoba.md §2.7: the matta keeps its declared value as its capture value for the rest of the
    deal, e.g. declared as an Ace it can sweep the table. 7h Ac Ad: as 1 it makes three Aces
    (decino 10); any other value only a cirulla (3). On T 5c 3h the 7h (now an Ace) takes all:
    no match (no 1 on the table), no sum to 1, no 15 (1+5+3 = 9), so the take-all is the only
    outcome, and a scopa."""
    g, s = _knock_state(engine, ["7h", "Ac", "Ad"])
    s.apply(KNOCK)
    assert s.view(1)["matta_value"] == 1
    assert s.view(1)["declarations"] == [{"seat": 0, "declaration": "decino", "points": 10}]
    s.apply(PLAY("7h"))
    v = s.view(0)
    assert v["table"] == [] and v["scope"] == [1, 0] and "7h" in v["piles"][0]


def test_unknocked_matta_stays_a_seven(engine):
    """docs/rules/escoba.md §2.7: after NO_KNOCK the 7h stays a 7: on T 4s 3c it takes the simple sum {4s,3c}
    (4+3 = 7), which it could not as an Ace (no 15: 1+4+3 = 8; it would take all the same set,
    so the check is the recorded value 7)."""
    g, s = _knock_state(engine, ["7h", "Ac", "Ad"], table=["4s", "3c"])
    s.apply(NO_KNOCK)
    assert s.view(1)["matta_value"] == 7
    s.apply(PLAY("7h"))
    v = s.view(0)
    assert v["table"] == [] and set(v["piles"][0]) == {"7h", "4s", "3c"}


def test_knock_points_scored_at_end_of_deal(engine):
    """docs/rules/escoba.md §2.7: a knock scores at once (marked like scope, then added in the deal's scoring).
    TV-14's last play with a decino (10) declared by seat 0: piles 0 = all but 7d 4h 3s, seat 1
    plays 7d x 4h 3s (no scopa on the last play). Categories: cards 37 -> 0; coins 9 -> 0;
    settebello -> 1; primiera -> 0 (seat 1 has no club). Piccola: A-6 of coins, capped at 5;
    grande 5 (J Q K). Deal: seat 0 = 1+1+1+5+5+10 = 23, seat 1 = 1."""
    pile0 = rest_of(["7d", "4h", "3s"])
    g = engine.Escoba(variant="cirulla")
    s = g.setup(hands=[[], ["7d"]], table=["4h", "3s"], piles=[pile0, []], dealer=1, to_move=1)
    doc = state_json(s)
    doc["declarations"] = [[0, 6, 0]]
    t = g.state_from_json(json.dumps(doc, sort_keys=True, separators=(",", ":")))
    t.apply(PLAY("7d"))
    assert t.view(0)["deal_points"] == [[23, 1]]


def test_tv57_piccola_grande(engine):
    """TV-57: A's coins A 2 3 4 6 J Q K -> piccola 4 (run A-4), grande 5. With the rest of the
    pack for B: cards 8-32 -> B; coins 8-2 -> A; settebello (7d) -> B; primiera: A lacks three
    suits -> B. A = 1 + 4 + 5 = 10, B = 3. With grande_extends nothing changes (7d is B's)."""
    a = ["Ad", "2d", "3d", "4d", "6d", "Jd", "Qd", "Kd"]
    b = rest_of(a)
    assert engine.escoba.score_deal([a, b], [0, 0], variant="cirulla") == [10, 3]
    assert engine.escoba.score_deal([a, b], [0, 0], variant="cirulla", grande_extends=True) == [10, 3]


def test_grande_extends_and_piccola_max(engine):
    """docs/rules/escoba.md §2.7 options. A = coins A 2 3 4 6 7 J Q K: grande 5, extended +1 (7d) +1 (6d), stop at
    5d -> 7. Cards 9-31 -> B; coins 9-1 -> A; settebello -> A; primiera -> B (A has only coins).
    A = 1 + 1 + 4 + 5 = 11 (13 extended), B = 2. Piccola cap: A-2-3-4-5-6-7 of coins = run 7:
    5 by default, 7 with piccola_max = 7; B then holds Jd Qd Kd, its grande 5."""
    a = ["Ad", "2d", "3d", "4d", "6d", "7d", "Jd", "Qd", "Kd"]
    b = rest_of(a)
    sd = engine.escoba.score_deal
    assert sd([a, b], [0, 0], variant="cirulla") == [11, 2]
    assert sd([a, b], [0, 0], variant="cirulla", grande_extends=True) == [13, 2]
    run = ["Ad", "2d", "3d", "4d", "5d", "6d", "7d"]
    # cards 7-33 -> B; coins 7-3 -> A; settebello -> A; primiera -> B; grande (J Q K) -> B
    assert sd([run, rest_of(run)], [0, 0], variant="cirulla") == [1 + 1 + 5, 1 + 1 + 5]
    assert sd([run, rest_of(run)], [0, 0], variant="cirulla", piccola_max=7) == [1 + 1 + 7, 1 + 1 + 5]


def test_cirulla_preset_options(engine):
    """docs/rules/escoba.md §2.7 deltas; cappotto is napola_all_coins_wins; 2, 3 or 4 players."""
    from tapete.errors import InvalidOptionError

    o = engine.Escoba(variant="cirulla").options
    assert o["capture_kinds"] == ["match", "sum", "sum15"] and o["fewest_cards"] == "simple_only"
    assert o["ace_takes_all"] and o["ace_takes_all_is_scopa"] and o["ace_blocked_by_table_ace"]
    assert o["void_deal_min_kings"] is None and o["void_deal_min_aces"] == 2
    assert o["initial_table_bonus"] == "sum15_30" and o["initial_table_le9"] is None
    assert o["matta"] == "7h" and o["knocks"] == {"cirulla": 3, "decino": 10}
    assert not o["knocks_cumulative"] and o["piccola"] and o["piccola_max"] == 5
    assert o["grande"] == 5 and not o["grande_extends"] and o["napola_all_coins_wins"]
    assert not o["scopa_on_last_play"] and o["target"] == 51
    with pytest.raises(InvalidOptionError):
        engine.Escoba(variant="cirulla", players=6)
    with pytest.raises(InvalidOptionError):
        engine.Escoba(variant="scopone_9", knocks={"cirulla": 3})  # knocks need 3-card hands
    for bad in [
        {"knocks": {"tris": 3}},
        {"knocks": {"cirulla": 0}},
        {"knocks": [3]},
        {"matta": "8h"},
        {"matta": 7},
        {"piccola_max": 8},
        {"initial_table_le9": 4},
        {"grande": -1},
    ]:
        with pytest.raises(InvalidOptionError):
            engine.Escoba(variant="cirulla", **bad)


# --------------------------------------------------------------------------------------------------
# Bàzzica scopa (docs/rules/escoba.md §2.23): 2-player scopa to 21, an open last hand, and a pluggable
# declarations table (option knocks, empty by default: the list is unknown, docs/rules/escoba.md §4 item 12).


def test_bazzica_preset(engine):
    from tapete.errors import InvalidOptionError

    o = engine.Escoba(variant="bazzica").options
    assert o["last_hand_open"] and o["target"] == 21 and o["knocks"] == {}
    base = engine.Escoba().options
    assert {k for k in o if o[k] != base[k]} == {"variant", "last_hand_open", "target"}
    with pytest.raises(InvalidOptionError):
        engine.Escoba(variant="bazzica", players=4)


def test_bazzica_no_declarations_no_knock(engine):
    """docs/rules/escoba.md §2.23: an empty declarations table offers no KNOCK, even to a hand of three Aces."""
    s = engine.Escoba(variant="bazzica").setup(hands=[["Ac", "Ad", "Ah"], ["Kc", "Qd", "Jh"]], table=["5c"], dealer=1)
    assert s.legal_actions() == sorted(PLAY(c) for c in ["Ac", "Ad", "Ah"])


def test_bazzica_pluggable_declarations(engine):
    """docs/rules/escoba.md §2.23: a non-empty table uses KNOCK/NO_KNOCK as in docs/rules/escoba.md §2.7, and KNOCK
    shows the cards."""
    g = engine.Escoba(variant="bazzica", knocks={"decino": 5})
    s = g.setup(hands=[["Ac", "Ad", "Ah"], ["Kc", "Qd", "Jh"]], table=["5c"], dealer=1)
    assert s.legal_actions() == [KNOCK, NO_KNOCK]
    s.apply(KNOCK)
    assert s.view(1)["declarations"] == [{"seat": 0, "declaration": "decino", "points": 5}]
    assert s.view(1)["shown"][0] == ["Ac", "Ad", "Ah"]


def test_bazzica_last_hand_is_open(engine):
    """docs/rules/escoba.md §2.23: in the last hand (the stock is empty) the cards are face up to both players:
    `shown` lists every hand in every view; before it (stock not empty) nothing is shown."""
    hands = [["7d", "Kc"], ["2h", "5c"]]
    table = ["4h", "3s"]
    rest = rest_of(*hands, table)
    g = engine.Escoba(variant="bazzica")
    last = g.setup(hands=hands, table=table, piles=[rest, []], dealer=1)
    for p in range(2):
        assert last.view(p)["shown"] == [["Kc", "7d"], ["5c", "2h"]]  # ascending ids
    earlier = g.setup(hands=hands, table=table, dealer=1)
    assert earlier.view(0)["shown"] == [[], []]
    assert "2h" not in json.dumps(earlier.view(0))
    off = engine.Escoba(variant="bazzica", last_hand_open=False).setup(
        hands=hands, table=table, piles=[rest, []], dealer=1
    )
    assert "shown" not in off.view(0) and "2h" not in json.dumps(off.view(0))


# Scopone romano al contrario (docs/rules/escoba.md §2.11): each alone, scopone romano scoring, elimination at 21.
# No docs/rules/escoba.md §3 vector covers it; the expected values below are hand calculations from
# docs/rules/escoba.md §2.10/§2.11.


def test_contrario_preset(engine):
    """docs/rules/escoba.md §2.11: 4 (default) or 5 players, each alone, scopone romano scoring
    (docs/rules/escoba.md §2.10: coins=0, coin_card_points=1), target 21, target_mode eliminate. Deals with the table: 5
    players 5 table + 7 each, 4 players 4 table + 9 each, all at once; option elimination_deal=no_table: 10 each."""
    from tapete.errors import InvalidOptionError

    g = engine.Escoba(variant="scopone_romano_contrario")
    o = g.options
    assert g.num_players == 4 and o["partnership"] == "none"
    assert (o["coins"], o["coin_card_points"], o["target"], o["target_mode"]) == (0, 1, 21, "eliminate")
    assert (o["initial_table_cards"], o["cards_per_hand"], o["elimination_deal"]) == (4, 9, "table")
    v = g.new_state(seed=5).view(1)
    assert v["hand_sizes"] == [9, 9, 9, 9] and len(v["table"]) == 4 and v["stock_size"] == 0
    assert v["in_play"] == [0, 1, 2, 3]
    v5 = engine.Escoba(variant="scopone_romano_contrario", players=5).new_state(seed=5).view(0)
    assert v5["hand_sizes"] == [7] * 5 and len(v5["table"]) == 5 and v5["stock_size"] == 0
    nt = engine.Escoba(variant="scopone_romano_contrario", elimination_deal="no_table")
    assert (nt.options["initial_table_cards"], nt.options["cards_per_hand"]) == (0, 10)
    for players in (2, 3, 6):
        with pytest.raises(InvalidOptionError):
            engine.Escoba(variant="scopone_romano_contrario", players=players)


def _contrario_last_play(engine, scores, in_play=None):
    """TV-70's piles under scopone romano scoring: seat 3 (dealer) trails Kc on the empty table
    and, as the last capturer, takes it. Coins: p0 7d Ad = 2 + settebello 1 = 3; p1 4d 5d 6d = 3;
    p2 Jd Qd Kd = 3; p3 2d 3d = 2. Cards 8/12/12/8: top tie, nobody. Primiera: no pile holds all
    four suits, nobody. The deal is [3, 3, 3, 2]."""
    return _tv70_last_play(engine, "scopone_romano_contrario", scores)


def test_contrario_a_player_at_21_leaves(engine):
    """docs/rules/escoba.md §2.11: 18+3 = 21 puts seat 0 out; 10+3, 17+3 = 20, 5+2 stay. The next deal is dealt
    by the next seat still in play after seat 3 (seat 0 is out: seat 1), 3 players: 4 table +
    hands of 6 (stock 40 - 4 - 18 = 18); seat 2 plays first."""
    s = _contrario_last_play(engine, [18, 10, 17, 5])
    s.apply(PLAY("Kc"))
    v = s.view(0)
    assert v["deal_points"] == [[3, 3, 3, 2]] and s.scores() == [21, 13, 20, 7]
    assert not s.is_terminal() and v["deal"] == 2 and v["in_play"] == [1, 2, 3]
    assert v["dealer"] == 1 and v["current_player"] == 2
    assert v["hand_sizes"] == [0, 6, 6, 6] and len(v["table"]) == 4 and v["stock_size"] == 18
    assert s.returns() == [0.0, 0.0, 0.0, 0.0]
    t = engine.Escoba(variant="scopone_romano_contrario").state_from_json(s.to_json())
    assert t.to_json() == s.to_json()


def test_contrario_everyone_crossing(engine):
    """docs/rules/escoba.md §2.11 [D]: if every player in play crosses 21 in one deal, the lowest total wins; a
    tie for the lowest plays on among the tied. 19+3, 18+3, 18+3, 20+2 = 22 21 21 22: seats 1
    and 2 tie at 21 and play on, 2 players: dealer seat 1 (next in play after 3), 4 table +
    hands of 6, stock 40 - 4 - 12 = 24. 19+3, 18+3, 19+3, 20+2 = 22 21 22 22: seat 1 wins."""
    s = _contrario_last_play(engine, [19, 18, 18, 20])
    s.apply(PLAY("Kc"))
    v = s.view(3)
    assert s.scores() == [22, 21, 21, 22] and not s.is_terminal()
    assert v["in_play"] == [1, 2] and v["dealer"] == 1 and v["current_player"] == 2
    assert v["hand_sizes"] == [0, 6, 6, 0] and len(v["table"]) == 4 and v["stock_size"] == 24
    w = _contrario_last_play(engine, [19, 18, 19, 20])
    w.apply(PLAY("Kc"))
    assert w.is_terminal() and w.view(0)["winner"] == 1 and w.view(0)["in_play"] == [1]
    assert w.returns() == pytest.approx([-1 / 3, 1.0, -1 / 3, -1 / 3])


def _contrario_two_left(engine, scores):
    """Seats 1 and 3 in play, seat 3 (dealer) trails Kc as the last capturer: p3 = 2c 3c Kc,
    p1 = the other 37 cards. p1: 10 coins = 10 + settebello 1 + cards (37 to 3) 1 + primiera
    (p3 lacks three suits) 1 = 13; p3: 0. Seats 0 and 2, out, hold nothing and score nothing."""
    p3 = ["2c", "3c"]
    p1 = rest_of(p3, ["Kc"])
    return engine.Escoba(variant="scopone_romano_contrario").setup(
        hands=[[], [], [], ["Kc"]],
        piles=[[], p1, [], p3],
        dealer=3,
        to_move=3,
        last_capturer=3,
        scores=scores,
        in_play=[1, 3],
    )


def test_contrario_last_two(engine):
    """docs/rules/escoba.md §2.11: with 2 left the first to reach 21 loses and the other wins: 10+13 = 23 puts
    seat 1 out, seat 3 (5) wins. Both crossing: 15+13 = 28 and 21+0 = 21, the lowest (seat 3)
    wins. Both at 21 (8+13, 21+0): another deal between them (2 players: 4 table + 6 each)."""
    s = _contrario_two_left(engine, [25, 10, 22, 5])
    s.apply(PLAY("Kc"))
    assert s.view(0)["deal_points"] == [[0, 13, 0, 0]] and s.scores() == [25, 23, 22, 5]
    assert s.is_terminal() and s.view(0)["winner"] == 3 and s.view(0)["in_play"] == [3]
    assert s.returns() == pytest.approx([-1 / 3, -1 / 3, -1 / 3, 1.0])
    b = _contrario_two_left(engine, [25, 15, 22, 21])
    b.apply(PLAY("Kc"))
    assert b.scores() == [25, 28, 22, 21] and b.is_terminal() and b.view(0)["winner"] == 3
    t = _contrario_two_left(engine, [25, 8, 22, 21])
    t.apply(PLAY("Kc"))
    v = t.view(1)
    assert t.scores() == [25, 21, 22, 21] and not t.is_terminal() and v["in_play"] == [1, 3]
    assert v["dealer"] == 1 and v["current_player"] == 3 and v["hand_sizes"] == [0, 6, 0, 6]


def test_contrario_void_deal_reads_the_first_four_table_cards(engine):
    """docs/rules/escoba.md §2.11 [D]: the kings void deal checks the first 4 table cards only. 5 players, 7 each
    then 5 table cards: deck[35:40] is the table whoever deals. Kings at 35, 36 and 39: 2 Kings in
    the first four, the deal stands with all three on the table."""
    table = ["Kc", "Kd", "2h", "3h", "Kh"]
    deck = rest_of(table) + table
    v = engine.Escoba(variant="scopone_romano_contrario", players=5).new_state(seed=1, deck=deck).view(0)
    assert v["table"] == by_id(table)
    # with the third King among the first four the deal is void and dealt again
    table2 = ["Kc", "Kd", "Kh", "3h", "2h"]
    w = engine.Escoba(variant="scopone_romano_contrario", players=5).new_state(seed=1, deck=rest_of(table2) + table2)
    assert w.view(0)["table"] != by_id(table2)


# --------------------------------------------------------------------------------------------------
# Scopa a fidasse (docs/rules/escoba.md §2.19): CLAIM(c) = 163 + id(c), TRUST = 215, DOUBT = 216
# (docs/rules/escoba.md §6.2).

CLAIM = lambda c: 163 + cid(c)  # noqa: E731
TRUST, DOUBT = 215, 216


def _fidasse(engine, claim_hand=("Kh", "2c"), **options):
    """2 players, seat 0 to move with Kh 2c on the table Ah 2s 3s 4d (TV-06: Kh takes all four,
    1+2+3+4 = 10); the rest in the stock, so this is not the last play."""
    g = engine.Escoba(variant="fidasse", **options)
    return g.setup(hands=[list(claim_hand), ["3c", "4c"]], table=["Ah", "2s", "3s", "4d"], dealer=1)


def test_tv75_fidasse_legal_actions(engine):
    """docs/rules/escoba.md §2.19 [D]: PLAY(Kh) is illegal (its only outcome is the sweep, which fidasse removes
    from O); PLAY(2c) takes the matching 2s; CLAIM of either card of the hand is legal."""
    s = _fidasse(engine)
    assert s.legal_actions() == [cid("2c"), CLAIM("2c"), CLAIM("Kh")]
    s.apply(CLAIM("Kh"))
    assert s.current_player() == 1 and s.legal_actions() == [TRUST, DOUBT]


def test_tv75_fidasse_trusted(engine):
    """TV-75 trusted: the claimant +1 scopa; the card stays face down to the other seat ("??" in
    the pile and "claim ??" in the history), seen by the claimant; the turn passes to seat 1."""
    s = _fidasse(engine)
    s.apply(CLAIM("Kh"))
    s.apply(TRUST)
    v0, v1 = s.view(0), s.view(1)
    assert v0["scope"] == [1, 0] and v0["table"] == [] and s.scores() == [0, 0]
    assert v0["piles"][0] == by_id(["Ah", "2s", "3s", "4d", "Kh"])
    assert v1["piles"][0] == by_id(["Ah", "2s", "3s", "4d"]) + ["??"]
    assert v0["history"] == ["claim Kh", "trust"] and v1["history"] == ["claim ??", "trust"]
    assert s.current_player() == 1


def test_tv75_fidasse_doubted_real(engine):
    """TV-75 doubted and real: the scopa stands (+1) and the doubter's side loses 1 point; the
    card is shown."""
    s = _fidasse(engine)
    s.apply(CLAIM("Kh"))
    s.apply(DOUBT)
    v1 = s.view(1)
    assert v1["scope"] == [1, 0] and s.scores() == [0, -1] and v1["table"] == []
    assert v1["piles"][0] == by_id(["Ah", "2s", "3s", "4d", "Kh"]) and v1["history"] == ["claim Kh", "doubt"]


def test_tv75_fidasse_doubted_false(engine):
    """TV-75 doubted and false: 2c cannot take the whole table (2c takes only the 2s): the claim
    is cancelled, 2c trails, the claimant's side loses 1 point."""
    s = _fidasse(engine)
    s.apply(CLAIM("2c"))
    s.apply(DOUBT)
    v = s.view(1)
    assert v["scope"] == [0, 0] and s.scores() == [-1, 0]
    assert v["table"] == by_id(["Ah", "2s", "3s", "4d", "2c"]) and v["piles"] == [[], []]
    assert s.current_player() == 1


def test_fidasse_trusted_claim_does_not_leak(engine):
    """docs/rules/escoba.md §2.19: a trusted claim card stays hidden. A true claim (Kh) and a false one (2c),
    both trusted, look the same to seat 1: same view and observation."""
    a, b = _fidasse(engine), _fidasse(engine)
    a.apply(CLAIM("Kh"))
    b.apply(CLAIM("2c"))
    assert a.view(1) == b.view(1)
    assert (a.observation(1) == b.observation(1)).all()
    a.apply(TRUST)
    b.apply(TRUST)
    assert a.view(1) == b.view(1)
    assert (a.observation(1) == b.observation(1)).all()
    assert a.view(0) != b.view(0)


def test_fidasse_no_claim_on_the_last_play(engine):
    """docs/rules/escoba.md §2.19: no claim on the last play of the deal, and there the sweep is an outcome of
    PLAY (no scopa on the last play, docs/rules/escoba.md §1.5)."""
    rest = rest_of(["Kh", "Ah", "2s", "3s", "4d"])
    s = engine.Escoba(variant="fidasse").setup(
        hands=[["Kh"], []],
        table=["Ah", "2s", "3s", "4d"],
        stock=[],
        piles=[rest, []],
        dealer=0,
        to_move=0,
    )
    assert s.legal_actions() == [cid("Kh")]


def test_fidasse_questions_go_to_each_opponent(engine):
    """docs/rules/escoba.md §2.19 [D]: the opponents are asked in play order from the seat after the claimant.
    4 players in teams: seat 0 claims, seat 1 then seat 3 are asked (seat 2 is a partner); both
    trust: the scopa stands for team 0 and the turn passes to seat 1. 3 players: seat 1 trusts,
    seat 2 doubts a real claim and loses 1."""
    g4 = engine.Escoba(variant="fidasse", players=4)
    s = g4.setup(
        hands=[["Kh"], ["3c"], ["4c"], ["5c"]],
        table=["Ah", "2s", "3s", "4d"],
        dealer=3,
    )
    s.apply(CLAIM("Kh"))
    assert s.current_player() == 1
    s.apply(TRUST)
    assert s.current_player() == 3
    s.apply(TRUST)
    assert s.view(1)["scope"] == [1, 0] and s.current_player() == 1
    g3 = engine.Escoba(variant="fidasse", players=3)
    t = g3.setup(hands=[["Kh"], ["3c"], ["4c"]], table=["Ah", "2s", "3s", "4d"], dealer=2)
    t.apply(CLAIM("Kh"))
    t.apply(TRUST)
    assert t.current_player() == 2
    t.apply(DOUBT)
    assert t.scores() == [0, 0, -1] and t.view(0)["scope"] == [1, 0, 0]


# --------------------------------------------------------------------------------------------------
# Options of another Scopone engine (docs/rules/escoba.md §3.12: TV-76..TV-80)


def test_tv76_napola_flat(engine):
    """TV-76: napola_flat=3 scores a napola 3 instead of its run. TV-27 (A's run A-2-3-4):
    A = 5 + 3 (napola) + 1 (re bello) = 9, B = 2; without re_bello A = 5 + 3 = 8."""
    sd = engine.escoba.score_deal
    assert sd([TV26_A, TV26_B], [1, 2], napola=True, re_bello=True, napola_flat=3) == [9, 2]
    assert sd([TV26_A, TV26_B], [1, 2], napola=True, napola_flat=3) == [8, 2]


@pytest.mark.parametrize("coins,points", [("A 2 3 4 5 J", 3), ("A 2 7", 0), ("A 2 3", 3), ("A 2 3 4 5 6 7 J Q K", 3)])
def test_tv76_napola_flat_runs(engine, coins, points):
    """TV-76: with napola_flat=3 a run of L >= 3 scores 3, a shorter one nothing."""
    pile = [r + "d" for r in coins.split()]
    got = engine.escoba.score_deal([pile, []], [0, 0], napola=True, napola_flat=3, primiera=0, **NO_OTHERS)
    assert got == [points, 0]


def test_tv76_napola_flat_all_ten_coins_still_wins(engine):
    """TV-76 with TV-28's napoleone: TV-15's last play gives side 0 all ten coins; TV-15's deal
    points [4, 0] + a flat napola 3 = [7, 0], and napola_all_coins_wins ends the match."""
    s = _tv15_state(engine, napola=True, napola_flat=3, napola_all_coins_wins=True, target=50)
    s.apply(PLAY("4d"))
    assert s.scores() == [7, 0]
    assert s.is_terminal() and s.view(0)["winner"] == 0


def _tv77_state(engine, hands, **options):
    """TV-77/TV-78's position: 2 players, T 2s 3s, seat 0 to move (the stock is the rest of the pack)."""
    return engine.Escoba(**options).setup(hands=hands, table=["2s", "3s"], dealer=1, to_move=0)


@pytest.mark.parametrize("cap,scope,streak", [(1, [1, 0], [2, 0]), (2, [2, 0], [2, 0]), (None, [2, 0], None)])
def test_tv77_sweep_beyond_the_cap_scores_nothing(engine, cap, scope, streak):
    """TV-77: 0 `5c x 2s 3s` (scopa, streak 1), 1 `4h` (trail), 0 `4d x 4h` (streak 2): no scopa
    beyond a cap of 1; with a cap of 2 or none both score. The cards are taken all the same."""
    options = {} if cap is None else {"max_consecutive_sweeps": cap}
    s = _tv77_state(engine, [["5c", "4d", "Kc"], ["4h", "6h", "Qs"]], **options)
    for move in ("5c x 2s 3s", "4h", "4d x 4h"):
        s.play(move)
    v = s.view(1)
    assert v["scope"] == scope
    assert v["table"] == []
    assert sorted(v["piles"][0], key=cid) == by_id(["5c", "2s", "3s", "4d", "4h"])
    if streak is None:
        assert "sweep_streak" not in v and "sweep_streak" not in state_json(s)
    else:
        assert v["sweep_streak"] == streak and state_json(s)["sweep_streak"] == streak


def test_tv77_streak_in_the_observation(engine):
    """TV-77 (docs/rules/escoba.md §1.5: the streaks are public): the observation ends with each side's
    streak over the cap, at most 1. Cap 2: after the first sweep [0.5, 0], after the second [1, 0];
    without the option the observation is 2 floats shorter."""
    s = _tv77_state(engine, [["5c", "4d", "Kc"], ["4h", "6h", "Qs"]], max_consecutive_sweeps=2)
    plain = _tv77_state(engine, [["5c", "4d", "Kc"], ["4h", "6h", "Qs"]])
    assert len(s.observation(0)) == len(plain.observation(0)) + 2
    assert list(s.observation(1)[-2:]) == [0.0, 0.0]
    s.play("5c x 2s 3s")
    assert list(s.observation(1)[-2:]) == [0.5, 0.0]
    s.play("4h")
    s.play("4d x 4h")
    assert list(s.observation(0)[-2:]) == [1.0, 0.0]


def test_tv78_a_play_that_is_no_sweep_resets_the_streak(engine):
    """TV-78: 0 `5c x 2s 3s` (scopa, streak 1), 1 `4h`, 0 `Kc` (trail: streak 0), 1 `Ks x Kc` (4h
    stays: not a sweep), 0 `4d x 4h` (streak 1 <= 1: a scopa). Scope [2, 0], streaks [1, 0]."""
    s = _tv77_state(engine, [["5c", "Kc", "4d"], ["4h", "Ks", "6h"]], max_consecutive_sweeps=1)
    s.play("5c x 2s 3s")
    s.play("4h")
    s.play("Kc")
    assert s.view(0)["sweep_streak"] == [0, 0]
    s.play("Ks x Kc")
    assert s.view(0)["table"] == ["4h"]
    s.play("4d x 4h")
    v = s.view(0)
    assert v["scope"] == [2, 0]
    assert v["sweep_streak"] == [1, 0]


def test_tv78_streak_survives_a_json_round_trip(engine):
    """TV-78 after its first two plays: the streaks [1, 0] are kept in the state JSON (docs/rules/escoba.md §1.5)."""
    g = engine.Escoba(max_consecutive_sweeps=1)
    s = g.setup(hands=[["5c", "Kc", "4d"], ["4h", "Ks", "6h"]], table=["2s", "3s"], dealer=1, to_move=0)
    s.play("5c x 2s 3s")
    s.play("4h")
    t = g.state_from_json(s.to_json())
    assert t.view(0)["sweep_streak"] == [1, 0]
    t.play("Kc")
    t.play("Ks x Kc")
    t.play("4d x 4h")
    assert t.view(0)["scope"] == [2, 0]


def test_tv79_ace_self_capture_is_scopa(engine):
    """TV-79 (a): empty table, Ad self-captures: with ace_self_capture_is_scopa a scopa, else none (TV-37)."""
    for option, scope in ((True, [1, 0]), (False, [0, 0])):
        g = engine.Escoba(variant="asso_piglia_tutto", ace_self_capture_is_scopa=option)
        s = g.setup(hands=[["Ad", "5c"], ["6c", "7c"]], table=[], to_move=0)
        s.play("Ad")
        v = s.view(0)
        assert v["piles"] == [["Ad"], []]
        assert v["scope"] == scope
        assert v["last_capturer"] == 0


@pytest.mark.parametrize("on_last_play", [False, True])
def test_tv79_no_scopa_on_the_last_play(engine, on_last_play):
    """TV-79 (b): seat 1 (side 1) plays the deal's last card, Ad, onto an empty table; side 0 holds
    the other 39 cards. No scopa: side 0 has cards 39-1, coins 9-1, 7d and the primiera (side 1 has
    no card of 3 suits) = 4; side 1 = 0. Deal points [4, 0] whatever scopa_on_last_play says."""
    others = rest_of(["Ad"])
    g = engine.Escoba(variant="asso_piglia_tutto", ace_self_capture_is_scopa=True, scopa_on_last_play=on_last_play)
    s = g.setup(hands=[[], ["Ad"]], table=[], stock=[], piles=[others, []], dealer=1, to_move=1)
    s.play("Ad")
    assert s.view(0)["deal_points"] == [[4, 0]]
    assert s.scores() == [4, 0]


def test_tv79_tv80_option_clashes(engine):
    """TV-79, TV-80: ace_self_capture_is_scopa needs ace_takes_all and ace_on_empty_table=self_capture;
    ace_may_trail needs ace_takes_all (docs/rules/escoba.md §2.1)."""
    from tapete.errors import InvalidOptionError

    for options in (
        {"ace_self_capture_is_scopa": True},
        {"variant": "asso_piglia_tutto", "ace_on_empty_table": "trail", "ace_self_capture_is_scopa": True},
        {"ace_may_trail": True},
    ):
        with pytest.raises(InvalidOptionError):
            engine.Escoba(**options)
    engine.Escoba(variant="asso_piglia_tutto", ace_may_trail=True, ace_self_capture_is_scopa=True)


def test_tv80_ace_may_trail(engine):
    """TV-80: with ace_may_trail the Ace may take all or trail; another card keeps its obligation;
    a blocked Ace takes the table Ace or trails; on an empty table the Ace still self-captures."""
    opts = dict(variant="asso_piglia_tutto", ace_may_trail=True)
    assert caps(engine, "As", ["5h", "3s", "Kc"], **opts) == outcome_set("5h 3s Kc", "")
    assert caps(engine, "5c", ["5h", "3s", "Kc"], **opts) == outcome_set("5h")
    assert caps(engine, "Ad", ["Ah", "5s"], **opts) == outcome_set("Ah", "")
    assert caps(engine, "Ad", [], **opts) == outcome_set("Ad")
    assert caps(engine, "As", ["5h", "3s", "Kc"], variant="asso_piglia_tutto") == outcome_set("5h 3s Kc")


def test_tv80_ace_trails_in_a_state(engine):
    """TV-80 in a state: As laid on 5h 3s Kc stays on the table; nothing is captured."""
    g = engine.Escoba(variant="asso_piglia_tutto", ace_may_trail=True)
    s = g.setup(hands=[["As", "2c"], ["3c", "4c"]], table=["5h", "3s", "Kc"], to_move=0)
    s.play("As")
    v = s.view(0)
    assert v["table"] == by_id(["5h", "3s", "Kc", "As"])
    assert v["piles"] == [[], []]
    assert v["scope"] == [0, 0]
