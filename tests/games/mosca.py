"""La Mosca for the generic tests: the view's keys, the cards and chips in play, and the paired
states of the no-leak test (docs/rules/mosca.md §1.4)."""

from __future__ import annotations

import json
import random
from typing import Any

from games import BadInputs, Refusal, dealt_hands_tampering
from tapete.errors import IllegalActionError, InvalidNotationError

HELD = "hands"
#: The view's keys of what only its seat sees (its hand and its exchange discards): null in the public view.
OWN_VIEW_KEYS = {"hand", "discards"}

#: Player counts, chip and trick options, exchanges and eliminations besides the registry's sets.
MORE_OPTION_SETS: list[dict[str, Any]] = [
    {"players": 4},
    {"players": 5},
    {"players": 6},
    {"players": 6, "deck": 32},
    {
        "players": 4,
        "exchange_limit": "reshuffle_discards_when_empty",
        "mosca_after_exchange": True,
        "lone_player": "must_play_tricks",
        "match_deals": 4,
    },
    {
        "players": 3,
        "bankruptcy": "eliminate_at_zero",
        "initial_chips": 4,
        "match_deals": 12,
        "leftover_pot": "split_equally_among_all",
    },
    {
        "players": 5,
        "pot_award": "per_trick",
        "no_trick_penalty": "pot",
        "ante": "dealer_pays_5",
        "must_head": False,
        "must_overtrump": False,
        "match_deals": 4,
    },
]

# The deck of D cards (docs/mosca_engine.md §1): K Q J A T 9 8 7, then 6s, 5s, 4s, 3s, 2s.
_RANK_ORDER = [12, 11, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2, 1]  # rank - 1


def deck(options: dict[str, Any]) -> list[int]:
    ranks = _RANK_ORDER[: 8 + (options["deck"] - 32) // 4]
    return sorted(13 * s + r for s in range(4) for r in ranks)


VIEW_KEYS = {
    "balances", "current_player", "dealer", "deals_played", "declarations", "discards", "eliminated",
    "exchanged", "hand", "hand_sizes", "history", "leader", "mano", "phase", "played", "player", "pot", "talon_size",
    "terminal", "trick", "trick_number", "trick_seats", "tricks_won", "trump", "turnup", "turnup_taken",
}  # fmt: skip


def view_keys(options: dict[str, Any]) -> set[str]:
    return VIEW_KEYS


def own_invariants(game: Any, state: Any, doc: dict[str, Any]) -> None:
    """Every card of the deck in exactly one place (hands, talon, discards, the trick, the turn-up
    and the card given up for it); the chips: balances plus the pot stay what the match began with
    (docs/rules/mosca.md §1.3), the scores are the balances, and at the end the returns are the net
    chips plus an equal share of the pot (docs/rules/mosca.md §6)."""
    cards = [c for hand in doc["hands"] for c in hand] + doc["talon"] + doc["discard_pile"] + doc["played"]
    if not doc["turnup_taken"]:
        cards.append(doc["turnup"])
    if doc["turnup_discard"] >= 0:
        cards.append(doc["turnup_discard"])
    assert sorted(cards) == deck(doc["options"]), "every card of the deck exactly once"
    n = len(doc["hands"])
    initial = doc["options"]["initial_chips"]
    assert sum(doc["balances"]) + doc["pot"] == n * initial, "chips are conserved"
    assert state.scores() == doc["balances"]
    if doc["terminal"]:
        assert state.returns() == [float(b - initial) + doc["pot"] / n for b in doc["balances"]]


def paired_state(game: Any, doc: dict[str, Any], seat: int, rng: random.Random) -> tuple[dict[str, Any], Any] | None:
    """``doc`` with the cards hidden from ``seat`` renamed by a random permutation: the other hands
    (folded ones included), the talon, the other seats' exchange discards and the card the dealer
    gave up for the turn-up. Public: the turn-up, the played cards, the exchange counts."""
    deck = {c for h in doc["hands"] for c in h} | set(doc["talon"]) | set(doc["discard_pile"]) | set(doc["played"])
    deck |= {doc["turnup"]} | ({doc["turnup_discard"]} if doc["turnup_discard"] >= 0 else set())
    seen = set(doc["hands"][seat]) | set(doc["discarded"][seat]) | set(doc["played"]) | {doc["turnup"]}
    hidden = sorted(deck - seen)
    image = list(hidden)
    rng.shuffle(image)
    rename = dict(zip(hidden, image))

    def r(c: int) -> int:
        return rename.get(c, c)

    new = json.loads(json.dumps(doc))
    for s in range(len(doc["hands"])):
        if s != seat:
            new["hands"][s] = sorted(r(c) for c in doc["hands"][s])
            new["discarded"][s] = sorted(r(c) for c in doc["discarded"][s])
    new["talon"] = [r(c) for c in doc["talon"]]
    new["discard_pile"] = sorted(r(c) for c in doc["discard_pile"])
    if doc["turnup_discard"] >= 0:
        new["turnup_discard"] = r(doc["turnup_discard"])
    new["rng"] = str(rng.randrange(2**64))
    return new, game.state_from_json(json.dumps(new, sort_keys=True, separators=(",", ":")))


# docs/rules/mosca.md §8: 216 + 60 N values
ATTRIBUTES = [({"players": 4}, 4, 91, (456,)), ({"players": 3}, 3, 91, (396,))]

GAME_STRINGS = ["mosca()", "mosca", "mosca(players=5)", "mosca(players=3,deck=52,ace_rank=high)"] + [
    "mosca(ante=dealer_pays_N,deal_packets=3_then_2,no_trick_penalty=pot)",
    "mosca(first_dealer=2,exchange_limit=max_3,must_head=false,match_deals=3)",
    "mosca(players=6,bankruptcy=eliminate_at_zero,initial_chips=-5,leftover_pot=split_equally_among_all)",
]
# a game string prints only what differs from the defaults
PRINTED: list[tuple[Any, str]] = [
    ({}, "mosca()"),
    ({"players": 5, "deck": "auto"}, "mosca(players=5)"),
    ({"players": 3, "match_deals": 6, "must_trump": False}, "mosca(players=3,must_trump=false)"),
]

BAD_OPTIONS: list[dict[str, Any]] = [
    {"variant": "loo"},
    {"players": 1},
    {"players": 7},
    {"deck": 33},
    {"deck": "36"},
    {"deck": "big"},
    {"first_dealer": 4},
    {"first_dealer": "lot"},
    {"first_dealer": True},
    {"ace_rank": "middle"},
    {"initial_chips": 10**9 + 1},
    {"initial_chips": 1.5},
    {"bankruptcy": "never"},
    {"ante": "dealer_pays_n"},
    {"deal_packets": "5"},
    {"dealer_may_take_turnup": 1},
    {"exchange_limit": "max_4"},
    {"mosca_after_exchange": "yes"},
    {"mosca_tie": "share"},
    {"mosca_bonus": "loo"},
    {"lone_player": "wins"},
    {"must_head": None},
    {"no_trick_penalty": -1},
    {"no_trick_penalty": "all"},
    {"no_trick_penalty": 2**64},
    {"penalty_timing": "later"},
    {"pot_award": "all"},
    {"trick_tie": "split"},
    {"match_deals": 0},
    {"match_deals": 10**9 + 1},
    {"leftover_pot": "burn"},
    {"players": 4, "deck": [36]},
]
BAD_GAME_STRINGS = ["mosca(players=9)", "mosca(players=)", "mosca(deck=33", "mosca(x=1)", "mosca(players=4,players=4)"]

HANDS = [["Kc", "Qc", "Jd", "9h", "Js"], ["Ks", "7h", "Ac", "9d", "Td"], ["Jc", "Tc", "Th", "Qs", "9s"]]
_THREE = {"players": 3}
BAD_SETUPS: list[tuple[dict[str, Any], dict[str, Any]]] = [
    (_THREE, {"hands": HANDS, "turnup": "Qd", **change})
    for change in (
        {"hands": [HANDS[0], HANDS[1]]},  # two hands for three players
        {"hands": [HANDS[0], HANDS[1], HANDS[2][:4]]},  # a hand of 4
        {"hands": [HANDS[0], HANDS[1], HANDS[2][:4] + ["Kc"]]},  # a card twice
        {"hands": [HANDS[0], HANDS[1], HANDS[2][:4] + ["6c"]]},  # not in the 32-card deck
        {"hands": [HANDS[0], HANDS[1], HANDS[2][:4] + ["Zz"]]},  # not a card
        {"turnup": "Kc"},  # the turn-up is in a hand
        {"turnup": "2d"},
        {"talon": ["Ah"]},  # talon given but cards missing
        {"dealer": 3},
        {"balances": [100, 100]},
        {"pot": -1},
        {"deals_played": 6},
        {"seed": -1},
        {"seed": 2**64},
    )
]


def bad_decks(pack: list[int]) -> list[Any]:
    return [pack[:-1] + ["6d"] if len(pack) == 32 else pack[:-1] + ["2d"]]  # a card outside the pack


def bad_json(doc: dict[str, Any]) -> list[dict[str, Any]]:
    return dealt_hands_tampering(doc) + [
        {"pot": -1},
        {"talon": doc["talon"] + [99]},
        {"balances": [0]},
        {"phase": "bidding"},
        {"declarations": [1] * (len(doc["hands"]) + 1)},
    ]


# seat 1 (the mano, dealer 0) declares holding TV-M09's hand
_NOTATION = [
    "", "7x", "fold", "play x", "play x Qh", "play x Ac Ac", "play slots", "play slots 5", "play slots 0 0",
    "take turnup", "take turnup Ks", "take turnup slot 7", "leave", "11d", "play y 9d",
]  # fmt: skip
BAD_INPUTS = [
    BadInputs(
        {"hands": HANDS, "turnup": "Qd", "dealer": 0},
        # a card play, the turn-up step and leave turnup are not legal while declaring (TV-M12)
        [Refusal("apply", a, IllegalActionError) for a in (0, 51, 85, 89, 90)]
        + [Refusal("apply", "take turnup slot 1", IllegalActionError)]
        + [Refusal("apply", "Ks", IllegalActionError)]  # a card of one's hand, but nobody plays cards yet
        + [Refusal(m, t, InvalidNotationError) for t in _NOTATION for m in ("apply", "string_to_action")],
        options=_THREE,
    )
]
