"""Musta Maija resampling (docs/musta_maija_engine.md §11) on both engines: it reads nothing hidden,
keeps every inference the rules allow (docs/rules/musta_maija.md §1, §2, §4.2), is uniform over the
consistent placements (counted here by hand), rebuilds into a past that replays, and the two engines
draw the same bytes."""

from __future__ import annotations

import itertools
import json
import math
import random
from collections import Counter
from typing import Any

import pytest

from games.musta_maija import paired_state
from resample_support.musta_maija import rebuild_deal
from stats import chi_square_p
from tapete.cards import card_id
from tapete.reference.musta_maija import MustaMaija as Reference

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"variant": "pagat", "players": 3},
    {"beat_optional": False},
    {"beat_optional": False, "players": 2},
    {"beat_optional": False, "players": 5, "hand_size": 3, "draw_order": "defender_then_attacker"},
    {"players": 6, "spade_reinsert": "random_position"},
    {"match": "fixed_hands", "match_hands": 3, "players": 3, "beat_optional": False},
    {"match": "first_to_losses", "match_losses": 2, "players": 3, "max_attacks": 20},
]


def ids(cards: list[str]) -> list[int]:
    return [card_id(c) for c in cards]


def random_state(game: Any, seed: int) -> Any:
    rng = random.Random(seed)
    state = game.new_state(seed=seed)
    for _ in range(rng.randrange(250)):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def hidden_of(doc: dict[str, Any], seat: int) -> list[int]:
    return sorted(set(doc["hands"][seat]) - set(doc["known"][seat]))


# -- reads nothing hidden --------------------------------------------------------------------


def test_same_view_same_resample_hand_made(engine):
    # Two deals that differ only in seat 1's and seat 2's unseen cards, the stock's second card
    # and the RNG; the same public moves: seat 0 attacks with 5h and draws 7c, seat 1 takes 5h.
    game = engine.MustaMaija(players=3, hand_size=2)
    a = {"hands": [["5h", "Ac"], ["3c", "4d", "2h"], ["Qs", "9h", "Ks"]], "stock": ["7c", "8c", "Td"]}
    b = {"hands": [["5h", "Ac"], ["8c", "4d", "Ks"], ["Qs", "9h", "2h"]], "stock": ["7c", "3c", "Td"]}
    states = [game.setup(**a, seed=1), game.setup(**b, seed=99)]
    for s in states:
        s.play("attack 5h")
        s.play("take all")
    assert states[0].view(0) == states[1].view(0)
    assert states[0].to_json() != states[1].to_json()
    for seed in range(20):
        assert states[0].resample(0, seed).to_json() == states[1].resample(0, seed).to_json()


@pytest.mark.parametrize("options", OPTION_SETS[:6], ids=str)
def test_same_view_same_resample_random(engine, options):
    game = engine.MustaMaija(**options)
    for seed in range(6):
        state = random_state(game, seed)
        doc = json.loads(state.to_json())
        for seat in range(game.num_players):
            paired = paired_state(game, doc, seat, random.Random(seed * 10 + seat))
            assert paired is not None
            _, twin = paired
            assert twin.view(seat) == state.view(seat)
            assert twin.resample(seat, seed).to_json() == state.resample(seat, seed).to_json()


# -- inferences (rules vectors from hand reasoning) -------------------------------------------


def test_known_cards_and_the_bottom_trump_stay(engine):
    # Seat 1 picked up 5h (docs/rules/musta_maija.md §1: picked-up cards are public); the trump
    # card Td lies face up under the stock (docs/rules/musta_maija.md §2); seat 0 drew 7c and keeps its own hand.
    game = engine.MustaMaija(players=3, hand_size=2)
    state = game.setup(hands=[["5h", "Ac"], ["3c", "4d", "2h"], ["Qs", "9h", "Ks"]], stock=["7c", "8c", "Td"])
    state.play("attack 5h")
    state.play("take all")
    for seed in range(2000):
        doc = json.loads(state.resample(0, seed).to_json())
        assert card_id("5h") in doc["hands"][1] and doc["known"][1] == [card_id("5h")]
        assert len(doc["stock"]) == 2 and doc["stock"][-1] == card_id("Td")
        assert doc["hands"][0] == ids(["Ac", "7c"])


def turned_spade_deck() -> list[int]:
    # first_dealer=3, 4 seats: d[0..19] are dealt, d[20] = 4s is turned first, goes back into
    # the middle, d[21] = 8d is the trump card (docs/rules/musta_maija.md §2, TV-MM01's pattern).
    deck = [c for c in range(52) if c not in (card_id("4s"), card_id("8d"))]
    return deck[:20] + [card_id("4s"), card_id("8d")] + deck[20:]


def test_a_turned_spade_was_not_dealt(engine):
    # Before anybody draws, the turned 4s can only be in the stock.
    state = engine.MustaMaija(first_dealer=3).new_state(seed=5, deck=turned_spade_deck())
    doc = json.loads(state.to_json())
    assert doc["turned"] == ids(["8d", "4s"]) and doc["trump"] == card_id("8d")
    for seed in range(2000):
        out = json.loads(state.resample(0, seed).to_json())
        assert card_id("4s") in out["stock"][:-1]


def test_a_turned_spade_needs_a_refill(engine):
    # Seat 0 attacks with one card and draws one; seat 1 takes the card and draws none. Seen from
    # seat 2, the turned 4s is in the stock or in seat 0's hand, never with seat 1 or seat 3.
    state = engine.MustaMaija(first_dealer=3).new_state(seed=5, deck=turned_spade_deck())
    state.apply(min(json.loads(state.to_json())["hands"][0]))
    state.apply(52)
    state.apply(53)
    where: Counter = Counter()
    for seed in range(2000):
        doc = json.loads(state.resample(2, seed).to_json())
        holders = [s for s in range(4) if card_id("4s") in doc["hands"][s]]
        where[holders[0] if holders else "stock"] += 1
    assert set(where) == {0, "stock"}


# 3 seats of 17 cards (first_dealer=2: seat 0 gets d[0], d[3]...), the stock the trump card 8d
# alone. Seat 0 holds 2d and 16 plain cards, seat 1 17 plain cards, seat 2 the 11 diamonds above
# 2d but 8d, and 6 plain cards.
PLAIN = [c for c in range(52) if c // 13 != 1]
HIGHER = [c for c in range(13, 26) if c not in (card_id("2d"), card_id("8d"))]
SEATS = [[card_id("2d")] + PLAIN[:16], PLAIN[16:33], HIGHER + PLAIN[33:]]


def compulsory_state(engine: Any, beat_optional: bool) -> Any:
    # Seat 0 attacks seat 1 with 2d and draws 8d; seat 1 leaves 2d and picks it up. With
    # beat_optional=false that is legal only when seat 1 holds no diamond above 2d
    # (docs/rules/musta_maija.md §4.2): the 11 diamonds hidden from seat 0 are seat 2's.
    deck = [SEATS[k % 3][k // 3] for k in range(51)] + [card_id("8d")]
    game = engine.MustaMaija(players=3, hand_size=17, first_dealer=2, beat_optional=beat_optional)
    state = game.new_state(seed=3, deck=deck)
    state.play("attack 2d")
    state.play("defend -")
    assert state.current_player() == 2
    return state


def seat2_counts(state: Any, cards: list[int], draws: int) -> Counter:
    """How often each subset of ``cards`` is in seat 2's hand, seen from seat 0."""
    counts: Counter = Counter()
    for seed in range(draws):
        doc = json.loads(state.resample(0, seed).to_json())
        counts[tuple(c for c in cards if c in doc["hands"][2])] += 1
    return counts


def test_a_compulsory_beat_not_made_is_a_void(engine):
    state = compulsory_state(engine, beat_optional=False)
    for seed in range(2000):
        doc = json.loads(state.resample(0, seed).to_json())
        assert not set(HIGHER) & set(doc["hands"][1])
        assert set(HIGHER) <= set(doc["hands"][2])


def hypergeometric_cells(cards: list[int], free: int, room: int) -> tuple[list[tuple[int, ...]], list[float]]:
    """Each subset of ``cards`` and its chance of being exactly what seat 2 holds of them when its
    ``room`` places are filled uniformly from ``free`` cards: C(free - 3, room - k) / C(free, room)."""
    cells = [tuple(c for c, b in zip(cards, bits) if b) for bits in itertools.product([0, 1], repeat=len(cards))]
    chance = [math.comb(free - len(cards), room - len(cell)) / math.comb(free, room) for cell in cells]
    return cells, chance


def test_uniform_over_the_consistent_hands(engine):
    # Hidden from seat 0: seat 1's 17 unseen cards and seat 2's 17. The 11 diamonds are seat 2's;
    # its other 6 places take 6 of the 23 plain cards, uniformly. Three of them, cell by cell.
    state = compulsory_state(engine, beat_optional=False)
    cards = PLAIN[16:19]
    cells, chance = hypergeometric_cells(cards, 23, 6)
    counts = seat2_counts(state, cards, 20_000)
    assert chi_square_p([counts[c] for c in cells], [20_000 * p for p in chance]) > 0.001


def test_optional_beating_reveals_nothing(engine):
    # beat_optional=true: seat 2's 17 places take any 17 of the 34 hidden cards, diamonds included.
    state = compulsory_state(engine, beat_optional=True)
    cards = [HIGHER[0]] + PLAIN[16:18]
    cells, chance = hypergeometric_cells(cards, 34, 17)
    counts = seat2_counts(state, cards, 20_000)
    assert chi_square_p([counts[c] for c in cells], [20_000 * p for p in chance]) > 0.001


def test_a_defence_under_way_was_legal_so_far(engine):
    # beat_optional=false. Seat 0 attacks seat 1 with 2c 9c (trump diamonds) and draws 8d; seat 1
    # beats 2c with Tc; 9c is the current target. Had seat 1 held a club 3c..8c and nothing that
    # beats 9c, Tc on 2c would have been illegal (3c..8c on 2c, Tc on 9c beat both,
    # docs/rules/musta_maija.md §4.2): every resample of seat 1's hand holds a beater of 9c or no
    # club 3c..8c, and both kinds of hand occur.
    low = ids(["3c", "4c", "5c", "6c", "7c", "8c"])
    beats_9c = set(ids(["Tc", "Jc", "Qc", "Kc", "Ac"])) | set(range(13, 26))
    plain = list(range(26, 52))
    diamonds = [c for c in range(13, 26) if c != card_id("8d")]
    # seat 0 holds every beater of 9c but Tc and one diamond: the hidden beater is that diamond
    seats = [ids(["2c", "9c", "Jc", "Qc", "Kc", "Ac"]) + diamonds[:11], ids(["Tc"]) + plain[:16]]
    seats.append(low + diamonds[11:] + plain[16:])
    deck = [seats[k % 3][k // 3] for k in range(51)] + [card_id("8d")]
    game = engine.MustaMaija(players=3, hand_size=17, first_dealer=2, beat_optional=False)
    state = game.new_state(seed=3, deck=deck)
    state.play("attack 2c 9c")
    state.apply("Tc")
    assert state.view(0)["target"] == "9c"
    kinds: Counter = Counter()
    for seed in range(2000):
        hand = set(json.loads(state.resample(0, seed).to_json())["hands"][1])
        assert hand & beats_9c or not hand & set(low), sorted(hand)
        kinds[bool(hand & beats_9c), bool(hand & set(low))] += 1
    assert kinds[True, True] > 0 and kinds[False, False] > 0


# -- consistent with the past, and the engines agree -------------------------------------------


@pytest.mark.parametrize("options", OPTION_SETS, ids=str)
def test_rebuilt_deal_replays_to_the_same_view(options):
    game = Reference(**options)
    for seed in range(8):
        state = random_state(game, seed)
        for seat in range(game.num_players):
            resampled = state.resample(seat, seed)
            start, actions = rebuild_deal(resampled)
            for action in actions:
                start.apply(action)  # legal, or apply raises
            assert start.view(seat) == state.view(seat)
            ours, theirs = json.loads(start.to_json()), json.loads(resampled.to_json())
            del ours["rng"], theirs["rng"]
            assert ours == theirs


@pytest.mark.parametrize("options", OPTION_SETS, ids=str)
def test_native_and_reference_resample_alike(options):
    import tapete

    ref, native = Reference(**options), tapete.MustaMaija(**options)
    for seed in range(10):
        state = random_state(ref, seed)
        twin = native.state_from_json(state.to_json())
        for seat in range(ref.num_players):
            ours = state.resample(seat, seed * 31 + seat)
            assert twin.resample(seat, seed * 31 + seat).to_json() == ours.to_json()
            assert ours.view(seat) == state.view(seat)
            assert ref.state_from_json(ours.to_json()).to_json() == ours.to_json()
