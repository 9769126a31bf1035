"""Differential tests for Burako: the native engine and the pure-Python reference in lockstep.

Hypothesis draws an option set (``tapete.testing.burako_options``: single hands bounded by a small
``max_turns``), a seed and a choice index per step; ``tapete.testing`` compares legal actions,
action strings, views, observations, scores, returns, JSON and error types at every step. Random
dealt hands rarely reach a muerto or a close, so a second test starts from random ``setup``
positions with short racks and team melds, where buying muertos, the going-out invariant and
closing happen within a few actions. ``TAPETE_DIFF_EXAMPLES`` sets the examples per configuration
(default 200 for dealt hands, half as many setup positions).
"""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import tapete
from tapete import reference
from tapete.errors import InvalidStateError
from tapete.testing import assert_engines_agree, burako_options, compare_positions, seeds

EXAMPLES = int(os.environ.get("TAPETE_DIFF_EXAMPLES", "200"))
SETTINGS = dict(
    deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large], derandomize=True
)

COLOURS = "RKBY"


def text(t: int) -> str:
    return "J*" if t == 52 else f"{COLOURS[t // 13]}{t % 13 + 1}"


@pytest.mark.parametrize("players", [2, 4])
@settings(max_examples=EXAMPLES, **SETTINGS)
@given(data=st.data())
def test_dealt_hands_agree(players, data):
    options = data.draw(burako_options(players), label="options")
    seed = data.draw(seeds(), label="seed")
    choices = data.draw(st.lists(st.integers(0, 2**16), min_size=1, max_size=64), label="choices")
    assert_engines_agree(tapete.Burako(**options), reference.Burako(**options), games=1, seed=seed, choices=choices)


@settings(max_examples=max(EXAMPLES // 5, 20), **SETTINGS)
@given(data=st.data())
def test_short_matches_agree(data):
    # several hands: scoring into totals, the next mano, a fresh shuffle from the same stream
    options = data.draw(burako_options(single_hand=False, max_turns=(1, 6)), label="options")
    seed = data.draw(seeds(), label="seed")
    choices = data.draw(st.lists(st.integers(0, 2**16), min_size=1, max_size=64), label="choices")
    assert_engines_agree(tapete.Burako(**options), reference.Burako(**options), games=1, seed=seed, choices=choices)


def random_position(rng: random.Random, players: int) -> dict:
    """A ``setup`` description: short racks, a few natural team melds, random muerto status."""
    pool = [t for t in range(53) for _ in range(2)]
    rng.shuffle(pool)
    left = {t: 2 for t in range(53)}

    def take(t: int) -> bool:
        if left[t]:
            left[t] -= 1
            return True
        return False

    melds: list[list[list[str]]] = [[], []]
    for team in (0, 1):
        for _ in range(rng.randrange(4)):
            if rng.random() < 0.6:  # a run of naturals, sometimes with a joker at one end
                c, length = rng.randrange(4), rng.randint(3, 8)
                lo = rng.randint(3, 14 - length)
                tiles = [13 * c + n - 1 for n in range(lo, lo + length)]
                if rng.random() < 0.3:
                    tiles = tiles[:-1] + [52]
            else:  # a pierna
                n = rng.choice([1] + list(range(3, 14)))
                tiles = [13 * rng.randrange(4) + n - 1 for _ in range(rng.randint(3, 7))]
            if all(tiles.count(t) <= left[t] for t in set(tiles)):
                for t in tiles:
                    take(t)
                melds[team].append([text(t) for t in tiles])
    racks = []
    for _ in range(players):
        rack = []
        for t in pool:
            if len(rack) >= rng.randint(1, 5):
                break
            if left[t] and rng.random() < 0.3:
                take(t)
                rack.append(text(t))
        racks.append(rack or [text(next(t for t in range(53) if take(t)))])
    if rng.random() < 0.6:  # a ready meld in some rack, so that play can lay it down
        seat = rng.randrange(players)
        c, lo = rng.randrange(4), rng.randint(3, 11)
        ready = [13 * c + n - 1 for n in range(lo, lo + 3)]
        if all(left[t] for t in ready):
            for t in ready:
                take(t)
            racks[seat] += [text(t) for t in ready]
    pozo = [text(t) for t in pool if rng.random() < 0.03 and take(t)]
    status = [rng.choice([0, 0, 1, 2]) for _ in range(2)]
    stock = None
    if 0 in status and rng.random() < 0.3:  # a short stock: exhaustion (or a muerto as stock) soon
        stock = [text(t) for t in pool if left[t] and rng.random() < 0.05 and take(t)][:3] or None
    to_move = rng.randrange(players)
    phase = rng.choice(["draw", "meld"])
    if phase == "meld" and len(racks[to_move]) < 2:  # after a draw a rack holds at least 2 tiles
        racks[to_move].append(text(next(t for t in range(53) if take(t))))
    return {
        "racks": racks,
        "melds": melds,
        "pozo": pozo,
        "stock": stock,
        "muerto_status": status,
        "to_move": to_move,
        "phase": phase,
        "turns": rng.choice([0, 1, 5]),
        "seed": rng.randrange(2**32),
    }


def melding(legal: list[int]) -> list[int]:
    """Favour laying down: meld and extend when legal, else adding to the buffer."""
    return [a for a in legal if a == 56 or a >= 111] or [a for a in legal if 3 <= a < 56]


def _positions_agree(options, position, choices):
    """Both engines refuse ``position`` alike, or accept it and then play it alike."""
    ref_game, native_game = reference.Burako(**options), tapete.Burako(**options)
    try:
        ref = ref_game.setup(**position)
    except InvalidStateError:
        with pytest.raises(InvalidStateError):
            native_game.setup(**position)
        assume(False)
    native = native_game.setup(**position)
    divergence = compare_positions(native, ref, choices, prefer=melding)
    assert divergence is None, f"{divergence}\nposition: {position}\noptions: {options}"


@pytest.mark.parametrize("players", [2, 4])
@settings(max_examples=max(EXAMPLES // 2, 50), **SETTINGS)
@given(data=st.data())
def test_setup_positions_agree(players, data):
    options = data.draw(burako_options(players, max_turns=(2, 12)), label="options")
    position = random_position(random.Random(data.draw(st.integers(0, 2**32), label="position")), players)
    position["turns"] = min(position["turns"], options["max_turns"] - 1)  # a turn still to play
    choices = data.draw(st.lists(st.integers(0, 2**16), min_size=1, max_size=64), label="choices")
    _positions_agree(options, position, choices)


TILES = st.lists(st.integers(0, 52), max_size=16).filter(lambda ts: all(ts.count(t) <= 2 for t in ts))


@settings(max_examples=max(EXAMPLES, 300), **SETTINGS)
@given(data=st.data())
def test_classify_meld_agrees(data):
    options = data.draw(burako_options(), label="options")
    kind = data.draw(st.sampled_from(["any", "colour", "number"]), label="shape")
    if kind == "colour":  # runs-like: one colour plus wild-capable tiles
        c = data.draw(st.integers(0, 3))
        pool = [13 * c + n for n in range(13)] + [13 * k + 1 for k in range(4)] + [52]
    elif kind == "number":
        n = data.draw(st.integers(0, 12))
        pool = [13 * k + n for k in range(4)] + [13 * k + 1 for k in range(4)] + [52]
    else:
        pool = list(range(53))
    tiles = data.draw(st.lists(st.sampled_from(pool), max_size=15).filter(lambda ts: all(ts.count(t) <= 2 for t in ts)))
    as_text = data.draw(st.booleans())
    given_tiles = [text(t) for t in tiles] if as_text else tiles
    assert tapete.burako.classify_meld(given_tiles, **options) == reference.burako.classify_meld(given_tiles, **options)


@settings(max_examples=max(EXAMPLES // 2, 100), **SETTINGS)
@given(data=st.data())
def test_score_team_agrees(data):
    options = data.draw(burako_options(), label="options")
    rng = random.Random(data.draw(st.integers(0, 2**32), label="seed"))
    position = random_position(rng, 4)
    melds = position["melds"][0] + position["melds"][1]
    melds = [m for m in melds if reference.burako.classify_meld(m, **options) is not None]
    racks = position["racks"][:2]
    closed, taken = data.draw(st.booleans()), data.draw(st.booleans())
    assert tapete.burako.score_team(melds, racks, closed, taken, **options) == reference.burako.score_team(
        melds, racks, closed, taken, **options
    )


@settings(max_examples=100, **SETTINGS)
@given(data=st.data())
def test_option_resolution_agrees(data):
    options = data.draw(burako_options(single_hand=data.draw(st.booleans())), label="options")
    native, ref = tapete.Burako(**options), reference.Burako(**options)
    assert native.options == ref.options
    assert str(native) == str(ref)
    assert native.observation_shape == ref.observation_shape


# --------------------------------------------------------------------------------------------------
# max_wilds_per_meld = unlimited and run_wrap (docs/burako_engine.md §2, §3): the general strategy above draws
# them among many options; here they are always in play, with the options they combine with.

MELD_OPTIONS = st.fixed_dictionaries(
    {
        "max_wilds_per_meld": st.sampled_from([1, 2, "fewer_than_naturals", "unlimited"]),
        "run_wrap": st.booleans(),
        "ace_position": st.sampled_from(["low_or_high", "high_only", "low_only"]),
        "ace_to_ace_run": st.sampled_from(["allowed", "forbidden"]),
        "twos_wild": st.booleans(),
        "two_value": st.sampled_from(["always_20", "natural_5_wild_20"]),
        "pierna_of_twos": st.sampled_from(["forbidden", "allowed_as_naturals"]),
    }
)


@settings(max_examples=max(EXAMPLES, 300), **SETTINGS)
@given(data=st.data())
def test_classify_meld_agrees_with_wrap_and_unlimited(data):
    options = data.draw(MELD_OPTIONS, label="options")
    c = data.draw(st.integers(0, 3), label="colour")
    # one colour's tiles (the corner 12-13-1-2-3 twice as likely), every 2 and the joker
    pool = [13 * c + n for n in range(13)] + [13 * c + n for n in (0, 1, 2, 11, 12)] + [13 * k + 1 for k in range(4)]
    pool += [52] if data.draw(st.booleans()) else [13 * data.draw(st.integers(0, 3)) + data.draw(st.integers(0, 12))]
    tiles = data.draw(st.lists(st.sampled_from(pool), max_size=15).filter(lambda ts: all(ts.count(t) <= 2 for t in ts)))
    assert tapete.burako.classify_meld(tiles, **options) == reference.burako.classify_meld(tiles, **options)


def corner_position(rng: random.Random, players: int) -> dict:
    """A ``setup`` where the mover draws with a pozo on the table and holds tiles around the
    corner 12-13-1-2-3 of one colour plus wilds: the must_use_top_tile_now search meets wrapped
    runs and wild-heavy melds."""
    c = rng.randrange(4)
    left = {t: 2 for t in range(53)}

    def take(ts: list[int]) -> list[str]:
        out = []
        for t in ts:
            if left[t]:
                left[t] -= 1
                out.append(text(t))
        return out

    corner = [13 * c + n - 1 for n in (1, 2, 3, 4, 11, 12, 13)]
    wilds = [52] + [13 * k + 1 for k in range(4)]
    to_move = rng.randrange(players)
    racks = []
    for seat in range(players):
        if seat == to_move:
            racks.append(take(rng.choices(corner, k=rng.randint(2, 7)) + rng.choices(wilds, k=rng.randint(0, 3))))
        else:
            racks.append(take([13 * rng.randrange(4) + rng.randint(4, 9)]) or ["R7"])
    shapes = [[12, 13, 1], [13, 1, 2], [1, 2, 3], [11, 12, 13]]
    melds = [[], []]
    for team in (0, 1):
        if rng.random() < 0.5:
            m = take([13 * c + n - 1 for n in rng.choice(shapes)] + ([52] if rng.random() < 0.3 else []))
            if len(m) >= 3:
                melds[team].append(m)
    pozo = take(rng.choices(corner + wilds + [13 * ((c + 1) % 4) + 6], k=rng.randint(1, 3)))
    return {
        "racks": racks,
        "melds": melds,
        "pozo": pozo,
        "muerto_status": [rng.choice([0, 0, 1]) for _ in range(2)],
        "to_move": to_move,
        "phase": "draw",
        "seed": rng.randrange(2**32),
    }


@pytest.mark.parametrize("players", [2, 4])
@settings(max_examples=max(EXAMPLES // 2, 50), **SETTINGS)
@given(data=st.data())
def test_corner_positions_agree(players, data):
    options = dict(data.draw(MELD_OPTIONS, label="options"), players=players, match="single_hand", max_turns=4)
    options["pozo_take_requirement"] = data.draw(st.sampled_from(["none", "must_use_top_tile_now"]), label="take")
    position = corner_position(random.Random(data.draw(st.integers(0, 2**32), label="position")), players)
    choices = data.draw(st.lists(st.integers(0, 2**16), min_size=1, max_size=64), label="choices")
    _positions_agree(options, position, choices)
