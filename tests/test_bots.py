"""The bots (docs/bots.md): the Python API and its errors, determinism, that a bot acts only on what
its seat can see, native ISMCTS against the reference one, and an obvious best move found."""

from __future__ import annotations

import math
import threading
import time

import pytest

import tapete
from tapete import bots
from tapete.errors import IllegalActionError, InvalidOptionError, InvalidStateError
from tapete.reference import ismcts as ref_ismcts
from tapete.reference._rng import SplitMix64
from tapete.registry import GAMES

NAMES = list(GAMES)


def native(name: str, options: dict | None = None):
    info = GAMES[name]
    return info.native(**(info.option_sets[0] if options is None else options))


def reference(name: str, options: dict | None = None):
    info = GAMES[name]
    return info.reference(**(info.option_sets[0] if options is None else options))


def advanced(state, moves: int, seed: int):
    """``state`` after ``moves`` random moves (fewer if the match ends)."""
    rng = SplitMix64(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply(legal[rng.next() % len(legal)])
    return state


def seat(state):
    """The seat object of the seat to act: what a bot is handed."""
    return state.for_seat(state.current_player())


def every_bot(seed: int):
    return [bots.Random(seed), bots.Heuristic(seed), bots.ISMCTS(iterations=40, seed=seed)]


@pytest.mark.parametrize("name", NAMES)
def test_every_bot_plays_a_legal_move_and_leaves_the_state_alone(name):
    state = advanced(native(name).new_state(3), 5, 3)
    before = state.to_json()
    for bot in every_bot(1):
        assert isinstance(bot, bots.Bot)
        action = bot.act(seat(state))
        assert action in state.legal_actions()
        assert state.to_json() == before
        policy = bot.policy(seat(state))
        assert math.isclose(sum(policy.values()), 1.0)
        assert set(policy) <= set(state.legal_actions())


def test_random_draws_legal_next_mod_len_from_its_stream():
    # docs/bots.md §3.6: the k-th act plays legal[x_k % len], x_k the k-th output of
    # SplitMix64(seed)
    state = native("escoba").new_state(8)
    bot = bots.Random(99)
    stream = SplitMix64(99)
    for _ in range(30):
        legal = state.legal_actions()
        assert bot.act(seat(state)) == legal[stream.next() % len(legal)]
        state.apply(legal[0])


def test_root_stats_count_every_iteration():
    state = native("escoba").new_state(5)
    assert len(state.legal_actions()) > 1
    for threads in (1, 3):
        bot = bots.ISMCTS(iterations=123, threads=threads, seed=4)
        policy = bot.policy(seat(state))
        assert bot.iterations == 123
        assert sum(s.visits for s in bot.stats) == 123
        assert all(s.avail >= s.visits >= 1 for s in bot.stats)
        assert all(-1.0 <= s.mean <= 1.0 for s in bot.stats)
        assert policy == {s.action: s.visits / 123 for s in bot.stats}
        # the same search (same seed, first draw) plays the most visited action, the lower id on a tie
        most = max(s.visits for s in bot.stats)
        again = bots.ISMCTS(iterations=123, threads=threads, seed=4)
        assert again.act(seat(state)) == min(s.action for s in bot.stats if s.visits == most)
        assert again.stats == bot.stats


def test_a_lone_legal_action_needs_no_search():
    state = native("escoba").new_state(5)
    while len(state.legal_actions()) != 1:
        state.apply(state.legal_actions()[0])
    bot = bots.ISMCTS(iterations=50)
    assert bot.policy(seat(state)) == {state.legal_actions()[0]: 1.0}
    assert bot.iterations == 0 and bot.stats == []


def test_the_same_seed_plays_the_same_game():
    def play(threads: int) -> list[int]:
        state = native("mosca").new_state(2)
        seats = [bots.ISMCTS(iterations=30, threads=threads, seed=7), bots.Heuristic(1), bots.Random(2), bots.Random(3)]
        moves = []
        while not state.is_terminal() and len(moves) < 40:
            a = seats[state.current_player()].act(seat(state))
            moves.append(a)
            state.apply(a)
        return moves

    assert play(1) == play(1)
    assert play(2) == play(2)


def test_a_function_sits_in_a_seat():
    seen = []

    def lowest(view, legal):
        seen.append(view)
        return legal[0]

    state = native("escoba").new_state(1)
    bot = bots.as_bot(lowest)
    assert isinstance(bot, bots.FunctionBot)
    assert bot.act(seat(state)) == state.legal_actions()[0]
    assert seen == [state.view(state.current_player())]
    assert isinstance(bots.as_bot("ismcts:20", seed=3), bots.ISMCTS)
    assert isinstance(bots.as_bot("random"), bots.Random)
    assert isinstance(bots.as_bot("heuristic"), bots.Heuristic)
    assert bots.as_bot(bot) is bot
    with pytest.raises(IllegalActionError):
        bots.as_bot(lambda view, legal: -1).act(seat(state))
    with pytest.raises(IllegalActionError):
        bots.as_bot(lambda view, legal: "x").act(seat(state))


@pytest.mark.parametrize(
    "kwargs",
    [
        {"iterations": 0},
        {"iterations": -1},
        {"iterations": 1.5},
        {"iterations": True},
        {"iterations": "10"},
        {"iterations": 10**10},
        {"iterations": None},
        {"time_ms": 0},
        {"time_ms": 10**7},
        {"c": -0.1},
        {"c": math.nan},
        {"c": math.inf},
        {"c": "1"},
        {"c": True},
        {"rollout": "smart"},
        {"horizon": "trick"},
        {"threads": 0},
        {"threads": 2000},
        {"seed": -1},
        {"seed": 2**64},
        {"seed": "x"},
    ],
)
def test_bad_ismcts_options_are_typed_errors(kwargs):
    with pytest.raises(InvalidOptionError):
        bots.ISMCTS(**kwargs)
    with pytest.raises(InvalidOptionError):
        ref_ismcts.ISMCTS(**kwargs)


@pytest.mark.parametrize(
    "spec",
    [
        "",
        "mcts",
        "random:1",
        "random:",
        "ismcts:",
        "heuristic:x",
        "ismcts:0",
        "ismcts:c=x",
        "ismcts:depth=2",
        "ismcts:1,2",
        "ismcts:threads=-1",
        42,
    ],
)
def test_bad_bot_specs_are_typed_errors(spec):
    with pytest.raises(InvalidOptionError):
        bots.as_bot(spec)


def test_the_native_spec_reader_refuses_what_python_refuses():
    state = native("escoba").new_state(1)
    before = state.to_json()
    refused = ["", "random:", "ismcts:", "ismcts:0", "ismcts:c=-1", "ismcts:rollout=smart", "ismcts:iterations=none", 3]
    for spec in refused:
        with pytest.raises(InvalidOptionError):
            state.bot_act(spec, 0)
    assert state.to_json() == before


def test_bots_refuse_states_they_cannot_play():
    game = native("escoba")
    over = game.new_state(1)
    while not over.is_terminal():
        over.apply(over.legal_actions()[0])
    before = over.to_json()
    for bot in every_bot(0):
        with pytest.raises(IllegalActionError):
            bot.act(over.for_seat(0))
        assert over.to_json() == before
    with pytest.raises(InvalidStateError):
        bots.ISMCTS().act(seat(reference("escoba").new_state(1)))
    with pytest.raises(InvalidStateError):
        ref_ismcts.ISMCTS().act(seat(game.new_state(1)))
    with pytest.raises(InvalidOptionError):
        ref_ismcts.ISMCTS(rollout="heuristic").act(seat(reference("escoba").new_state(1)))


@pytest.mark.parametrize("name", NAMES)
def test_a_bot_sees_only_its_seat(name):
    """docs/design.md §7.5: two states with the same view (which carries the seat's own record of
    the history), built with ``resample``, get the same action from the same bot with the same seed.
    Their full histories may differ: other seats' private details are rewritten."""
    state = advanced(native(name).new_state(4), 4, 4)
    p = state.current_player()
    first = state.resample(p, 1)
    for seed in range(2, 10):
        second = state.resample(p, seed)
        if second.to_json() != first.to_json():
            break
    for s in (first, second):
        assert s.view(p) == state.view(p)
        assert len(s.history()) == len(state.history())
    for a_bot, b_bot in zip(every_bot(6), every_bot(6), strict=True):
        assert a_bot.act(first.for_seat(p)) == b_bot.act(second.for_seat(p))
        assert getattr(a_bot, "stats", None) == getattr(b_bot, "stats", None)
    # not vacuous: every game hides other hands here, so the two resamples differ
    assert first.to_json() != second.to_json()


# Positions of the differential test: (game, options, moves before the search, horizon, threads).
DIFFERENTIAL = [
    ("escoba", {"variant": "scopa"}, 0, "deal", 1),
    ("escoba", {"variant": "scopa"}, 7, "deal", 2),
    ("escoba", {"variant": "escoba", "players": 4}, 3, "deal", 1),
    # a misère preset: deal points count against the seat (Game::score_sign is -1)
    ("escoba", {"variant": "non_prendere", "players": 4}, 5, "deal", 1),
    ("mosca", {}, 2, "game", 1),
    ("mosca", {"players": 3}, 9, "deal", 3),
    ("musta_maija", {}, 5, "game", 2),
    ("musta_maija", {"players": 2}, 11, "deal", 1),
    ("burako", None, 3, "deal", 1),
]


@pytest.mark.parametrize(("name", "options", "moves", "horizon", "threads"), DIFFERENTIAL)
def test_native_and_reference_ismcts_agree(name, options, moves, horizon, threads):
    n = advanced(native(name, options).new_state(21), moves, 5)
    r = advanced(reference(name, options).new_state(21), moves, 5)
    assert n.to_json() == r.to_json()
    if len(n.legal_actions()) < 2:
        n = advanced(n, 1, 6)
        r = advanced(r, 1, 6)
    assert len(n.legal_actions()) > 1
    for seed in (0, 77):
        nb = bots.ISMCTS(iterations=40, seed=seed, horizon=horizon, threads=threads)
        rb = ref_ismcts.ISMCTS(iterations=40, seed=seed, horizon=horizon, threads=threads)
        assert nb.act(seat(n)) == rb.act(seat(r))
        assert nb.stats == rb.stats
        assert sum(s.visits for s in nb.stats) == 40


def test_ismcts_takes_the_sweep():
    """Scopa, 2 seats, the last two tricks of a deal (stock empty). Seat 0 holds 7c 5c, the table
    3h 4h, seat 1 Kh Ks. Every other card is in a pile (public, docs/escoba_engine.md §10), so seat
    0 knows seat 1's hand. 7c takes 3h+4h and empties the table: a scopa (docs/rules/escoba.md §1).
    Either way the deal ends with 7c 3h 4h for seat 0 (taking 3h+4h later) and Kh Ks 5c for seat 1
    (K takes K, then the last capturer's leftover 5c), so the two lines differ only by the sweep.
    The piles make the rest a 2-2 tie: seat 0 has 28 cards (cards) and the best primiera (7c 7h 7s
    Ad: 21+21+21+16 = 79 against 7d Kh Ks 5c: 21+10+10+15 = 56); seat 1 has 9 coins of 10 (coins)
    and 7d (settebello). So the sweep wins the deal 3-2, the trail draws it 2-2."""
    game = tapete.Escoba(variant="scopa")
    seat0 = "Ac 2c 3c 4c 6c Jc Qc Kc Ah 2h 5h 6h 7h Jh Qh As 2s 3s 4s 5s 6s 7s Js Qs Ad".split()
    seat1 = "2d 3d 4d 5d 6d 7d Jd Qd Kd".split()
    state = game.setup(
        hands=[["7c", "5c"], ["Kh", "Ks"]], table=["3h", "4h"], stock=[], piles=[seat0, seat1], to_move=0
    )
    sweep = state.string_to_action("7c")
    assert sorted(state.legal_actions()) == sorted([sweep, state.string_to_action("5c")])
    for seed in range(3):
        bot = bots.ISMCTS(iterations=200, seed=seed)
        assert bot.act(seat(state)) == sweep
        best = max(bot.stats, key=lambda s: s.visits)
        assert best.action == sweep and best.mean == 1.0


def test_a_time_budget_and_heuristic_rollouts():
    state = native("escoba").new_state(2)
    bot = bots.as_bot("ismcts:time_ms=30,rollout=heuristic,horizon=game", seed=1)
    assert isinstance(bot, bots.ISMCTS)
    assert bot.options.iterations is None and bot.options.time_ms == 30
    assert bot.act(seat(state)) in state.legal_actions()
    assert bot.iterations >= 1
    assert sum(s.visits for s in bot.stats) == bot.iterations
    capped = bots.ISMCTS(iterations=5, time_ms=10_000)
    capped.act(seat(state))
    assert capped.iterations == 5


def test_native_search_lets_other_python_threads_run():
    """The search runs with the GIL released: a Python thread keeps ticking meanwhile."""
    state = native("escoba").new_state(2)
    ticks: list[float] = []
    done = threading.Event()

    def tick():
        while not done.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    worker = threading.Thread(target=tick)
    worker.start()
    try:
        start = time.perf_counter()
        bots.ISMCTS(iterations=None, time_ms=300).act(seat(state))
        end = time.perf_counter()
    finally:
        done.set()
        worker.join()
    assert sum(start < t < end for t in ticks) >= 10
