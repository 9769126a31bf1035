"""Rules tests for Scopa with builds (``granja``, docs/rules/escoba.md §2.20): TV-74 and the engine rules [D] of
docs/rules/escoba.md §2.20, on both engines (fixture ``engine``), through the public API only.

Expected values come from TV-74 or from the hand calculation in each docstring; none was obtained
by running an engine. Card ids: id = 13*suit + (rank - 1), suits c=0 d=1 h=2 s=3, J=11 Q=12 K=13.
Action ids (docs/escoba_engine.md §4): PLAY(c) = c, TAKE(t) = 52 + t, DONE = 104, BUILD_ON(t) = 111 + t; a
build is named by its lowest card.
"""

from __future__ import annotations

import json

import pytest
from cardlib import PACK40, cid, rest_of

DONE = 104


def build_on(card: str) -> int:
    return 111 + cid(card)


def state_json(state) -> dict:
    return json.loads(state.to_json())


def test_granja_preset_options(engine):
    """docs/rules/escoba.md §2.20 deltas: builds on, no primiera, 2d worth 1 point; 2 or 4 players."""
    o = engine.Escoba(variant="granja").options
    assert o["builds"] is True and o["build_only_if_no_capture"] is False
    assert o["primiera_mode"] == "none" and o["special_cards"] == {"2d": 1}
    assert engine.Escoba(variant="granja", players=4).num_players == 4
    from tapete.errors import InvalidOptionError

    with pytest.raises(InvalidOptionError):
        engine.Escoba(variant="granja", players=3)
    with pytest.raises(InvalidOptionError):  # builds add plain values (docs/escoba_engine.md §2)
        engine.Escoba(variant="granja", value_modulus=7)


def test_tv74_build_needs_a_card_of_the_total(engine):
    """TV-74: T 3h 5s; holding 2d 5c, 2d onto 3h is a build of 5 (5c is still held); 2d cannot
    capture (no 2, no two cards summing to 2), so it may also trail. 2d onto 5s would make 7, and
    no 7 is held. Without a 5 in hand the build is illegal: only the trail is left."""
    co = engine.escoba.capture_options
    assert co("2d", ["3h", "5s"], hand=["5c"], variant="granja") == [[], ["on", "3h"]]
    assert co("2d", ["3h", "5s"], hand=["Kc"], variant="granja") == [[]]
    assert co("2d", ["3h", "5s"], variant="granja") == [[]]


def test_tv74_build_move_step_protocol(engine):
    """TV-74 in play: PLAY(2d) has two outcomes (trail, build on 3h), so it waits for DONE or
    BUILD_ON(3h); BUILD_ON resolves at once. The build (2d 3h, value 5) is public; the table keeps
    5s; the turn passes."""
    g = engine.Escoba(variant="granja")
    s = g.setup(hands=[["2d", "5c"], ["Jc", "Qc"]], table=["3h", "5s"], dealer=1)
    s.apply(cid("2d"))
    assert s.legal_actions() == [DONE, build_on("3h")]
    assert s.action_to_string(build_on("3h")) == "build on 3h"
    s.apply(build_on("3h"))
    for p in range(2):
        v = s.view(p)
        assert v["builds"] == [{"cards": ["2d", "3h"], "value": 5}]
        assert v["table"] == ["5s"]
    assert state_json(s)["builds"] == [[cid("2d"), cid("3h")]]
    assert s.current_player() == 1
    # the same move written for people
    t = g.setup(hands=[["2d", "5c"], ["Jc", "Qc"]], table=["3h", "5s"], dealer=1)
    t.play("2d on 3h")
    assert t.to_json() == s.to_json()


def test_tv74_illegal_build_leaves_the_state_unchanged(engine):
    """TV-74: with no 5 held, '2d on 3h' is illegal; '2d on 5s' (7) is illegal with 5c held."""
    from tapete.errors import IllegalActionError

    g = engine.Escoba(variant="granja")
    s = g.setup(hands=[["2d", "Kc"], ["Jc", "Qc"]], table=["3h", "5s"], dealer=1)
    before = s.to_json()
    with pytest.raises(IllegalActionError):
        s.play("2d on 3h")
    assert s.to_json() == before
    s = g.setup(hands=[["2d", "5c"], ["Jc", "Qc"]], table=["3h", "5s"], dealer=1)
    before = s.to_json()
    with pytest.raises(IllegalActionError):
        s.play("2d on 5s")
    s.apply(cid("2d"))
    pending = s.to_json()
    with pytest.raises(IllegalActionError):
        s.apply(build_on("5s"))
    assert s.to_json() == pending != before


def test_tv74_a_five_takes_the_build_and_the_five_together(engine):
    """TV-74: T 5s + build(2d 3h = 5): a 5 takes only {5s, build} (named 2d, 5s), never 5s alone,
    and never a sum. With nothing else on the table it is a scopa: pile 5c 2d 3h 5s, scope 1.
    Hand 5c Jc: 5c onto 5s or onto the build would make 10, and no 10 is held, so the capture is
    the only outcome and PLAY(5c) resolves at once."""
    co = engine.escoba.capture_options
    assert co("5c", ["5s"], table_builds=[["2d", "3h"]], variant="granja") == [["2d", "5s"]]
    g = engine.Escoba(variant="granja")
    s = g.setup(hands=[["5c", "Jc"], ["Jh", "Qh"]], table=["5s"], builds=[["3h", "2d"]], dealer=1)
    s.apply(cid("5c"))
    v = s.view(0)
    assert v["piles"][0] == ["5c", "2d", "3h", "5s"]
    assert v["table"] == [] and v["builds"] == [] and v["scope"] == [1, 0]
    assert v["last_capturer"] == 0


def test_build_capture_takes_every_item_of_its_value(engine):
    """docs/rules/escoba.md §2.20: capturing a build captures every other item of its value, cards and builds, as one
    outcome. T 5s 4d, builds Ac 4c (5) and 2d 3h (5); P 5h -> the items of value 5: Ac (name),
    2d (name), 5s; 4d stays. A build of another value (2c 6c = 8) is not taken."""
    co = engine.escoba.capture_options
    out = co("5h", ["5s", "4d"], table_builds=[["Ac", "4c"], ["2d", "3h"], ["2c", "6c"]], variant="granja")
    assert out == [["Ac", "2d", "5s"]]


def test_build_is_never_part_of_a_sum(engine):
    """docs/rules/escoba.md §2.20: a build cannot be split or used in sums. T 4h + build(2d 3h = 5); P Qc (9): 4 + 5 = 9
    would need the build in a sum, so Qc cannot capture and trails. P Kc (10) likewise."""
    co = engine.escoba.capture_options
    assert co("Qc", ["4h"], table_builds=[["2d", "3h"]], variant="granja") == [[]]
    assert co("Kc", ["4h"], table_builds=[["2d", "3h"]], variant="granja") == [[]]


def test_increasing_a_build_renames_it_by_its_lowest_card(engine):
    """docs/rules/escoba.md §2.20: a build may be increased by a card if the new total is held. Build 2d 3h (5), hand
    Ac 6c: Ac onto the build makes 6 (6c held); Ac cannot capture (no Ace on the table), so it may
    trail too. The new build Ac 2d 3h is named Ac (id 0 < 14)."""
    co = engine.escoba.capture_options
    assert co("Ac", [], table_builds=[["2d", "3h"]], hand=["6c"], variant="granja") == [[], ["on", "2d"]]
    g = engine.Escoba(variant="granja")
    s = g.setup(hands=[["Ac", "6c"], ["Jh", "Qh"]], builds=[["2d", "3h"]], dealer=1)
    s.play("Ac on 2d")
    assert s.view(1)["builds"] == [{"cards": ["Ac", "2d", "3h"], "value": 6}]
    assert state_json(s)["builds"] == [[cid("Ac"), cid("2d"), cid("3h")]]


def test_build_only_if_no_capture(engine):
    """Option build_only_if_no_capture (docs/rules/escoba.md §2.20): a card that can capture may not build. T 3h 5s,
    hand 5c Kc: 5c takes 5s; building 5c on 5s (10, Kc held) is allowed by default only."""
    co = engine.escoba.capture_options
    assert co("5c", ["3h", "5s"], hand=["Kc"], variant="granja") == [["5s"], ["on", "5s"]]
    assert co("5c", ["3h", "5s"], hand=["Kc"], variant="granja", build_only_if_no_capture=True) == [["5s"]]


def test_builds_left_at_the_end_go_to_the_last_capturer(engine):
    """docs/rules/escoba.md §2.20: builds left at the end go to the last capturer. Last play of the deal: seat 1 holds
    Kc, T Jh + build 2d 3h; Kc cannot capture (no King, a build is no sum item) or build (> 10), so
    it trails; the deal ends and side 0 (last capturer) takes Jh Kc 2d 3h."""
    pile0 = rest_of(["Kc", "Jh", "2d", "3h"])
    g = engine.Escoba(variant="granja", max_deals=1)
    s = g.setup(
        hands=[[], ["Kc"]], table=["Jh"], builds=[["2d", "3h"]], piles=[pile0, []], dealer=1, to_move=1, last_capturer=0
    )
    s.apply(cid("Kc"))
    assert s.is_terminal()
    assert set(s.view(0)["piles"][0]) == set(PACK40)


def test_granja_scoring_no_primiera_2d_one_point(engine):
    """docs/rules/escoba.md §2.20 scoring: no primiera, 2d worth 1. A = every c and d card plus Ah (21 cards): cards 1,
    coins 1 (10 of 10), settebello 1, 2d 1, primiera none -> 4, plus 1 sweep -> 5. B (19 cards)
    -> 0, plus 2 sweeps -> 2."""
    a = [c for c in PACK40 if c[1] in "cd"] + ["Ah"]
    b = rest_of(a)
    assert engine.escoba.score_deal([a, b], [1, 2], variant="granja") == [5, 2]


def test_builds_in_the_observation(engine):
    """docs/escoba_engine.md §10: with builds the observation ends with 40 slots (k = 10*suit + r) holding the
    value of the build each card is in. Build 2d 3h (5): slots 11 (2d) and 22 (3h) are 5."""
    g = engine.Escoba(variant="granja")
    s = g.setup(hands=[["5c", "Jc"], ["Jh", "Qh"]], table=["5s"], builds=[["2d", "3h"]], dealer=1)
    obs = s.observation(0)
    assert len(obs) == g.observation_shape[0] == 161 + 42 * 2 + 4 * 2 + 40
    tail = list(obs[-40:])
    assert tail[11] == 5.0 and tail[22] == 5.0 and sum(tail) == 10.0


def test_builds_json_round_trip_and_checks(engine):
    """docs/escoba_engine.md §8: builds round-trip; a one-card build or one worth more than 10 is refused."""
    from tapete.errors import InvalidStateError

    g = engine.Escoba(variant="granja")
    s = g.setup(hands=[["5c", "Jc"], ["Jh", "Qh"]], table=["5s"], builds=[["2d", "3h"]], dealer=1)
    text = s.to_json()
    assert g.state_from_json(text).to_json() == text
    doc = json.loads(text)
    doc["builds"] = [[cid("2d")]]
    doc["table"] = sorted(doc["table"] + [cid("3h")])
    with pytest.raises(InvalidStateError):
        g.state_from_json(json.dumps(doc))
    with pytest.raises(InvalidStateError):
        g.setup(hands=[["5c", "Jc"], ["Jh", "Qh"]], builds=[["Kd", "Ah"]], dealer=1)
    with pytest.raises(InvalidStateError):  # builds need the option
        engine.Escoba().setup(hands=[["5c", "Jc"], ["Jh", "Qh"]], builds=[["2d", "3h"]], dealer=1)
