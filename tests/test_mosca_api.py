"""Generic invariants of the Mosca engines (docs/design.md §7.3), on both engines through the public API.

The bulk sweep of >= 2,000 playouts per player count runs natively in
``rust/tapete-core/tests/mosca_playouts.rs``; here every check goes through Python on fewer games,
so that the reference engine is held to the same invariants: legal actions and mask, clone and
copy independence, the JSON round trip, conservation of cards and chips, notation round trips for
every id, game strings, history.
"""

from __future__ import annotations

import copy
import json
import os
import random

import numpy as np
import pytest

from tapete.errors import IllegalActionError, InvalidNotationError

CONFIGS = [
    ({"players": 3}, "p3"),
    ({"players": 4}, "p4"),
    ({"players": 5}, "p5"),
    ({"players": 6}, "p6"),
    (
        {
            "players": 4,
            "exchange_limit": "reshuffle_discards_when_empty",
            "mosca_after_exchange": True,
            "lone_player": "must_play_tricks",
            "match_deals": 4,
        },
        "reshuffle",
    ),
    (
        {
            "players": 3,
            "bankruptcy": "eliminate_at_zero",
            "initial_chips": 4,
            "match_deals": 12,
            "leftover_pot": "split_equally_among_all",
        },
        "bankrupt",
    ),
    (
        {
            "players": 5,
            "pot_award": "per_trick",
            "no_trick_penalty": "pot",
            "ante": "dealer_pays_5",
            "must_head": False,
            "must_overtrump": False,
            "match_deals": 4,
        },
        "per-trick",
    ),
]

GAMES = {
    "native": int(os.environ.get("TAPETE_API_GAMES", "12")),
    "reference": int(os.environ.get("TAPETE_API_GAMES_REF", "3")),
}

# The deck of D cards (docs/mosca_engine.md §1): K Q J A T 9 8 7, then 6s, 5s, 4s, 3s, 2s.
_RANK_ORDER = [12, 11, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2, 1]  # rank - 1


def deck_ids(size: int) -> set[int]:
    ranks = _RANK_ORDER[: 8 + (size - 32) // 4]
    return {13 * s + r for s in range(4) for r in ranks}


def cards_in_play(doc: dict) -> list[int]:
    cards = [c for hand in doc["hands"] for c in hand] + doc["talon"] + doc["discard_pile"] + doc["played"]
    if not doc["turnup_taken"]:
        cards.append(doc["turnup"])
    if doc["turnup_discard"] >= 0:
        cards.append(doc["turnup_discard"])
    return cards


def check_step(game, state, rng: random.Random, total: int) -> None:
    doc = json.loads(state.to_json())
    cards = cards_in_play(doc)
    assert sorted(cards) == sorted(deck_ids(game.options["deck"])), "every card of the deck exactly once"
    assert sum(doc["balances"]) + doc["pot"] == total, "chips are conserved"
    assert state.scores() == doc["balances"]
    assert game.state_from_json(state.to_json()).to_json() == state.to_json()
    legal = state.legal_actions()
    mask = state.legal_mask()
    assert mask.dtype == np.bool_ and mask.shape == (91,)
    assert list(np.flatnonzero(mask)) == legal
    if state.is_terminal():
        assert legal == [] and state.current_player() == -1
        return
    assert legal and legal == sorted(set(legal))
    assert 0 <= state.current_player() < game.num_players
    assert all(r == 0 for r in state.returns())
    before = state.to_json()
    for action in rng.sample(legal, min(3, len(legal))):
        child = state.clone()
        child.apply(action)
        assert state.to_json() == before
        assert child.history() == state.history() + [action]
    illegal = [a for a in range(91) if a not in set(legal)]
    for action in rng.sample(illegal, 2):
        with pytest.raises(IllegalActionError):
            state.apply(action)
        assert state.to_json() == before
    with pytest.raises(InvalidNotationError):
        state.apply("xyzzy")
    assert state.to_json() == before


@pytest.mark.parametrize("options", [c[0] for c in CONFIGS], ids=[c[1] for c in CONFIGS])
def test_random_playouts_keep_the_invariants(engine, options):
    game = engine.Mosca(**options)
    rng = random.Random(json.dumps(options, sort_keys=True))
    total = game.num_players * game.options["initial_chips"]
    for _ in range(GAMES[engine.name]):
        state = game.new_state(seed=rng.randrange(2**64))
        for _ in range(20_000):
            check_step(game, state, rng, total)
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        else:
            pytest.fail("a match did not end within 20,000 actions")
        doc = json.loads(state.to_json())
        returns = state.returns()
        assert abs(sum(returns)) < 1e-9
        # docs/rules/mosca.md §6: net chip change plus an equal share of the pot
        n = game.num_players
        expected = [float(b - game.options["initial_chips"]) + doc["pot"] / n for b in doc["balances"]]
        assert returns == expected


def test_same_seed_same_game_and_seeds_differ(engine):
    game = engine.Mosca(players=4)
    a, b, c = game.new_state(seed=11), game.new_state(seed=11), game.new_state(seed=12)
    assert a.to_json() == b.to_json()
    assert a.to_json() != c.to_json()
    rng = random.Random(5)
    while not a.is_terminal():
        action = rng.choice(a.legal_actions())
        a.apply(action)
        b.apply(action)
        assert a.to_json() == b.to_json()


def test_clone_copy_and_deepcopy_are_independent(engine):
    state = engine.Mosca(players=4).new_state(seed=3)
    for clone in (state.clone(), copy.copy(state), copy.deepcopy(state)):
        assert clone.to_json() == state.to_json()
        clone.apply(clone.legal_actions()[-1])
        assert clone.to_json() != state.to_json()
        assert state.history() == []


def _declaring_state(engine):
    # TV-M09's hand for seat 1 (the mano with dealer 0): AC 9D TD 7H KS in slots 0..4
    game = engine.Mosca(players=3)
    return game.setup(
        hands=[["Kc", "Qc", "Jd", "9h", "Js"], ["Ks", "7h", "Ac", "9d", "Td"], ["Jc", "Tc", "Th", "Qs", "9s"]],
        turnup="Qd",
        dealer=0,
    )


def test_action_notation_round_trips_for_every_id_in_every_phase(engine):
    state = _declaring_state(engine)
    seen_phases = set()
    rng = random.Random(1)
    while not state.is_terminal() and len(seen_phases) < 3:
        phase = state.view(0)["phase"]
        seen_phases.add(phase)
        for action in range(91):
            text = state.action_to_string(action)
            assert state.string_to_action(text) == action
            assert state.string_to_action(text.upper()) == action
        legal = state.legal_actions()
        # go through declare (everyone plays), the turn-up step, then tricks
        state.apply(53 if 53 in legal else (90 if 90 in legal else rng.choice(legal)))
    assert seen_phases == {"declare", "turnup", "trick"}


def test_notation_forms(engine):
    state = _declaring_state(engine)
    # TV-M09: id 72 is mask 19 = slots 0, 1, 4 = AC 9D KS; 53 is stand
    assert state.action_to_string(72) == "play x Ac 9d Ks"
    assert state.action_to_string(53) == "play"
    assert state.action_to_string(52) == "pass"
    assert state.action_to_string(90) == "leave turnup"
    assert state.action_to_string(50) == "Qs"
    assert state.string_to_action("PLAY X ks ac 9D") == 72
    assert state.string_to_action("play slots 4 0 1") == 72
    assert state.action_to_string(86) == "take turnup slot 1"  # no turn-up step now


def test_apply_accepts_notation(engine):
    game = engine.Mosca(players=4)
    a, b = game.new_state(seed=9), game.new_state(seed=9)
    while not a.is_terminal():
        action = a.legal_actions()[-1]
        a.apply(action)
        b.apply(b.action_to_string(action))
    assert a.to_json() == b.to_json()
    assert a.history() == b.history()


@pytest.mark.parametrize(
    "text",
    [
        "mosca()",
        "mosca",
        "mosca(players=5)",
        "mosca(players=3,deck=52,ace_rank=high)",
        "mosca(ante=dealer_pays_N,deal_packets=3_then_2,no_trick_penalty=pot)",
        "mosca(first_dealer=2,exchange_limit=max_3,must_head=false,match_deals=3)",
        "mosca(players=6,bankruptcy=eliminate_at_zero,initial_chips=-5,leftover_pot=split_equally_among_all)",
    ],
)
def test_game_strings_round_trip(engine, text):
    import tapete
    from tapete._gamestring import parse_game

    game = parse_game(text, {"mosca": engine.Mosca})
    again = parse_game(str(game), {"mosca": engine.Mosca})
    assert again.options == game.options
    assert str(again) == str(game)
    if engine.name == "native":
        assert tapete.load(text).options == game.options


def test_game_string_prints_only_what_differs(engine):
    assert str(engine.Mosca()) == "mosca()"
    assert str(engine.Mosca(players=5, deck="auto")) == "mosca(players=5)"
    assert str(engine.Mosca(players=3, match_deals=6, must_trump=False)) == "mosca(players=3,must_trump=false)"


def test_game_attributes_and_resolved_options(engine):
    game = engine.Mosca(players=4)
    assert game.name == "mosca"
    assert game.num_players == 4
    assert game.num_distinct_actions == 91
    # docs/rules/mosca.md §8: 216 + 60 N = 456 for N = 4
    assert tuple(game.observation_shape) == (456,)
    obs = game.new_state(seed=0).observation(0)
    assert obs.dtype == np.float32 and obs.shape == (456,)
    # TV-M01 and docs/rules/mosca.md §6: deck auto and match_deals 2N resolve to ints
    for n, deck in ((2, 32), (3, 32), (4, 36), (5, 44), (6, 52)):
        options = engine.Mosca(players=n).options
        assert options["deck"] == deck and options["match_deals"] == 2 * n
    assert engine.Mosca(players=6, deck=32).options["deck"] == 32
    assert set(game.options) == {
        "ace_rank",
        "ante",
        "bankruptcy",
        "deal_packets",
        "dealer_may_take_turnup",
        "deck",
        "exchange_limit",
        "first_dealer",
        "initial_chips",
        "leftover_pot",
        "lone_player",
        "match_deals",
        "mosca_after_exchange",
        "mosca_bonus",
        "mosca_tie",
        "must_head",
        "must_overtrump",
        "must_trump",
        "must_undertrump",
        "no_trick_penalty",
        "penalty_timing",
        "players",
        "pot_award",
        "trick_tie",
    }


def test_view_keys_and_observation_layout(engine):
    state = _declaring_state(engine)
    view = state.view(1)
    assert list(view) == [
        "player",
        "current_player",
        "phase",
        "dealer",
        "mano",
        "deals_played",
        "hand",
        "hand_sizes",
        "turnup",
        "trump",
        "turnup_taken",
        "declarations",
        "exchanged",
        "discards",
        "talon_size",
        "trick",
        "trick_seats",
        "leader",
        "trick_number",
        "played",
        "tricks_won",
        "pot",
        "balances",
        "eliminated",
        "terminal",
    ]
    assert view["hand"] == ["Ac", "9d", "Td", "7h", "Ks"]
    assert view["turnup"] == "Qd" and view["trump"] == "d"
    assert view["pot"] == 3 and view["balances"] == [97, 100, 100]
    obs = state.observation(1)
    n = 3
    assert obs[[0, 21, 22, 32, 51]].tolist() == [1.0] * 5 and obs[:52].sum() == 5
    assert obs[104 + 24] == 1.0  # turn-up Qd (id 24)
    assert obs[156 + 1] == 1.0  # trump d
    assert obs[161 + 4 * n] == 32 - 16  # talon size 16
    assert obs[214 + 58 * n] == 3  # pot
    # balances rotated from seat 1: seats 1, 2, 0
    assert obs[215 + 58 * n : 215 + 59 * n].tolist() == [100, 100, 97]
    # dealer (seat 0) is entry 2 from seat 1
    assert obs[215 + 59 * n : 215 + 60 * n].tolist() == [0, 0, 1]
