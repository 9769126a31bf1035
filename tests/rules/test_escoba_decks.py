"""Rules tests for the Escoba presets ``maresciallo`` (rules §2.18) and ``cicera`` (§2.24), on both
engines (fixture ``engine``), through the public API only.

Every expected value comes from the rules file (§3, the vector cited) or from a hand calculation in
the comment next to it; none was obtained by running an engine.

Card ids (DESIGN §4): id = 13*suit + (rank - 1), suits c=0 d=1 h=2 s=3, T=10 J=11 Q=12 K=13.
Action ids (contract §4): PLAY(c) = c, TAKE(t) = 52 + t, DONE = 104.
"""

from __future__ import annotations

import json

import pytest

RANKS = "A23456789TJQK"
SUITS = "cdhs"
PACK40 = [r + s for s in SUITS for r in "A234567JQK"]  # ascending id order


def cid(card: str) -> int:
    return 13 * SUITS.index(card[1]) + RANKS.index(card[0])


PLAY = cid


def TAKE(card: str) -> int:
    return 52 + cid(card)


def rest_of(*groups, pack=PACK40) -> list[str]:
    used = {c for g in groups for c in g}
    return [c for c in pack if c not in used]


def dumps(doc: dict) -> str:
    return json.dumps(doc, sort_keys=True, separators=(",", ":"))


# --------------------------------------------------------------------------------------------------
# Maresciallo (rules §2.18, TV-68)

# Only the maresciallo cards score: every other category off.
ONLY = dict(variant="maresciallo", cards=0, coins=0, settebello=0, primiera=0, napola=False)


def test_maresciallo_preset(engine):
    """Rules §2.18 deltas: scopa d'assi captures with the base deal (4 table cards, 3 each),
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
    """Contract §7: ks_sweeps lists one int in 0..scope[i] per pile (InvalidStateError)."""
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
    """Rules §2.18: a Ks sweep on the last play is not a scopa and costs only the -1 for holding.
    Side 1 scores 15 as above (it holds 2h too)."""
    s = _ks_position(engine, last=True)
    s.apply(PLAY("Ks"))
    assert s.view(0)["deal_points"] == [[-1, 15]]


def test_ks_sweeps_json(engine):
    """Contract §8: ks_sweeps (indices into sweeps) round-trips; an index past the sweeps, or a
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
        engine.Escoba().state_from_json(dumps(dict(json.loads(engine.Escoba().new_state(seed=1).to_json()), ks_sweeps=[])))


def test_maresciallo_observation_counts_ks_sweeps(engine):
    """Contract §10: with maresciallo_penalty the observation ends with the Ks sweeps per side."""
    g = engine.Escoba(variant="maresciallo")
    n, S = 2, 2
    assert g.new_state(seed=1).observation(0).shape == (161 + 42 * S + 4 * n + S,)
    s = _ks_position(engine, last=False)
    s.apply(PLAY("Ks"))
    assert list(s.observation(1)[-2:]) == [1.0, 0.0]


@pytest.mark.parametrize(
    "name,value",
    [("polacca_card", "Kd"), ("polacca_card", "Js"), ("saponaro_card", "Jd"), ("maresciallo_sweep", "all"),
     ("maresciallo_penalty", 1), ("polacca", "yes")],
)
def test_maresciallo_bad_options(engine, name, value):
    from tapete.errors import InvalidOptionError

    with pytest.raises(InvalidOptionError):
        engine.Escoba(variant="maresciallo", **{name: value})
