"""Rules tests for Rubamazzo (docs/rules/escoba.md §2.21) and Rubamazzo a somma (docs/rules/escoba.md §2.22):
TV-71..TV-73 and the pile options, on both engines (fixture ``engine``), through the public API only.

Every expected value comes from the rules file (docs/rules/escoba.md §3.11, §2.21, §2.22, §6.2) or from the hand
calculation in the comment beside it; none was obtained by running an engine.

Card ids (docs/design.md §4): id = 13*suit + (rank - 1), suits c=0 d=1 h=2 s=3, J=11 Q=12 K=13.
Action ids (docs/rules/escoba.md §6.2): PLAY(c) = c, TAKE(t) = 52 + t, DONE = 104, TAKE_PILE(seat) = 105 + seat.
"""

from __future__ import annotations

import json

import pytest
from cardlib import cid, rest_of

DONE = 104


def TAKE(card: str) -> int:
    return 52 + cid(card)


def TAKE_PILE(seat: int) -> int:
    return 105 + seat


def outcome_set(*outcomes) -> set[frozenset]:
    """Expected outcomes, each a space-separated item list ('' = the trail, 'pile1' = a pile)."""
    return {frozenset(o.split()) for o in outcomes}


def caps(engine, card, table, pile_tops=None, seat=0, **options) -> set[frozenset]:
    result = engine.escoba.capture_options(card, table, pile_tops=pile_tops, seat=seat, **options)
    sets = {frozenset(o) for o in result}
    assert len(sets) == len(result), f"duplicate outcomes in {result}"
    return sets


def tv71_state(engine, **options):
    """TV-71 as a position: seat 0 to move with 6d (and Kc), table 6h 2s, seat 1's pile topped by
    6c. Seat 1 holds Ac Ad (hand sizes of a round: dealer 1, seat 0 first). The rest of the pack
    is in the stock."""
    return engine.Escoba(variant="rubamazzo", **options).setup(
        hands=[["6d", "Kc"], ["Ac", "Ad"]],
        table=["6h", "2s"],
        piles=[[], ["6c", "5c"]],
        pile_tops=[None, "6c"],
        dealer=1,
        to_move=0,
    )


# --------------------------------------------------------------------------------------------------
# TV-71..TV-73


def test_tv71_match_or_steal(engine):
    """TV-71: T 6h 2s, the opponent's top 6c, P 6d -> {6h} or steal the opponent's pile."""
    assert caps(engine, "6d", ["6h", "2s"], [None, "6c"], variant="rubamazzo") == outcome_set("6h", "pile1")


def test_tv71_steal_puts_the_played_card_on_top(engine):
    """TV-71: after a steal 6d is the new top of the taker's pile; the whole pile moved (docs/rules/escoba.md §2.21).
    Protocol (docs/rules/escoba.md §6.2): PLAY(6d) has two outcomes, so TAKE(6h) and TAKE_PILE(1) are offered; no
    DONE (a trail is not legal: 6d can capture)."""
    s = tv71_state(engine)
    s.apply(cid("6d"))
    assert s.legal_actions() == [TAKE("6h"), TAKE_PILE(1)]
    assert s.action_to_string(TAKE_PILE(1)) == "take pile 1"
    s.apply(TAKE_PILE(1))
    v = s.view(1)
    assert v["piles"] == [["5c", "6c", "6d"], []]  # ascending id: 5c=4, 6c=5, 6d=18
    assert v["pile_tops"] == ["6d", None]
    assert v["table"] == ["6h", "2s"]
    assert v["current_player"] == 1 and v["last_capturer"] == 0


def test_tv71_full_move_notation(engine):
    """docs/rules/escoba.md §6.2: `6d x pile1` is the steal as one move; the own pile (pile0) is no item."""
    from tapete.errors import IllegalActionError

    s = tv71_state(engine)
    before = s.to_json()
    with pytest.raises(IllegalActionError):
        s.play("6d x pile0")
    assert s.to_json() == before
    s.play("6d x pile1")
    assert s.view(0)["pile_tops"] == ["6d", None]
    t = tv71_state(engine)
    t.play("6d x 6h")
    assert t.view(0)["pile_tops"] == ["6d", "6c"] and t.view(0)["piles"] == [["6d", "6h"], ["5c", "6c"]]


def test_tv72_plain_match_only_and_somma_sum(engine):
    """TV-72: T 4h 3s, P 7d: plain rubamazzo -> none (trail); rubamazzo a somma -> {4h, 3s}."""
    assert caps(engine, "7d", ["4h", "3s"], [None, None], variant="rubamazzo") == outcome_set("")
    assert caps(engine, "7d", ["4h", "3s"], [None, None], variant="rubamazzo_somma") == outcome_set("4h 3s")


def test_tv73_sum_takes_a_pile(engine):
    """TV-73: T 3s 2d, the opponent's top 4h, P Qc (9) -> 3s, 2d and the whole pile (3+2+4 = 9).
    It is the only outcome (3+2, 3+4, 2+4 are not 9; no 9 to match), so PLAY(Qc) resolves at once
    and Qc goes on top of the taker's pile."""
    assert caps(engine, "Qc", ["3s", "2d"], [None, "4h"], variant="rubamazzo_somma") == outcome_set("2d 3s pile1")
    s = engine.Escoba(variant="rubamazzo_somma").setup(
        hands=[["Qc", "Kc"], ["Ac", "Ad"]],
        table=["3s", "2d"],
        piles=[[], ["4h", "5c"]],
        pile_tops=[None, "4h"],
        dealer=1,
        to_move=0,
    )
    s.apply(cid("Qc"))
    v = s.view(0)
    assert v["piles"] == [["5c", "Qc", "2d", "4h", "3s"], []]
    assert v["pile_tops"] == ["Qc", None] and v["table"] == [] and v["current_player"] == 1


def test_tv73_seen_from_the_other_seat(engine):
    """TV-73 with the seats swapped: seat 1 to play, seat 0's pile topped by 4h -> pile0."""
    assert caps(engine, "Qc", ["3s", "2d"], ["4h", None], seat=1, variant="rubamazzo_somma") == outcome_set(
        "2d 3s pile0"
    )


# --------------------------------------------------------------------------------------------------
# Options of docs/rules/escoba.md §2.21 / §2.22


def test_own_pile_cannot_be_stolen(engine):
    """docs/rules/escoba.md §2.21: only an opponent's pile: with the 6c top on the mover's own pile, only {6h}."""
    assert caps(engine, "6d", ["6h", "2s"], ["6c", None], variant="rubamazzo") == outcome_set("6h")


def test_table_match_first(engine):
    """docs/rules/escoba.md §2.21 option table_match_first [X 38]: no steal with a value also on the table."""
    assert caps(engine, "6d", ["6h", "2s"], [None, "6c"], variant="rubamazzo", table_match_first=True) == outcome_set(
        "6h"
    )
    # no 6 on the table: the steal stays
    assert caps(engine, "6d", ["5h", "2s"], [None, "6c"], variant="rubamazzo", table_match_first=True) == outcome_set(
        "pile1"
    )


def test_steal_and_table(engine):
    """docs/rules/escoba.md §2.21 option steal_and_table (default false: a move is a table capture or a steal, never
    both); true adds the table match together with the steal."""
    opts = dict(variant="rubamazzo", steal_and_table=True)
    assert caps(engine, "6d", ["6h", "2s"], [None, "6c"], **opts) == outcome_set("6h", "pile1", "6h pile1")


def test_pile_in_sums_off(engine):
    """docs/rules/escoba.md §2.22 option pile_in_sums=false keeps piles out of sums: TV-73's Qc then takes nothing."""
    assert caps(engine, "Qc", ["3s", "2d"], [None, "4h"], variant="rubamazzo_somma", pile_in_sums=False) == outcome_set(
        ""
    )


def test_steal_is_a_match_for_match_priority(engine):
    """docs/rules/escoba.md §2.22 (match_priority=true, a pile is an item worth its top): T 2d 3s, top 5c, P 5h. The
    steal matches, so the sum 2+3 is barred; without match priority both are legal."""
    assert caps(engine, "5h", ["2d", "3s"], [None, "5c"], variant="rubamazzo_somma") == outcome_set("pile1")
    assert caps(
        engine, "5h", ["2d", "3s"], [None, "5c"], variant="rubamazzo_somma", match_priority=False
    ) == outcome_set("pile1", "2d 3s")


def test_ace_steals_all(engine):
    """docs/rules/escoba.md §2.21 option ace_steals_all [X 6]: an Ace takes the table or the next opponent's pile.
    3 players, seat 0 to play: the next opponent is seat 1 (top 6c), not seat 2 (top 5c)."""
    opts = dict(variant="rubamazzo", players=3, ace_steals_all=True)
    assert caps(engine, "Ad", ["6h", "2s"], [None, "6c", "5c"], **opts) == outcome_set("6h 2s", "pile1")
    assert caps(engine, "Ad", ["6h", "2s"], [None, "6c", "5c"], variant="rubamazzo", players=3) == outcome_set("")
    # seat 2's next seat is seat 0
    assert caps(engine, "Ad", [], ["7c", "6c", None], seat=2, **opts) == outcome_set("pile0")


def test_team_pile_is_named_by_its_lowest_seat(engine):
    """docs/rules/escoba.md §2.21: with partnership=auto a side has one pile, named by its lowest seat: TAKE_PILE(1) for
    side {1, 3}; TAKE_PILE(3) is never legal."""
    opts = dict(variant="rubamazzo", players=4, partnership="auto")
    assert caps(engine, "6d", ["2s"], [None, "6c"], seat=2, **opts) == outcome_set("pile1")
    s = engine.Escoba(**opts).setup(
        hands=[["6d", "Kc"], ["Ac", "Ad"], ["Ah", "As"], ["2c", "2d"]],
        table=["6h", "2s"],
        piles=[[], ["6c", "5c"]],
        pile_tops=[None, "6c"],
        dealer=3,
        to_move=0,
    )
    s.apply(cid("6d"))
    assert s.legal_actions() == [TAKE("6h"), TAKE_PILE(1)]
    from tapete.errors import IllegalActionError

    with pytest.raises(IllegalActionError):
        s.apply(TAKE_PILE(3))


def _kc_takes_kh_last(engine, pile0_size):
    """Rubamazzo's last play of the deal: seat 0's pile holds ``pile0_size`` cards, seat 1's the
    rest but Kh (on the table) and Kc (its hand); seat 1's Kc takes Kh. The state after, and
    seat 1's pile before."""
    pile0 = rest_of(["Kh", "Kc"])[:pile0_size]
    pile1 = rest_of(pile0, ["Kh", "Kc"])
    s = engine.Escoba(variant="rubamazzo").setup(
        hands=[[], ["Kc"]],
        table=["Kh"],
        piles=[pile0, pile1],
        pile_tops=[pile0[0], pile1[0]],
        dealer=1,
        to_move=1,
    )
    s.apply(cid("Kc"))
    return s, pile1


def test_single_deal_most_cards_wins(engine):
    """docs/rules/escoba.md §2.21: one deal; the strict most cards wins. Last play: seat 1's Kc takes Kh. Piles 21/17 ->
    21/19: seat 0 wins (cards 1 - 0; no coins, settebello, primiera or scope)."""
    s, pile1 = _kc_takes_kh_last(engine, 21)
    assert len(pile1) == 17
    assert s.is_terminal()
    assert s.view(0)["winner"] == 0 and s.view(0)["deal_points"] == [[1, 0]]
    assert list(s.returns()) == [1.0, -1.0]


def test_single_deal_tie_plays_another_deal(engine):
    """docs/rules/escoba.md §2.21 [X 39]: a tie for the most cards is replayed. Piles 20/18, Kc takes Kh -> 20/20: no
    point to anyone, deal 2 begins, which decides alone."""
    s, _ = _kc_takes_kh_last(engine, 20)
    v = s.view(0)
    assert not s.is_terminal() and v["deal"] == 2 and v["deal_points"] == [[0, 0]]
    assert v["pile_tops"] == [None, None] and v["piles"] == [[], []]


def test_presets(engine):
    """docs/rules/escoba.md §2.21/§2.22 deltas (docs/escoba_engine.md §2)."""
    o = engine.Escoba(variant="rubamazzo").options
    assert o["capture_kinds"] == ["match"] and o["steal"] and not o["pile_in_sums"]
    assert (o["scopa_value"], o["cards"], o["coins"], o["settebello"]) == (0, 1, 0, 0)
    assert o["primiera_mode"] == "none" and o["game"] == "single_deal" and o["partnership"] == "none"
    assert not (o["table_match_first"] or o["steal_and_table"] or o["ace_steals_all"])
    o = engine.Escoba(variant="rubamazzo_somma").options
    assert o["capture_kinds"] == ["match", "sum"] and o["match_priority"] and o["pile_in_sums"]
    assert not engine.Escoba().options["steal"]


@pytest.mark.parametrize(
    "options",
    [
        {"capture_kinds": ["match", "sum15"]},
        {"value_modulus": 7},
        {"fewest_cards": "all"},
        {"ace_takes_all": True},
        {"initial_table_bonus": "sum15_30"},
    ],
)
def test_options_that_cannot_combine_with_steal(engine, options):
    from tapete.errors import InvalidOptionError

    with pytest.raises(InvalidOptionError):
        engine.Escoba(variant="rubamazzo", **options)
    with pytest.raises(InvalidOptionError):
        engine.Escoba(steal=True, **options, **({} if "capture_kinds" in options else {"capture_kinds": ["match"]}))


# --------------------------------------------------------------------------------------------------
# State JSON, setup and errors (docs/escoba_engine.md §8, §9)


def test_json_round_trip_keeps_pile_tops(engine):
    s = tv71_state(engine)
    s.apply(cid("6d"))  # pending, a choice between 6h and pile1
    doc = json.loads(s.to_json())
    assert doc["pile_tops"] == [-1, cid("6c")]
    g = engine.Escoba(variant="rubamazzo")
    t = g.state_from_json(s.to_json())
    assert t.to_json() == s.to_json()
    t.apply(TAKE_PILE(1))
    assert json.loads(t.to_json())["pile_tops"] == [cid("6d"), -1]
    assert "pile_tops" not in json.loads(engine.Escoba().new_state(seed=1).to_json())


@pytest.mark.parametrize(
    "tops,ok",
    [
        ([-1, cid("5c")], True),  # 5c is a card of pile 1: fine
        ([-1, cid("6h")], False),  # not a card of pile 1
        ([-1, -1], False),  # a non-empty pile without a top
        ([cid("6c"), -1], False),  # a top for the empty pile 0
        ([-1], False),  # one entry per side
        (None, False),  # the key is required with steal
    ],
)
def test_state_from_json_checks_pile_tops(engine, tops, ok):
    from tapete.errors import InvalidStateError

    g = engine.Escoba(variant="rubamazzo")
    doc = json.loads(tv71_state(engine).to_json())
    if tops is None:
        del doc["pile_tops"]
    else:
        doc["pile_tops"] = tops
    text = json.dumps(doc, sort_keys=True, separators=(",", ":"))
    if ok:
        assert json.loads(g.state_from_json(text).to_json())["pile_tops"] == tops
        return
    with pytest.raises(InvalidStateError):
        g.state_from_json(text)


def test_setup_needs_the_tops_of_nonempty_piles(engine):
    from tapete.errors import InvalidStateError

    g = engine.Escoba(variant="rubamazzo")
    with pytest.raises(InvalidStateError):
        g.setup(hands=[["6d"], ["Ac"]], table=["6h"], piles=[[], ["6c"]], dealer=1, to_move=0)
    with pytest.raises(InvalidStateError):
        g.setup(hands=[["6d"], ["Ac"]], table=["6h"], piles=[[], ["6c"]], pile_tops=[None, "5c"], dealer=1, to_move=0)
    with pytest.raises(InvalidStateError):  # pile_tops is only kept with steal
        engine.Escoba().setup(hands=[["6d"], ["Ac"]], piles=[[], ["6c"]], pile_tops=[None, "6c"], dealer=1, to_move=0)


def test_capture_options_argument_errors(engine):
    from tapete.errors import InvalidPlayerError, InvalidStateError

    co = engine.escoba.capture_options
    with pytest.raises(InvalidStateError):  # one entry per side
        co("6d", ["6h"], pile_tops=[None], variant="rubamazzo")
    with pytest.raises(InvalidStateError):  # a top that is also on the table
        co("6d", ["6h"], pile_tops=[None, "6h"], variant="rubamazzo")
    with pytest.raises(InvalidPlayerError):
        co("6d", ["6h"], pile_tops=[None, "6c"], seat=2, variant="rubamazzo")


def test_observation_shows_pile_tops(engine):
    """docs/escoba_engine.md §10 with steal: 40 slots per side for the pile top, then one per side for a pile
    selected. TV-71 after the steal: side 0's top 6d (slot 10*1 + 5 = 15)."""
    g = engine.Escoba(variant="rubamazzo")
    S, n = 2, 2
    assert tuple(g.observation_shape) == (161 + 42 * S + 4 * n + 41 * S,)
    s = tv71_state(engine)
    s.play("6d x pile1")
    obs = list(s.observation(1))
    base = 161 + 41 * S + 4 * n + S
    assert [i - base for i in range(base, len(obs)) if obs[i]] == [15]
