"""Escoba for the generic tests: the view's keys (they follow the options:
docs/escoba_engine.md §10), the cards in play, the paired states of the no-leak test, and the
game's own bad input (docs/escoba_engine.md §7a)."""

from __future__ import annotations

import json
import random
from typing import Any

from games import BadInputs, Refusal, dealt_hands_tampering
from tapete.errors import IllegalActionError, InvalidNotationError

HELD = "hands"
#: The view's keys of what only its seat sees (the seat's own hand): null in the public view.
OWN_VIEW_KEYS = {"hand"}

PRESET_PLAYERS = [
    ("scopa", 3), ("scopa", 4), ("scopa", 6), ("escoba", 2), ("escoba", 3), ("escoba", 6),
    ("scopa_15", 2), ("scopa_15", 4), ("scopa_11", 2), ("scopa_11", 3), ("asso_piglia_tutto", 2),
    ("asso_piglia_tutto", 3), ("asso_piglia_tutto", 4), ("scopa_d_assi", 3), ("scopa_d_assi", 4),
    ("sbarazzina", 2), ("sbarazzina", 4), ("scopone_9", 4), ("scopone_10", 4), ("differenze", 2),
    ("inversa", 4), ("somma_e_differenza", 3), ("modulo_sette", 2), ("punti_a_denari", 6),
    ("non_prendere", 4), ("non_prendere", 6), ("assi_non_prendere", 4), ("scopone_romano", 4), ("frac", 2),
    ("tuzzulicchio", 3), ("cocchiaundici", 2), ("rubamazzo", 2), ("rubamazzo", 4), ("rubamazzo_somma", 3),
    ("rubamazzo_somma", 4), ("rubamazzo_somma", 6), ("cirulla", 2), ("bazzica", 2), ("granja", 4),
    ("scopone_romano_contrario", 4), ("maresciallo", 4),
]  # fmt: skip
#: Every preset at its player counts (the registry's sets besides); fidasse's random claims and
#: doubts lower the scores without end, so its matches are capped.
MORE_OPTION_SETS = [{"variant": v, "players": n} for v, n in PRESET_PLAYERS] + [
    {"variant": "fidasse", "players": n, "max_deals": 3} for n in (2, 3, 4)
]

BASE_VIEW_KEYS = {
    "player", "current_player", "dealer", "deal", "hand", "hand_sizes", "table", "piles", "scope",
    "stock_size", "pending", "selection", "scores", "deal_points", "last_capturer", "terminal",
    "winner", "loser", "history",
}  # fmt: skip


def view_keys(options: dict[str, Any]) -> set[str]:
    """docs/escoba_engine.md §10: the base keys, and those each option adds."""
    keys = set(BASE_VIEW_KEYS)
    knocks = bool(options["knocks"])
    if options["tuzzoli"] or knocks:
        keys.add("declarations")
    if knocks or options["last_hand_open"]:
        keys.add("shown")
    if options["matta"] is not None:
        keys.add("matta_value")
    for key, on in (
        ("ks_sweeps", options["maresciallo_penalty"]),
        ("builds", options["builds"]),
        ("twin_sweeps", options["deck"] == "double_italian80"),
        ("in_play", options["target_mode"] == "eliminate"),
        ("pile_tops", options["steal"]),
    ):
        if on:
            keys.add(key)
    if options["fidasse"]:
        keys.add("claim")
    return keys


def deck(options: dict[str, Any]) -> list[int]:
    """The pack by ids (docs/escoba_engine.md §1, docs/escoba_engine.md §1a): 40 ids (no 8, 9, T),
    all 52, or the 40 twice."""
    forty = [13 * suit + rank for suit in range(4) for rank in (0, 1, 2, 3, 4, 5, 6, 10, 11, 12)]
    return {"italian52": list(range(52)), "double_italian80": forty + forty}.get(options["deck"], forty)


def own_invariants(game: Any, state: Any, doc: dict[str, Any]) -> None:
    """Every card of the pack in exactly one place while a deal is on (hands, table, stock, builds,
    piles, the pending card, an open claim); the double pack counts two copies of each id. At the
    end, a winner's return is 1, a loser's -1, and a match without either returns 0 to all."""
    cards = [c for hand in doc["hands"] for c in hand] + doc["table"] + doc["stock"]
    cards += [c for build in doc.get("builds", []) for c in build] + [c for pile in doc["piles"] for c in pile]
    cards += [x for x in (doc["pending"], doc.get("claim", -1)) if x >= 0]
    pack = deck(doc["options"])
    counts: dict[int, int] = {}
    for c in cards:
        counts[c] = counts.get(c, 0) + 1
    assert all(counts[c] <= pack.count(c) for c in counts), "a card is in too many places or not in the pack"
    if not doc["terminal"]:
        assert len(cards) == len(pack), "cards were lost during a deal"
        return
    returns = state.returns()
    if doc["winner"] >= 0:
        assert max(returns) == 1.0
    elif doc["loser"] >= 0:
        assert min(returns) == -1.0
    else:
        assert returns == [0.0] * game.num_players


def paired_state(game: Any, doc: dict[str, Any], seat: int, rng: random.Random) -> tuple[dict[str, Any], Any] | None:
    """The same position with the cards hidden from ``seat`` (the other hands, unless shown by a
    knock or an open last hand, and the stock) dealt out again at random. With builds, whether a
    card has two outcomes depends on the mover's hand (docs/escoba_engine.md §3b), so the cards
    are drawn again until the state is consistent."""
    from tapete.errors import InvalidStateError

    shown = [k == 2 for k in doc.get("knock_state", [0] * len(doc["hands"]))]
    if doc["options"]["last_hand_open"] and not doc["stock"]:
        shown = [True] * len(doc["hands"])
    for _ in range(200):
        hidden = [c for s, hand in enumerate(doc["hands"]) if s != seat and not shown[s] for c in hand] + doc["stock"]
        rng.shuffle(hidden)
        new = json.loads(json.dumps(doc))
        it = iter(hidden)
        for s, hand in enumerate(doc["hands"]):
            if s != seat and not shown[s]:
                new["hands"][s] = sorted(next(it) for _ in hand)
        new["stock"] = [next(it) for _ in doc["stock"]]
        new["rng"] = str(rng.randrange(2**64))
        try:
            return new, game.state_from_json(json.dumps(new, sort_keys=True, separators=(",", ":")))
        except InvalidStateError:
            if not doc["options"]["builds"]:
                raise
    return None


# docs/escoba_engine.md §10: 161 + 42 S + 4 n values, S = 2 teams, n = 4 seats
ATTRIBUTES = [({"variant": "escoba", "players": 4}, 4, 219, (161 + 42 * 2 + 4 * 4,))]

GAME_STRINGS = list(
    (
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
    )
)
PRINTED: list[tuple[Any, str]] = []

BAD_OPTIONS: list[dict[str, Any]] = [
    {"variant": "no_such_game"},
    {"players": 5},
    {"napola": 1},
    {"target": 0},
    {"target": 1.5},
    {"capture_kinds": ["match", "nonsense"]},
    {"capture_kinds": ["match", "match"]},
    {"capture_kinds": "match"},
    {"fewest_cards": "some"},
    {"primiera_mode": "florence"},
    {"milan_tiebreak": []},
    {"milan_tiebreak": ["8"]},
    {"special_cards": {"Zz": 1}},
    {"special_cards": {"Kd": -1}},
    {"cards_per_hand": 4},  # 36 is not a multiple of 2*4
    {"variant": "scopone_9", "players": 2},
    {"variant": "scopone_romano_contrario", "players": 3},
    {"elimination_deal": "some"},
    {"target_mode": "out"},
    {"variant": "tuzzulicchio", "target_mode": "eliminate"},
    {"setenta_mode": "most_sevens", "primiera_mode": "standard"},
    {"win_margin": 0},
    {"void_deal_min_kings": 7},
    {"partnership": "teams"},
    {"target": {"a": 1}},
    {"napola": object()},
    # fidasse's face-down claim would show through pile tops, shown hands and Ks sweeps
    {"variant": "fidasse", "steal": True},
    {"variant": "fidasse", "knocks": {"decino": 10}},
    {"variant": "fidasse", "last_hand_open": True},
    {"variant": "maresciallo", "fidasse": True},
    # builds add plain values; pile items and face-down claims have no build rules
    {"variant": "granja", "matta": "7h"},
    {"variant": "rubamazzo", "builds": True},
    {"variant": "fidasse", "builds": True},
    # the double pack (docs/escoba_engine.md §1a) refuses what its multiset search and scoring do not cover
    {"variant": "maresciallo_80", "players": 2},
    {"variant": "maresciallo_80", "capture_kinds": ["match", "sum", "sum15"]},
    {"variant": "maresciallo_80", "matta": "7h"},
    {"variant": "maresciallo_80", "builds": True},
    {"variant": "maresciallo_80", "special_cards": {"Kd": 1}},
    {"variant": "maresciallo_80", "capture_obligation": "any_card"},
    {"variant": "scopa", "deck": "double_italian80"},
    # out of range
    {"target": 10**9 + 1},
    {"target": 2**63},
    {"target": 10**5000},
    {"scopa_value": 2**70},
    {"special_cards": {"Kd": 10**10}},
    {"milan_tiebreak": ["a"]},
    {"void_deal_min_kings": 1, "void_deal_min_aces": 1, "initial_table_cards": 36, "cards_per_hand": 2},
    {"milan_tiebreak": [[[[[[[[[[["7"]]]]]]]]]]]},
]
BAD_GAME_STRINGS = ["escoba(target=" + "9" * 5000 + ")", "escoba(milan_tiebreak=" + "[" * 3000 + "]" * 3000 + ")"]

_DOUBLE = {"variant": "maresciallo_80"}
BAD_SETUPS: list[tuple[dict[str, Any], dict[str, Any]]] = [
    ({}, {"hands": [["7d", "7d"], ["2h", "2c"]]}),  # duplicate card
    ({}, {"hands": [["7d"], ["2h"]], "table": ["7d"]}),  # card in two places
    ({}, {"hands": [["8d"], ["2h"]]}),  # not in the 40-card pack
    ({}, {"hands": [["Zz"], ["2h"]]}),  # not a card
    ({}, {"hands": [["7d"], ["2h"], ["3h"]]}),  # three hands for two players
    ({}, {"hands": [["7d", "Kc", "2c"], ["2h"]], "dealer": 0}),  # seat 1 to move with fewer cards than the dealer
    ({}, {"hands": [[], []]}),  # nobody holds a card
    ({}, {"hands": [["7d"], ["2h"]], "stock": ["3h"]}),  # stock given but cards missing
    ({}, {"hands": [["7d"], ["2h"]], "to_move": 5}),
    ({}, {"hands": [["7d"], ["2h"]], "scores": [1]}),
    ({}, {"hands": [["7d"], ["2h"]], "last_capturer": 3}),
    ({}, {"hands": [["7d"], ["2h"]], "seed": -1}),
    ({}, {"hands": [[52], ["2h"]]}),
    ({}, {"hands": [["7d"], ["2h"]], "in_play": [0, 1]}),  # in_play needs target_mode=eliminate
    # docs/rules/escoba.md §1.9: scores may go negative, but within bounds
    ({}, {"hands": [["7d"], ["7c"]], "scores": [10**16, 0]}),
    ({}, {"hands": [["7d"], ["7c"]], "scores": [2**63, 0]}),
    ({}, {"hands": [["7d"], ["7c"]], "scores": [10**5000, 0]}),
    ({}, {"hands": [["7d"], ["7c"]], "scope": [30, 11]}),  # more sweeps than plays in a deal
    (_DOUBLE, {"hands": [["7d", "7d", "7d"], ["2h", "3h", "4h"], ["2c", "3c", "4c"], ["5c", "6c", "7c"]]}),
    (_DOUBLE, {"hands": [["7d"], ["7d"], ["3c"], ["3c"]], "table": ["7d"]}),  # a third copy elsewhere
    (_DOUBLE, {"hands": [["8d"], ["2h"], ["2c"], ["3c"]]}),  # not in the 40-card ids
    (_DOUBLE, {"hands": [["7d"], ["2h"], ["2c"], ["3c"]], "stock": ["3h", "3h"]}),  # copies missing
]


def bad_decks(pack: list[int]) -> list[Any]:
    return [pack[:-1] + ["8d"] if len(pack) != 52 else pack[:-1] + [pack[0]]]


def bad_json(doc: dict[str, Any]) -> list[dict[str, Any]]:
    return dealt_hands_tampering(doc) + [
        {"table": doc["table"] + [99]},
        {"scores": [0]},
        {"options": {**doc["options"], "target": 99}},  # another game's options
        {"pending": 5},
    ]


# seat 0 to move holding 7d Kc; table 4h 3s: 7d must capture, Kc trails (rules TV-13)
_TV13 = {"hands": [["7d", "Kc"], ["2h", "5c"]], "table": ["4h", "3s"], "dealer": 1}
_NOTATION = ["", "7x", "take", "take 7x", "11d", "play 7d", "dne", "take pile 9", "7d 7d"]
# TV-13: 7d must take 4h 3s (it cannot trail, nor take a part); Kc can only trail; 2h is not on the table
_ILLEGAL_MOVES = ["7d", "Kc x 4h", "7d x 4h", "7d x 4h 3s 2h", "2h"]
_UNPARSEABLE_MOVES = ["Qq", "Kc x", "x 4h", "7d take 4h", ""]
BAD_INPUTS = [
    BadInputs(
        _TV13,
        # take 5d? done, take pile, knock, 2c not in hand
        [Refusal("apply", a, IllegalActionError) for a in (52 + 10, 104, 105, 217, 1)]
        + [Refusal("apply", "2h", IllegalActionError, "legal")]  # the opponent's card
        + [Refusal(m, t, InvalidNotationError) for t in _NOTATION for m in ("apply", "string_to_action")]
        + [Refusal("play", m, IllegalActionError) for m in _ILLEGAL_MOVES]
        + [Refusal("play", m, InvalidNotationError) for m in _UNPARSEABLE_MOVES],
    )
]
