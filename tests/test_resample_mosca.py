"""La Mosca's resampling (docs/mosca_engine.md §12) and the history in its view
(docs/mosca_engine.md §10), on both engines: paired states resample alike, the inferences as
rules vectors, uniformity on a position whose consistent placements are counted by brute force,
consistency with the past (the deal replayed from tests/resample_support/mosca.py), and native ==
reference bytes."""

from __future__ import annotations

import itertools
import json
import random

import pytest

import tapete
from resample_support.mosca import rebuild_deal, replay_deal
from resample_support.proofs import replayed, resample_sweep
from stats import chi_square_p
from tapete import reference

PLAY0, TAKE0, LEAVE = 53, 85, 90


def ids(text: str) -> list[int]:
    return [tapete.cards.card_id(c) for c in text.split()]


def suit(card: int) -> int:
    return card // 13


def state_after(game, hands: list[str], turnup: str, actions: list, seed: int = 0, talon=None):
    s = game.setup(hands=[ids(h) for h in hands], turnup=turnup, talon=talon, dealer=0, seed=seed)
    for a in actions:
        s.apply(a)
    return s


# Seat 1 (the mano, the seat resampling) leads 9h with spades trump.
HANDS = ["7h 8h Ac 9d Td", "9h Ah Kc Qd Jd", "Tc Jc Qc 7d 8d"]


def test_view_history_masks_other_seats_private_details(engine):
    game = engine.Mosca(players=3)
    # seat 1 exchanges slots 0 and 1, seat 2 slots 0 2 4, the dealer (seat 0) one card, then takes
    # the turn-up for slot 3
    s = state_after(game, HANDS, "7s", [PLAY0 + 3, PLAY0 + 21, PLAY0 + 16, TAKE0 + 3])
    assert s.view(1)["history"] == [PLAY0 + 3, "play x ?? ?? ??", "play x ??", "take turnup ??"]
    assert s.view(0)["history"] == ["play x ?? ??", "play x ?? ?? ??", PLAY0 + 16, TAKE0 + 3]
    assert s.view(2)["history"] == ["play x ?? ??", PLAY0 + 21, "play x ??", "take turnup ??"]
    # public actions stay ids: pass, stand, leave, cards
    t = state_after(game, HANDS, "7s", [52, PLAY0, PLAY0, LEAVE, 10])
    assert t.view(2)["history"] == [52, PLAY0, PLAY0, LEAVE, 10]


def test_earlier_deals_read_masked_for_every_seat(engine):
    game = engine.Mosca(players=3)
    s = state_after(game, HANDS, "7s", [PLAY0 + 3, 52, 52])  # lone player: the deal ends
    assert s.view(0)["deals_played"] == 1
    for p in range(3):
        assert s.view(p)["history"][:3] == ["play x ?? ??", 52, 52]
    # the resample rewrites that earlier mask to the lowest of its size, for every seat
    assert s.resample(1, 5).history()[:3] == [PLAY0 + 3, 52, 52]
    t = state_after(game, HANDS, "7s", [PLAY0 + 5, 52, 52])  # slots 0 and 2: the same view
    assert t.view(1) == s.view(1)
    assert t.resample(1, 5).to_json() == s.resample(1, 5).to_json()


def paired(engine):
    """Two positions seat 1 cannot tell apart: other hands, talon order, exchange masks, turn-up
    slot and RNG all differ; seat 1 stands, so it saw no card drawn."""
    game = engine.Mosca(players=3)
    deck = [13 * suit + rank for suit in range(4) for rank in (0, 6, 7, 8, 9, 10, 11, 12)]
    a_hands = HANDS
    b_hands = ["7h 8h Qc 7d Td", "9h Ah Kc Qd Jd", "Tc Jc Ac 9d 8d"]
    rest_a = [c for c in deck if c not in set(ids(" ".join(a_hands) + " 7s"))]
    rest_b = [c for c in deck if c not in set(ids(" ".join(b_hands) + " 7s"))]
    random.Random(1).shuffle(rest_b)
    a = state_after(game, a_hands, "7s", [PLAY0, PLAY0 + 3, PLAY0 + 1, TAKE0 + 0], seed=1, talon=rest_a)
    b = state_after(game, b_hands, "7s", [PLAY0, PLAY0 + 6, PLAY0 + 16, TAKE0 + 2], seed=2, talon=rest_b)
    return a, b


def test_paired_states_resample_byte_identical(engine):
    a, b = paired(engine)
    assert a.to_json() != b.to_json()
    assert a.view(1) == b.view(1)
    for seed in range(20):
        assert a.resample(1, seed).to_json() == b.resample(1, seed).to_json()
    # and a trick later, the same cards played
    for s in (a, b):
        s.apply(ids("9h")[0])
    assert a.view(1) == b.view(1)
    for seed in range(20):
        assert a.resample(1, seed).to_json() == b.resample(1, seed).to_json()


def test_a_resample_of_a_resample_resamples_alike(engine):
    """A resample has p's view and other hidden cards, masks and RNG: the two resample alike."""
    for options in ({}, {"players": 5, "exchange_limit": "reshuffle_discards_when_empty"}):
        game = engine.Mosca(**options)
        for seed in range(12):
            s = random_position(game, seed)
            for p in range(game.num_players):
                r = s.resample(p, seed + 100)
                assert r.view(p) == s.view(p)
                assert r.resample(p, 7).to_json() == s.resample(p, 7).to_json()


def many(state, p: int, count: int = 2000):
    return [json.loads(state.resample(p, seed).to_json()) for seed in range(count)]


def test_a_seat_that_did_not_follow_holds_no_led_suit_nor_trump(engine):
    # All stand; seat 1 leads 9h; seat 2 plays Tc: void in hearts, and (must_trump) in spades;
    # seat 0 follows with 7h, which does not head 9h: it holds no heart above 9h (must_head).
    game = engine.Mosca(players=3)
    s = state_after(game, HANDS, "7s", [PLAY0, PLAY0, PLAY0, LEAVE] + ids("9h Tc 7h"))
    above = set(ids("Th Jh Qh Kh"))
    own = json.loads(s.to_json())["hands"][1]
    seen_8h = False
    for r in many(s, 1):
        assert not any(suit(c) in (2, 3) for c in r["hands"][2])
        assert not above & set(r["hands"][0])
        seen_8h |= ids("8h")[0] in r["hands"][0]
        assert r["hands"][1] == own
    assert seen_8h  # a heart below 9h stays possible for seat 0


def test_a_seat_that_trumped_low_holds_no_higher_trump(engine):
    # Seat 1 leads 9h; seat 2 (no heart) must trump: Qs; seat 0 (no heart, 7s 8s) must trump and
    # cannot overtrump: 7s. So seat 0 holds no Ks (the only trump above Qs) and no heart.
    hands = ["7s 8s Ac 9d Td", "9h Ah Kc Qd Jd", "Qs Jc Qc 7d 8d"]
    game = engine.Mosca(players=3)
    s = state_after(game, hands, "9s", [PLAY0, PLAY0, PLAY0, LEAVE] + ids("9h Qs 7s"))
    ks = ids("Ks")[0]
    for r in many(s, 1):
        assert ks not in r["hands"][0] and not any(suit(c) == 2 for c in r["hands"][0])
        assert not any(suit(c) == 2 for c in r["hands"][2])


def test_known_places_stay(engine):
    # Seat 1 exchanges two cards; the dealer takes the turn-up: seat 1's discards stay in the
    # discard pile, its hand stays, the turn-up stays in the dealer's hand.
    game = engine.Mosca(players=3)
    s = state_after(game, HANDS, "7s", [PLAY0 + 3, PLAY0 + 21, PLAY0 + 16, TAKE0 + 3])
    d = json.loads(s.to_json())
    turnup = ids("7s")[0]
    for r in many(s, 1, 500):
        assert r["hands"][1] == d["hands"][1] and r["discarded"][1] == d["discarded"][1]
        assert set(d["discarded"][1]) <= set(r["discard_pile"])
        assert turnup in r["hands"][0] and r["turnup_discard"] != turnup
        assert len(r["discarded"][2]) == 3 and set(r["discarded"][2]) <= set(r["discard_pile"])


def test_discards_reshuffled_into_the_talon_went_to_later_draws(engine):
    # Five seats, the talon (18) emptied by seats 1-4 (5, 5, 5, 3): the dealer's turn rebuilds it
    # from their 18 discards, and the dealer exchanges two. So those 18 cards are now the talon
    # (16) and the dealer's two draws: seat 1's among them, none in seats 2-4's hands nor in the
    # discard pile, which holds the dealer's two discards alone.
    game = engine.Mosca(players=5, exchange_limit="reshuffle_discards_when_empty")
    deck = [13 * suit + rank for suit in range(4) for rank in (0, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)]
    hands = [[deck[i + 5 * t] for t in range(5)] for i in range(5)]
    s = game.setup(hands=hands, turnup=deck[25], dealer=0)
    for a in (PLAY0 + 31, PLAY0 + 31, PLAY0 + 31, PLAY0 + 7):
        s.apply(a)
    assert s.view(1)["talon_size"] == 18  # rebuilt for the dealer's turn
    s.apply(PLAY0 + 3)
    own = set(json.loads(s.to_json())["discarded"][1])
    for r in many(s, 1, 300):
        given = set().union(*(set(r["discarded"][k]) for k in (1, 2, 3, 4)))
        assert len(given) == 18 and own <= given
        assert len(given & set(r["hands"][0])) == 2 and given - set(r["hands"][0]) == set(r["talon"])
        assert not given & set().union(*(set(r["hands"][k]) for k in (2, 3, 4)))
        assert set(r["discard_pile"]) == set(r["discarded"][0]) and len(r["discard_pile"]) == 2


def random_position(game, seed: int, big: bool = True):
    """A position of random play, exchanges of four or five cards made likely (reshuffles)."""
    rng = random.Random(seed)
    s = game.new_state(seed)
    for _ in range(rng.randrange(0, 60)):
        if s.is_terminal():
            break
        legal = s.legal_actions()
        large = [a for a in legal if PLAY0 <= a < TAKE0 and bin(a - PLAY0).count("1") >= 4]
        s.apply(rng.choice(large) if big and large and rng.random() < 0.6 else rng.choice(legal))
    return s


OPTION_SETS = [
    {},
    {"players": 3},
    {"players": 6, "ace_rank": "high", "deck": 32},
    {"players": 4, "bankruptcy": "eliminate_at_zero", "initial_chips": 5, "lone_player": "must_play_tricks"},
    {"players": 5, "exchange_limit": "reshuffle_discards_when_empty"},
    {"players": 3, "exchange_limit": "reshuffle_discards_when_empty", "mosca_after_exchange": True},
    {"mosca_after_exchange": True, "must_overtrump": False, "must_undertrump": False, "deal_packets": "3_then_2"},
    {"must_head": False, "must_trump": False, "exchange_limit": "max_3", "dealer_may_take_turnup": False},
]


@pytest.mark.parametrize("options", OPTION_SETS, ids=json.dumps)
def test_native_and_reference_resample_alike_and_replay(options):
    native = tapete.Mosca(**options)
    positions = ((seed, random_position(native, seed)) for seed in range(25))
    for p, b, rb in resample_sweep(native, reference.Mosca(**options), positions):
        if not b.is_terminal():
            # consistent with the past: the deal rebuilt from the resample replays legally
            assert replayed(rebuild_deal(rb)).view(p) == b.view(p)
            assert replay_deal(rb).view(p) == b.view(p)


def late_position(game):
    """Six seats, 32 cards (a one-card talon), everyone stands and then plays its lowest legal
    card: the position before the fifth trick, one card in every hand; and who played what."""
    s = game.new_state(3)
    played_by: dict[int, list[int]] = {k: [] for k in range(6)}
    while s.view(0)["trick_number"] != 5 or s.view(0)["trick"]:
        legal = s.legal_actions()
        a = PLAY0 if PLAY0 in legal else LEAVE if LEAVE in legal else legal[0]
        if a < 52:
            played_by[s.current_player()].append(a)
        s.apply(a)
    return s, played_by


def consistent_placements(game, s, played_by, p: int) -> list[tuple[int, ...]]:
    """Every placement of the cards hidden from ``p`` (one in each other hand, one in the talon)
    under which the deal, dealt again by the engine's own setup (its mosca check included),
    replays legally to the same view: a brute force that does not call resample."""
    d = json.loads(s.to_json())
    seats = [k for k in range(6) if k != p]
    hidden = [d["hands"][k][0] for k in seats] + d["talon"]
    found = []
    for perm in itertools.permutations(hidden):
        hands = [played_by[k] + ([perm[seats.index(k)]] if k != p else d["hands"][p]) for k in range(6)]
        try:
            t = game.setup(hands=hands, turnup=d["turnup"], talon=[perm[-1]], dealer=d["dealer"])
            for a in d["history"]:
                t.apply(a)
        except tapete.errors.TapeteError:
            continue
        if t.view(p) == s.view(p):
            found.append(perm)
    return found


def test_uniform_over_the_consistent_placements():
    game = tapete.Mosca(players=6, deck=32)
    s, played_by = late_position(game)
    p = 0
    seats = [k for k in range(6) if k != p]
    cells = consistent_placements(game, s, played_by, p)
    assert 1 < len(cells) < 720  # the refusals rule some placements out, not all
    counts = dict.fromkeys(cells, 0)
    for seed in range(20_000):
        r = json.loads(s.resample(p, seed).to_json())
        key = tuple(r["hands"][k][0] for k in seats) + tuple(r["talon"])
        assert key in counts, key
        counts[key] += 1
    assert chi_square_p(list(counts.values())) > 0.001
    # the reference draws the very same placements
    ref = reference.Mosca(players=6, deck=32).state_from_json(s.to_json())
    for seed in range(200):
        assert ref.resample(p, seed).to_json() == s.resample(p, seed).to_json()


# Six seats, 32 cards, hearts trump: all stand, then four tricks. Seat 2 played Js 7s Qs Ks and
# holds one card; the only spade hidden from seat 0 is 8s (seat 3 holds it).
MOSCA_LINE = [PLAY0] * 6 + [LEAVE] + [47, 49, 39, 33, 38, 48, 20, 22, 13, 45, 24, 21, 35, 32, 36, 9, 26, 50, 23, 25, 11]
MOSCA_LINE += [51, 8, 7]


def test_no_seat_was_dealt_a_mosca(engine):
    game = engine.Mosca(players=6, deck=32)
    s = game.new_state(346)
    played_by: dict[int, list[int]] = {k: [] for k in range(6)}
    for a in MOSCA_LINE:
        if a < 52:
            played_by[s.current_player()].append(a)
        s.apply(a)
    eight = ids("8s")[0]
    assert sorted(played_by[2]) == sorted(ids("Js 7s Qs Ks")) and eight in json.loads(s.to_json())["hands"][3]
    # Seat 2 holding 8s instead breaks no duty of docs/rules/mosca.md §4.3: the deal with the two
    # cards swapped replays legally when it is read back without a deal...
    d = json.loads(s.to_json())
    hands = [played_by[k] + d["hands"][k] for k in range(6)]
    hands[2], hands[3] = played_by[2] + [eight], played_by[3] + d["hands"][2]
    start = dict(d, hands=[sorted(h) for h in hands], history=[], declarations=[-1] * 6, played=[])
    start.update(phase="declare", to_move=1, trick=[], trick_number=0, leader=-1, tricks_won=[0] * 6)
    t = game.state_from_json(json.dumps(start))
    for a in MOSCA_LINE:
        t.apply(a)
    # ...but seat 2 would have been dealt five spades: dealt, the deal ends at the mosca check
    dealt = game.setup(hands=[sorted(h) for h in hands], turnup=d["turnup"], talon=d["talon"], dealer=d["dealer"])
    assert dealt.view(0)["deals_played"] == 1
    # so no resample gives seat 2 the 8s (docs/rules/mosca.md §5.1: the deal went on to declare)
    assert all(eight not in r["hands"][2] for r in many(s, 0))
