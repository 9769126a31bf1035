"""Every count a caller passes has one documented bound, enforced by both engines with the same
typed error (docs/design.md §2, each contract's "Which error, where"). Each integer argument of
``setup`` and of the rule primitives is pushed to the edges below on both engines, and the two
must agree: the same error class, or the same state (canonical JSON) or result.

The per-field bounds themselves are the contracts'; this test holds the two engines to one
reading of them, at the values an attacker tries first (0, -1, the pack's size, 2**31, 2**53+1,
2**63, 2**64 and beyond)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

import tapete
from tapete import reference

EDGES = [
    0,
    1,
    -1,
    2,
    3,
    39,
    40,
    41,
    52,
    53,
    54,
    107,
    108,
    2**31,
    2**53 + 1,
    2**63 - 1,
    2**63,
    2**64,
    -(2**63) - 1,
    10**30,
]


def outcome(call: Callable[[], Any]) -> tuple[str, str]:
    """("ok", the result or the state's JSON) or ("error", the error class)."""
    try:
        result = call()
    except tapete.TapeteError as error:
        return "error", type(error).__name__
    except Exception as error:  # an untyped error is a defect, whatever the other engine says
        return "untyped", f"{type(error).__name__}: {error}"[:200]
    if hasattr(result, "to_json"):
        return "ok", result.to_json()
    return "ok", json.dumps(result, sort_keys=True, default=str)


# (options, a valid setup, {argument: "int" or "per_seat"}) per game: the integer arguments of
# each game's setup (its contract's setup section).
SETUPS: dict[str, tuple[dict[str, Any], dict[str, Any], dict[str, str]]] = {
    "escoba": (
        {},
        {"hands": [["7d", "Kc"], ["2h", "3s"]], "table": ["4h", "3c"], "dealer": 1, "to_move": 0},
        {
            "dealer": "int",
            "to_move": "int",
            "scores": "per_side",
            "scope": "per_side",
            "last_capturer": "int",
            "seed": "int",
        },
    ),
    "mosca": (
        {"players": 3},
        {
            "hands": [["Kc", "Qc", "Jd", "9h", "Js"], ["Ks", "7h", "Ac", "9d", "Td"], ["Jc", "Tc", "Th", "Qs", "9s"]],
            "turnup": "Qd",
            "dealer": 0,
        },
        {"dealer": "int", "balances": "per_seat", "pot": "int", "deals_played": "int", "seed": "int"},
    ),
    "musta_maija": (
        {},
        {"hands": [["5h", "9h", "7d"], ["6h", "Kd", "3c"], ["4c", "Qs"], ["5c"]], "trump": "2s"},
        {"attacker": "int", "dealer": "int", "losses": "per_seat", "attacks": "int", "seed": "int"},
    ),
    "burako": (
        {},
        {"racks": [["R1", "R2", "R3"], ["B4", "B5", "B6"], ["K7", "K8", "K9"], ["Y10", "Y11", "Y12"]]},
        {
            "to_move": "int",
            "mano": "int",
            "turns": "int",
            "cancels": "int",
            "totals": "per_side",
            "hand": "int",
            "seed": "int",
        },
    ),
}


@pytest.mark.parametrize("name", sorted(SETUPS))
def test_the_base_setups_are_valid_on_both_engines(name: str) -> None:
    """Else every edge below would be refused for another reason, and prove nothing."""
    options, base, _ = SETUPS[name]
    native = getattr(tapete, tapete.registry.GAMES[name].class_name)(**options).setup(**base)
    ref = getattr(reference, tapete.registry.GAMES[name].class_name)(**options).setup(**base)
    assert native.to_json() == ref.to_json()


def setup_cases() -> list[tuple[str, str, int]]:
    return [(name, arg, edge) for name, (_, _, args) in SETUPS.items() for arg in args for edge in EDGES]


@pytest.mark.parametrize(("name", "arg", "edge"), setup_cases())
def test_setup_counts_have_one_bound(name: str, arg: str, edge: int) -> None:
    options, base, args = SETUPS[name]
    results = []
    for engine in (tapete, reference):
        game = getattr(engine, tapete.registry.GAMES[name].class_name)(**options)
        spec = dict(base)
        if args[arg] == "int":
            spec[arg] = edge
        else:
            count = game.num_sides if args[arg] == "per_side" and hasattr(game, "num_sides") else game.num_players
            if name == "burako":
                count = 2  # Burako's totals are per team
            spec[arg] = [edge] + [0] * (count - 1)
        results.append(outcome(lambda game=game, spec=spec: game.setup(**spec)))
    assert results[0][0] != "untyped", results[0]
    assert results[1][0] != "untyped", results[1]
    assert results[0] == results[1]


def primitive_cases() -> list[tuple[str, Callable[[Any, int], Any]]]:
    return [
        ("escoba.score_deal scope", lambda m, x: m.escoba.score_deal([["7d"], []], [x, 0])),
        ("escoba.score_deal declared", lambda m, x: m.escoba.score_deal([["7d"], []], [0, 0], declared=[x, 0])),
        (
            "escoba.score_deal ks_sweeps",
            lambda m, x: m.escoba.score_deal([["Ks"], []], [1, 0], ks_sweeps=[x, 0], variant="maresciallo"),
        ),
        (
            "escoba.capture_options seat",
            lambda m, x: m.escoba.capture_options("7d", ["7c"], pile_tops=[None, None], seat=x, variant="rubamazzo"),
        ),
        ("musta_maija.legal_attacks", lambda m, x: m.musta_maija.legal_attacks(["7d", "7c"], x)),
        (
            "musta_maija.trump_from_stock seed",
            lambda m, x: m.musta_maija.trump_from_stock(["7d", "As", "8c"], seed=x, spade_reinsert="random_position"),
        ),
    ]


@pytest.mark.parametrize("edge", EDGES)
@pytest.mark.parametrize(("label", "call"), primitive_cases(), ids=[c[0] for c in primitive_cases()])
def test_primitive_counts_have_one_bound(label: str, call: Callable[[Any, int], Any], edge: int) -> None:
    native = outcome(lambda: call(tapete, edge))
    ref = outcome(lambda: call(reference, edge))
    assert native[0] != "untyped" and ref[0] != "untyped", (native, ref)
    assert native == ref, label
