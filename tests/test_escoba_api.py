"""Generic invariants of the Escoba engines (docs/design.md §7.3), on both engines through the public API.

The bulk sweep of >= 2,000 playouts per preset and player count runs natively in
``rust/tapete-core/tests/escoba_playouts.rs``; here every check goes through Python on fewer games,
so that the reference engine is held to the same invariants.
"""

from __future__ import annotations

import copy
import json
import os
import random

import numpy as np
import pytest

from tapete.errors import IllegalActionError, InvalidNotationError

PRESET_PLAYERS = [
    ("scopa", 2),
    ("scopa", 3),
    ("scopa", 4),
    ("scopa", 6),
    ("escoba", 2),
    ("escoba", 3),
    ("escoba", 4),
    ("escoba", 6),
    ("scopa_15", 2),
    ("scopa_15", 4),
    ("scopa_11", 2),
    ("scopa_11", 3),
    ("asso_piglia_tutto", 2),
    ("asso_piglia_tutto", 4),
    ("scopa_d_assi", 3),
    ("scopa_d_assi", 4),
    ("sbarazzina", 2),
    ("sbarazzina", 4),
    ("scopone_9", 4),
    ("scopone_10", 4),
    ("differenze", 2),
    ("inversa", 4),
    ("somma_e_differenza", 3),
    ("modulo_sette", 2),
    ("punti_a_denari", 6),
    ("non_prendere", 4),
    ("non_prendere", 6),
    ("assi_non_prendere", 4),
    ("scopone_romano", 4),
    ("frac", 2),
    ("tuzzulicchio", 3),
    ("cocchiaundici", 2),
    ("rubamazzo", 2),
    ("rubamazzo", 4),
    ("rubamazzo_somma", 3),
    ("rubamazzo_somma", 6),
    ("cirulla", 2),
    ("cirulla", 4),
    ("bazzica", 2),
    ("granja", 2),
    ("granja", 4),
    ("scopone_romano_contrario", 4),
    ("scopone_romano_contrario", 5),
]
# fidasse: random claims and doubts lower the scores without end, so its matches are capped
CAPPED = [("fidasse", 2), ("fidasse", 4)]

GAMES = {
    "native": int(os.environ.get("TAPETE_API_GAMES", "40")),
    "reference": int(os.environ.get("TAPETE_API_GAMES_REF", "6")),
}
PACK = {13 * suit + rank for suit in range(4) for rank in (0, 1, 2, 3, 4, 5, 6, 10, 11, 12)}


def cards_in_play(doc: dict) -> list[int]:
    cards = [c for hand in doc["hands"] for c in hand] + doc["table"] + doc["stock"]
    cards += [c for build in doc.get("builds", []) for c in build]
    cards += [c for pile in doc["piles"] for c in pile]
    if doc["pending"] >= 0:
        cards.append(doc["pending"])
    if doc.get("claim", -1) >= 0:  # fidasse: a claim card waiting for answers
        cards.append(doc["claim"])
    return cards


def check_step(game, state, rng: random.Random) -> None:
    doc = json.loads(state.to_json())
    cards = cards_in_play(doc)
    assert len(cards) == len(set(cards)), "a card is in two places"
    assert set(cards) <= PACK
    if not doc["terminal"]:
        assert set(cards) == PACK, "cards were lost during a deal"
    # JSON round trip is exact
    assert game.state_from_json(state.to_json()).to_json() == state.to_json()
    legal = state.legal_actions()
    mask = state.legal_mask()
    assert mask.dtype == np.bool_ and mask.shape == (game.num_distinct_actions,)
    assert list(np.flatnonzero(mask)) == legal
    if state.is_terminal():
        assert legal == [] and state.current_player() == -1
        return
    assert legal and legal == sorted(set(legal)), "legal actions must be sorted, unique and non-empty"
    assert 0 <= state.current_player() < game.num_players
    assert all(r == 0 for r in state.returns()), "returns are 0 until the end"
    # every legal action applies; clones are independent of the original
    before = state.to_json()
    for action in rng.sample(legal, min(3, len(legal))):
        child = state.clone()
        child.apply(action)
        assert state.to_json() == before
        assert child.history() == state.history() + [action]
    # an illegal action raises and changes nothing
    illegal = [a for a in range(game.num_distinct_actions) if a not in set(legal)]
    for action in rng.sample(illegal, 2):
        with pytest.raises(IllegalActionError):
            state.apply(action)
        assert state.to_json() == before
    with pytest.raises(InvalidNotationError):
        state.apply("xyzzy")
    assert state.to_json() == before


@pytest.mark.parametrize("variant,players", PRESET_PLAYERS, ids=[f"{v}-{p}" for v, p in PRESET_PLAYERS])
def test_random_playouts_keep_the_invariants(engine, variant, players):
    play_out(engine, engine.Escoba(variant=variant, players=players), f"{variant}/{players}")


@pytest.mark.parametrize("variant,players", CAPPED, ids=[f"{v}-{p}" for v, p in CAPPED])
def test_random_capped_playouts_keep_the_invariants(engine, variant, players):
    play_out(engine, engine.Escoba(variant=variant, players=players, max_deals=3), f"{variant}/{players}")


def play_out(engine, game, name):
    players = game.num_players
    rng = random.Random(name)
    for _index in range(GAMES[engine.name]):
        state = game.new_state(seed=rng.randrange(2**64))
        for _ in range(20_000):
            check_step(game, state, rng)
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        else:
            pytest.fail("a match did not end within 20,000 actions")
        returns = state.returns()
        assert abs(sum(returns)) < 1e-9, "returns are zero-sum"
        doc = json.loads(state.to_json())
        if doc["winner"] >= 0:
            assert max(returns) == 1.0
        elif doc["loser"] >= 0:
            assert min(returns) == -1.0
        else:
            assert returns == [0.0] * players


def test_same_seed_same_game_and_seeds_differ(engine):
    game = engine.Escoba()
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
    game = engine.Escoba(variant="escoba", players=4)
    state = game.new_state(seed=3)
    for clone in (state.clone(), copy.copy(state), copy.deepcopy(state)):
        assert clone.to_json() == state.to_json()
        clone.apply(clone.legal_actions()[-1])
        assert clone.to_json() != state.to_json()
        assert state.history() == []


def test_action_notation_round_trips_for_every_id(engine):
    state = engine.Escoba().new_state(seed=1)
    for action in range(219):
        text = state.action_to_string(action)
        assert state.string_to_action(text) == action
        assert state.string_to_action(text.upper()) == action


def test_apply_accepts_notation(engine):
    game = engine.Escoba()
    a, b = game.new_state(seed=9), game.new_state(seed=9)
    while not a.is_terminal():
        action = a.legal_actions()[0]
        a.apply(action)
        b.apply(b.action_to_string(action))
    assert a.to_json() == b.to_json()


@pytest.mark.parametrize(
    "text",
    [
        "escoba(variant=scopa)",
        "escoba(variant=escoba,players=4)",
        "escoba(variant=scopa,napola=true,re_bello=true,target=21)",
        "escoba(variant=scopa_15,fewest_cards=sum15_only,players=3)",
        "escoba(variant=scopa,milan_tiebreak=[7,6,A,5],primiera_mode=milan,win_margin=2)",
        "escoba(variant=scopa,special_cards={Jd:1,Qd:1},capture_kinds=[match,sum,sum11])",
        "escoba(variant=scopone_9)",
        "escoba(variant=asso_piglia_tutto,players=4,partnership=none)",
        "escoba(variant=modulo_sette,value_modulus=5)",
        "escoba(variant=non_prendere,players=6,capture_obligation=played_card)",
        "escoba(variant=frac,frac_single_deal=true)",
        "escoba(variant=tuzzulicchio,tuzzoli_hybrids=false,players=4)",
        "escoba(variant=rubamazzo,players=4,partnership=auto,ace_steals_all=true)",
        "escoba(variant=rubamazzo_somma,pile_in_sums=false,table_match_first=true)",
        "escoba(variant=cirulla,knocks={decino:8},matta=null,players=3)",
        "escoba(variant=bazzica,knocks={cirulla:1},last_hand_open=false)",
        "escoba(variant=scopa,knocks={cirulla:2,decino:5},matta=7h,piccola=true,grande=3,initial_table_le9=3)",
        "escoba(variant=granja,build_only_if_no_capture=true,players=4)",
    ],
)
def test_game_strings_round_trip(engine, text):
    import tapete
    from tapete._gamestring import parse_game

    game = parse_game(text, {"escoba": engine.Escoba})
    again = parse_game(str(game), {"escoba": engine.Escoba})
    assert again.options == game.options
    assert str(again) == str(game)
    if engine.name == "native":
        assert tapete.load(text).options == game.options


def test_game_attributes(engine):
    game = engine.Escoba(variant="escoba", players=4)
    assert game.name == "escoba"
    assert game.num_players == 4
    assert game.num_distinct_actions == 219
    # docs/escoba_engine.md §10: 161 + 42 S + 4 n with S = 2 teams, n = 4 seats
    assert tuple(game.observation_shape) == (161 + 42 * 2 + 4 * 4,)
    state = game.new_state(seed=0)
    obs = state.observation(0)
    assert obs.dtype == np.float32 and obs.shape == tuple(game.observation_shape)
    # the escoba preset (docs/rules/escoba.md §2.5): target 21, sum15 only, setenta as most sevens
    assert game.options["target"] == 21
    assert game.options["capture_kinds"] == ["sum15"]
    assert game.options["primiera_mode"] == "milan" and game.options["milan_tiebreak"] == ["7"]
    # docs/rules/escoba.md §1.9 default targets
    assert engine.Escoba(players=2).options["target"] == 11
    assert engine.Escoba(players=3).options["target"] == 16
    assert engine.Escoba(players=4).options["target"] == 21
    assert engine.Escoba(players=4, partnership="none").options["target"] == 16
