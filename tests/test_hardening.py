"""Hostile and careless input on both engines: bounds, typed errors, short messages; and the
batch API's chunked mode (progress, totals, memory)."""

from __future__ import annotations

import json
import threading
import time

import numpy as np
import pytest

import tapete
from tapete.errors import InvalidNotationError, InvalidOptionError, InvalidStateError, TapeteError
from tapete.registry import GAMES

# ----- simulate: chunks, progress, totals, memory ------------------------------------------------


@pytest.mark.parametrize("name", list(GAMES))
def test_aggregate_totals_are_the_sums_of_the_arrays(name):
    game = GAMES[name].native()
    rows = tapete.simulate(game, games=25, seed=3)
    totals = tapete.simulate(game, games=25, seed=3, aggregate=True, threads=1)
    returns = rows["returns"]
    assert totals["games"] == 25
    assert np.array_equal(totals["returns_sum"], returns.sum(axis=0))
    assert np.array_equal(totals["scores_sum"], rows["scores"].sum(axis=0))
    assert np.array_equal(totals["wins"], (returns > 0).sum(axis=0))
    assert np.array_equal(totals["losses"], (returns < 0).sum(axis=0))
    assert totals["draws"] == int(((returns == 0).all(axis=1) & rows["finished"]).sum())
    assert totals["unfinished"] == int((~rows["finished"]).sum())
    assert totals["deals_sum"] == int(rows["deals"].sum())
    assert totals["decisions_sum"] == int(rows["decisions"].sum())


def test_progress_reports_every_chunk_up_to_the_total():
    seen: list[tuple[int, int]] = []
    tapete.simulate(tapete.Mosca(), games=3000, seed=1, progress=lambda done, total: seen.append((done, total)))
    assert seen and seen[-1] == (3000, 3000)
    assert all(total == 3000 for _, total in seen)
    assert [done for done, _ in seen] == sorted({done for done, _ in seen})


def test_an_error_in_progress_stops_the_batch():
    def stop(done, total):
        raise RuntimeError(f"stop at {done}")

    with pytest.raises(RuntimeError, match="stop at"):
        tapete.simulate(tapete.Mosca(), games=10**6, progress=stop)
    with pytest.raises(InvalidOptionError, match="progress"):
        tapete.simulate(tapete.Mosca(), games=10, progress=3)
    with pytest.raises(InvalidOptionError, match="aggregate"):
        tapete.simulate(tapete.Mosca(), games=10, aggregate="yes")


def test_results_that_cannot_fit_are_refused_before_allocating():
    # 2**32 games of 5 seats take 73 bytes each: about 314 GB, far more than any test machine
    with pytest.raises(InvalidOptionError, match=r"need 313\.5 GB .*aggregate"):
        tapete.simulate(tapete.Mosca(players=5), games=2**32)


def test_aggregate_mode_takes_any_batch_size_in_constant_memory():
    seen = []

    def stop(done, total):
        seen.append(done)
        raise StopIteration

    with pytest.raises(StopIteration):  # started without allocating 2**32 rows
        tapete.simulate(tapete.Mosca(players=5), games=2**32, aggregate=True, progress=stop)
    assert 0 < seen[0] < 2**16


def test_numpy_integers_are_counts_seeds_and_threads():
    r = tapete.simulate(tapete.Mosca(), games=np.int64(4), seed=np.uint64(2**63 + 5), threads=np.int32(1))
    assert r["deals"].shape == (4,)
    assert np.array_equal(r["returns"], tapete.simulate(tapete.Mosca(), games=4, seed=2**63 + 5)["returns"])


# ----- both engines: what messages quote, how deep and how long input may be ---------------------

ENGINES = ["native", "reference"]


def make(info, engine: str, **options):
    return (info.native if engine == "native" else info.reference)(**options)


def deep(levels: int = 100_000) -> list:
    x: list = []
    for _ in range(levels):
        x = [x]
    return x


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", list(GAMES))
def test_messages_quote_at_most_an_excerpt_of_the_input(name, engine):
    state = make(GAMES[name], engine).new_state(0)
    for text in ("x" * 10**7, "x" * 999, "7d " * 300):
        for call in (state.apply, state.string_to_action, state.play):
            with pytest.raises(TapeteError) as caught:
                call(text)
            message = str(caught.value)
            assert len(message) < 400, message[:500]
            assert "x" * 81 not in message and "7d " * 28 not in message
            assert "…" in message


@pytest.mark.parametrize(
    "module",
    [
        "tapete.reference.escoba_parts.cards",
        "tapete.reference.mosca",
        "tapete.reference.musta_maija",
        "tapete.reference.burako",
    ],
)
def test_the_reference_notation_functions_quote_an_excerpt(module):
    """The module-level notation readers of the reference engines, not only the states' methods."""
    import importlib

    string_to_action = importlib.import_module(module).string_to_action
    with pytest.raises(TapeteError) as caught:
        string_to_action("x" * 10**6)
    message = str(caught.value)
    assert len(message) < 400 and "x" * 81 not in message and "…" in message, message[:500]


@pytest.mark.parametrize("engine", ENGINES)
def test_the_excerpt_is_80_characters_and_an_ellipsis(engine):
    state = make(GAMES["mosca"], engine).new_state(0)
    with pytest.raises(InvalidNotationError) as caught:
        state.apply("y" * 2000)
    assert "y" * 80 + "…" in str(caught.value)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", list(GAMES))
def test_deeply_nested_input_is_a_typed_error(name, engine):
    info = GAMES[name]
    game = make(info, engine)
    nested = deep()
    with pytest.raises(TapeteError):
        make(info, engine, players=nested)
    with pytest.raises(TapeteError):
        game.new_state(0, deck=nested)
    with pytest.raises(TapeteError):
        game.state_from_json("[" * 100_000 + "]" * 100_000)
    with pytest.raises(TapeteError):
        game.state_from_json('{"a":' * 100_000 + "1" + "}" * 100_000)
    state = game.new_state(0)
    with pytest.raises(TapeteError):
        state.apply(nested)
    with pytest.raises(TapeteError):
        state.view(nested)


@pytest.mark.parametrize("engine", ENGINES)
def test_deeply_nested_primitive_arguments_are_typed_errors(engine):
    nested = deep()
    mosca = tapete.mosca if engine == "native" else tapete.reference.mosca
    musta = tapete.musta_maija if engine == "native" else tapete.reference.musta_maija
    with pytest.raises(TapeteError):
        mosca.legal_cards(nested, [], "h")
    with pytest.raises(TapeteError):
        musta.legal_attacks(nested, 2)


# ----- both engines: canonical input only ----------------------------------------------------------


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", list(GAMES))
def test_a_key_given_twice_is_refused(name, engine):
    game = make(GAMES[name], engine)
    text = game.new_state(3).to_json()
    assert game.state_from_json(text).to_json() == text
    with pytest.raises(InvalidStateError, match="twice"):
        game.state_from_json(text[:-1] + ',"version":1}')
    with pytest.raises(InvalidStateError, match="twice"):
        game.state_from_json(text.replace('"options":{', '"options":{"players":2,', 1))


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", list(GAMES))
def test_history_is_bounded_and_holds_action_ids(name, engine):
    info = GAMES[name]
    game = make(info, engine)
    d = json.loads(game.new_state(3).to_json())
    for bad in ([-1], [game.num_distinct_actions], [True], [1.0], ["0"], [0] * 1_000_001):
        e = dict(d, history=bad)
        with pytest.raises(InvalidStateError):
            game.state_from_json(json.dumps(e, sort_keys=True, separators=(",", ":")))
    e = dict(d, history=[0] * 1000)  # any valid ids: the history is not replayed
    assert game.state_from_json(json.dumps(e, sort_keys=True, separators=(",", ":"))).history() == [0] * 1000


@pytest.mark.parametrize("engine", ENGINES)
def test_bytes_json_is_read_alike(engine):
    game = make(GAMES["mosca"], engine)
    text = game.new_state(5).to_json()
    assert game.state_from_json(text.encode()).to_json() == text
    with pytest.raises(InvalidStateError):
        game.state_from_json(b"\xff" + text.encode())


def test_game_strings_take_ascii_digits_only():
    for text in ("escoba(players=٤)", "escoba(players=４)", "mosca(players=5,players=4)", "escoba(x={a:1,a:2})"):
        with pytest.raises(InvalidOptionError):
            tapete.load(text)
        with pytest.raises(InvalidOptionError):
            tapete.reference.load(text)
    assert tapete.load("escoba(players=4)").num_players == 4


# ----- native states shared between threads -----------------------------------------------------


class SlowIndex:
    """An action id whose ``__index__`` lets other threads run: reading it must not hold the
    state borrowed."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        time.sleep(0.0005)
        return self.value


def test_a_state_shared_between_threads_never_raises_an_untyped_error():
    state = tapete.Escoba().new_state(1)
    errors: list[BaseException] = []
    stop = threading.Event()

    def reader() -> None:
        while not stop.is_set():
            try:
                state.view(SlowIndex(0))
                state.legal_actions()
                state.observation(SlowIndex(1))
                state.to_json()
            except TapeteError:
                pass
            except BaseException as error:  # noqa: BLE001 - what the test looks for
                errors.append(error)

    threads = [threading.Thread(target=reader) for _ in range(3)]
    for t in threads:
        t.start()
    try:
        for _ in range(300):
            legal = state.legal_actions()
            if not legal:
                break
            try:
                state.apply(SlowIndex(legal[0]))
                state.action_to_string(SlowIndex(legal[0]))
            except TapeteError:
                pass
    finally:
        stop.set()
        for t in threads:
            t.join()
    assert not errors, errors[:3]


# ----- counts: one documented bound, one error, on both engines --------------------------------


@pytest.mark.parametrize("engine", ENGINES)
def test_counts_have_the_same_bound_on_both_engines(engine):
    musta = tapete.musta_maija if engine == "native" else tapete.reference.musta_maija
    assert musta.legal_attacks(["3h", "5h"], 52)  # no hand holds more than the pack
    for bad in (53, 2**63, 2**64, -1):
        with pytest.raises(InvalidStateError, match="0..52"):
            musta.legal_attacks(["3h", "5h"], bad)


@pytest.mark.parametrize("name", list(GAMES))
def test_setup_reads_none_alike_on_both_engines(name):
    """None stands for a setup argument's default only where that default is None."""
    import inspect

    info = GAMES[name]
    native, reference = info.native(), info.reference()
    d = json.loads(native.new_state(0).to_json())
    required = {  # a position each game's setup takes, from a dealt state
        "escoba": {"hands": [["7d"], ["2h"]]},
        "mosca": {"hands": d.get("hands"), "turnup": d.get("turnup")},
        "musta_maija": {"hands": d.get("hands")},
        "burako": {"racks": d.get("racks")},
    }[name]
    for parameter in inspect.signature(reference.setup).parameters.values():
        outcomes = []
        for game in (native, reference):
            try:
                game.setup(**{**required, parameter.name: None})
                outcomes.append("ok")
            except TapeteError as error:
                outcomes.append(type(error).__name__)
        assert outcomes[0] == outcomes[1], (parameter.name, outcomes)


@pytest.mark.parametrize("engine", ENGINES)
def test_escoba_score_deal_bounds_the_sweep_count_by_the_pack(engine):
    """docs/escoba_engine.md §7: at most the pack's size of sweeps per side, on both engines (the
    reference once built a list entry per sweep: 2**63 of them)."""
    escoba = tapete.escoba if engine == "native" else tapete.reference.escoba
    assert escoba.score_deal([["7d"], []], [40, 0])[0] >= 40  # the bound itself is a count
    for too_many in (41, 2**63, 2**64):
        with pytest.raises(tapete.InvalidStateError, match="at most the 40 cards"):
            escoba.score_deal([["7d"], []], [too_many, 0])
    with pytest.raises(tapete.InvalidStateError, match="at most the 80 cards"):
        escoba.score_deal([["7d"], []], [81, 0], variant="maresciallo_80")
