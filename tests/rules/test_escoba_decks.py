"""Rules tests for the Escoba presets ``maresciallo`` (docs/rules/escoba.md §2.18) and ``cicera``
(docs/rules/escoba.md §2.24), on both engines (fixture ``engine``), through the public API only.

Every expected value comes from the rules file (docs/rules/escoba.md §3, the vector cited) or from a hand calculation in
the comment next to it; none was obtained by running an engine.

Card ids (docs/design.md §4): id = 13*suit + (rank - 1), suits c=0 d=1 h=2 s=3, T=10 J=11 Q=12 K=13.
Action ids (docs/escoba_engine.md §4): PLAY(c) = c, TAKE(t) = 52 + t, DONE = 104.
"""

from __future__ import annotations

import json

import pytest
from cardlib import PACK40, PACK52, RANKS, cid, rest_of

PLAY = cid


def TAKE(card: str) -> int:
    return 52 + cid(card)


def dumps(doc: dict) -> str:
    return json.dumps(doc, sort_keys=True, separators=(",", ":"))


# --------------------------------------------------------------------------------------------------
# Maresciallo (docs/rules/escoba.md §2.18, TV-68)

# Only the maresciallo cards score: every other category off.
ONLY = dict(variant="maresciallo", cards=0, coins=0, settebello=0, primiera=0, napola=False)


def test_maresciallo_preset(engine):
    """docs/rules/escoba.md §2.18 deltas: scopa d'assi captures with the base deal (4 table cards, 3 each),
    napola, the Ks penalty (replace), polacca Jd, no saponaro."""
    g = engine.Escoba(variant="maresciallo")
    o = g.options
    assert o["ace_takes_all"] and not o["ace_takes_all_is_scopa"] and o["ace_blocked_by_table_ace"]
    assert o["initial_table_cards"] == 4 and o["cards_per_hand"] == 3 and o["napola"]
    assert o["maresciallo_penalty"] and o["maresciallo_sweep"] == "replace"
    assert o["polacca"] and o["polacca_card"] == "Jd" and not o["saponaro"] and o["saponaro_card"] == "Js"
    assert g.num_players == 2 and o["target"] == 11
    g4 = engine.Escoba(variant="maresciallo", players=4)
    assert g4.options["cards_per_hand"] == 3 and g4.options["initial_table_cards"] == 4
    v = g4.new_state(seed=5).view(0)
    assert v["hand_sizes"] == [3, 3, 3, 3] and len(v["table"]) == 4
    assert v["ks_sweeps"] == [0, 0]
    assert "ks_sweeps" not in engine.Escoba().new_state(seed=5).view(0)


def test_tv68_holding_ks(engine):
    """TV-68: Ks in A's pile -> A -1 (alone; without the penalty option, nothing)."""
    sd = engine.escoba.score_deal
    assert sd([["Ks", "2c"], ["3c"]], [0, 0], **ONLY) == [-1, 0]
    assert sd([["2c"], ["3c", "Ks"]], [0, 0], **ONLY) == [0, -1]
    assert sd([["Ks", "2c"], ["3c"]], [0, 0], **ONLY, maresciallo_penalty=False) == [0, 0]


def test_tv68_saponaro(engine):
    """TV-68: Ks + Js with saponaro -> -2 (-1 maresciallo, -1 saponaro); Js alone -> 0;
    saponaro_card=Qs: Ks + Qs -> -2, Ks + Js -> -1."""
    sd = engine.escoba.score_deal
    assert sd([["Ks", "Js"], ["3c"]], [0, 0], **ONLY, saponaro=True) == [-2, 0]
    assert sd([["Ks", "Js"], ["3c"]], [0, 0], **ONLY) == [-1, 0]  # saponaro off by default
    assert sd([["Js"], ["Ks"]], [0, 0], **ONLY, saponaro=True) == [0, -1]
    assert sd([["Ks", "Qs"], ["Js"]], [0, 0], **ONLY, saponaro=True, saponaro_card="Qs") == [-2, 0]
    assert sd([["Ks", "Js"], ["Qs"]], [0, 0], **ONLY, saponaro=True, saponaro_card="Qs") == [-1, 0]


def test_tv68_polacca(engine):
    """TV-68: 7d + Jd -> +1 settebello +1 polacca; Jd without 7d -> 0 (7d's holder +1 settebello);
    polacca_card=Qd: 7d + Qd -> 2, 7d + Jd -> 1."""
    sd = engine.escoba.score_deal
    only = dict(ONLY, settebello=1)
    assert sd([["7d", "Jd"], ["3c"]], [0, 0], **only) == [2, 0]
    assert sd([["Jd"], ["7d"]], [0, 0], **only) == [0, 1]
    assert sd([["7d", "Qd"], ["Jd"]], [0, 0], **only, polacca_card="Qd") == [2, 0]
    assert sd([["7d", "Jd"], ["Qd"]], [0, 0], **only, polacca_card="Qd") == [1, 0]
    assert sd([["7d", "Jd"], ["3c"]], [0, 0], **only, polacca=False) == [1, 0]


def test_tv68_ks_sweep_scoring(engine):
    """TV-68: a sweep made by playing Ks -> -4 (not +1), and Ks in the pile adds -1: -5.
    maresciallo_sweep=total: -4 in all. A normal sweep by a side holding Ks: +1 - 1 = 0."""
    sd = engine.escoba.score_deal
    assert sd([["Ks", "5c"], ["3c"]], [1, 0], ks_sweeps=[1, 0], **ONLY) == [-5, 0]
    assert sd([["Ks", "5c"], ["3c"]], [1, 0], ks_sweeps=[1, 0], **ONLY, maresciallo_sweep="total") == [-4, 0]
    assert sd([["Ks", "5c"], ["3c"]], [1, 0], **ONLY) == [0, 0]
    # two sweeps, one of them with Ks: +1 - 4 - 1 = -4
    assert sd([["Ks", "5c"], ["3c"]], [2, 0], ks_sweeps=[1, 0], **ONLY) == [-4, 0]


def test_ks_sweeps_argument_checked(engine):
    """docs/escoba_engine.md §7: ks_sweeps lists one int in 0..scope[i] per pile (InvalidStateError)."""
    from tapete.errors import InvalidStateError

    sd = engine.escoba.score_deal
    for bad in ([2, 0], [1], [-1, 0], ["1", 0], [True, 0]):
        with pytest.raises(InvalidStateError):
            sd([["Ks"], ["3c"]], [1, 0], ks_sweeps=bad, **ONLY)


def _ks_position(engine, last: bool, **options):
    """2 players. Seat 0 plays Ks on 4h 6c (4 + 6 = 10: a sum capture, the table empties).
    last=False: seat 1 still holds 2h (it trails it; the table then goes to side 0, the last
    capturer). last=True: Ks is the last card of the deal. Side 1's pile holds the other cards."""
    g = engine.Escoba(variant="maresciallo", **options)
    if last:
        hands, dealer = [["Ks"], []], 0
        pile1 = rest_of(["Ks", "4h", "6c"])
    else:
        hands, dealer = [["Ks"], ["2h"]], 1
        pile1 = rest_of(["Ks", "4h", "6c", "2h"])
    return g.setup(hands=hands, table=["4h", "6c"], piles=[[], pile1], dealer=dealer, to_move=0)


def test_tv68_ks_sweep_in_play(engine):
    """TV-68 in play. After Ks x 4h 6c the view shows 1 scopa and 1 Ks sweep for side 0, the JSON
    ks_sweeps [0]. At the end side 0 holds Ks 4h 6c 2h: cards, coins, settebello, primiera
    (side 0 lacks coins), napola 10 (all coins) and polacca (Jd + 7d) go to side 1: 1+1+1+1+10+1
    = 15; side 0: -1 (Ks held) - 4 (the Ks sweep) = -5. Side 1 is at 15 >= 11: it wins."""
    s = _ks_position(engine, last=False)
    s.apply(PLAY("Ks"))
    v = s.view(1)
    assert v["scope"] == [1, 0] and v["ks_sweeps"] == [1, 0]
    doc = json.loads(s.to_json())
    assert doc["ks_sweeps"] == [0] and doc["sweeps"] == [0]
    s.apply(PLAY("2h"))
    assert s.view(0)["deal_points"] == [[-5, 15]]
    assert s.is_terminal() and s.view(0)["winner"] == 1


def test_tv68_ks_sweep_total_in_play(engine):
    """As above with maresciallo_sweep=total: side 0 scores -4 in all."""
    s = _ks_position(engine, last=False, maresciallo_sweep="total")
    s.apply(PLAY("Ks"))
    s.apply(PLAY("2h"))
    assert s.view(0)["deal_points"] == [[-4, 15]]


def test_ks_sweep_on_last_play(engine):
    """docs/rules/escoba.md §2.18: a Ks sweep on the last play is not a scopa and costs only the -1 for holding.
    Side 1 scores 15 as above (it holds 2h too)."""
    s = _ks_position(engine, last=True)
    s.apply(PLAY("Ks"))
    assert s.view(0)["deal_points"] == [[-1, 15]]


def test_ks_sweeps_json(engine):
    """docs/escoba_engine.md §8: ks_sweeps (indices into sweeps) round-trips; an index past the sweeps, or a
    Ks sweep by a side whose pile lacks Ks, is an InvalidStateError."""
    from tapete.errors import InvalidStateError

    g = engine.Escoba(variant="maresciallo")
    s = _ks_position(engine, last=False)
    s.apply(PLAY("Ks"))
    text = s.to_json()
    assert g.state_from_json(text).to_json() == text
    doc = json.loads(text)
    for bad in ([1], [-1], [0, 0], "0"):
        d = dict(doc, ks_sweeps=bad)
        with pytest.raises(InvalidStateError):
            g.state_from_json(dumps(d))
    d = dict(doc, piles=[[c for c in doc["piles"][0] if c != cid("Ks")], sorted(doc["piles"][1] + [cid("Ks")])])
    with pytest.raises(InvalidStateError):
        g.state_from_json(dumps(d))
    d = dict(doc)
    del d["ks_sweeps"]
    with pytest.raises(InvalidStateError):
        g.state_from_json(dumps(d))
    with pytest.raises(InvalidStateError):
        engine.Escoba().state_from_json(
            dumps(dict(json.loads(engine.Escoba().new_state(seed=1).to_json()), ks_sweeps=[]))
        )


def test_maresciallo_observation_counts_ks_sweeps(engine):
    """docs/escoba_engine.md §10: with maresciallo_penalty the observation ends with the Ks sweeps per side."""
    g = engine.Escoba(variant="maresciallo")
    n, S = 2, 2
    assert g.new_state(seed=1).observation(0).shape == (161 + 42 * S + 4 * n + S,)
    s = _ks_position(engine, last=False)
    s.apply(PLAY("Ks"))
    assert list(s.observation(1)[-2:]) == [1.0, 0.0]


@pytest.mark.parametrize(
    "name,value",
    [
        ("polacca_card", "Kd"),
        ("polacca_card", "Js"),
        ("saponaro_card", "Jd"),
        ("maresciallo_sweep", "all"),
        ("maresciallo_penalty", 1),
        ("polacca", "yes"),
    ],
)
def test_maresciallo_bad_options(engine, name, value):
    from tapete.errors import InvalidOptionError

    with pytest.raises(InvalidOptionError):
        engine.Escoba(variant="maresciallo", **{name: value})


# --------------------------------------------------------------------------------------------------
# Cicera (docs/rules/escoba.md §2.24, §4 item 17). There is no docs/rules/escoba.md §3 vector: every expected value
# below is a hand calculation from docs/rules/escoba.md §2.24 (and docs/rules/escoba.md §1.3 `played_card_numerals`),
# shown in the comment.

SWORDS = [r + "s" for r in RANKS]
CICERA_OFF = dict(variant="cicera", cards=0, cards_tie_points=None, swords=0, sword_napula=False)


def test_cicera_preset(engine):
    """Hand calculation from docs/rules/escoba.md §2.24: 52 cards, 4 players in 2 teams, 12 each + 4 on the table
    (4·12 + 4 = 52: one hand, no stock); 13+0 deals 13 each and no table. Observation: C = 52 slots
    per card block, 4·52 + 1 + (52 + 2)·2 + 4·4 = 209 + 108 + 16 = 333."""
    g = engine.Escoba(variant="cicera")
    o = g.options
    assert (o["deck"], o["players"], o["partnership"]) == ("italian52", 4, "auto")
    assert (o["initial_table_cards"], o["cards_per_hand"], o["cicera_deal"]) == (4, 12, "12+4")
    assert o["court_capture"] == "same_rank" and o["capture_obligation"] == "played_card_numerals"
    assert (o["cards"], o["cards_tie_points"], o["swords"], o["coins"], o["settebello"]) == (2, 1, 1, 0, 0)
    assert o["primiera_mode"] == "none" and o["sword_napula"] and o["all_swords_wins"]
    assert (o["scopa_value"], o["void_deal_min_kings"], o["target"]) == (1, 3, 51)
    assert g.observation_shape == (333,)
    v = g.new_state(seed=3).view(0)
    assert v["hand_sizes"] == [12, 12, 12, 12] and len(v["table"]) == 4 and v["stock_size"] == 0
    v = engine.Escoba(variant="cicera", cicera_deal="13+0").new_state(seed=3).view(1)
    assert v["hand_sizes"] == [13, 13, 13, 13] and v["table"] == [] and v["stock_size"] == 0
    assert engine.Escoba().options["court_capture"] == "value"  # the base game keeps docs/rules/escoba.md §0.2 values


def test_cicera_court_takes_only_its_rank(engine):
    """Hand calculation from docs/rules/escoba.md §2.24: a court has no value. Jh onto Jc 3s 5d takes only Jc (3 + 5 = 8
    does not count), and may trail (courts need not capture); Qh onto Jc 2d can only trail."""
    co = engine.escoba.capture_options
    assert co("Jh", ["Jc", "3s", "5d"], variant="cicera") == [[], ["Jc"]]
    assert co("Qh", ["Jc", "2d"], variant="cicera") == [[]]
    assert co("Kh", ["Kc", "Kd", "Ts"], variant="cicera") == [[], ["Kc"], ["Kd"]]


def test_cicera_numerals(engine):
    """Hand calculation from docs/rules/escoba.md §2.24: A..10 capture by match or sum with values 1..10 and must
    capture. 8h onto Jc 3s 5d: 3 + 5 = 8 (Jc is no 8): the one outcome, no trail. Th onto 2c 8d Kc:
    2 + 8 = 10 (Kc is no 10). 9s onto 9c 4d 5h: the match 9c has priority over 4 + 5. 4h onto 4c Ks:
    4c only. Ah onto Kc Qd: nothing to take, so it trails."""
    co = engine.escoba.capture_options
    assert co("8h", ["Jc", "3s", "5d"], variant="cicera") == [["5d", "3s"]]
    assert co("Th", ["2c", "8d", "Kc"], variant="cicera") == [["2c", "8d"]]
    assert co("9s", ["9c", "4d", "5h"], variant="cicera") == [["9c"]]
    assert co("4h", ["4c", "Ks"], variant="cicera") == [["4c"]]
    assert co("Ah", ["Kc", "Qd"], variant="cicera") == [[]]
    # court_capture=value (the docs/rules/escoba.md §0.2 values, J = 8): 8h matches Jc; Jh matches 8c or Jc and, a
    # court, may still trail (played_card_numerals)
    assert co("8h", ["Jc", "3s", "5d"], variant="cicera", court_capture="value") == [["Jc"]]
    assert co("Jh", ["8c", "Jc"], variant="cicera", court_capture="value") == [[], ["8c"], ["Jc"]]


def test_cicera_cards(engine):
    """Hand calculation from docs/rules/escoba.md §2.24: Carte 2 for 27 of 52 (27 vs 25 -> [2, 0]); 26-26 -> 1 each."""
    sd = engine.escoba.score_deal
    only = dict(CICERA_OFF, cards=2, cards_tie_points=1)
    assert sd([PACK52[:27], PACK52[27:]], [0, 0], **only) == [2, 0]
    assert sd([PACK52[:25], PACK52[25:]], [0, 0], **only) == [0, 2]
    assert sd([PACK52[:26], PACK52[26:]], [0, 0], **only) == [1, 1]
    # cards_tie_points=None: the tie policy (nobody) decides
    assert sd([PACK52[:26], PACK52[26:]], [0, 0], **dict(only, cards_tie_points=None)) == [0, 0]


def test_cicera_swords(engine):
    """Hand calculation from docs/rules/escoba.md §2.24: Spade 1 for 7 of the 13 swords. 4s..Ts (4 5 6 7 8 9 T = 7)
    against A 2 3 J Q K (6) -> [1, 0]; 6 against 7 -> [0, 1]."""
    sd = engine.escoba.score_deal
    only = dict(CICERA_OFF, swords=1)
    seven, six = SWORDS[3:10], SWORDS[:3] + SWORDS[10:]
    assert sd([seven, six], [0, 0], **only) == [1, 0]
    assert sd([six, seven], [0, 0], **only) == [0, 1]


def test_cicera_sword_napula(engine):
    """Hand calculation from docs/rules/escoba.md §2.24: the sword run from the Ace, numerals only: A-2-3 = 3, A..6 = 6,
    A..T = 10 (stops at 10; J Q K add nothing), A-2-3-4-6 = 4 (the 5 is missing), no 3 -> 0."""
    sd = engine.escoba.score_deal
    only = dict(CICERA_OFF, sword_napula=True)
    assert sd([["As", "2s", "3s"], ["4s"]], [0, 0], **only) == [3, 0]
    assert sd([SWORDS[:6], ["Tc"]], [0, 0], **only) == [6, 0]
    assert sd([SWORDS[:10], ["Tc"]], [0, 0], **only) == [10, 0]
    assert sd([SWORDS, ["Tc"]], [0, 0], **only) == [10, 0]
    assert sd([["As", "2s", "3s", "4s", "6s"], ["5s"]], [0, 0], **only) == [4, 0]
    assert sd([["As", "2s", "4s", "5s"], ["3s"]], [0, 0], **only) == [0, 0]


def test_cicera_deal_score(engine):
    """Hand calculation from docs/rules/escoba.md §2.24 with the preset's scoring: side A holds 28 cards with the swords
    A..5 and made 1 scopa; side B 24 cards with the swords 6..K (8 swords). A: carte 2 + napula 5
    (A-2-3-4-5) + scopa 1 = 8; B: spade 1 (8 >= 7), no napula (no As) = 1. No coins, settebello or
    primiera point (A holds 7d and 10 of the 13 coins: still nothing)."""
    a_swords, b_swords = SWORDS[:5], SWORDS[5:]
    others = [c for c in PACK52 if c[1] != "s"]  # 39 cards, the 13 coins among the first 26
    a = a_swords + others[:23]
    b = b_swords + others[23:]
    assert len(a) == 28 and len(b) == 24 and "7d" in a
    assert engine.escoba.score_deal([a, b], [1, 0], variant="cicera") == [8, 1]


def _all_swords_position(engine, **options):
    """4 players, the last card of the deal: seat 0 (dealer 0) plays Kc onto Ks (same rank). Side 0
    already holds the other 12 swords; side 1 holds every other card."""
    g = engine.Escoba(variant="cicera", **options)
    pile0 = [c for c in SWORDS if c != "Ks"]
    pile1 = rest_of(pile0, ["Kc", "Ks"], pack=PACK52)
    return g.setup(hands=[["Kc"], [], [], []], table=["Ks"], piles=[pile0, pile1], dealer=0, to_move=0, last_capturer=1)


def test_cicera_all_swords_wins(engine):
    """Hand calculation from docs/rules/escoba.md §2.24: Kc x Ks gives side 0 all 13 swords. The sweep is the last play:
    no scopa. Side 0: 14 cards, spade 1 + napula 10 = 11; side 1: 38 cards, carte 2. 11 < 51, yet
    all 13 swords win the game at once."""
    s = _all_swords_position(engine)
    assert s.legal_actions() == [cid("Kc")]
    s.apply(PLAY("Kc"))
    assert sorted(s.legal_actions()) == [TAKE("Ks"), 104]  # take Ks, or trail (a court)
    s.apply(TAKE("Ks"))
    v = s.view(0)
    assert v["deal_points"] == [[11, 2]]
    assert s.is_terminal() and v["winner"] == 0
    assert s.returns() == [1.0, -1.0, 1.0, -1.0]


def test_cicera_all_swords_off(engine):
    """As above with all_swords_wins=false: 11 and 2 are below 51, so a second deal starts."""
    s = _all_swords_position(engine, all_swords_wins=False)
    s.play("Kc x Ks")
    assert not s.is_terminal() and s.view(0)["deal"] == 2 and s.scores() == [11, 2, 11, 2]


def test_cicera_court_trails(engine):
    """Hand calculation from docs/rules/escoba.md §2.24: a court may trail even when it could take its rank. Kc trails;
    the table (Ks Kc) goes to side 1, the last capturer: 40 cards, carte 2. Side 0 keeps 12 swords:
    spade 1 + napula 10 (A..T) = 11, and lacks Ks, so the game goes on."""
    s = _all_swords_position(engine)
    s.play("Kc")
    assert s.view(0)["deal_points"] == [[11, 2]] and not s.is_terminal()


def test_cicera_void_deal(engine):
    """docs/rules/escoba.md §1.2 step 3 with void_deal_min_kings = 3: the 4 table cards are the last 4 of the 52 dealt
    (12 rounds of 4 first). Kc Kd Kh As there: a void deal, dealt again from a fresh shuffle, so the
    hands differ from the given pack's. Kc Kd Ah As (2 Kings): the deal stands."""
    g = engine.Escoba(variant="cicera")
    kings3 = [c for c in PACK52 if c not in ("Kc", "Kd", "Kh", "As")] + ["Kc", "Kd", "Kh", "As"]
    v = g.new_state(seed=1, deck=kings3).view(0)
    assert sorted(v["table"]) != sorted(["Kc", "Kd", "Kh", "As"])
    kings2 = [c for c in PACK52 if c not in ("Kc", "Kd", "Ah", "As")] + ["Kc", "Kd", "Ah", "As"]
    v = g.new_state(seed=1, deck=kings2).view(0)
    assert sorted(v["table"], key=cid) == ["Kc", "Kd", "Ah", "As"]


def test_cicera_pack_checks(engine):
    """The 52-card pack: 8 9 T are cards of cicera but not of the 40-card games, whose errors name
    the 40-card pack; cicera's deck must hold the 52 cards."""
    from tapete.errors import InvalidNotationError, InvalidOptionError, InvalidStateError

    with pytest.raises(InvalidNotationError, match="40-card pack"):
        engine.escoba.capture_options("8h", ["Jc"])
    with pytest.raises(InvalidStateError):
        engine.Escoba(variant="cicera").new_state(seed=1, deck=PACK40)
    with pytest.raises(InvalidStateError, match="40-card pack"):
        engine.Escoba().setup(hands=[["Kc"], ["8s"]])
    with pytest.raises(InvalidOptionError):
        engine.Escoba(special_cards={"Ts": 1})
    assert engine.Escoba(variant="cicera", special_cards={"2s": 1, "Td": 1}).options["special_cards"] == {
        "Td": 1,
        "2s": 1,
    }
    for bad in (
        dict(players=2),
        dict(matta="7h"),
        dict(initial_table_bonus="sum15_30"),
        dict(cicera_deal="13+3"),
        dict(court_capture="rank"),
        dict(swords=-1),
        dict(cards_tie_points=True),
        dict(target_mode="eliminate"),
        dict(court_capture="value", tuzzoli=True, cicera_deal="13+0", cards_per_hand=3, initial_table_cards=4),
    ):
        with pytest.raises(InvalidOptionError):
            engine.Escoba(variant="cicera", **bad)
    # deck alone works with the base game: 52 - 4 - 2·3 = 42 cards in the stock
    assert engine.Escoba(deck="italian52").new_state(seed=1).view(0)["stock_size"] == 42
