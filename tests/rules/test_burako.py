"""Rules tests for Burako: the test vectors TV-B01..TV-B40 of ``docs/rules/burako.md`` §12.

Every test runs against both engines (fixture ``engine`` in ``tests/conftest.py``) through the
public API only: ``engine.burako.classify_meld``, ``engine.burako.score_team`` and
``engine.Burako(...)`` states (``new_state``/``setup``, ``apply``, ``legal_actions``, ``view``,
``to_json``, ``scores``, ``returns``).

Every expected value comes from the rules file (docs/rules/burako.md §12) or from a hand calculation written next to
it; none was obtained by running an engine. Positions are built with ``setup`` (contract
``docs/burako_engine.md`` §12); "rack after the draw" in a vector is a ``phase="meld"`` position.

Tile type (docs/design.md §4): 13*colour + (n - 1), colours R=0 K=1 B=2 Y=3, joker 52.
Action ids (docs/rules/burako.md §11): draw 0, take pozo 1, redraw 2, add t = 3 + t, meld 56, cancel 57,
discard t = 58 + t, extend m t = 111 + 53*m + t.
"""

from __future__ import annotations

import json

import pytest

from tapete.errors import IllegalActionError

# --------------------------------------------------------------------------------------------------
# Helpers that build inputs and expected values by hand (they never call an engine).

COLOURS = "RKBY"


def tid(text: str) -> int:
    """Tile type of 'R5' / 'J*' (docs/rules/burako.md §1)."""
    return 52 if text == "J*" else 13 * COLOURS.index(text[0]) + int(text[1:]) - 1


def T(text: str) -> list[str]:
    return text.split()


def racks_of(rack: str) -> list[list[str]]:
    """The four racks: seat 0's ``rack``; the others K3, K4 and K6, tiles that take no part."""
    return [T(rack), T("K3"), T("K4"), T("K6")]


def meld_view(kind: str, tiles: str, pure: bool, canasta: bool) -> dict[str, object]:
    """A meld as a view shows it (docs/burako_engine.md §11), ``tiles`` in its order."""
    return {"kind": kind, "tiles": tiles.split(), "pure": pure, "canasta": canasta}


def run_of(colour: str, lo: int, hi: int) -> list[str]:
    return [f"{colour}{n}" for n in range(lo, hi + 1)]


DRAW, TAKE_POZO, REDRAW, MELD, CANCEL = 0, 1, 2, 56, 57


def ADD(t: str) -> int:
    return 3 + tid(t)


def DISCARD(t: str) -> int:
    return 58 + tid(t)


def EXTEND(m: int, t: str) -> int:
    return 111 + 53 * m + tid(t)


def doc(state) -> dict:
    return json.loads(state.to_json())


def assert_illegal(state, action) -> None:
    before = state.to_json()
    assert action not in state.legal_actions()
    with pytest.raises(IllegalActionError):
        state.apply(action)
    assert state.to_json() == before


def classify(engine, tiles: str, **options):
    return engine.burako.classify_meld(T(tiles), **options)


def meld_info(engine, tiles: str, **options) -> tuple:
    r = classify(engine, tiles, **options)
    assert r is not None, tiles
    return r["kind"], r["pure"], r["canasta"], r["value"]


# --------------------------------------------------------------------------------------------------
# 12.1 Setup


def test_tv_b01_four_players_deal(engine):
    # TV-B01: racks 4x11 = 44, muertos 22, stock 40, pozo 0; 44 + 22 + 40 = 106.
    state = engine.Burako(players=4).new_state(seed=7)
    view = state.view(0)
    assert view["rack_sizes"] == [11, 11, 11, 11]
    assert view["stock_size"] == 40
    assert view["pozo_size"] == 0 and view["pozo"] == []
    d = doc(state)
    assert [len(m) for m in d["muertos"]] == [11, 11]
    assert len(d["stock"]) == 40
    assert d["pozo"] == [] and d["melds"] == [[], []]


@pytest.mark.parametrize("hand,stock", [(12, 60), (15, 54), (22, 40)])
def test_tv_b02_two_players_deal(engine, hand, stock):
    # TV-B02: H=12 -> 24+22+60 = 106; H=15 -> 30+22+54 = 106; (22: 44+22+40 = 106, docs/rules/burako.md §10)
    state = engine.Burako(players=2, two_player_hand=hand).new_state(seed=3)
    view = state.view(1)
    assert view["rack_sizes"] == [hand, hand]
    assert view["stock_size"] == stock
    assert [len(m) for m in doc(state)["muertos"]] == [11, 11]
    assert 2 * hand + 22 + stock == 106


def test_tv_b01_stacked_sequence_convention(engine):
    # docs/rules/burako.md §2 (stacked sequence) and docs/burako_engine.md §8: racks in blocks of H from the mano, then
    # muerto #1, muerto #2, the rest is the stock (top first). With first_mano=2 no draw is made.
    deck = [f"{c}{n}" for c in COLOURS for n in range(1, 14) for _ in range(2)] + ["J*", "J*"]
    deck = deck[::-1]  # J* J* Y13 Y13 Y12 Y12 ... R1 R1: top first
    state = engine.Burako(players=4, first_mano=2).new_state(seed=0, deck=deck)
    d = doc(state)
    ids = [tid(t) for t in deck]
    assert d["mano"] == 2 and d["to_move"] == 2
    assert d["racks"][2] == sorted(ids[0:11])
    assert d["racks"][3] == sorted(ids[11:22])
    assert d["racks"][0] == sorted(ids[22:33])
    assert d["racks"][1] == sorted(ids[33:44])
    assert d["muertos"] == [ids[44:55], ids[55:66]]
    assert d["stock"] == ids[66:]
    state.apply("draw")
    assert doc(state)["racks"][2].count(ids[66]) >= 1  # the top stock tile went to the mano


# --------------------------------------------------------------------------------------------------
# 12.2 Meld validity (the primitive; extensions through the game)


@pytest.mark.parametrize(
    "vid,tiles,expected",
    [
        ("TV-B03", "R3 R4 R5", ("run", True, False, 15)),  # 5+5+5
        ("TV-B04", "R3 R5 J*", ("run", False, False, 60)),  # 5+5+50
        ("TV-B05", "R12 R13 R1", ("run", True, False, 35)),  # 10+10+15
        ("TV-B08", "R2 R3 R4", ("run", True, False, 30)),  # 20+5+5
        ("TV-B12", "R5 B5 B5", ("pierna", True, False, 15)),
        ("TV-B13", "R9 K9 J*", ("pierna", False, False, 70)),  # 10+10+50
        ("TV-B22", "K5 K6 K7 B2", ("run", False, False, 35)),  # 5+5+5+20
    ],
)
def test_valid_melds_with_values(engine, vid, tiles, expected):
    assert meld_info(engine, tiles) == expected, vid


@pytest.mark.parametrize(
    "vid,tiles,pure",
    [
        ("TV-B07", "R13 R1 R2", False),  # R2 wild standing for 12
        ("TV-B09", "R2 R3 R5", False),  # R2 wild standing for 4
        ("TV-B10", "R2 R2 R3", False),  # one R2 natural, the other wild
    ],
)
def test_valid_runs_with_wild_twos(engine, vid, tiles, pure):
    r = classify(engine, tiles)
    assert r is not None and r["kind"] == "run" and r["pure"] is pure, vid


@pytest.mark.parametrize(
    "vid,tiles",
    [
        ("TV-B06", "R13 R1 R2 R3"),  # would need the wrap 13-1-2-3
        ("TV-B11", "R3 R4 B5"),  # mixed colours, different numbers
        ("TV-B14", "R9 J* B2"),  # two wilds
        ("TV-B15", "R2 B2 Y2"),  # no pierna of 2s; as a run two wilds
        ("TV-B21", "R4 R5 R6 J* J*"),  # two wilds
    ],
)
def test_invalid_melds(engine, vid, tiles):
    assert classify(engine, tiles) is None, vid


def test_tv_b16_pierna_takes_one_wild_only(engine):
    # TV-B16: {R7,B7,K7} + J* valid (impure, 4 tiles); + R2 invalid (second wild).
    assert meld_info(engine, "R7 B7 K7 J*")[:3] == ("pierna", False, False)
    assert classify(engine, "R7 B7 K7 J* R2") is None
    game = engine.Burako(players=4)
    s = game.setup(racks=racks_of("J* R2 Y9 Y11"), melds=[[T("R7 B7 K7")], []], phase="meld")
    assert EXTEND(0, "J*") in s.legal_actions()
    assert EXTEND(0, "R2") in s.legal_actions()  # R2 alone is a wild too
    s.apply("extend 0 J*")
    assert s.view(0)["melds"][0][0] == meld_view("pierna", "R7 K7 B7 J*", pure=False, canasta=False)
    assert_illegal(s, EXTEND(0, "R2"))


def test_tv_b17_ace_to_ace_run(engine):
    # TV-B17: R1 R2 .. R13 R1 (14 tiles): pure run, value 2*15 + 20 + 5*5 + 6*10 = 135; + J* invalid.
    tiles = " ".join(["R1"] + run_of("R", 2, 13) + ["R1"])
    assert meld_info(engine, tiles) == ("run", True, True, 135)
    assert classify(engine, tiles + " J*") is None


def test_tv_b18_natural_two_by_extension(engine):
    # TV-B18: {B2,B3,B4,B6} impure (B2 = 5); + B5 -> {B2..B6} pure (B2 natural): the boxed example.
    assert meld_info(engine, "B2 B3 B4 B6") == ("run", False, False, 35)  # 20+5+5+5
    assert meld_info(engine, "B2 B3 B4 B5 B6")[:2] == ("run", True)
    s = engine.Burako(players=4).setup(racks=racks_of("B5 K9 K11"), melds=[[T("B2 B3 B4 B6")], []], phase="meld")
    assert s.view(0)["melds"][0][0]["pure"] is False
    s.apply(EXTEND(0, "B5"))
    assert s.view(0)["melds"][0][0] == meld_view("run", "B2 B3 B4 B5 B6", pure=True, canasta=False)


def test_tv_b19_natural_two_turns_wild(engine):
    # TV-B19: {R2,R3,R4} pure; EXTEND + R6 -> valid but impure (R2 is the wild standing for 5).
    assert meld_info(engine, "R2 R3 R4 R6")[:2] == ("run", False)
    s = engine.Burako(players=4).setup(racks=racks_of("R6 K9 K11"), melds=[[T("R2 R3 R4")], []], phase="meld")
    assert s.view(2)["melds"][0][0]["pure"] is True
    s.apply("extend 0 R6")
    assert s.view(2)["melds"][0][0] == meld_view("run", "R2 R3 R4 R6", pure=False, canasta=False)


def test_tv_b20_canastas(engine):
    # TV-B20: {R5..R11} pure canasta (+200), value 5*3 + 10*4 = 55;
    # {R10 R10 K10 K10 B10 B10 J*} impure canasta pierna (+100), value 60 + 50 = 110.
    assert meld_info(engine, "R5 R6 R7 R8 R9 R10 R11") == ("run", True, True, 55)
    assert meld_info(engine, "R10 R10 K10 K10 B10 B10 J*") == ("pierna", False, True, 110)
    # the bonuses through score_team (a team with that one meld, its muerto, nothing in the racks):
    assert engine.burako.score_team([run_of("R", 5, 11)], [[]], False, True) == 55 + 200 + 100
    assert engine.burako.score_team([T("R10 R10 K10 K10 B10 B10 J*")], [[]], False, True) == 110 + 100 + 100


def test_tv_b23_joker_floats(engine):
    # TV-B23: {R4,R5,R6,J*} + R7 valid (the joker floats to 3 or 8); + R3 too -> 6 tiles valid.
    assert classify(engine, "R4 R5 R6 J* R7")["kind"] == "run"
    assert meld_info(engine, "R3 R4 R5 R6 R7 J*")[:3] == ("run", False, False)
    s = engine.Burako(players=4).setup(racks=racks_of("R7 R3 K9 K11"), melds=[[T("R4 R5 R6 J*")], []], phase="meld")
    s.apply("extend 0 R7")
    s.apply("extend 0 R3")
    assert s.view(0)["melds"][0][0]["tiles"] == ["R3", "R4", "R5", "R6", "R7", "J*"]


def test_invalid_buffer_cannot_be_melded(engine):
    # TV-B11 / TV-B14 / TV-B15 shapes in play: the buffer holds them, NEW_COMMIT is never legal.
    s = engine.Burako(players=4).setup(racks=racks_of("R3 R4 B5 R9 J* B2 Y2 K12"), phase="meld")
    for shape in ("R3 R4 B5", "R9 B2 J*", "B2 Y2 K12"):
        for t in sorted(T(shape), key=tid):
            s.apply("add " + t)
        assert MELD not in s.legal_actions(), shape
        s.apply("cancel")


# --------------------------------------------------------------------------------------------------
# 12.3 Turn structure


def test_tv_b24_first_turn_only_draw(engine):
    # TV-B24: the pozo is empty on the first turn -> TAKE_POZO illegal; legal = {DRAW_STOCK}.
    state = engine.Burako(players=4).new_state(seed=11)
    assert state.legal_actions() == [DRAW]
    assert_illegal(state, TAKE_POZO)


def test_tv_b25_privilege(engine):
    # TV-B25: the mano draws R7, REDRAW puts it face up on the pozo and draws K3; a second REDRAW is
    # illegal; he discards B9 -> pozo [R7, B9]; the next player takes both.
    s = engine.Burako(players=4).setup(
        racks=[T("B9 Y12 Y13"), T("K1 K5"), T("K2"), T("K4")], stock=T("R7 K3 Y1"), turns=0, to_move=0
    )
    assert s.legal_actions() == [DRAW]
    s.apply("draw")
    assert "R7" in s.view(0)["rack"]
    assert REDRAW in s.legal_actions()
    s.apply("redraw")
    assert s.view(0)["rack"] == ["K3", "B9", "Y12", "Y13"]
    assert s.view(1)["pozo"] == ["R7"]
    assert_illegal(s, REDRAW)
    s.apply("discard B9")
    assert s.view(1)["pozo"] == ["R7", "B9"]  # B9 on top
    assert s.current_player() == 1
    assert s.legal_actions() == [DRAW, TAKE_POZO]
    s.apply("take pozo")
    assert s.view(1)["rack"] == ["R7", "K1", "K5", "B9"]
    assert s.view(1)["pozo"] == [] and s.view(1)["pozo_size"] == 0


def test_tv_b26_redraw_only_on_the_first_turn(engine):
    # TV-B26: REDRAW on any turn other than the first turn of the hand -> illegal.
    s = engine.Burako(players=4).setup(racks=[T("B9 Y12"), T("K1"), T("K2"), T("K4")], turns=1)
    s.apply("draw")
    assert_illegal(s, REDRAW)
    # and in a dealt hand: after the mano's turn, the next player's draw gives no REDRAW
    state = engine.Burako(players=4, first_mano=0).new_state(seed=5)
    state.apply("draw")
    assert REDRAW in state.legal_actions()
    state.apply(next(a for a in state.legal_actions() if a >= 58))  # a discard ends the turn
    state.apply("draw")
    assert REDRAW not in state.legal_actions()
    # any other meld-phase action on the first turn keeps the drawn tile (docs/burako_engine.md §5)
    s = engine.Burako(players=4).setup(racks=[T("B9 Y12"), T("K1"), T("K2"), T("K4")], stock=T("R7 K3"), turns=0)
    s.apply("draw")
    s.apply("add B9")
    assert REDRAW not in s.legal_actions()


def test_tv_b27_team_melds(engine):
    # TV-B27: seat 0 may extend a meld created by seat 2 (same team); a meld of team {1,3} cannot
    # be extended by seat 0 (slots name the team's own melds, so "extend 0" names team A's).
    game = engine.Burako(players=4)
    s = game.setup(
        racks=[T("R6 K9 K11"), T("K3 Y7"), T("R3 R4 R5 Y9 Y10"), T("K4 Y8")],
        melds=[[], [T("B6 B7 B8")]],
        to_move=2,
        phase="meld",
    )
    for a in ("add R3", "add R4", "add R5", "meld", "discard Y9"):
        s.apply(a)
    for a in ("draw", "discard K4"):  # seat 3
        s.apply(a)
    s.apply("draw")  # seat 0
    assert s.current_player() == 0
    assert EXTEND(0, "R6") in s.legal_actions()
    # team B's B6-B8 would take a B9 or B5; seat 0 holds none of them and no slot of team A fits
    s2 = game.setup(racks=racks_of("B9 K9 K11"), melds=[[], [T("B6 B7 B8")]], phase="meld")
    assert_illegal(s2, EXTEND(0, "B9"))
    assert all(a < 111 for a in s2.legal_actions())
    s.apply("extend 0 R6")
    assert s.view(0)["melds"][0][0]["tiles"] == ["R3", "R4", "R5", "R6"]


def test_tv_b28_direct_muerto(engine):
    # TV-B28: rack after the draw {R7,R8,R9}; add R7 R8 R9 (nothing happens), meld -> the rack is
    # empty -> seat 0 takes muerto #1 (11 tiles) and stays in the meld phase.
    s = engine.Burako(players=4).setup(racks=racks_of("R7 R8 R9"), phase="meld")
    muerto_1 = doc(s)["muertos"][0]
    assert len(muerto_1) == 11
    for a in ("add R7", "add R8", "add R9"):
        s.apply(a)
    assert s.view(0)["rack"] == [] and s.view(0)["muerto_status"] == ["untaken", "untaken"]
    assert [a for a in s.legal_actions() if a >= 58] == []  # no discard with a buffer
    s.apply("meld")
    d = doc(s)
    assert d["racks"][0] == sorted(muerto_1)
    assert d["muerto_status"] == [1, 0]  # taken directly
    assert len(d["muertos"]) == 1
    assert s.current_player() == 0 and d["phase"] == "meld"
    assert d["melds"][0] == [{"kind": "run", "tiles": [tid("R7"), tid("R8"), tid("R9")]}]
    assert any(58 <= a < 111 for a in s.legal_actions())  # he must finish with a discard


def test_tv_b29_indirect_muerto(engine):
    # TV-B29: after melding seat 0 holds {K4}; DISCARD K4 -> empty rack -> he takes a muerto
    # (11 tiles) and the turn ends; on his next turn he draws first as usual.
    s = engine.Burako(players=4).setup(racks=[T("K4"), T("K3 Y5"), T("K2 Y6"), T("K6 Y7")], phase="meld")
    muerto_1 = doc(s)["muertos"][0]
    s.apply("discard K4")
    d = doc(s)
    assert d["racks"][0] == sorted(muerto_1)
    assert d["muerto_status"] == [2, 0]  # taken indirectly
    assert d["muerto_unplayed"] == [0, -1]
    assert s.current_player() == 1 and d["phase"] == "draw"
    for _seat in (1, 2, 3):
        s.apply("draw")
        s.apply(next(a for a in s.legal_actions() if 58 <= a < 111))
    assert s.current_player() == 0
    assert s.legal_actions() == [DRAW, TAKE_POZO]
    s.apply("draw")
    assert doc(s)["muerto_unplayed"] == [-1, -1]


def test_tv_b30_invariant_without_canasta(engine):
    # TV-B30: team A has its muerto and no canasta; rack {Y3, R10}; EXTEND Y3 onto {Y4,Y5,Y6}
    # leaves h' = 1 -> illegal; DISCARD Y3 and DISCARD R10 are legal.
    s = engine.Burako(players=4).setup(
        racks=racks_of("Y3 R10"), melds=[[T("Y4 Y5 Y6")], []], muerto_status=[1, 0], phase="meld"
    )
    assert_illegal(s, EXTEND(0, "Y3"))
    legal = s.legal_actions()
    assert DISCARD("Y3") in legal and DISCARD("R10") in legal


def test_tv_b31_second_teammate(engine):
    # TV-B31: seat 2 took team A's muerto, no canasta, team A's meld takes none of seat 0's tiles.
    # Legal right after the draw = {5, 6, 7, 24, 60, 61, 62, 79}; committing {R3,R4,R5} never is.
    s = engine.Burako(players=4).setup(
        racks=racks_of("R3 R4 R5 K9"),
        melds=[[T("Y9 Y10 Y11")], []],
        muerto_status=[2, 0],
        phase="meld",
    )
    assert s.legal_actions() == [5, 6, 7, 24, 60, 61, 62, 79]
    for a in ("add R3", "add R4", "add R5"):
        s.apply(a)
    assert s.legal_actions() == [ADD("K9"), CANCEL]  # h' = 1 with the muerto taken, no canasta
    s.apply("add K9")
    assert s.legal_actions() == [CANCEL]


def _single(engine, **options):
    return engine.Burako(players=4, match="single_hand", **options)


def _closing(engine, rack, team_a_melds, **options):
    """A single-hand position where seat 0 (team A, muerto taken) melds with ``rack`` and its team's
    ``team_a_melds``; team B has no melds; the other seats hold K3, K4 and K6."""
    return _single(engine, **options).setup(
        racks=racks_of(rack), melds=[team_a_melds, []], muerto_status=[1, 0], phase="meld"
    )


def test_tv_b32_close_by_discard(engine):
    # TV-B32: team A has its muerto and a canasta; rack {R9, Y5}; EXTEND Y5 onto {Y6,Y7,Y8}
    # (h' = 1, legal), DISCARD R9 -> close (+100).
    s = _closing(engine, "R9 Y5", [run_of("R", 3, 9), T("Y6 Y7 Y8")])
    s.apply(EXTEND(1, "Y5"))
    assert not s.is_terminal()
    s.apply("discard R9")
    assert s.is_terminal()
    # team A: M = (R3..R9: 5*5 + 10*2) + (Y5 Y6 Y7: 5*3, Y8: 10) = 45 + 25 = 70, C = 200, X = 100,
    # U = 100, R = K4 = 5 -> 465; team B: no canasta, no melds, U = -100, R = K3 + K6 = 10 -> -110
    assert s.scores() == [465, -110, 465, -110]
    assert doc(s)["hand_scores"] == [[465, -110]]
    assert s.returns() == [1.0, -1.0, 1.0, -1.0]


def test_tv_b33_close_by_melding_out(engine):
    # TV-B33: rack {B5,B6,B7}; add B5 B6 B7 (nothing happens yet), meld -> close with no discard.
    s = _closing(engine, "B5 B6 B7", [run_of("R", 3, 9)])
    for a in ("add B5", "add B6", "add B7"):
        s.apply(a)
    assert not s.is_terminal() and s.current_player() == 0
    s.apply("meld")
    assert s.is_terminal()
    # team A: M = 45 + 15 = 60, C = 200, X = 100, U = 100, R = 5 -> 455; team B -110
    assert doc(s)["hand_scores"] == [[455, -110]]


def test_tv_b34_canasta_completed_by_the_closing_action(engine):
    # TV-B34: muerto taken, no canasta; meld {R3..R8}; rack {R9, Y5}; EXTEND R9 -> 7 tiles, pure
    # canasta, h' = 1 legal; DISCARD Y5 -> close.
    s = _closing(engine, "R9 Y5", [run_of("R", 3, 8)])
    assert EXTEND(0, "R9") in s.legal_actions()
    s.apply("extend 0 R9")
    assert s.view(0)["melds"][0][0]["canasta"] is True and s.view(0)["melds"][0][0]["pure"] is True
    s.apply("discard Y5")
    assert s.is_terminal()
    # team A: M = 45, C = 200, X = 100, U = 100, R = 5 -> 440
    assert doc(s)["hand_scores"] == [[440, -110]]


def test_tv_b35_buffer_must_be_empty(engine):
    # TV-B35: rack {R3,R4,K9,B1}; after NEW_ADD R3, DISCARD K9 illegal; NEW_CANCEL, then legal.
    s = engine.Burako(players=4).setup(racks=racks_of("R3 R4 K9 B1"), phase="meld")
    s.apply("add R3")
    assert_illegal(s, DISCARD("K9"))
    s.apply("cancel")
    assert DISCARD("K9") in s.legal_actions()
    s.apply("discard K9")
    assert s.current_player() == 1


def test_tv_b36_stock_exhaustion(engine):
    # TV-B36: 2 players, one stock tile at the start of seat 1's turn: draw (stock 0), no meld,
    # discard -> the hand ends, scored with X = 0 for both.
    s = engine.Burako(players=2, match="single_hand").setup(racks=[T("R3 R10"), T("Y5 Y6")], stock=T("K12"), to_move=1)
    s.apply("draw")
    assert s.view(1)["stock_size"] == 0
    s.apply("discard K12")
    assert s.is_terminal()
    # seat 0: -0 - 100 - (5 + 10) = -115; seat 1: -100 - (5 + 5) = -110; seat 1 wins the hand
    assert doc(s)["hand_scores"] == [[-115, -110]]
    assert s.returns() == [-1.0, 1.0]


def test_stock_exhaustion_ends_the_match_hand_by_hand(engine):
    # TV-B36 under match = to_target: the hand ends, is scored, and the next hand is dealt.
    s = engine.Burako(players=2).setup(racks=[T("R3 R10"), T("Y5 Y6")], stock=T("K12"), to_move=1)
    s.apply("draw")
    s.apply("discard K12")
    assert not s.is_terminal()
    d = doc(s)
    assert d["hand"] == 2 and d["hand_scores"] == [[-115, -110]] and d["totals"] == [-115, -110]
    assert d["mano"] == 0 and d["to_move"] == 0  # next mano = next(previous mano 1) = 0
    assert [len(r) for r in d["racks"]] == [12, 12] and len(d["stock"]) == 60


# --------------------------------------------------------------------------------------------------
# 12.4 Scoring


def test_tv_b37_four_players_team_a_closes(engine):
    # TV-B37 (hand calculation in the rules file).
    sc = engine.burako.score_team
    team_a = [run_of("R", 3, 9), T("R1 B1 K1"), T("B10 B11 B12 J*")]
    assert sc(team_a, [[], T("Y13 R2")], True, True) == 540  # 170 + 200 + 100 + 100 - 30
    team_b = [T("R8 B8 B8 Y8"), T("K5 K6 K7 B2")]
    racks_b = [T("R9 B3 J* Y1 K12"), T("R4 B4 Y13")]
    assert sc(team_b, racks_b, False, False) == -285  # -75 - 100 - 110
    assert sc(team_b, racks_b, False, False, no_canasta_melds_negative=False) == -135  # 75 - 100 - 110


def test_tv_b38_two_players_stock_exhausted(engine):
    # TV-B38: A = 80 + 100 + 0 + 100 - 25 = 255; B = 60 + 200 + 0 - 100 - 25 = 135;
    # with two_value = natural_5_wild_20 B's Y2 is natural and counts 5 -> 120.
    sc = engine.burako.score_team
    a_melds, a_rack = [T("R7 R7 K7 K7 B7 B7 J*")], [T("R11 B1")]
    b_melds, b_rack = [run_of("Y", 1, 7)], [T("K10 K10 R6")]
    assert sc(a_melds, a_rack, False, True, players=2) == 255
    assert sc(b_melds, b_rack, False, False, players=2) == 135
    assert sc(b_melds, b_rack, False, False, players=2, two_value="natural_5_wild_20") == 120
    assert sc(a_melds, a_rack, False, True, players=2, two_value="natural_5_wild_20") == 255
    assert classify(engine, "Y1 Y2 Y3 Y4 Y5 Y6 Y7", two_value="natural_5_wild_20")["value"] == 45


# TV-B39 position: seat 1 (team B) holds one tile and discards it; the muerto he then takes is
# worth 8*10 + 3*5 = 95; team B's melds: {Y9 Y9 B9 B9 K9 K9 J*} (60 + 50 = 110, impure canasta)
# and {Y3 Y4 Y5 Y6} (20): 130; seat 3's rack R10 R11 R12 K10 = 40. Team A has its muerto and a
# canasta; seat 2 draws R1 (the lowest leftover tile heads the stock), extends K5 and closes by
# discarding R1.
_B39_MUERTO = T("B10 B11 B12 B13 Y10 Y11 Y12 Y13 B3 B4 B5")


def _b39(engine, **options):
    s = _single(engine, **options).setup(
        racks=[T("K12"), T("K4"), T("K5"), T("R10 R11 R12 K10")],
        melds=[[run_of("R", 3, 9), T("K6 K7 K8")], [T("Y9 Y9 B9 B9 K9 K9 J*"), T("Y3 Y4 Y5 Y6")]],
        muertos=[_B39_MUERTO],
        muerto_status=[1, 0],
        to_move=1,
        phase="meld",
    )
    s.apply("discard K4")  # seat 1: indirect muerto
    assert doc(s)["muerto_status"] == [1, 2]
    s.apply("draw")  # seat 2 draws R1
    s.apply("extend 1 K5")
    s.apply("discard R1")  # close
    assert s.is_terminal()
    return doc(s)["hand_scores"][0][1]


def test_tv_b39_indirect_muerto_not_yet_played(engine):
    # TV-B39: DEFAULT 130 + 100 + 0 + 100 - (40 + 95) = 195.
    assert _b39(engine) == 195


def test_tv_b39_counts_as_not_taken(engine):
    # TV-B39 with indirect_muerto_unplayed = counts_as_not_taken: 130 + 100 - 100 - 40 = 90.
    assert _b39(engine, indirect_muerto_unplayed="counts_as_not_taken") == 90


# TV-B40 position = TV-B37's: seat 0 (team A) closes by discarding his last tile K13.
def _b37_position(engine, totals, hand=1, **options):
    return engine.Burako(players=4, **options).setup(
        racks=[T("K13"), T("R9 B3 J* Y1 K12"), T("Y13 R2"), T("R4 B4 Y13")],
        melds=[[run_of("R", 3, 9), T("R1 B1 K1"), T("B10 B11 B12 J*")], [T("R8 B8 B8 Y8"), T("K5 K6 K7 B2")]],
        muerto_status=[1, 0],
        phase="meld",
        totals=totals,
        hand=hand,
    )


def test_tv_b37_in_play(engine):
    # TV-B37 through the game: the hand scores +540 and -285.
    s = _b37_position(engine, [0, 0], match="single_hand")
    s.apply("discard K13")
    assert s.is_terminal()
    assert doc(s)["hand_scores"] == [[540, -285]]


def test_tv_b40_end_of_the_match(engine):
    # TV-B40: totals A 2950, B 3100; hand +540 / -285 -> A 3490, B 2815 -> A wins.
    s = _b37_position(engine, [2950, 3100])
    s.apply("discard K13")
    assert s.is_terminal()
    assert s.scores() == [3490, 2815, 3490, 2815]
    assert s.returns() == [1.0, -1.0, 1.0, -1.0]


def test_tv_b40_equal_totals_play_another_hand(engine):
    # TV-B40: totals 3010 / 3010 after a hand -> tie -> another hand: 2470 + 540 = 3295 - 285 = 3010.
    s = _b37_position(engine, [2470, 3295])
    s.apply("discard K13")
    assert not s.is_terminal()
    assert s.scores() == [3010, 3010, 3010, 3010]
    assert s.returns() == [0.0, 0.0, 0.0, 0.0]
    assert doc(s)["hand"] == 2


def test_tv_b40_equal_totals_at_max_hands_draw(engine):
    # TV-B40: the same tie in hand max_hands ends the match with returns 0 for all.
    s = _b37_position(engine, [2470, 3295], hand=5, max_hands=5)
    s.apply("discard K13")
    assert s.is_terminal()
    assert s.returns() == [0.0, 0.0, 0.0, 0.0]


# --------------------------------------------------------------------------------------------------
# Options of docs/rules/burako.md §10 on the vectors' positions (hand-derived from
# docs/rules/burako.md §5.4, §5.1, §6.2)


def test_close_mode_discard_required_forbids_melding_out(engine):
    # docs/rules/burako.md §5.4 discard_required: h' = 0 is illegal once the muerto is taken (TV-B33's position).
    s = _closing(engine, "B5 B6 B7", [run_of("R", 3, 9)], close_mode="discard_required")
    for a in ("add B5", "add B6", "add B7"):
        s.apply(a)
    assert s.legal_actions() == [CANCEL]


def test_close_mode_meld_required(engine):
    # docs/rules/burako.md §5.4 meld_required: h' = 1 needs a last tile that can extend a team meld (closing), and the
    # last tile may not be discarded. TV-B32's position: R9 fits no team meld -> EXTEND Y5 illegal.
    melds = [run_of("R", 3, 9), T("Y6 Y7 Y8")]
    s = _closing(engine, "R9 Y5", melds, close_mode="meld_required")
    assert_illegal(s, EXTEND(1, "Y5"))
    assert s.legal_actions() == [ADD("R9"), ADD("Y5"), DISCARD("R9"), DISCARD("Y5")]
    # with R10 instead of R9 the last tile extends R3..R9: EXTEND Y5 is legal, then the discard of
    # R10 is not, and EXTEND R10 closes.
    s = _closing(engine, "R10 Y5", melds, close_mode="meld_required")
    s.apply("extend 1 Y5")
    assert DISCARD("R10") not in s.legal_actions()
    assert EXTEND(0, "R10") in s.legal_actions()
    s.apply("extend 0 R10")
    assert s.is_terminal()


def test_muerto_becomes_stock(engine):
    # docs/rules/burako.md §6.2 muerto_becomes_stock: the stock runs out at a TURN_END with both muertos untaken ->
    # muerto #1 becomes the stock in its dealt order and play goes on.
    game = engine.Burako(players=2, match="single_hand", stock_exhausted="muerto_becomes_stock")
    s = game.setup(racks=[T("R3 R10"), T("Y5 Y6")], stock=T("K12"), to_move=1)
    muerto_1 = doc(s)["muertos"][0]
    s.apply("draw")
    s.apply("discard K12")
    assert not s.is_terminal()
    d = doc(s)
    assert d["stock"] == muerto_1 and len(d["muertos"]) == 1
    assert s.current_player() == 0 and s.legal_actions() == [DRAW, TAKE_POZO]


def test_single_tile_pozo_rediscard_forbidden(engine):
    # docs/rules/burako.md §10 single_tile_pozo_rediscard = forbidden: after taking a one-tile pozo its type may not be
    # discarded this turn.
    game = engine.Burako(players=4, single_tile_pozo_rediscard="forbidden")
    s = game.setup(racks=racks_of("R3 K9"), pozo=T("Y3"))
    s.apply("take pozo")
    assert_illegal(s, DISCARD("Y3"))
    assert DISCARD("R3") in s.legal_actions() and DISCARD("K9") in s.legal_actions()
    # a rack made only of that type cannot take it
    s = game.setup(racks=racks_of("Y3"), pozo=T("Y3"))
    assert s.legal_actions() == [DRAW]


def test_must_use_top_tile_now(engine):
    # docs/rules/burako.md §5.1 must_use_top_tile_now: TAKE_POZO only if the top tile's type can be melded right away;
    # until it is, DISCARD is illegal and NEW_COMMIT must use it.
    game = engine.Burako(players=4, pozo_take_requirement="must_use_top_tile_now")
    s = game.setup(racks=racks_of("R4 R5 K9 K11"), pozo=T("B2 R6"))
    assert s.legal_actions() == [DRAW, TAKE_POZO]
    s.apply("take pozo")
    assert all(not 58 <= a < 111 for a in s.legal_actions())
    for a in ("add R4", "add R5", "add R6"):
        s.apply(a)
    s.apply("meld")
    assert DISCARD("K9") in s.legal_actions()
    # no meld with the top tile Y13 is possible: TAKE_POZO is illegal
    s = game.setup(racks=racks_of("R4 R5 K9 K11"), pozo=T("R6 Y13"))
    assert s.legal_actions() == [DRAW]


def test_no_redraw_without_the_privilege(engine):
    # docs/rules/burako.md §10 first_player_redraw = false: REDRAW is never legal.
    game = engine.Burako(players=4, first_player_redraw=False)
    s = game.setup(racks=[T("B9 Y12"), T("K1"), T("K2"), T("K4")], stock=T("R7 K3"), turns=0)
    s.apply("draw")
    assert REDRAW not in s.legal_actions()


# --------------------------------------------------------------------------------------------------
# Options beyond docs/rules/burako.md §10 (docs/burako_engine.md §2, §3, v3): max_wilds_per_meld =
# unlimited and run_wrap. Expected values by hand from docs/rules/burako.md §1, §3.2, §3.3 (values,
# validity) and the contract's definitions.

UNLIMITED = {"max_wilds_per_meld": "unlimited"}
WRAP = {"run_wrap": True}
N5 = {"two_value": "natural_5_wild_20"}


@pytest.mark.parametrize(
    "vid,tiles,options,expected",
    [
        # 2 naturals + 3 wilds: red naturals 5, 6, the J*s and B2 fill 3 of a 5-window (3..7 etc.);
        # 5 + 5 + 50 + 50 + 20 = 130. B2 is another colour's 2: wild, 20 also under natural_5.
        ("U01", "R5 R6 J* J* B2", UNLIMITED, ("run", False, False, 130)),
        ("U01", "R5 R6 J* J* B2", {**UNLIMITED, **N5}, ("run", False, False, 130)),
        # a pierna of 2 naturals + 3 wilds: 10 + 10 + 50 + 20 + 20 = 110
        ("U02", "R9 K9 J* B2 Y2", UNLIMITED, ("pierna", False, False, 110)),
        # R2 natural at 2, the J*s at 3 and 4 (w = 2 in the fewest-wilds assignment):
        # 20 + 5 + 5 + 50 + 50 = 130; under natural_5 the natural R2 counts 5 -> 115
        ("U03", "R2 R5 R6 J* J*", UNLIMITED, ("run", False, False, 130)),
        ("U03", "R2 R5 R6 J* J*", {**UNLIMITED, **N5}, ("run", False, False, 115)),
        # one natural and two wilds: valid as both kinds -> a pierna (docs/rules/burako.md §3.4):
        # 5 + 50 + 50 = 105
        ("U04", "R5 J* J*", UNLIMITED, ("pierna", False, False, 105)),
        # the run reading would make R2 natural, but the kind is pierna (R3 + four wild 2s), where
        # every 2 is wild: 5 + 4*20 = 85 also under natural_5
        ("U05", "R2 R3 K2 B2 Y2", {**UNLIMITED, **N5}, ("pierna", False, False, 85)),
        # only 2s and jokers: B2 is the natural of a blue run (2 in a 3-window), the jokers wild;
        # 20 + 50 + 50 = 120, under natural_5 the B2 counts 5 -> 105
        ("U06", "B2 J* J*", UNLIMITED, ("run", False, False, 120)),
        ("U06", "B2 J* J*", {**UNLIMITED, **N5}, ("run", False, False, 105)),
        # the longest pierna: 8 fives (40) + 2 jokers (100) + 8 twos (160) = 300, 18 tiles
        (
            "U07",
            "R5 R5 K5 K5 B5 B5 Y5 Y5 J* J* R2 R2 K2 K2 B2 B2 Y2 Y2",
            UNLIMITED,
            ("pierna", False, True, 300),
        ),
        # a run still spans at most 14 positions: R3..R13 at 3..13, wilds at 1, 2 and 14;
        # R3..R7 25 + R8..R13 60 + 100 + 20 = 205
        ("U08", " ".join(run_of("R", 3, 13)) + " J* J* B2", UNLIMITED, ("run", False, True, 205)),
    ],
)
def test_unlimited_wilds_melds(engine, vid, tiles, options, expected):
    assert meld_info(engine, tiles, **options) == expected, vid


@pytest.mark.parametrize(
    "vid,tiles,options",
    [
        ("U01", "R5 R6 J* J* B2", {}),  # three wilds: invalid by default ...
        ("U01", "R5 R6 J* J* B2", {"max_wilds_per_meld": 2}),  # ... with 2 ...
        ("U01", "R5 R6 J* J* B2", {"max_wilds_per_meld": "fewer_than_naturals"}),  # ... and 3 < 2 fails
        ("U02", "R9 K9 J* B2 Y2", {"max_wilds_per_meld": 2}),
        ("U08", " ".join(run_of("R", 3, 13)) + " J* J* B2 Y2", UNLIMITED),  # 15 tiles: no run that long
        ("U09", " ".join(["R1"] + run_of("R", 2, 13) + ["R1"]) + " J*", UNLIMITED),  # TV-B17 + J*: 15
        ("U10", "R4 R5 K7 J* J*", UNLIMITED),  # naturals of two colours and two numbers
    ],
)
def test_unlimited_wilds_invalid(engine, vid, tiles, options):
    assert classify(engine, tiles, **options) is None, vid


def test_unlimited_wilds_extensions(engine):
    # U11: the run {K2, B2, Y2} (K2 natural, two wilds; a run as it is no pierna) takes R4 under
    # unlimited: valid as a run of red, R4 the one natural and the three 2s wild
    # (docs/rules/burako.md §3.4 existence semantics); under max_wilds_per_meld = 2 that is three
    # wilds: illegal.
    position = dict(racks=racks_of("R4 K9 Y11"), melds=[[T("K2 B2 Y2")], []], phase="meld")
    s = engine.Burako(players=4, **UNLIMITED).setup(**position)
    assert s.view(0)["melds"][0][0]["kind"] == "run"
    assert EXTEND(0, "R4") in s.legal_actions()
    assert EXTEND(0, "K9") in s.legal_actions()  # a black run: K9 natural, the K2 wild
    assert EXTEND(0, "Y11") in s.legal_actions()
    s.apply("extend 0 R4")
    assert s.view(0)["melds"][0][0] == meld_view("run", "R4 K2 B2 Y2", pure=False, canasta=False)
    s2 = engine.Burako(players=4, max_wilds_per_meld=2).setup(**position)
    assert_illegal(s2, EXTEND(0, "R4"))
    # U12: the pierna {R5, J*, J*} takes a third wild (B2) under unlimited, not under 2
    position = dict(racks=racks_of("B2 K9 Y11"), melds=[[T("R5 J* J*")], []], phase="meld")
    s = engine.Burako(players=4, **UNLIMITED).setup(**position)
    assert s.view(0)["melds"][0][0]["kind"] == "pierna"
    s.apply("extend 0 B2")
    assert s.view(0)["melds"][0][0]["tiles"] == ["R5", "B2", "J*", "J*"]
    assert_illegal(engine.Burako(players=4, max_wilds_per_meld=2).setup(**position), EXTEND(0, "B2"))


@pytest.mark.parametrize(
    "vid,tiles,options,expected",
    [
        # TV-B06 under run_wrap: 13-1-2-3, pure (R2 natural after the corner); 10 + 15 + 20 + 5 = 50
        ("W01", "R13 R1 R2 R3", WRAP, ("run", True, False, 50)),
        # TV-B07 under run_wrap: 13-1-2 with R2 natural: now pure; 10 + 15 + 20 = 45, and under
        # natural_5 the R2 counts 5 -> 30 (by default the R2 is the wild for 12: 45)
        ("W02", "R13 R1 R2", WRAP, ("run", True, False, 45)),
        ("W02", "R13 R1 R2", {**WRAP, **N5}, ("run", True, False, 30)),
        ("W02", "R13 R1 R2", N5, ("run", False, False, 45)),
        # a wild standing for 13: 11-12-(13)-1-2, w = 1; 10 + 10 + 50 + 15 + 20 = 105
        ("W03", "R11 R12 J* R1 R2", WRAP, ("run", False, False, 105)),
        # a wild standing for the 1 at the corner: 12-13-(1)-2-3; 10 + 10 + 50 + 20 + 5 = 95
        ("W04", "R12 R13 J* R2 R3", WRAP, ("run", False, False, 95)),
        # 12 tiles 4..13-1-2 (3 left out): wrapped, a pure canasta; R4..R7 20 + R8..R13 60 + 15 +
        # 20 = 115. Straight (the default) the R2 must be the wild for 3 (3..13-1): impure.
        ("W05", " ".join(run_of("R", 4, 13)) + " R1 R2", WRAP, ("run", True, True, 115)),
        ("W05", " ".join(run_of("R", 4, 13)) + " R1 R2", {}, ("run", False, True, 115)),
        # 9-10-11-12-13-1-2: pure wrapped canasta, 50 + 15 + 20 = 85; straight (the default) it is
        # 8..13-1 with R2 the wild for 8: impure
        ("W06", "R9 R10 R11 R12 R13 R1 R2", WRAP, ("run", True, True, 85)),
        ("W06", "R9 R10 R11 R12 R13 R1 R2", {}, ("run", False, True, 85)),
        # a 2 of another colour is never natural: B2 is the wild for 2 (or 11): impure, and it
        # counts 20 under natural_5: 10 + 10 + 15 + 20 = 55 (R2 instead: pure, 10+10+15+5 = 40)
        ("W07", "R12 R13 R1 B2", {**WRAP, **N5}, ("run", False, False, 55)),
        ("W07", "R12 R13 R1 R2", {**WRAP, **N5}, ("run", True, False, 40)),
        # ... also with unlimited wilds: 13-1-(2 = B2)-3 and Y2 for 12 or 4; 10+15+20+20+5 = 70
        ("W08", "R13 R1 B2 Y2 R3", {**WRAP, **UNLIMITED, **N5}, ("run", False, False, 70)),
        # ace_position = high_only: no natural 1 at the corner, a wild may stand there:
        # 13-(1)-2-3 = 10 + 50 + 20 + 5 = 85; {R13 R1 R2} stays TV-B07's impure 12-13-1 (45)
        ("W09", "R13 J* R2 R3", {**WRAP, "ace_position": "high_only"}, ("run", False, False, 85)),
        ("W09", "R13 R1 R2", {**WRAP, "ace_position": "high_only"}, ("run", False, False, 45)),
        # ace_position = low_only: 12-13-(1)-2-3 with the wild at the corner, 95 as W04
        ("W10", "R12 R13 J* R2 R3", {**WRAP, "ace_position": "low_only"}, ("run", False, False, 95)),
        # twos_wild = false: R2 is an ordinary natural, 13-1-2 pure
        ("W11", "R13 R1 R2", {**WRAP, "twos_wild": False}, ("run", True, False, 45)),
    ],
)
def test_run_wrap_melds(engine, vid, tiles, options, expected):
    assert meld_info(engine, tiles, **options) == expected, vid


@pytest.mark.parametrize(
    "vid,tiles,options",
    [
        ("W01", "R13 R1 R2 R3", {}),  # TV-B06 stays invalid by default
        ("W03", "R11 R12 J* R1 R2", {}),  # straight it needs two wilds (J* and R2)
        # a wrapped run may not repeat a number: 5..13-1..4-5 holds two R5 ...
        ("W12", " ".join(run_of("R", 5, 13) + run_of("R", 1, 5)), WRAP),
        # ... nor both 1s (13-1-2 and another 1) ...
        ("W13", "R13 R1 R1 R2", WRAP),
        # ... nor 14 tiles: with ace_to_ace_run = forbidden no straight run takes 14 either, and
        # 5..13-1..4 + J* would need the J* to repeat 4 or 5
        ("W14", " ".join(run_of("R", 5, 13) + run_of("R", 1, 4)) + " J*", {**WRAP, "ace_to_ace_run": "forbidden"}),
        # a natural 1 at the corner needs both ace positions: TV-B06 under high_only / low_only
        ("W15", "R13 R1 R2 R3", {**WRAP, "ace_position": "high_only"}),
        ("W15", "R13 R1 R2 R3", {**WRAP, "ace_position": "low_only"}),
        # low_only: 12-13-1 has a high 1, 13-1-2 a corner 1: no reading
        ("W16", "R13 R1 R2", {**WRAP, "ace_position": "low_only"}),
        # twos_wild = false: B2 is a blue natural, not a wild: mixed colours
        ("W17", "R13 R1 B2", {**WRAP, "twos_wild": False}),
        # one wild only by default: 12-13-(1)-(2)-3 needs two
        ("W18", "R12 R13 J* B2 R3", WRAP),
    ],
)
def test_run_wrap_invalid(engine, vid, tiles, options):
    assert classify(engine, tiles, **options) is None, vid


def test_run_wrap_extension(engine):
    # W19: the wrapped run {R13, R1, R2} (pure) takes R3 (13-1-2-3, TV-B06) and R12 (12-13-1-2)
    # under run_wrap. By default the same meld is TV-B07's impure 12-13-1 (R2 the wild for 12): it
    # takes R12 (11-12-13-1, R2 the wild for 11) but not R3 (TV-B06).
    position = dict(racks=racks_of("R3 R12 K9"), melds=[[T("R13 R1 R2")], []], phase="meld")
    s = engine.Burako(players=4, **WRAP).setup(**position)
    assert s.view(0)["melds"][0][0]["pure"] is True
    assert EXTEND(0, "R3") in s.legal_actions() and EXTEND(0, "R12") in s.legal_actions()
    s.apply("extend 0 R3")
    assert s.view(0)["melds"][0][0] == meld_view("run", "R1 R2 R3 R13", pure=True, canasta=False)
    s = engine.Burako(players=4).setup(**position)
    assert s.view(0)["melds"][0][0]["pure"] is False
    assert EXTEND(0, "R12") in s.legal_actions()
    assert_illegal(s, EXTEND(0, "R3"))


def test_run_wrap_must_use_top_tile(engine):
    # W20: must_use_top_tile_now with twos_wild = false: the top R2 fits only the wrapped
    # 13-1-2 (straight, 1-2-3 would need an R3 and 12-13-1 leaves no room for a natural 2).
    options = dict(players=4, pozo_take_requirement="must_use_top_tile_now", twos_wild=False)
    position = dict(racks=racks_of("R13 R1 K9 B11 Y5"), pozo=T("R2"))
    assert engine.Burako(**options).setup(**position).legal_actions() == [DRAW]
    s = engine.Burako(**options, **WRAP).setup(**position)
    assert s.legal_actions() == [DRAW, TAKE_POZO]
    s.apply("take pozo")
    for a in ("add R1", "add R2", "add R13", "meld"):
        s.apply(a)
    assert s.view(0)["melds"][0][0] == meld_view("run", "R1 R2 R13", pure=True, canasta=False)


def _wrap_close(engine, **options):
    # Team A (seats 0, 2) holds its muerto and the meld R3 R4 R5; seat 0, after the draw, melds
    # K9 K10 K11 K12 K13 K1 K2 (h' = 1, legal: the team owns a canasta after it) and closes by
    # discarding Y5.
    s = _closing(engine, "K9 K10 K11 K12 K13 K1 K2 Y5", [T("R3 R4 R5")], **options)
    for t in ("K1", "K2", "K9", "K10", "K11", "K12", "K13"):
        s.apply("add " + t)
    s.apply("meld")
    assert not s.is_terminal()
    meld = s.view(0)["melds"][0][1]
    s.apply("discard Y5")
    assert s.is_terminal()
    return meld, doc(s)["hand_scores"]


def test_run_wrap_game_score(engine):
    # W21. With run_wrap the new meld is 9-10-11-12-13-1-2, a pure canasta (+200):
    # team A: M = R3 R4 R5 (15) + K9..K13 (50) + K1 (15) + K2 (20) = 100, C = 200, X = 100, U = 100,
    # R = seat 2's K4 = 5 -> 100 + 200 + 100 + 100 - 5 = 495; team B: no canasta, no melds,
    # U = -100, R = K3 + K6 = 10 -> -110.
    meld, scores = _wrap_close(engine, **WRAP)
    assert meld == meld_view("run", "K1 K2 K9 K10 K11 K12 K13", pure=True, canasta=True)
    assert scores == [[495, -110]]
    # natural_5_wild_20: the K2 is natural (5): M = 85 -> 480
    assert _wrap_close(engine, **WRAP, **N5)[1] == [[480, -110]]
    # by default the same tiles are 8..13-1 with K2 the wild for 8: an impure canasta (+100) -> 395
    meld, scores = _wrap_close(engine)
    assert meld["pure"] is False and meld["canasta"] is True
    assert scores == [[395, -110]]


def test_new_options_in_the_resolved_options(engine):
    # docs/burako_engine.md §2/§10: run_wrap (default false) is a key of every resolved options object
    game = engine.Burako(players=2)
    assert game.options["run_wrap"] is False and game.options["max_wilds_per_meld"] == 1
    assert doc(game.new_state(seed=1))["options"]["run_wrap"] is False
    game = engine.Burako(players=2, run_wrap=True, max_wilds_per_meld="unlimited")
    options = doc(game.new_state(seed=1))["options"]
    assert options["run_wrap"] is True and options["max_wilds_per_meld"] == "unlimited"
