"""Differential tampering: fields of real states' JSON are changed (numbers nudged and pushed to
their bounds, cards moved between zones or dropped or repeated, seats swapped, phases and flags
switched, ids and lengths of the history broken) and both engines read the result. They must agree
on acceptance and on the error class, accept the same canonical text, and every accepted state
must play a random game to the end without getting stuck (a player to move with no legal action).

Each game's main option sets (``GameInfo.option_sets``) are tampered with. The CI sweep is sized to
run in well under a minute at ``-n 2``; ``TAPETE_TAMPER=1`` runs a sweep about 20 times larger.
"""

from __future__ import annotations

import copy
import json
import os
import random
from collections.abc import Iterator
from typing import Any

import pytest

from tapete.errors import InvalidStateError, TapeteError
from tapete.registry import GAMES

LARGE = os.environ.get("TAPETE_TAMPER") == "1"
STATES = 12 if LARGE else 4  # states per option set (taken along random games)
MUTATIONS = 120 if LARGE else 25  # mutations per state
PLAYOUT_CAP = 20_000  # decisions a tampered state may take to end (the longest default games need far fewer)

#: The header of every state (checked by the layer, not by the game): left alone.
FIXED = {"game", "version", "options"}
#: Numbers a field is pushed to: around 0 and 1, and at the bounds of JSON readers and machine words.
EDGES = [0, 1, -1, 2, 5, 51, 52, 100, 2**31, 2**53 + 1, 2**63, -(2**63) - 1, 2**64]

CASES = [pytest.param(name, i, id=f"{name}-{i}") for name, info in GAMES.items() for i in range(len(info.option_sets))]


def canonical(d: Any) -> str:
    return json.dumps(d, sort_keys=True, separators=(",", ":"))


def paths(x: Any, path: tuple = ()) -> Iterator[tuple[tuple, Any]]:
    """Every (path, value) below ``x``, lists and dicts included."""
    yield path, x
    if isinstance(x, dict):
        for k, v in x.items():
            yield from paths(v, (*path, k))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from paths(v, (*path, i))


def get(d: Any, path: tuple) -> Any:
    for p in path:
        d = d[p]
    return d


def put(d: Any, path: tuple, value: Any) -> None:
    get(d, path[:-1])[path[-1]] = value


def mutations(d: dict, rng: random.Random, phases: list[str]) -> Iterator[tuple[str, dict]]:
    """Tampered copies of the state ``d``, each with a short description."""
    fields = [(p, v) for p, v in paths(d) if p and p[0] not in FIXED]
    ints = [(p, v) for p, v in fields if isinstance(v, int) and not isinstance(v, bool)]
    bools = [(p, v) for p, v in fields if isinstance(v, bool)]
    lists = [(p, v) for p, v in fields if isinstance(v, list)]
    full = [(p, v) for p, v in lists if v and all(isinstance(x, int) and not isinstance(x, bool) for x in v)]
    strings = [(p, v) for p, v in fields if isinstance(v, str)]
    kinds = ["nudge", "edge", "move", "drop", "repeat", "swap", "flip", "phase", "history"]
    for _ in range(10_000):
        e = copy.deepcopy(d)
        kind = rng.choice(kinds)
        if kind == "nudge" and ints:
            p, v = rng.choice(ints)
            put(e, p, v + rng.choice([-2, -1, 1, 2]))
        elif kind == "edge" and ints:
            p, v = rng.choice(ints)
            put(e, p, rng.choice(EDGES))
        elif kind == "move" and full and lists:
            (src, xs), (dst, _) = rng.choice(full), rng.choice(lists)
            if src == dst or src[: len(dst)] == dst or dst[: len(src)] == src:
                continue
            i = rng.randrange(len(xs))
            item = get(e, src).pop(i)
            target = get(e, dst)
            target.insert(rng.randrange(len(target) + 1), item)
            if rng.random() < 0.5:  # canonical sets are ascending
                try:
                    target.sort()
                except TypeError:
                    pass
        elif kind == "drop" and full:
            p, xs = rng.choice(full)
            get(e, p).pop(rng.randrange(len(xs)))
        elif kind == "repeat" and full:
            p, xs = rng.choice(full)
            get(e, p).append(rng.choice(xs))
        elif kind == "swap" and lists:
            p, xs = rng.choice(lists)
            if len(xs) < 2:
                continue
            i, j = rng.sample(range(len(xs)), 2)
            target = get(e, p)
            target[i], target[j] = target[j], target[i]
        elif kind == "flip" and bools:
            p, v = rng.choice(bools)
            put(e, p, not v)
        elif kind == "phase" and strings:
            p, v = rng.choice(strings)
            others = [x for x in phases if x != v]
            if not others:
                continue
            put(e, p, rng.choice(others))
        elif kind == "history" and isinstance(e.get("history"), list):
            h = e["history"]
            choice = rng.randrange(4)
            if choice == 0 and h:
                h[rng.randrange(len(h))] = rng.choice([-1, 10**6, 2**63])
            elif choice == 1:
                h.append(0)
            elif choice == 2 and h:
                h.pop()
            else:
                e["history"] = h * 3
        else:
            continue
        if e != d:
            yield kind, e


def outcome(game: Any, text: str) -> tuple[str, Any]:
    try:
        return "ok", game.state_from_json(text)
    except TapeteError as error:
        return type(error).__name__, error


def play_to_the_end(state: Any, rng: random.Random) -> None:
    for _ in range(PLAYOUT_CAP):
        if state.is_terminal():
            return
        legal = state.legal_actions()
        assert legal, f"stuck: player {state.current_player()} to move, no legal action"
        state.apply(rng.choice(legal))


def real_states(game: Any, rng: random.Random) -> list[dict]:
    """States along random games: the start, points in the middle, and the end."""
    out = []
    for _ in range(STATES):
        s = game.new_state(rng.randrange(2**32))
        target = rng.choice([0, 1, 3, 10, 30, 100, 10**9])
        steps = 0
        while not s.is_terminal() and steps < min(target, PLAYOUT_CAP):
            s.apply(rng.choice(s.legal_actions()))
            steps += 1
        out.append(json.loads(s.to_json()))
    return out


@pytest.mark.parametrize("name,index", CASES)
def test_tampered_states(name, index):
    info = GAMES[name]
    options = info.option_sets[index]
    native, reference = info.native(**options), info.reference(**options)
    rng = random.Random(f"{name}-{index}")
    states = real_states(native, rng)
    phases = sorted({v for d in states for p, v in paths(d) if isinstance(v, str) and p and p[0] not in FIXED})
    disagreements = []
    accepted = 0
    for d in states:
        made = 0
        for kind, e in mutations(d, rng, phases):
            text = canonical(e)
            (n_kind, n_state), (r_kind, r_state) = outcome(native, text), outcome(reference, text)
            if n_kind != r_kind:
                disagreements.append((kind, n_kind, r_kind, str(n_state if n_kind != "ok" else r_state)[:160], text))
            elif n_kind == "ok":
                accepted += 1
                assert n_state.to_json() == r_state.to_json() == text, (kind, text)
                play_to_the_end(n_state, random.Random(made))
            made += 1
            if made == MUTATIONS:
                break
    assert not disagreements, f"{len(disagreements)} disagreements, e.g.\n" + "\n".join(
        f"{k}: native {a}, reference {b}: {why}\n  {text[:2000]}" for k, a, b, why, text in disagreements[:5]
    )


def _mosca_move_card(d):
    d["talon"].append(d["hands"][0].pop(0))


#: Impossible positions found by hand, each refused by both engines: (game, options, seed, change).
KNOWN = [
    ("mosca", {}, 1, _mosca_move_card),  # seat 0 holds 4 cards: play got stuck
    ("mosca", {}, 1, lambda d: d.update(dealer=(d["dealer"] + 1) % 4)),
    ("mosca", {}, 1, lambda d: d["exchanged"].__setitem__(0, 2)),
    ("mosca", {}, 1, lambda d: d["tricks_won"].__setitem__(3, 2)),
    ("mosca", {}, 1, lambda d: d["declarations"].__setitem__(1, 1)),
    ("mosca", {}, 1, lambda d: d["balances"].__setitem__(0, 2**53 + 1)),
    ("musta_maija", {}, 1, lambda d: d.update(trump=51 if d["trump"] != 51 else 50)),
    ("musta_maija", {}, 1, lambda d: d.update(attacks=2**63)),
    ("burako", {}, 1, lambda d: d.update(muerto_status=[1, 0])),
    ("burako", {}, 1, lambda d: d.update(no_discard=0)),
    ("burako", {}, 1, lambda d: d.update(must_use=0)),
    ("burako", {}, 1, lambda d: d.update(cancels=1)),
    ("burako", {}, 1, lambda d: d.update(drawn=0)),
]


@pytest.mark.parametrize("name,options,seed,change", KNOWN)
def test_known_impossible_positions_are_refused_by_both_engines(name, options, seed, change):
    info = GAMES[name]
    d = json.loads(info.native(**options).new_state(seed).to_json())
    change(d)
    text = canonical(d)
    for game in (info.native(**options), info.reference(**options)):
        with pytest.raises(InvalidStateError):
            game.state_from_json(text)
