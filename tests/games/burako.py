"""Burako for the generic tests: the view's keys, the tiles in play, and the paired states of the
no-leak test (docs/rules/burako.md §2 "Visibility")."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from games import BadInputs, Refusal
from tapete.errors import IllegalActionError, InvalidNotationError

HELD = "racks"
#: The view's keys of what only its seat sees (its rack, the mover's buffer and drawn tile): null in the public view.
OWN_VIEW_KEYS = {"rack", "buffer", "drawn"}

#: Short single hands of both sizes besides the registry's sets.
MORE_OPTION_SETS: list[dict[str, Any]] = [
    {"players": 2, "match": "single_hand", "max_turns": 12},
    {"players": 4, "match": "single_hand", "max_turns": 12},
]


def deck(options: dict[str, Any]) -> list[int]:
    """The 106 tiles: two of each of the 53 types (docs/rules/burako.md §1)."""
    return [t for t in range(53) for _ in range(2)]


VIEW_KEYS = {
    "buffer", "cancels", "current_player", "drawn", "hand", "hand_scores", "mano", "melds", "muerto_status",
    "history", "muertos_left", "must_use", "no_discard", "phase", "player", "pozo", "pozo_size", "rack", "rack_sizes",
    "stock_size", "terminal", "totals", "turns", "winner",
}  # fmt: skip


def view_keys(options: dict[str, Any]) -> set[str]:
    return VIEW_KEYS


def own_invariants(game: Any, state: Any, doc: dict[str, Any]) -> None:
    """The 106 tiles, two of each of the 53 types, across racks, buffer, melds, pozo, stock and
    muertos (docs/rules/burako.md §1)."""
    tiles = [t for rack in doc["racks"] for t in rack] + doc["buffer"] + doc["pozo"] + doc["stock"]
    tiles += [t for m in doc["muertos"] for t in m]
    tiles += [t for team in doc["melds"] for meld in team for t in meld["tiles"]]
    assert Counter(tiles) == Counter({t: 2 for t in range(53)}), "the 106 tiles, each type twice"


def paired_state(game: Any, doc: dict[str, Any], seat: int, rng: random.Random) -> tuple[dict[str, Any], Any] | None:
    """The position with every tile hidden from ``seat`` dealt again into the same places: the
    other racks (the drawn tile of the mover stays put), the mover's buffer, the muertos, the stock
    order and, with ``pozo_visibility = top_only``, the pozo under its top tile."""
    top_only = doc["options"]["pozo_visibility"] == "top_only"
    mover = doc["to_move"]
    others = [s for s in range(len(doc["racks"])) if s != seat]
    fixed_drawn = doc["drawn"] if doc["drawn"] != -1 and mover in others else None
    hidden: list[int] = []
    racks = {}
    for s in others:
        rack = list(doc["racks"][s])
        if s == mover and fixed_drawn is not None:
            rack.remove(fixed_drawn)
        racks[s] = rack
        hidden += rack
    buffer_hidden = mover in others and bool(doc["buffer"])
    if buffer_hidden:
        hidden += doc["buffer"]
    hidden += [t for m in doc["muertos"] for t in m] + doc["stock"]
    pozo_hidden = top_only and len(doc["pozo"]) > 1
    if pozo_hidden:
        hidden += doc["pozo"][:-1]
    rng.shuffle(hidden)
    new = json.loads(json.dumps(doc))
    it = iter(hidden)
    for s in others:
        rack = [next(it) for _ in racks[s]]
        if s == mover and fixed_drawn is not None:
            rack.append(fixed_drawn)
        new["racks"][s] = sorted(rack)
    if buffer_hidden:
        new["buffer"] = sorted(next(it) for _ in doc["buffer"])
    new["muertos"] = [[next(it) for _ in m] for m in doc["muertos"]]
    new["stock"] = [next(it) for _ in doc["stock"]]
    if pozo_hidden:
        new["pozo"] = [next(it) for _ in doc["pozo"][:-1]] + [doc["pozo"][-1]]
    new["rng"] = str(rng.randrange(2**64))
    return new, game.state_from_json(json.dumps(new, sort_keys=True, separators=(",", ":")))


# docs/burako_engine.md: 1966 action ids, 4217 + 2 n values
ATTRIBUTES = [({"players": 2}, 2, 1966, (4221,)), ({}, 4, 1966, (4225,))]

GAME_STRINGS = ["burako(variant=standard)", "burako(variant=standard,players=2)"] + [
    "burako(variant=standard,first_mano=1,max_wilds_per_meld=fewer_than_naturals,muerto_size=hand_size)",
    "burako(variant=standard,max_wilds_per_meld=unlimited,run_wrap=true)",
]
# each of these strings prints as itself
PRINTED: list[tuple[Any, str]] = [(text, text) for text in GAME_STRINGS] + [({}, "burako(variant=standard)")]

BAD_OPTIONS: list[dict[str, Any]] = [
    {"players": 3},
    {"two_player_hand": 13},
    {"max_wilds_per_meld": 3},
    {"max_wilds_per_meld": "many"},
    {"max_wilds_per_meld": "Unlimited"},
    {"max_wilds_per_meld": None},
    {"run_wrap": 1},
    {"run_wrap": "true"},
    {"first_mano": 4},
    {"first_mano": -1},
    {"players": 2, "first_mano": 2},  # the first mano is a seat of the game
    {"canasta_min": 2},
    {"canasta_min": 15},
    {"target": 0},
    {"max_turns": 10**10},
    {"twos_wild": 1},
    {"close_mode": "never"},
    {"joker_value": 40},
    {"muerto_size": 12},
    {"variant": "brazil"},
    {"max_cancels_per_turn": 0},
    {"max_hands": 1.5},
]
BAD_GAME_STRINGS: list[str] = ["burako(variant=brazil)"]

BAD_SETUPS: list[tuple[dict[str, Any], dict[str, Any]]] = [
    ({}, kwargs)
    for kwargs in (
        {"racks": [["R1"], ["R1"], ["R1"], []]},  # R1 three times
        {"racks": [["R1"]] * 3},  # wrong number of racks
        {"racks": [["Q5"], [], [], []]},
        {"racks": [[], [], [], []], "melds": [[["R3", "R4", "B5"]], []]},  # TV-B11 is no meld
        {"racks": [["R3"], [], [], []], "phase": "draw", "buffer": ["R4"]},
        {"racks": [["R3"], [], [], []], "to_move": 4},
        {"racks": [["R3"], [], [], []], "muerto_status": ["gone", 0]},
        {"racks": [["R3"], [], [], []], "phase": "play"},
    )
]


def bad_decks(pack: list[int]) -> list[Any]:
    return [["R1"] * 106, list(range(53)), [0, 0] * 53]


def bad_json(doc: dict[str, Any]) -> list[dict[str, Any]]:
    players = len(doc["racks"])
    return [
        {"racks": doc["racks"][:-1]},
        {"stock": doc["stock"][1:]},  # a tile goes missing
        {"stock": doc["stock"] + [0]},  # a tile three times
        {"rng": "-1"},
        {"phase": "play"},
        {"melds": [[{"kind": "run", "tiles": [0, 13, 26]}], []]},
        {"muerto_status": [3, 0]},
        {"options": {**doc["options"], "players": 6 - players}},  # the other table size
    ]


# TV-B35: rack {R3, R4, K9, B1} in the meld phase
_TV_B35 = {"racks": [["R3", "R4", "K9", "B1"], ["Y1"], ["Y2"], ["Y3"]], "phase": "meld"}
_NOTATION = [
    "", "drw", "take", "add", "add R0", "add R14", "add X5", "discard J", "extend R5", "extend 35 R5",
    "extend -1 R5", "extend x R5", "meld now", "add R5 R6",
]  # fmt: skip
BAD_INPUTS = [
    BadInputs(
        _TV_B35,
        # draw in the meld phase, redraw off the first turn, add a tile not held, meld/cancel with an
        # empty buffer, discard a tile not held, extend a slot that holds no meld
        [Refusal("apply", a, IllegalActionError) for a in (0, 1, 2, 3 + 52, 56, 57, 58 + 52, 111, 111 + 53 * 34 + 2)]
        + [Refusal(m, t, InvalidNotationError) for t in _NOTATION for m in ("apply", "string_to_action")],
    ),
    BadInputs(
        _TV_B35,
        [
            Refusal("apply", "add R3", IllegalActionError),  # non-decreasing buffer order (docs/rules/burako.md §5.3)
            Refusal("apply", "discard K9", IllegalActionError),  # TV-B35: the buffer must be empty
            Refusal("apply", "meld", IllegalActionError),  # {R4} is no meld
        ],
        moves=["add R4"],
    ),
]
