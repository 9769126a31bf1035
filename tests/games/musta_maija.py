"""Musta Maija for the generic tests: the view's keys, the cards in play, and the paired states of
the no-leak test (docs/rules/musta_maija.md §1 "Visibility")."""

from __future__ import annotations

import json
import random
from typing import Any

from games import BadInputs, Refusal, dealt_hands_tampering
from tapete.errors import IllegalActionError, InvalidNotationError

HELD = "hands"
#: The view's keys of what only its seat sees (its hand): null in the public view.
OWN_VIEW_KEYS = {"hand"}

#: Player counts, draw orders, fixed-length matches and the reinserted spade besides the registry's.
MORE_OPTION_SETS: list[dict[str, Any]] = [
    {"players": 3},
    {"players": 5},
    {"players": 6},
    {"variant": "pagat", "players": 3},
    {"beat_optional": False, "draw_order": "defender_then_attacker"},
    {"match": "fixed_hands", "match_hands": 2, "max_attacks": 30, "players": 3},
    {"players": 5, "hand_size": 3, "draw_order": "defender_then_attacker"},
    {"players": 6, "spade_reinsert": "random_position"},
]


def deck(options: dict[str, Any]) -> list[int]:
    return list(range(52))


VIEW_KEYS = {
    "player", "current_player", "phase", "hand_number", "dealer", "attacker", "defender", "hand",
    "hand_sizes", "history", "known", "out", "stock_size", "trump", "trump_card", "trump_in_stock", "turned",
    "out_of_play", "attack", "beaten", "left", "target", "attacks", "losses", "terminal", "losers",
}  # fmt: skip


def view_keys(options: dict[str, Any]) -> set[str]:
    return VIEW_KEYS


def own_invariants(game: Any, state: Any, doc: dict[str, Any]) -> None:
    """The 52 cards, each in exactly one place: hands, stock, attack, defending cards, out of play;
    each seat's observation holds its hand. At the end one loser per hand, and a single hand's
    loser returns -1, the others 1/(n-1), and alone holds Maija unless the attacks ran out
    (docs/rules/musta_maija.md §5)."""
    cards = [c for hand in doc["hands"] for c in hand] + doc["stock"] + doc["attack"] + doc["out_of_play"]
    cards += [pair[1] for pair in doc["beaten"]]
    assert sorted(cards) == list(range(52)), "the 52 cards, each in exactly one place"
    n = game.num_players
    for seat in range(n):
        assert state.observation(seat)[:52].sum() == len(doc["hands"][seat])
    if not doc["terminal"]:
        return
    scores, returns = state.scores(), state.returns()
    assert sum(scores) == doc["hand"], "one loser per hand"
    if game.options["match"] == "single_hand":
        (loser,) = [seat for seat in range(n) if scores[seat] == 1]
        assert returns[loser] == -1.0
        assert all(abs(r - 1 / (n - 1)) < 1e-12 for seat, r in enumerate(returns) if seat != loser)
        if doc["attacks"] < (game.options["max_attacks"] or 10**12):
            holders = [seat for seat in range(n) if doc["hands"][seat]]
            assert holders == [loser] and 50 in doc["hands"][loser], "the loser alone holds Maija"


def paired_state(game: Any, doc: dict[str, Any], seat: int, rng: random.Random) -> tuple[dict[str, Any], Any] | None:
    """The same position with the cards hidden from ``seat`` dealt out again at random: the other
    hands except the cards everybody saw enter them (``known``), and the stock's order (its
    face-up trump card at the bottom excepted)."""
    trump = doc["trump"]
    stock = doc["stock"]
    bottom = [trump] if stock and stock[-1] == trump else []
    hidden_stock = stock[: len(stock) - len(bottom)]
    hidden = list(hidden_stock)
    for s, hand in enumerate(doc["hands"]):
        if s != seat:
            hidden += [c for c in hand if c not in doc["known"][s]]
    rng.shuffle(hidden)
    new = json.loads(json.dumps(doc))
    it = iter(hidden)
    for s, hand in enumerate(doc["hands"]):
        if s != seat:
            known = doc["known"][s]
            new["hands"][s] = sorted(known + [next(it) for _ in range(len(hand) - len(known))])
    new["stock"] = [next(it) for _ in hidden_stock] + bottom
    new["rng"] = str(rng.randrange(2**64))
    return new, game.state_from_json(json.dumps(new, sort_keys=True, separators=(",", ":")))


# 54 action ids (docs/musta_maija_engine.md §3), 370 + 57 n values (docs/musta_maija_engine.md §8)
ATTRIBUTES = [({}, 4, 54, (370 + 57 * 4,)), ({"players": 2}, 2, 54, (370 + 57 * 2,))]

GAME_STRINGS = ["musta_maija()", "musta_maija(players=3)", "musta_maija(variant=pagat,players=5)"] + [
    "musta_maija(max_attacks=null)",
    "musta_maija(first_dealer=2,match=first_to_losses,match_losses=2)",
]
# the variant is always printed
PRINTED: list[tuple[Any, str]] = [
    ({}, "musta_maija(variant=standard)"),
    ({"variant": "pagat", "players": 3}, "musta_maija(variant=pagat,players=3)"),
]

BAD_OPTIONS: list[dict[str, Any]] = [
    {"variant": "durak"},
    {"players": 1},
    {"players": 7},
    {"hand_size": 0},
    {"hand_size": 13},  # 4 * 13 = 52 leaves no stock
    {"players": 6, "hand_size": 9},
    {"first_dealer": 4},
    {"first_dealer": "left"},
    {"first_dealer": True},
    {"trump_reveal": "never"},
    {"spades_can_be_trump": "yes"},
    {"spade_reinsert": "top"},
    {"attack_limit": 5},
    {"beat_optional": 0},
    {"draw_order": "random"},
    {"next_dealer": "winner"},
    {"match": "best_of_3"},
    {"match_hands": 0},
    {"match_losses": 1.5},
    {"max_attacks": 0},
    {"max_attacks": 10**10},
    {"max_attacks": "none"},
    {"hand_size": object()},
]
BAD_GAME_STRINGS: list[str] = ["musta_maija(variant=durak)"]

_FOUR = [["7d"], ["2h"], ["Qs"], ["3c"]]
BAD_SETUPS: list[tuple[dict[str, Any], dict[str, Any]]] = [
    ({}, kwargs)
    for kwargs in (
        {"hands": [["7d", "7d"], ["2h"], ["Qs"], ["3c"]], "trump": "2s"},  # duplicate card
        {"hands": _FOUR, "stock": ["7d"]},  # card in two places
        {"hands": [["Zz"], ["2h"], ["Qs"], ["3c"]], "trump": "2s"},  # not a card
        {"hands": [["7d"], ["2h"], ["Qs"]], "trump": "2s"},  # three hands for four players
        {"hands": [["7d"], ["2h"], ["3c"], ["4c"]], "trump": "2s"},  # Qs out of play
        {"hands": _FOUR},  # no trump with an empty stock
        {"hands": _FOUR, "stock": ["4h", "5h"], "trump": "4h"},  # trump not last
        {"hands": [["7d"], [], ["Qs"], ["3c"]], "stock": ["4h"]},  # empty hand with a stock
        {"hands": [[], ["2h"], ["Qs"], ["3c"]], "trump": "2s"},  # the attacker holds nothing
        {"hands": [["Qs"], [], [], []], "trump": "2s"},  # the hand is over
        {"hands": _FOUR, "trump": "2s", "attacker": 4},
        {"hands": _FOUR, "trump": "2s", "known": [["2h"], [], [], []]},
        {"hands": _FOUR, "trump": "2s", "losses": [1, 0, 0, 0]},  # single hand over
        {"hands": _FOUR, "trump": "2s", "attacks": 1000},
        {"hands": _FOUR, "trump": "2s", "seed": -1},
        {"hands": _FOUR, "trump": "2s", "out_of_play": ["2s"]},  # cards missing
        {"hands": [[52], ["2h"], ["Qs"], ["3c"]], "trump": "2s"},
    )
]


def bad_decks(pack: list[int]) -> list[Any]:
    return [pack[:-1] + [0]]


def bad_json(doc: dict[str, Any]) -> list[dict[str, Any]]:
    return dealt_hands_tampering(doc) + [
        {"attack": doc["attack"] + [99]},
        {"losses": [0]},
        {"phase": "defend"},
        {"trump": 60},
        {"hand": 2},
        {"out_of_play": [50]},
    ]


# seat 0 attacks seat 1 (3 cards); trump spades (the 2s is out of play)
_POSITION = {"hands": [["5h", "9h", "7d"], ["6h", "Kd", "3c"], ["4c", "Qs"], ["5c"]], "trump": "2s"}
_NOTATION = ["", "7x", "take", "all", "take al", "11d", "play 7d", "dne", "7d 7d", "-"]
_ILLEGAL_MOVES = [
    "attack 5h 7d",  # two suits (TV-MM03)
    "attack 5h 5h",  # a card twice
    "attack 4c",  # not in the attacker's hand
    "defend 6h",  # not in the defence phase
    "take all",  # not in the defence phase
    "attack 5h 9h 7d",
]
_UNPARSEABLE_MOVES = ["attack", "attack 5x", "defend 6h x", "beat 6h", "", "take", "attack - 5h"]
BAD_INPUTS = [
    BadInputs(
        _POSITION,
        # done with no card, take all in attack, 6h (seat 1's), Ac
        [Refusal("apply", a, IllegalActionError) for a in (52, 53, 31, 0)]
        + [Refusal(m, t, InvalidNotationError) for t in _NOTATION for m in ("apply", "string_to_action")]
        + [Refusal("play", m, IllegalActionError) for m in _ILLEGAL_MOVES]
        + [Refusal("play", m, InvalidNotationError) for m in _UNPARSEABLE_MOVES],
    ),
    # another suit after 7d (TV-MM03 / TV-MM24)
    BadInputs(_POSITION, [Refusal("apply", t, IllegalActionError, "legal") for t in ("5h", "9h")], moves=["7d"]),
    # the defence of 5h 9h
    BadInputs(
        _POSITION,
        [Refusal("play", m, IllegalActionError) for m in ("defend 6h", "defend 6h - -", "defend Kd -", "attack 3c")]
        + [Refusal("play", "defend 9h -", IllegalActionError)],
        moves=["5h", "9h", "done"],
    ),
    # take all only at the start of a defence
    BadInputs(_POSITION, [Refusal("play", "take all", IllegalActionError)], moves=["5h", "9h", "done", "6h"]),
]
