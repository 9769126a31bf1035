"""Burako API invariants on both engines (docs/design.md §2): clone independence, JSON round trip,
notation for every action id, game strings, legal_mask, history, views and observations."""

from __future__ import annotations

import copy
import json
import random

import numpy as np
import pytest

import tapete


def _play(state, rng, steps):
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("players", [2, 4])
def test_random_playouts_keep_the_invariants(engine, players):
    game = engine.Burako(players=players, match="single_hand", max_turns=12)
    rng = random.Random(players)
    for seed in range(3):
        state = game.new_state(seed=seed)
        history = []
        while not state.is_terminal():
            legal = state.legal_actions()
            assert legal and legal == sorted(set(legal))
            mask = state.legal_mask()
            assert mask.dtype == np.bool_ and mask.shape == (1966,)
            assert list(np.flatnonzero(mask)) == legal
            assert state.returns() == [0.0] * players
            obs = state.observation(state.current_player())
            assert obs.dtype == np.float32 and obs.shape == game.observation_shape == (4217 + 2 * players,)
            text = state.to_json()
            assert game.state_from_json(text).to_json() == text
            a = rng.choice(legal)
            state.apply(a)
            history.append(a)
        assert state.history() == history
        r = state.returns()
        assert sum(r) == 0 and len(r) == players
        assert state.current_player() == -1


def test_same_seed_same_game_and_seeds_differ(engine):
    game = engine.Burako(players=2)
    assert game.new_state(seed=3).to_json() == game.new_state(seed=3).to_json()
    assert game.new_state(seed=3).to_json() != game.new_state(seed=4).to_json()


def test_clone_copy_and_deepcopy_are_independent(engine):
    state = engine.Burako().new_state(seed=1)
    for twin in (state.clone(), copy.copy(state), copy.deepcopy(state)):
        before = state.to_json()
        twin.apply(twin.legal_actions()[0])
        assert state.to_json() == before
        assert twin.to_json() != before


def test_action_notation_round_trips_for_every_id(engine):
    state = engine.Burako().new_state(seed=0)
    for a in range(1966):
        text = state.action_to_string(a)
        assert state.string_to_action(text) == a
    assert state.action_to_string(0) == "draw"
    assert state.action_to_string(1) == "take pozo"
    assert state.action_to_string(2) == "redraw"
    assert state.action_to_string(3 + 4) == "add R5"
    assert state.action_to_string(56) == "meld"
    assert state.action_to_string(57) == "cancel"
    assert state.action_to_string(58 + 25) == "discard K13"
    assert state.action_to_string(111 + 53 * 3 + 32) == "extend 3 B7"
    assert state.action_to_string(3 + 52) == "add J*"
    assert state.string_to_action("  Take   POZO ") == 1


def test_apply_accepts_notation(engine):
    state = engine.Burako(first_mano=0).new_state(seed=2)
    state.apply("draw")
    tile = state.view(0)["rack"][0]
    state.apply(f"discard {tile}")
    assert state.view(1)["pozo"][-1] == tile
    assert state.history()[0] == 0


@pytest.mark.parametrize(
    "text",
    [
        "burako(variant=standard)",
        "burako(variant=standard,players=2)",
        "burako(variant=standard,first_mano=1,max_wilds_per_meld=fewer_than_naturals,muerto_size=hand_size)",
        "burako(variant=standard,max_wilds_per_meld=unlimited,run_wrap=true)",
    ],
)
def test_game_strings_round_trip(engine, text):
    game = engine.load(text) if engine.name == "reference" else tapete.load(text)
    assert str(game) == text
    assert game == type(game)(**game.options)


def test_game_attributes(engine):
    game = engine.Burako(players=2)
    assert game.name == "burako"
    assert game.num_players == 2
    assert game.num_distinct_actions == 1966
    assert game.observation_shape == (4221,)
    assert engine.Burako().observation_shape == (4225,)
    assert game.options["players"] == 2 and game.options["variant"] == "standard"
    assert len(engine.Burako().options) == 29


def test_view_keys_and_visibility(engine):
    state = engine.Burako(first_mano=0).new_state(seed=9)
    state.apply("draw")
    keys = {
        "player",
        "current_player",
        "mano",
        "hand",
        "phase",
        "turns",
        "rack",
        "buffer",
        "rack_sizes",
        "melds",
        "pozo",
        "pozo_size",
        "stock_size",
        "muertos_left",
        "muerto_status",
        "drawn",
        "must_use",
        "no_discard",
        "cancels",
        "totals",
        "hand_scores",
        "terminal",
        "winner",
    }
    for p in range(4):
        v = state.view(p)
        assert set(v) == keys
        assert v["rack_sizes"] == [12, 11, 11, 11]
        json.dumps(v)
    assert state.view(0)["drawn"] is not None and state.view(1)["drawn"] is None


def test_str_shows_racks_melds_and_pozo(engine):
    game = engine.Burako(players=2)
    state = game.setup(
        racks=[["R3", "R4", "R5", "K9"], ["Y1", "Y2"]],
        phase="meld",
        melds=[[["B5", "B6", "B7", "B8", "B9", "B10", "B11"]], []],
        pozo=["K1"],
    )
    text = str(state)
    assert "R3" in text and "K1" in text and "B11" in text
    if engine.name == "native":
        assert "CANASTA" in text and "pure" in text
