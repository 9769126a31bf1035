"""Escoba / Scopa: the pure-Python reference engine.

This module is the readable statement of the rules that ``docs/escoba_engine.md`` (the engine
contract) and ``rules/escoba.md`` (the rules) pin down. The native engine implements the same page,
and the differential tests hold the two to it byte for byte. Clarity comes first here.

The game in brief
-----------------
* A 40-card pack: ranks A-7, J, Q, K in four suits (``d`` = coins/denari/oros). Capture values
  A..7 = 1..7, J = 8, Q = 9, K = 10. Cards are ids ``13*suit + rank-1`` (suits c d h s). Cicera
  (``deck = italian52``) plays all 52 cards, the 8, 9, 10 worth 8, 9, 10; with ``court_capture =
  same_rank`` a court has no value and takes only a court of its rank.
* 2 or 3 players alone, 4 or 6 in two teams (``side = seat mod 2``). The dealer ``D`` gives
  ``cards_per_hand`` cards to every seat from ``D+1`` round to ``D``, then ``initial_table_cards``
  face up to the table; the rest is the stock. Three Kings on the initial table void the deal.
  When all hands are empty and the stock is not, another hand is dealt (no table cards).
* On a turn a player plays one card. It **captures** a set of table cards, or **trails** (stays on
  the table). Capture kinds (``capture_kinds``):

  - ``match``: one table card of the same value;
  - ``sum``:   two or more table cards whose values add up to the played card's value;
  - ``sum15`` / ``sum11``: one or more table cards that, with the played card, total 15 / 11;
  - ``diff``:  two or more cards, the largest minus the others equal to the played card.

  With ``match_priority`` a possible match suppresses the kinds of ``match_priority_kinds`` (the
  sums by default). ``fewest_cards`` may then keep only the captures with fewest cards. In the Ace
  variants (``ace_takes_all``) an Ace takes the whole table (unless an Ace lies there), and an Ace
  played onto an empty table captures itself. Under the default ``capture_obligation`` a card that
  can capture must capture; any card may be chosen.
* A capture that empties the table is a **scopa** (escoba): ``scopa_value`` points, except on the
  very last play of the deal (unless ``scopa_on_last_play``). In Escoba an initial table worth 15
  (or 30) is an *escoba de mano* for the dealer.
* When the stock and the hands are exhausted the last capturer takes the table. Each side then
  scores: most cards, most coins, the settebello ``7d``, the primiera (best card per suit), optional
  extras (napola, re bello, ...) and its scope. Deals go on until one side alone reaches the target.

Actions (a fixed space of 219 ids; only 0..104 and the knocks are ever legal in this engine)
--------------------------------------------------------------------------------------------
=========  ===================  ===============  ================================================
ids        action               notation         meaning
=========  ===================  ===============  ================================================
0..51      ``PLAY(c)``          ``7d``           play card ``c`` from hand
52..103    ``TAKE(t)``          ``take 5d``      add table card ``t`` to the capture being chosen
104        ``DONE``             ``done``         finish with the cards chosen (none = trail)
105..110   ``TAKE_PILE(s)``     ``take pile 2``  (rubamazzo; never legal here)
111..162   ``BUILD_ON(t)``      ``build on 3h``  (builds; never legal here)
163..214   ``CLAIM(c)``         ``claim 7d``     (fidasse; never legal here)
215, 216   ``TRUST``, ``DOUBT`` ``trust``        (fidasse; never legal here)
217, 218   ``KNOCK``, ...       ``no knock``     optional hand declaration (``knocks``, cirulla)
=========  ===================  ===============  ================================================

A move is ``PLAY(c)``; when ``c`` has more than one legal outcome it becomes *pending* and the same
player names the captured cards one ``TAKE`` at a time in ascending id order, as soon as only one
outcome fits the move resolves; ``DONE`` ends a capture that is a prefix of a longer one, or trails.
"""

from __future__ import annotations

import copy
import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from .._options import spec
from ..cards import card_id, card_str
from ..errors import (
    IllegalActionError,
    InvalidNotationError,
    InvalidOptionError,
    InvalidPlayerError,
    InvalidStateError,
)
from ._base import ReferenceGame, ReferenceState, StateFields, index_in
from ._base import is_int as _is_int
from ._rng import MASK64, SplitMix64
from .multiset import Bag

__all__ = [
    "Escoba",
    "EscobaState",
    "capture_options",
    "score_deal",
    "resolve_options",
    "action_to_string",
    "string_to_action",
    "card_value",
    "PACK",
    "NUM_DISTINCT_ACTIONS",
]

# ---------------------------------------------------------------------------------------------
# Cards
# ---------------------------------------------------------------------------------------------

#: The 40-card pack, ascending ids: ranks A..7, J, Q, K of c, d, h, s.
PACK: tuple[int, ...] = tuple(13 * s + r - 1 for s in range(4) for r in (1, 2, 3, 4, 5, 6, 7, 11, 12, 13))
_PACK_SET = frozenset(PACK)
#: The 52-card pack of ``deck = italian52`` (Cicera, docs/rules/escoba.md §2.24): every id.
PACK52: tuple[int, ...] = tuple(range(52))


#: The 80-card double pack of ``deck = double_italian80`` (docs/rules/escoba.md §2.18;
#: docs/escoba_engine.md §1a): ascending ids, the two copies of an id adjacent.
PACK80: tuple[int, ...] = tuple(c for c in PACK for _ in range(2))


def pack_of(deck: str) -> tuple[int, ...]:
    """The pack of a ``deck`` option, ascending ids (every 40-card deck has the same ids)."""
    return {"italian52": PACK52, "double_italian80": PACK80}.get(deck, PACK)


def pack_name(deck: str) -> str:
    """The pack as named in error messages."""
    return {
        "italian52": "52-card pack",
        "double_italian80": "80-card double pack (two of each of A-7, J, Q, K)",
    }.get(deck, "40-card pack (ranks A-7, J, Q, K)")


SETTEBELLO = card_id("7d")
RE_BELLO = card_id("Kd")
MARESCIALLO = card_id("Ks")  # docs/rules/escoba.md §2.18
KS_SWEEP_POINTS = -4  # a sweep made by playing Ks (docs/rules/escoba.md §2.18)
COINS = 1  # the suit index of d (coins, denari, oros)
SWORDS = 3  # the suit index of s (swords, spade)
#: The coins in napola order A 2 3 4 5 6 7 J Q K.
_NAPOLA_RUN = tuple(13 * COINS + r - 1 for r in (1, 2, 3, 4, 5, 6, 7, 11, 12, 13))


def card_value(card: int) -> int:
    """Capture value: A..7 = 1..7, J = 8, Q = 9, K = 10; the 52-card pack's 8, 9, 10 = 8, 9, 10."""
    rank = card % 13 + 1
    return rank if rank <= 10 else rank - 3


def _rank(card: int) -> int:
    return card % 13 + 1


def _suit(card: int) -> int:
    return card // 13


def _slot(card: int, size: int = 40) -> int:
    """Observation slot of a card: 10*suit + (value - 1) in a 40-card pack, the id in 52 cards."""
    return card if size == 52 else 10 * _suit(card) + card_value(card) - 1


#: Primiera values by rank (docs/rules/escoba.md §0.3); the Veneto table doubled to integers.
_PRIMIERA_VALUES = {
    "standard": {7: 21, 6: 18, 1: 16, 5: 15, 4: 14, 3: 13, 2: 12, 11: 10, 12: 10, 13: 10},
    "veneto": {7: 14, 6: 12, 1: 11, 5: 10, 4: 8, 3: 6, 2: 4, 11: 1, 12: 1, 13: 1},
}
_RANK_OF_CHAR = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "J": 11, "Q": 12, "K": 13}

# ---------------------------------------------------------------------------------------------
# Actions
# ---------------------------------------------------------------------------------------------

NUM_DISTINCT_ACTIONS = 219
TAKE0 = 52
DONE = 104
TAKE_PILE0 = 105
BUILD_ON0 = 111
CLAIM0 = 163
TRUST, DOUBT, KNOCK, NO_KNOCK = 215, 216, 217, 218
_WORD_ACTIONS = {"done": DONE, "trust": TRUST, "doubt": DOUBT, "knock": KNOCK}


def action_to_string(action: Any) -> str:
    """Notation of an action id (any id 0..218 prints, legal or not)."""
    a = _as_action_id(action)
    if a < TAKE0:
        return card_str(a)
    if a < DONE:
        return "take " + card_str(a - TAKE0)
    if a == DONE:
        return "done"
    if a < BUILD_ON0:
        return f"take pile {a - TAKE_PILE0}"
    if a < CLAIM0:
        return "build on " + card_str(a - BUILD_ON0)
    if a < TRUST:
        return "claim " + card_str(a - CLAIM0)
    return {TRUST: "trust", DOUBT: "doubt", KNOCK: "knock", NO_KNOCK: "no knock"}[a]


def string_to_action(text: Any) -> int:
    """Action id of a notation string (case-insensitive, any whitespace between words)."""
    if not isinstance(text, str):
        raise InvalidNotationError(f"{text!r} is not action text: expected a string such as '7d' or 'take 5d'")
    words = text.lower().split()
    try:
        if len(words) == 1:
            if words[0] in _WORD_ACTIONS:
                return _WORD_ACTIONS[words[0]]
            return card_id(words[0])
        if len(words) == 2:
            if words == ["no", "knock"]:
                return NO_KNOCK
            if words[0] == "take":
                return TAKE0 + card_id(words[1])
            if words[0] == "claim":
                return CLAIM0 + card_id(words[1])
        if len(words) == 3:
            if words[:2] == ["take", "pile"] and words[2] in ("0", "1", "2", "3", "4", "5"):
                return TAKE_PILE0 + int(words[2])
            if words[:2] == ["build", "on"]:
                return BUILD_ON0 + card_id(words[2])
    except InvalidNotationError:
        pass
    raise InvalidNotationError(
        f"{text!r} is not an action: expected a card ('7d'), 'take 5d', 'done', 'take pile 2', "
        "'build on 3h', 'claim 7d', 'trust', 'doubt', 'knock' or 'no knock'"
    )


def _as_action_id(action: Any) -> int:
    return index_in(action, NUM_DISTINCT_ACTIONS, IllegalActionError, "an action id")


# ---------------------------------------------------------------------------------------------
# Options (docs/escoba_engine.md §2)
# ---------------------------------------------------------------------------------------------

#: The presets, in the data file's order (``tapete/data/escoba.json``: the option table, its
#: defaults and the presets, read by both engines).
VARIANTS: tuple[str, ...] = tuple(spec("escoba").presets)
_CAPTURE_KINDS = ("match", "sum", "sum15", "sum11", "diff")
MAX_SCORE = 10**15
MAX_SWEEPS = 40  # in setup's scope
MAX_JSON_SWEEPS = MAX_SWEEPS + 42  # in a state: those of setup plus the most one deal can make
_NOLIMIT = 10**9  # every integer option is at most 10^9 (docs/escoba_engine.md §2)

#: The input-only alias ``setenta_mode`` (docs/escoba_engine.md §2): the options each of its values stands for.
_SETENTA_MODES: dict[str, dict[str, Any]] = {
    "most_sevens": {"primiera_mode": "milan", "milan_tiebreak": ["7"]},
    "most_sevens_tiebreak": {"primiera_mode": "milan", "milan_tiebreak": ["7", "6", "A", "5"]},
    "primiera": {"primiera_mode": "standard"},
}


def _expand_aliases(given: dict[str, Any]) -> dict[str, Any]:
    """User options with the input aliases of docs/escoba_engine.md §2 replaced by what they stand for:
    ``setenta_mode``, and the ranks 1..7 of ``milan_tiebreak`` given as ints (as game strings
    write them) by their rank words."""
    given = dict(given)
    ranks = given.get("milan_tiebreak")
    if isinstance(ranks, (list, tuple)):
        given["milan_tiebreak"] = ["A234567"[r - 1] if _is_int(r) and 1 <= r <= 7 else r for r in ranks]
    if "setenta_mode" not in given:
        return given
    mode = given.pop("setenta_mode")
    if "primiera_mode" in given or "milan_tiebreak" in given:
        raise InvalidOptionError("setenta_mode cannot be combined with primiera_mode or milan_tiebreak")
    if not isinstance(mode, str) or mode not in _SETENTA_MODES:
        raise InvalidOptionError(
            f"option setenta_mode={mode!r:.80} is invalid: expected one of " + ", ".join(_SETENTA_MODES)
        )
    return {**given, **copy.deepcopy(_SETENTA_MODES[mode])}


def elimination_deal_shape(mode: str, k: int) -> tuple[int, int]:
    """(initial_table_cards, cards_per_hand) for k players in play under elimination (docs/rules/escoba.md §2.11):
    table 5 -> 5 + 7 each, 4 -> 4 + 9, 3 and 2 -> 4 + hands of 6; no_table deals every card at
    once (3 players keep 4 on the table, 40 being no multiple of 3)."""
    shapes = {
        "table": {5: (5, 7), 4: (4, 9)},
        "no_table": {5: (0, 8), 4: (0, 10), 3: (4, 12), 2: (0, 20)},
    }
    return shapes[mode].get(k, (4, 6))


def resolve_options(**given: Any) -> dict[str, Any]:
    """Every option's value: the alias, then the table's defaults, the preset and the given options
    (``tapete/data/escoba.json``), then what is derived from them and the checks across them."""
    opts = spec("escoba").resolve(_expand_aliases(given))
    _check_options(opts)
    return opts


def _check_options(opts: dict[str, Any]) -> None:
    """Values derived from the resolved options (written into ``opts``), then the checks across
    options (docs/escoba_engine.md §2)."""
    players = opts["players"]
    if opts["target"] is None:  # neither the preset nor the user sets it
        teams = opts["partnership"] == "auto" and players in (4, 6)
        opts["target"] = 11 if players == 2 else 21 if teams else 16
    # capture kinds in the table's order; normal_captures=false drops match and sum
    dropped = () if opts["normal_captures"] else ("match", "sum")
    opts["capture_kinds"] = [k for k in _CAPTURE_KINDS if k in opts["capture_kinds"] and k not in dropped]
    opts["match_priority_kinds"] = [k for k in _CAPTURE_KINDS if k in opts["match_priority_kinds"]]
    opts["special_cards"] = dict(sorted(opts["special_cards"].items(), key=lambda kv: card_id(kv[0])))
    if opts["frac_single_deal"]:
        opts["game"] = "single_deal"
    if not opts["milan_tiebreak"]:
        raise InvalidOptionError("option milan_tiebreak=[] is invalid: expected a non-empty list of ranks A234567JQK")
    if opts["knocks"] and opts["target_mode"] == "eliminate":
        raise InvalidOptionError(
            "option knocks declares 3-card hands, which the deals with players eliminated"
            " (target_mode=eliminate) do not keep"
        )
    if opts["tuzzoli"] and opts["target_mode"] == "eliminate":
        raise InvalidOptionError(
            "option tuzzoli declares 3-card hands, which the deals with players eliminated"
            " (target_mode=eliminate) do not keep"
        )
    if opts["ace_self_capture_is_scopa"] and not (
        opts["ace_takes_all"] and opts["ace_on_empty_table"] == "self_capture"
    ):
        raise InvalidOptionError(
            "option ace_self_capture_is_scopa needs ace_takes_all=true and ace_on_empty_table=self_capture"
            " (docs/rules/escoba.md §2.1)"
        )
    if opts["ace_may_trail"] and not opts["ace_takes_all"]:
        raise InvalidOptionError("option ace_may_trail needs ace_takes_all=true (docs/rules/escoba.md §2.1)")
    if opts["steal"]:
        _refuse_clashes(
            "steal=true (rubamazzo, docs/rules/escoba.md §2.21)",
            ("capture_kinds other than match and sum", any(k not in ("match", "sum") for k in opts["capture_kinds"])),
            ("value_modulus", opts["value_modulus"] is not None),
            ("fewest_cards other than none", opts["fewest_cards"] != "none"),
            ("ace_takes_all (use ace_steals_all)", opts["ace_takes_all"]),
            ("target_mode=eliminate", opts["target_mode"] == "eliminate"),
            ("matta", opts["matta"] is not None),
            ("initial_table_bonus (a pile would have no top card)", opts["initial_table_bonus"] != "none"),
        )
    if opts["fidasse"]:  # a face-down claim would show through these public keys
        _refuse_clashes(
            "fidasse=true (docs/rules/escoba.md §2.19)",
            ("steal", opts["steal"]),
            ("knocks", bool(opts["knocks"])),
            ("last_hand_open", opts["last_hand_open"]),
            ("maresciallo_penalty", opts["maresciallo_penalty"]),
        )
    if opts["builds"]:  # a build adds plain values; piles and claims have no build rules
        if opts["value_modulus"] is not None:
            raise InvalidOptionError(
                "option builds adds plain values (docs/rules/escoba.md §2.20): value_modulus must be null with builds"
            )
        _refuse_clashes(
            "builds=true (docs/rules/escoba.md §2.20)",
            ("matta", opts["matta"] is not None),
            ("steal", opts["steal"]),
            ("fidasse", opts["fidasse"]),
        )
    if opts["tuzzoli"] and opts["cards_per_hand"] != 3:
        raise InvalidOptionError(
            "option tuzzoli declares 3-card hands (docs/rules/escoba.md §2.8):"
            f" cards_per_hand must be 3, got {opts['cards_per_hand']}"
        )
    if opts["knocks"] and opts["cards_per_hand"] != 3:
        raise InvalidOptionError(
            "option knocks declares 3-card hands (docs/rules/escoba.md §2.7):"
            f" cards_per_hand must be 3, got {opts['cards_per_hand']}"
        )
    per_round = players * opts["cards_per_hand"]
    size = len(pack_of(opts["deck"]))
    rest = size - opts["initial_table_cards"]
    if rest <= 0 or rest % per_round:
        raise InvalidOptionError(
            f"{size} - initial_table_cards = {rest} must be a positive multiple of"
            f" players * cards_per_hand = {per_round}"
        )
    _check_cicera(opts)
    _check_twins(opts)
    # A table with fewer than k Kings and fewer than a Aces holds at most (size-8) + (k-1) + (a-1)
    # cards; a larger one is always void, and dealing would never end.
    kings = opts["void_deal_min_kings"] if opts["void_deal_min_kings"] is not None else 5
    aces = opts["void_deal_min_aces"] if opts["void_deal_min_aces"] is not None else 5
    if opts["initial_table_cards"] > size - 10 + kings + aces:
        raise InvalidOptionError(
            f"every deal would be void: a table of {opts['initial_table_cards']} cards always holds"
            f" {kings} Kings or {aces} Aces; lower initial_table_cards or relax the void-deal options"
        )


def _check_cicera(opts: dict) -> None:
    """The cards named by options must be in the pack; the combinations that ``court_capture =
    same_rank`` and the 52-card pack refuse (docs/rules/escoba.md §2.24; docs/escoba_engine.md §2)."""
    pack = set(pack_of(opts["deck"]))
    if any(card_id(c) not in pack for c in opts["special_cards"]):
        raise InvalidOptionError(f"option special_cards names a card that is not in the {pack_name(opts['deck'])}")
    if opts["matta"] is not None and card_id(opts["matta"]) not in pack:
        raise InvalidOptionError(f"option matta must be None or a card of the {pack_name(opts['deck'])}")
    if opts["court_capture"] == "same_rank":
        # these count the courts' values, which same_rank takes away
        _refuse_clashes(
            "court_capture=same_rank (docs/rules/escoba.md §2.24)",
            ("matta", opts["matta"] is not None),
            ("knocks", bool(opts["knocks"])),
            ("initial_table_bonus", opts["initial_table_bonus"] != "none"),
            ("steal", opts["steal"]),
            ("builds", opts["builds"]),
        )
    if opts["deck"] == "italian52":
        # the pile items, the elimination deal shapes and the declarations' bounds (at most 24 a
        # deal) are defined for 40 cards only, and so are builds and claims
        _refuse_clashes(
            "deck=italian52 (docs/rules/escoba.md §2.24)",
            ("steal", opts["steal"]),
            ("tuzzoli", opts["tuzzoli"]),
            ("knocks", bool(opts["knocks"])),
            ("target_mode=eliminate", opts["target_mode"] == "eliminate"),
            ("builds", opts["builds"]),
            ("fidasse", opts["fidasse"]),
        )


def _refuse_clashes(option: str, *clashes: tuple[str, Any]) -> None:
    """``InvalidOptionError`` naming each ``(name, set)`` of ``clashes`` set together with ``option``."""
    names = [name for name, on in clashes if on]
    if names:
        raise InvalidOptionError(f"option {option} cannot be combined with " + ", ".join(names))


def _check_twins(opts: dict) -> None:
    """What the double pack refuses (docs/escoba_engine.md §1a): what its capture search does not cover, the
    mechanics defined for one pack, and the awards that read one copy per id."""
    if opts["deck"] != "double_italian80":
        return
    clash = [
        what
        for what, bad in (
            (
                "capture_kinds other than match/sum, value_modulus, matta, fewest_cards, steal",
                not (
                    set(opts["capture_kinds"]) <= {"match", "sum"}
                    and opts["value_modulus"] is None
                    and opts["matta"] is None
                    and opts["fewest_cards"] == "none"
                    and not opts["steal"]
                ),
            ),
            ("players other than 4", opts["players"] != 4),
            ("builds", opts["builds"]),
            ("fidasse", opts["fidasse"]),
            ("tuzzoli", opts["tuzzoli"]),
            ("knocks", bool(opts["knocks"])),
            ("last_hand_open", opts["last_hand_open"]),
            ("target_mode=eliminate", opts["target_mode"] == "eliminate"),
            ("initial_table_bonus", opts["initial_table_bonus"] != "none"),
            ("court_capture=same_rank", opts["court_capture"] != "value"),
            ("capture_obligation", opts["capture_obligation"] not in ("played_card", "optional")),
            ("forbid_ace_first_play", opts["forbid_ace_first_play"]),
            ("scoring=frac", opts["scoring"] != "standard"),
            ("primiera_mode milan or three_sevens", opts["primiera_mode"] in ("milan", "three_sevens")),
            ("settanta_bonus", opts["settanta_bonus"]),
            ("all_sevens_bonus, all_oros_bonus", bool(opts["all_sevens_bonus"] or opts["all_oros_bonus"])),
            ("coin_card_points", opts["coin_card_points"] != 0),
            ("special_cards, re_bello", bool(opts["special_cards"]) or opts["re_bello"]),
            ("napola_all_coins_wins", opts["napola_all_coins_wins"]),
            ("piccola, grande", opts["piccola"] or opts["grande"] != 0),
            (
                "swords, sword_napula, all_swords_wins",
                bool(opts["swords"] or opts["sword_napula"] or opts["all_swords_wins"]),
            ),
            ("cards_tie_points", opts["cards_tie_points"] is not None),
            (
                "void_deal_min_kings, void_deal_min_aces",
                opts["void_deal_min_kings"] is not None or opts["void_deal_min_aces"] is not None,
            ),
        )
        if bad
    ]
    if clash:
        raise InvalidOptionError(
            "option deck=double_italian80 (docs/rules/escoba.md §2.18, docs/escoba_engine.md §1a)"
            " cannot be combined with " + ", ".join(clash)
        )


# ---------------------------------------------------------------------------------------------
# Capture rules (docs/escoba_engine.md §3)
# ---------------------------------------------------------------------------------------------

#: The trail outcome (the played card joins the table) and the self-capture outcome (an Ace played
#: onto an empty table goes to the player's own pile). A capture outcome is the ascending tuple of
#: the table card ids it takes.
TRAIL: tuple[int, ...] = ()
SELF = "self"
#: The largest build value (docs/rules/escoba.md §2.20).
MAX_BUILD_VALUE = 10


class BuildOn:
    """The outcome "build on table item ``item``" (docs/rules/escoba.md §2.20): a loose card or a build's name."""

    __slots__ = ("item",)

    def __init__(self, item: int) -> None:
        self.item = item

    def __repr__(self) -> str:
        return f"BuildOn({card_str(self.item)})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BuildOn) and self.item == other.item

    def __hash__(self) -> int:
        return hash(("on", self.item))


def _build_value(build: Iterable[int]) -> int:
    return sum(card_value(c) for c in build)


def _names(builds: Sequence[Sequence[int]]) -> dict[int, int]:
    """Each build's name (its lowest card) -> its value."""
    return {min(b): _build_value(b) for b in builds}


def _subsets_with_sum(cards: Sequence[tuple[int, int]], total: int, min_size: int) -> list[tuple[int, ...]]:
    """Every subset of ``cards`` (``(value, id)`` pairs sorted by value) whose values add up to
    ``total`` and that has at least ``min_size`` cards; each as an ascending id tuple.

    A depth-first search over the value-sorted cards: it stops a branch as soon as the next value
    exceeds what is left to reach.
    """
    found: list[tuple[int, ...]] = []
    chosen: list[int] = []

    def search(start: int, left: int) -> None:
        if left == 0:
            if len(chosen) >= min_size:
                found.append(tuple(sorted(chosen)))
            return
        for i in range(start, len(cards)):
            value, card = cards[i]
            if value > left:
                break
            chosen.append(card)
            search(i + 1, left - value)
            chosen.pop()

    if total > 0:
        search(0, total)
    return found


def _val(card: int, matta: tuple[int, int] | None) -> int:
    """The capture value of ``card``; ``matta`` = (card, value) gives the matta its declared value."""
    return matta[1] if matta is not None and card == matta[0] else card_value(card)


def _captures_by_kind(
    card: int,
    table: Iterable[int],
    opts: dict,
    matta: tuple[int, int] | None = None,
    builds: Sequence[Sequence[int]] = (),
) -> dict[str, list[tuple[int, ...]]]:
    """The capture sets of each enabled kind, before match priority and fewest-cards. A build is
    an item named by its lowest card that only equality takes (docs/rules/escoba.md §2.20)."""
    k = opts["value_modulus"]

    def value(c: int) -> int:  # the capture value, reduced by the modulus when set (docs/rules/escoba.md §2.15)
        return _val(c, matta) if k is None else (_val(c, matta) - 1) % k + 1

    p = value(card)
    cards = sorted((value(t), t) for t in table)
    kinds: dict[str, list[tuple[int, ...]]] = {}
    built = [name for name, v in _names(builds).items() if v == p]
    for kind in opts["capture_kinds"]:
        if kind == "match" and built:
            # with a build of the value, equality takes every item of that value at once
            kinds[kind] = [tuple(sorted(built + [t for v, t in cards if v == p]))]
        elif kind == "match":
            kinds[kind] = [(t,) for v, t in cards if v == p]
        elif kind == "sum" and k is not None:
            # modular sum: any two or more cards whose values add up to p modulo k
            kinds[kind] = [
                tuple(sorted(t for _, t in combo))
                for size in range(2, len(cards) + 1)
                for combo in itertools.combinations(cards, size)
                if sum(v for v, _ in combo) % k == p % k
            ]
        elif kind == "sum":
            kinds[kind] = _subsets_with_sum(cards, p, 2)
        elif kind == "sum15":
            kinds[kind] = _subsets_with_sum(cards, 15 - p, 1)
        elif kind == "sum11":
            kinds[kind] = _subsets_with_sum(cards, 11 - p, 1)
        elif kind == "diff":
            # 2*max - sum = p  <=>  max - (sum of the others) = p. The others are all strictly
            # below the largest card (they add up to less than it), so each set is found once.
            sets = []
            for i, (top, t) in enumerate(cards):
                smaller = [vc for vc in cards[:i] if vc[0] < top]
                for rest in _subsets_with_sum(smaller, top - p, 1):
                    sets.append(tuple(sorted(rest + (t,))))
            kinds[kind] = sets
    return kinds


def _captures(
    card: int,
    table: Iterable[int],
    opts: dict,
    matta: tuple[int, int] | None = None,
    builds: Sequence[Sequence[int]] = (),
    twins: bool = False,
) -> dict[tuple[int, ...], bool]:
    """``Captures(p, T)``: every legal capture set, mapped to whether a sweep with it may score a
    scopa on its own account (True for a set left by a normal kind; False for the Ace's take-all
    alone, which scores only with ``ace_takes_all_is_scopa``).

    ``twins``: ``table`` is a multiset of the 80-card pack (docs/rules/escoba.md §2.18); a set that holds the
    played card's identical twin is legal only when it is the whole table (so an illegal twin
    match gives no match priority). Sets are ascending tuples, a twin listed twice."""
    table = list(table)
    twins = twins or opts["deck"] == "double_italian80"
    items = table + list(_names(builds))  # every item, the courts included
    if opts["court_capture"] == "same_rank":
        # docs/rules/escoba.md §2.24: a court has no value and takes one court of its rank, nothing else
        if _rank(card) >= 11:
            if "match" not in opts["capture_kinds"]:
                return {}
            return {(t,): True for t in table if _rank(t) == _rank(card)}
        table = [t for t in table if _rank(t) < 11]
    kinds = _captures_by_kind(card, table, opts, matta, builds)
    if twins:  # the 80-card pack has no builds (refused), so the items are the table cards
        whole = tuple(sorted(table))
        kinds = {k: [x for x in sets if card not in x or x == whole] for k, sets in kinds.items()}
    # 1. Match priority: a possible match removes the captures of the kinds it has priority over.
    if opts["match_priority"] and kinds.get("match"):
        for kind in opts["match_priority_kinds"]:
            if kind in kinds:
                kinds[kind] = []
    # 2. Fewest cards: keep only the smallest sets, across the kinds the option names.
    scope = {
        "none": (),
        "all": tuple(kinds),
        "simple_only": ("match", "sum"),
        "sum15_only": ("sum15",),
    }[opts["fewest_cards"]]
    sizes = [len(x) for kind in scope for x in kinds.get(kind, ())]
    if sizes:
        fewest = min(sizes)
        for kind in scope:
            if kind in kinds:
                kinds[kind] = [x for x in kinds[kind] if len(x) == fewest]
    result: dict[tuple[int, ...], bool] = {}
    for sets in kinds.values():
        for x in sets:
            result[x] = True
    # 3. The Ace takes the whole table (never filtered by fewest-cards); a matta declared as an
    # Ace counts as one.
    if (
        opts["ace_takes_all"]
        and _val(card, matta) == 1
        and items
        and not (opts["ace_blocked_by_table_ace"] and any(_val(t, matta) == 1 for t in table))
    ):
        result.setdefault(tuple(sorted(items)), False)
    return result


#: A pile as a capture item (docs/rules/escoba.md §2.21): ``PILE0 + side``, so that ``TAKE0 + item`` is its
#: ``TAKE_PILE(side)`` id (a side's pile is named by its lowest seat, the side number) and piles
#: sort after every table card.
PILE0 = TAKE_PILE0 - TAKE0


def _item_str(item: int) -> str:
    return f"pile{item - PILE0}" if item >= PILE0 else card_str(item)


def _pile_captures(card: int, table: list[int], piles: tuple, opts: dict) -> dict[tuple[int, ...], bool]:
    """``Captures(p, T)`` with ``steal`` (docs/rules/escoba.md §2.21, §2.22). ``piles`` = (top card per side or
    -1, the mover's side, the next seat's side). Items are table cards and opponents' piles
    (``PILE0 + side``), each pile worth its top card."""
    tops, mine, nxt = piles
    p = card_value(card)
    same = [t for t in table if card_value(t) == p]
    matches = same if "match" in opts["capture_kinds"] else []
    opponents = [(card_value(top), PILE0 + s) for s, top in enumerate(tops) if top != -1 and s != mine]
    steals = [i for v, i in opponents if v == p]
    if opts["table_match_first"] and same:
        steals = []  # no steal with a value that is also on the table [X 38]
    result: dict[tuple[int, ...], bool] = {}
    for x in matches + steals:
        result[(x,)] = True
    if opts["steal_and_table"]:  # one table match and one steal together
        for t in matches:
            for i in steals:
                result[(t, i)] = True
    # a steal is a match for match priority: a pile is an item worth its top card
    priority = opts["match_priority"] and "sum" in opts["match_priority_kinds"] and (matches or steals)
    if "sum" in opts["capture_kinds"] and not priority:
        items = [(card_value(t), t) for t in table] + (opponents if opts["pile_in_sums"] else [])
        for combo in _subsets_with_sum(sorted(items), p, 2):
            result[combo] = True
    if opts["ace_steals_all"] and _rank(card) == 1:
        # docs/rules/escoba.md §2.21 [X 6]: an Ace takes the table or the next opponent's pile
        if table:
            result.setdefault(tuple(sorted(table)), False)
        if nxt != mine and tops[nxt] != -1:
            result.setdefault((PILE0 + nxt,), True)
    return result


def _outcomes(
    card: int,
    hand: Iterable[int],
    table: Iterable[int],
    opts: dict,
    first_play: bool,
    matta: tuple[int, int] | None = None,
    piles: tuple | None = None,
    builds: Sequence[Sequence[int]] = (),
) -> dict:
    """``O(card)``: the legal outcomes of playing ``card`` from ``hand`` (which contains it) onto
    ``table`` and ``builds``, mapped to their scopa flag as in ``_captures`` (trail, self-capture
    and build moves: False). ``forbid_ace_first_play`` means the rank A; the other Ace rules also
    a matta declared as 1. ``piles`` as in ``_pile_captures`` (with ``steal``, which refuses a
    matta and builds; None: no pile to take)."""
    if opts["steal"]:
        pile_ctx = piles if piles is not None else ((-1,) * 6, 0, 0)

        def captures(q: int, t: list[int]) -> dict:
            return _pile_captures(q, t, pile_ctx, opts)
    else:

        def captures(q: int, t: list[int]) -> dict:
            return _captures(q, t, opts, matta, builds)

    hand = list(hand)
    table = list(table)
    aces_forbidden = opts["forbid_ace_first_play"] and first_play and any(card_value(h) != 1 for h in hand)
    if card_value(card) == 1 and aces_forbidden:
        return {}
    if (
        opts["ace_takes_all"]
        and _val(card, matta) == 1
        and not table
        and not builds
        and opts["ace_on_empty_table"] == "self_capture"
    ):
        return {SELF: False}
    outcomes: dict = dict(captures(card, table))
    can_capture = bool(outcomes)
    obligation = opts["capture_obligation"]
    if obligation == "optional":
        may_trail = True
    elif obligation == "played_card":
        may_trail = not outcomes
    elif obligation == "played_card_numerals":
        may_trail = _rank(card) >= 11 or not outcomes
    else:  # any_card: trailing is allowed only when no playable card of the hand can capture
        playable = [q for q in hand if q != card and not (aces_forbidden and card_value(q) == 1)]
        may_trail = not outcomes and not any(captures(q, table) for q in playable)
    if opts["ace_may_trail"] and opts["ace_takes_all"] and _val(card, matta) == 1:
        may_trail = True  # docs/rules/escoba.md §2.1: only the Ace is freed from the obligation
    if may_trail:
        outcomes[TRAIL] = False
    if opts["builds"] and not (opts["build_only_if_no_capture"] and can_capture):
        # a build: the total is at most 10 and the rest of the hand holds a card of it (docs/rules/escoba.md §2.20)
        held = {card_value(q) for q in hand if q != card}
        values = {t: card_value(t) for t in table} | _names(builds)
        for t in sorted(values):
            total = card_value(card) + values[t]
            if total <= MAX_BUILD_VALUE and total in held:
                outcomes[BuildOn(t)] = False
    return outcomes


def _pack_card(card: Any, error: type = InvalidNotationError, deck: str = "italian40") -> int:
    try:
        c = card_id(card)
    except InvalidNotationError as e:
        raise error(str(e)) from None
    if c not in pack_of(deck):
        raise error(f"{card!r} is not a card of the {pack_name(deck)}")
    return c


def capture_options(
    card: Any,
    table: Iterable[Any],
    pile_tops: Sequence[Any] | None = None,
    seat: Any = 0,
    table_builds: Iterable[Iterable[Any]] | None = None,
    hand: Iterable[Any] | None = None,
    **options: Any,
) -> list[list[str]]:
    """``O(card)`` with hand ``{card}`` (plus ``hand``): every legal outcome of playing ``card``
    onto ``table``.

    Each outcome is its ascending card list: ``[]`` is the trail, ``[card]`` the self-capture of an
    Ace onto an empty table; the outcomes are sorted by their id lists. Example (TV-02)::

        >>> capture_options("Qh", ["Ah", "3s", "4c", "5d"])
        [['4c', '5d'], ['5d', 'Ah', '3s']]

    With option ``steal``, ``pile_tops`` gives each side's pile top (or None) and ``seat`` the
    mover; a pile item is written ``pile<side>``. With option ``builds``, ``table_builds`` lists the
    builds (card lists) beside the loose table cards: a capture names a build by its lowest card,
    and each build move ``["on", item]`` follows the sorted outcomes, ascending by item (TV-74)::

        >>> capture_options("2d", ["3h", "5s"], hand=["5c"], variant="granja")
        [[], ['on', '3h']]
    """
    opts = resolve_options(**options)
    deck = opts["deck"]
    p = _pack_card(card, deck=deck)

    def cards(xs: Any, what: str) -> list[int]:
        if isinstance(xs, (str, bytes)) or not isinstance(xs, Iterable):
            raise InvalidNotationError(f"{xs!r} is not a list of cards ({what})")
        return [_pack_card(c, deck=deck) for c in xs]

    t = cards(table, "table")
    builds = [] if table_builds is None else [cards(b, "a build") for b in _card_lists(table_builds)]
    held = [] if hand is None else cards(hand, "hand")
    every = [p] + t + [c for b in builds for c in b] + held
    copies = _copies(deck)
    if any(k > copies for k in Counter(every).values()):
        raise InvalidStateError(_once_each(deck, "the played card, the table, the builds and the hand"))
    if builds and not opts["builds"]:
        raise InvalidStateError("table_builds needs option builds")
    for b in builds:
        if len(b) < 2 or _build_value(b) > MAX_BUILD_VALUE:
            raise InvalidStateError(f"a build holds at least 2 cards worth at most {MAX_BUILD_VALUE} in all")
    n = opts["players"]
    teams = opts["partnership"] == "auto" and n in (4, 6)
    sides = 2 if teams else n
    if seat is None:
        seat = 0
    seat = index_in(seat, n, InvalidPlayerError, "a seat")
    tops = [-1] * 6
    if pile_tops is not None:
        if isinstance(pile_tops, (str, bytes)) or not isinstance(pile_tops, Iterable):
            raise InvalidStateError(f"pile_tops must be a list of {sides} entries (one per side): a card or None")
        given = list(pile_tops)
        if len(given) != sides:
            raise InvalidStateError(f"pile_tops must be a list of {sides} entries (one per side): a card or None")
        seen = Counter(every)
        for s, x in enumerate(given):
            if x is None:
                continue
            top = _pack_card(x, deck=deck)
            seen[top] += 1
            if seen[top] > copies:
                raise InvalidStateError(_once_each(deck, "the played card, the table cards and the pile tops"))
            tops[s] = top
    side_of = (lambda x: x % 2) if teams else (lambda x: x)
    piles = (tuple(tops), side_of(seat), side_of((seat + 1) % n))
    outs = _outcomes(p, [p] + held, t, opts, first_play=False, piles=piles, builds=builds)
    ids = sorted([p] if o == SELF else list(o) for o in outs if not isinstance(o, BuildOn))
    ons = sorted(o.item for o in outs if isinstance(o, BuildOn))
    return [[_item_str(c) for c in o] for o in ids] + [["on", card_str(x)] for x in ons]


def _copies(deck: str) -> int:
    """Copies of each id in the pack: 2 in the double pack (docs/escoba_engine.md §1a), else 1."""
    return 2 if deck == "double_italian80" else 1


def _once_each(deck: str, where: str) -> str:
    """The message for a card given more often than the pack holds it."""
    if _copies(deck) == 2:
        return f"{where} hold each card of the double pack at most twice in all"
    return f"{where} must all be different cards"


def _card_lists(xs: Any) -> list[Any]:
    """A list of card lists (``table_builds``), else ``InvalidStateError``."""
    if isinstance(xs, (str, bytes)) or not isinstance(xs, Iterable):
        raise InvalidStateError(f"{xs!r} is not a list of builds")
    return list(xs)


# ---------------------------------------------------------------------------------------------
# Scoring a deal (docs/escoba_engine.md §7)
# ---------------------------------------------------------------------------------------------


#: Tuzzoli declarations (docs/rules/escoba.md §2.8): kind -> (name, points); kind 0 = nothing to declare.
TUZZOLI = {0: ("none", 0), 1: ("tuzzolo", 3), 2: ("two_tuzzoli", 6), 3: ("buongioco", 6), 4: ("napoli", 7)}


def _tuzzoli_kind(hand: Iterable[int], hybrids: bool) -> int:
    """Its A, 2 and 3 are L: three of one rank = buongioco (3), three of one suit = napoli (4),
    else one tuzzolo per pair of L sharing rank or suit (at most one without hybrids)."""
    low = sorted(c for c in hand if _rank(c) in (1, 2, 3))
    if len(low) == 3 and len({_rank(c) for c in low}) == 1:
        return 3
    if len(low) == 3 and len({_suit(c) for c in low}) == 1:
        return 4
    pairs = sum(1 for a, b in itertools.combinations(low, 2) if _rank(a) == _rank(b) or _suit(a) == _suit(b))
    return min(pairs, 2 if hybrids else 1)


def tuzzoli(hand: Iterable[Any], **options: Any) -> tuple[str, int]:
    """The mandatory tuzzoli declaration of a hand: its name and points (TV-67)::

    >>> tuzzoli(["Ad", "2d", "3d"])
    ('napoli', 7)
    """
    opts = resolve_options(**options)
    if isinstance(hand, (str, bytes)) or not isinstance(hand, Iterable):
        raise InvalidNotationError(f"{hand!r} is not a list of cards")
    cards = [_pack_card(c, deck=opts["deck"]) for c in hand]
    if len(set(cards)) != len(cards):
        raise InvalidStateError("a card appears more than once in the hand")
    return TUZZOLI[_tuzzoli_kind(cards, opts["tuzzoli_hybrids"])]


#: Knock declarations (docs/rules/escoba.md §2.7) continue the tuzzoli kinds: 5 cirulla, 6 decino, 7 both.
KNOCKS = {5: "cirulla", 6: "decino", 7: "cirulla_decino"}


def _knock_points(kind: int, opts: dict) -> int:
    k = opts["knocks"]
    return {5: k.get("cirulla", 0), 6: k.get("decino", 0), 7: k.get("cirulla", 0) + k.get("decino", 0)}.get(kind, 0)


def _decl(kind: int, opts: dict) -> tuple[str, int]:
    """Name and points of any hand declaration kind (tuzzoli 1..4, knocks 5..7)."""
    if kind in TUZZOLI:
        return TUZZOLI[kind]
    return KNOCKS[kind], _knock_points(kind, opts)


def _knock_kind(values: Sequence[int], opts: dict) -> int:
    """Cirulla: three cards worth at most 9; decino: three of one value (= one rank). Both: the
    one worth more (decino on equal points), or both with ``knocks_cumulative``."""
    k = opts["knocks"]
    low = "cirulla" in k and sum(values) <= 9
    three = "decino" in k and len(set(values)) == 1
    if low and three:
        if opts["knocks_cumulative"]:
            return 7
        return 5 if k["cirulla"] > k["decino"] else 6
    return 6 if three else 5 if low else 0


def _knock_best(hand: Iterable[int], opts: dict) -> tuple[int, int]:
    """(kind, matta value): the hand's best knock; a matta in it takes the value 1..10 worth the
    most points, the highest such value on a tie (its natural value when nothing qualifies)."""
    hand = sorted(hand)
    m = card_id(opts["matta"]) if opts["matta"] is not None else None
    natural = card_value(m) if m is not None else 0
    if len(hand) != 3 or not opts["knocks"]:
        return 0, natural
    if m not in hand:
        return _knock_kind([card_value(c) for c in hand], opts), natural
    others = [card_value(c) for c in hand if c != m]
    best, value, points = 0, natural, 0
    for v in range(1, 11):
        kind = _knock_kind(others + [v], opts)
        if kind and _knock_points(kind, opts) >= points:
            best, value, points = kind, v, _knock_points(kind, opts)
    return best, value


def knock(hand: Iterable[Any], **options: Any) -> tuple[str, int, int | None]:
    """What a hand may declare by knocking (docs/rules/escoba.md §2.7, TV-56): the name, the points and the
    value the matta takes (None without a matta in the hand)::

        >>> knock(["7h", "2c", "2d"], variant="cirulla")
        ('decino', 10, 2)
    """
    opts = resolve_options(**options)
    if isinstance(hand, (str, bytes)) or not isinstance(hand, Iterable):
        raise InvalidNotationError(f"{hand!r} is not a list of cards")
    cards = [_pack_card(c, deck=opts["deck"]) for c in hand]
    if len(set(cards)) != len(cards):
        raise InvalidStateError("a card appears more than once in the hand")
    kind, value = _knock_best(cards, opts)
    has_matta = opts["matta"] is not None and card_id(opts["matta"]) in cards
    if not kind:
        return "none", 0, None
    return KNOCKS[kind], _knock_points(kind, opts), value if has_matta else None


def _most(values: Sequence[int], candidates: Sequence[int], opts: dict) -> list[int]:
    """The sides among ``candidates`` with strictly the most; a tie at the top gives nobody, or
    every tied side under ``category_tie_policy = all_tied``."""
    if not candidates:
        return []
    best = max(values[s] for s in candidates)
    top = [s for s in candidates if values[s] == best]
    if len(top) == 1 or opts["category_tie_policy"] == "all_tied":
        return top
    return []


def _deal_awards(
    piles: Sequence[Iterable[int]],
    sweeps: Sequence[int],
    opts: dict,
    declared: Sequence[tuple[int, int, int]] = (),
    ks_sweeps: Iterable[int] = (),
) -> list[list[int]]:
    """The awards of a deal in count-out order, each a list of points per side. Awards that give
    nobody any point are left out. ``declared`` lists hand declarations as (side, points, at),
    ``at`` = the number of sweeps made before it. ``ks_sweeps``: the indices in ``sweeps`` of
    the sweeps made by playing ``Ks`` (docs/rules/escoba.md §2.18)."""
    ks_at = set(ks_sweeps) if opts["maresciallo_penalty"] else set()
    piles = [set(p) for p in piles]
    n = len(piles)
    sides = list(range(n))
    awards: list[list[int]] = []

    def give(winners: Iterable[int], points: int) -> None:
        vec = [0] * n
        for s in winners:
            vec[s] += points
        if any(vec):
            awards.append(vec)

    if opts["scoring"] == "frac":
        # docs/rules/escoba.md §2.16: one point per A, J, Q, K held; the sweeps only with frac_counts_scope
        vec = [sum(1 for c in piles[s] if _rank(c) in (1, 11, 12, 13)) for s in sides]
        if any(vec):
            awards.append(vec)
        if opts["frac_counts_scope"]:
            for s in sweeps:
                give([s], opts["scopa_value"])
        return awards

    count = [len(list(p)) for p in piles]
    coins = [sum(1 for c in p if _suit(c) == COINS) for p in piles]
    all_coins = len(pack_of(opts["deck"])) // 4
    sevens = [sum(1 for c in p if _rank(c) == 7) for p in piles]

    # 1-3. Most cards, most coins, the settebello.
    top_count = [s for s in sides if count[s] == max(count)]
    if opts["cards_tie_points"] is not None and len(top_count) > 1:
        give(top_count, opts["cards_tie_points"])  # docs/rules/escoba.md §2.24: 26-26 gives 1 each
    else:
        give(_most(count, sides, opts), opts["cards"])
    give(_most(coins, sides, opts), opts["coins"])
    give([s for s in sides if SETTEBELLO in piles[s]], opts["settebello"])

    # 4. Primiera.
    mode = opts["primiera_mode"]
    if mode in ("standard", "veneto"):
        values = _PRIMIERA_VALUES[mode]
        totals, eligible = [], []
        for s in sides:
            best = [0, 0, 0, 0]
            held = [False] * 4
            for c in piles[s]:
                if _rank(c) not in values:
                    continue  # the 8, 9, 10 of a 52-card pack have no primiera value
                held[_suit(c)] = True
                best[_suit(c)] = max(best[_suit(c)], values[_rank(c)])
            totals.append(sum(best))
            if all(held) or not opts["primiera_requires_all_suits"]:
                eligible.append(s)
        give(_most(totals, eligible, opts), opts["primiera"])
    elif mode == "milan":
        candidates = sides
        winners: list[int] = []
        for ch in opts["milan_tiebreak"]:
            r = _RANK_OF_CHAR[ch]
            copies = [sum(1 for c in p if _rank(c) == r) for p in piles]
            most = max(copies[s] for s in candidates)
            candidates = [s for s in candidates if copies[s] == most]
            if len(candidates) == 1:
                winners = candidates
                break
        else:
            winners = candidates if opts["category_tie_policy"] == "all_tied" else []
        give(winners, opts["primiera"])
    elif mode == "three_sevens":
        give([s for s in sides if sevens[s] >= 3], opts["primiera"])

    # 5. Settanta: all four sevens.
    if opts["settanta_bonus"]:
        give([s for s in sides if sevens[s] == 4], 1)
    # 6. Points per coin card.
    if opts["coin_card_points"]:
        vec = [opts["coin_card_points"] * coins[s] for s in sides]
        if any(vec):
            awards.append(vec)
    # 7. Special cards (re bello adds Kd: 1), in ascending card order.
    special = {card_id(k): v for k, v in opts["special_cards"].items()}
    if opts["re_bello"]:
        special.setdefault(RE_BELLO, 1)
    for c in sorted(special):
        give([s for s in sides if c in piles[s]], special[c])
    # 8. Napola: the unbroken run of coins from the Ace, if at least A-2-3.
    if opts["napola"]:
        vec = [0] * n
        for s in sides:
            run = 0
            while run < len(_NAPOLA_RUN) and _NAPOLA_RUN[run] in piles[s]:
                run += 1
            vec[s] = (run if opts["napola_flat"] is None else opts["napola_flat"]) if run >= 3 else 0
        if any(vec):
            awards.append(vec)
    # 9. Escoba bonuses.
    give([s for s in sides if sevens[s] == 4], opts["all_sevens_bonus"])
    give([s for s in sides if coins[s] == all_coins], opts["all_oros_bonus"])
    # 9a. Piccola: the coin run from the Ace, if at least A-2-3, capped at piccola_max.
    if opts["piccola"]:
        for s in sides:
            run = 0
            while run < len(_NAPOLA_RUN) and _NAPOLA_RUN[run] in piles[s]:
                run += 1
            run = min(run, opts["piccola_max"])
            give([s], run if run >= 3 else 0)
    # 9b. Grande: J-Q-K of coins; with grande_extends +1 per coin of the unbroken run 7, 6, ... down.
    if opts["grande"]:
        for s in sides:
            if all(13 * COINS + r - 1 in piles[s] for r in (11, 12, 13)):
                more = 0
                if opts["grande_extends"]:
                    while more < 7 and 13 * COINS + 7 - more - 1 in piles[s]:
                        more += 1
                give([s], opts["grande"] + more)
    # 9c. Maresciallo (docs/rules/escoba.md §2.18): -1 for holding Ks (under ``total`` not for a side whose Ks
    # sweep already cost -4), +1 polacca (its card with 7d), -1 saponaro (its card with Ks).
    if opts["maresciallo_penalty"]:
        swept = {sweeps[i] for i in ks_at}
        total_mode = opts["maresciallo_sweep"] == "total"
        give([s for s in sides if MARESCIALLO in piles[s] and not (total_mode and s in swept)], -1)
    if opts["polacca"]:
        give([s for s in sides if card_id(opts["polacca_card"]) in piles[s] and SETTEBELLO in piles[s]], 1)
    if opts["saponaro"]:
        give([s for s in sides if card_id(opts["saponaro_card"]) in piles[s] and MARESCIALLO in piles[s]], -1)
    # 9d. Cicera (docs/rules/escoba.md §2.24): the most swords, then the sword napula (the numeral run A 2 3 ...
    # 10 from the Ace, if at least A-2-3: J, Q, K have no value).
    swords = [sum(1 for c in p if _suit(c) == SWORDS) for p in piles]
    if opts["swords"]:
        give(_most(swords, sides, opts), opts["swords"])
    if opts["sword_napula"]:
        for s in sides:
            run = 0
            while run < 10 and 13 * SWORDS + run in piles[s]:
                run += 1
            give([s], run if run >= 3 else 0)
    # 10. The sweeps in the order they were made, each hand declaration at the moment it was made.
    pending_decls = list(declared)
    for i, s in enumerate(sweeps):
        while pending_decls and pending_decls[0][2] <= i:
            side, points, _ = pending_decls.pop(0)
            give([side], points)
        give([s], KS_SWEEP_POINTS if i in ks_at else opts["scopa_value"])
    for side, points, _ in pending_decls:
        give([side], points)
    return awards


def score_deal(
    piles: Sequence[Iterable[Any]],
    scope: Sequence[int],
    declared: Sequence[int] | None = None,
    ks_sweeps: Sequence[int] | None = None,
    twin_sweeps: Sequence[int] | None = None,
    ks_on_ks: int | None = None,
    **options: Any,
) -> list[int]:
    """Points per side for a finished deal: ``piles`` one card list per side, ``scope`` the
    sweeps per side. In TV-26 side A (22 cards, 7 coins, the settebello, primiera 81 against 72,
    one scopa) against B (two scope) scores ``[5, 2]``.

    ``declared``: hand-declaration points per side; ``ks_sweeps``: per side, how many of its
    sweeps were made by playing ``Ks``. With the double pack (docs/escoba_engine.md §1a) a pile lists a twin
    twice, ``twin_sweeps`` counts per side the sweeps that took the played card's twin, and
    ``ks_on_ks`` names the side (if any) whose ``Ks`` took the other ``Ks`` alone on the table;
    that sweep counts in both its ``ks_sweeps`` and its ``twin_sweeps``.
    """
    opts = resolve_options(**options)

    def is_list(x: Any) -> bool:
        return isinstance(x, Iterable) and not isinstance(x, (str, bytes))

    if not is_list(piles) or not is_list(scope):
        raise InvalidStateError("piles and scope must be lists, one entry per side")
    piles = list(piles)
    if not all(is_list(p) for p in piles):
        raise InvalidStateError("each pile must be a list of cards")
    piles = [[_pack_card(c, deck=opts["deck"]) for c in p] for p in piles]
    if not 1 <= len(piles) <= 6:
        raise InvalidStateError(f"piles must hold one card list per side (1 to 6 sides), got {len(piles)}")
    scope = list(scope)
    if len(scope) != len(piles) or not all(_is_int(k) and k >= 0 for k in scope):
        raise InvalidStateError("scope must list one int >= 0 per side, as many as the piles")
    every = [c for p in piles for c in p]
    copies = _copies(opts["deck"])
    if any(k > copies for k in Counter(every).values()):
        raise InvalidStateError(
            "a card appears more than twice in the piles" if copies == 2 else "a card appears twice in the piles"
        )
    decls = []
    if declared is not None:
        if not is_list(declared):
            raise InvalidStateError("declared must be a list, one entry per side")
        declared = list(declared)
        if len(declared) != len(piles) or not all(_is_int(k) and 0 <= k <= _NOLIMIT for k in declared):
            raise InvalidStateError(f"declared must list one int in 0..{_NOLIMIT} per side, as many as the piles")
        decls = [(s, k, 0) for s, k in enumerate(declared)]

    def sweep_counts(given: Any, name: str) -> list[int]:
        """Per side, how many of its ``scope`` sweeps were of one kind (0 each when not given)."""
        if given is None:
            return [0] * len(piles)
        if not is_list(given):
            raise InvalidStateError(f"{name} must be a list, one entry per side")
        counts = list(given)
        if len(counts) != len(piles) or not all(_is_int(k) and 0 <= k <= m for k, m in zip(counts, scope)):
            raise InvalidStateError(f"{name} must list one int in 0..scope[i] per side, as many as the piles")
        return counts

    ks = sweep_counts(ks_sweeps, "ks_sweeps")
    twins = [0] * len(piles)
    kk = None
    if twin_sweeps is not None or ks_on_ks is not None:
        if copies != 2:
            raise InvalidStateError("twin_sweeps and ks_on_ks need deck=double_italian80 (docs/escoba_engine.md §1a)")
        twins = sweep_counts(twin_sweeps, "twin_sweeps")
        if ks_on_ks is not None:
            kk = index_in(ks_on_ks, len(piles), InvalidStateError, "ks_on_ks (a side)")
            if ks[kk] < 1 or twins[kk] < 1:
                raise InvalidStateError("the ks_on_ks sweep counts in its side's ks_sweeps and twin_sweeps")
    both = [int(s == kk) for s in range(len(piles))]
    if any(k + t - b > m for k, t, b, m in zip(ks, twins, both, scope)):
        raise InvalidStateError("a side's ks_sweeps and twin_sweeps (ks_on_ks counted once) exceed its scope")
    # each side's sweeps: its Ks sweeps first, the Ks onto Ks one of them, then its other twin
    # sweeps (the order does not change the total)
    sweeps = [s for s, k in enumerate(scope) for _ in range(k)]
    nth = [i - sweeps.index(s) for i, s in enumerate(sweeps)]
    ks_at = [i for i, s in enumerate(sweeps) if nth[i] < ks[s]]
    total = [0] * len(piles)
    if copies == 2:
        from .escoba_twins import deal_awards

        twin_at = [
            i for i, s in enumerate(sweeps) if (both[s] and nth[i] == 0) or ks[s] <= nth[i] < ks[s] + twins[s] - both[s]
        ]
        ks_kept = ks_at if opts["maresciallo_penalty"] else []  # recorded only with the penalty
        vecs = deal_awards(piles, sweeps, opts, ks_kept, twin_at) + [[k for _, k, _ in decls]] * bool(decls)
    else:
        vecs = _deal_awards(piles, sweeps, opts, decls, ks_at)
    for vec in vecs:
        total = [a + b for a, b in zip(total, vec)]
    return total


# ---------------------------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------------------------


class Escoba(ReferenceGame):
    """The Escoba / Scopa game with resolved options; a factory of states."""

    name = "escoba"
    num_distinct_actions = NUM_DISTINCT_ACTIONS

    def __init__(self, **options: Any) -> None:
        super().__init__(**_expand_aliases(options))

    def _check(self, options: dict[str, Any]) -> None:
        _check_options(options)
        o = options
        self.deck: str = o["deck"]
        self.pack: tuple[int, ...] = pack_of(o["deck"])
        self.size = len(self.pack)
        # the double pack (docs/escoba_engine.md §1a): multisets (Bag) for hands, table and piles
        self.twins: bool = o["deck"] == "double_italian80"
        self.bag: Any = Bag if self.twins else set
        self.slots = len(set(self.pack))  # one observation slot per card id of the pack
        self.teams: bool = o["partnership"] == "auto" and o["players"] in (4, 6)
        self.num_sides: int = 2 if self.teams else o["players"]
        self.knocks: bool = bool(o["knocks"])
        self.matta: int | None = card_id(o["matta"]) if o["matta"] is not None else None
        self.eliminate: bool = o["target_mode"] == "eliminate"
        self.show: bool = self.knocks or o["last_hand_open"]

    def _observation_size(self) -> int:
        o, C, n, S = self._opts, self.slots, self.num_players, self.num_sides
        extra = S if o["tuzzoli"] or self.knocks else 0  # declared points per side
        extra += n if self.eliminate else 0  # seats in play
        extra += (C + 1) * S if o["steal"] else 0  # pile tops, piles selected
        extra += C * n + 1 if self.show else 0  # the shown hands, the matta's value
        extra += S if o["maresciallo_penalty"] else 0  # Ks sweeps per side
        extra += S + n if o["fidasse"] else 0  # face-down cards, claimant
        extra += C if o["builds"] else 0  # the value of the build holding each card
        extra += S if self.twins else 0  # twin sweeps per side
        extra += S if o["max_consecutive_sweeps"] is not None else 0  # each side's sweep streak
        return 4 * C + 1 + (C + 2) * S + 4 * n + extra

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.teams else seat

    # -- states --------------------------------------------------------------------------------

    def _deal(self, seed: int, deck: Iterable[Any] | None) -> EscobaState:
        """A new match: the first dealer is drawn, then the first deal is dealt (docs/escoba_engine.md §5)."""
        pack = None
        if deck is not None:
            if isinstance(deck, (str, bytes)) or not isinstance(deck, Iterable):
                raise InvalidStateError(f"deck must be a list of the {self.size} cards, top first")
            pack = [_pack_card(c, InvalidStateError, self.deck) for c in deck]
            if sorted(pack) != list(self.pack):
                raise InvalidStateError(f"deck must hold each of the {self.size} cards exactly once, top first")
        s = EscobaState(self)
        s._rng = SplitMix64(seed)
        n = self.num_players
        if self._opts["first_dealer"] == "random":
            s._dealer = s._rng.below(n)
        else:  # deal_until_Kd: deal a shuffled pack face up; whoever receives Kd deals
            shuffled = list(self.pack)
            s._rng.shuffle(shuffled)
            s._dealer = shuffled.index(RE_BELLO) % n
        s._start_deal(pack)
        return s

    def setup(
        self,
        hands: Sequence[Iterable[Any]],
        table: Iterable[Any] = (),
        stock: Iterable[Any] | None = None,
        piles: Sequence[Iterable[Any]] | None = None,
        pile_tops: Sequence[Any] | None = None,
        dealer: int | None = None,
        to_move: int | None = None,
        scores: Sequence[int] | None = None,
        scope: Sequence[int] | None = None,
        last_capturer: int = -1,
        seed: int = 0,
        in_play: Iterable[int] | None = None,
        builds: Sequence[Iterable[Any]] | None = None,
    ) -> EscobaState:
        """A position at the start of a turn of deal 1, from a partial description (docs/escoba_engine.md §9);
        ``builds``: the builds on the table as card lists (option ``builds``)."""
        n, S = self.num_players, self.num_sides

        def cards(xs: Any, what: str) -> list[int]:
            if isinstance(xs, (str, bytes)) or not isinstance(xs, Iterable):
                raise InvalidStateError(f"{what} must be a list of cards")
            return [_pack_card(c, InvalidStateError, self.deck) for c in xs]

        def per(xs: Any, count: int, what: str) -> list:
            if isinstance(xs, (str, bytes)) or not isinstance(xs, Sequence) or len(xs) != count:
                raise InvalidStateError(f"{what} must be a list of {count} entries")
            return list(xs)

        def seat(x: Any, what: str) -> int:
            if not _is_int(x) or not 0 <= x < n:
                raise InvalidStateError(f"{what}={x!r} is not a seat: expected 0..{n - 1}")
            return x

        hand_ids = [cards(h, f"hands[{i}]") for i, h in enumerate(per(hands, n, "hands"))]
        table_ids = cards(table, "table")
        build_ids: list[list[int]] = []
        if builds is not None:
            if not self._opts["builds"]:
                raise InvalidStateError("setup key builds needs option builds")
            if isinstance(builds, (str, bytes)) or not isinstance(builds, Sequence):
                raise InvalidStateError("builds must be a list of card lists")
            build_ids = [cards(b, f"builds[{i}]") for i, b in enumerate(builds)]
            if len(build_ids) > 20:
                raise InvalidStateError("builds may list at most 20 builds")
        pile_ids = (
            [cards(p, f"piles[{i}]") for i, p in enumerate(per(piles, S, "piles"))]
            if piles is not None
            else [[] for _ in range(S)]
        )
        listed = (
            [c for h in hand_ids for c in h]
            + table_ids
            + [c for b in build_ids for c in b]
            + [c for p in pile_ids for c in p]
        )
        if stock is None:
            # the copies not listed elsewhere, ascending (docs/escoba_engine.md §1a: a twin twice in a row)
            stock_ids = list(Bag(self.pack) - listed) if self.twins else [c for c in self.pack if c not in set(listed)]
        else:
            stock_ids = cards(stock, "stock")
        every = listed + stock_ids
        copies = 2 if self.twins else 1
        if any(n_ > copies for n_ in Bag(every)._n.values()):
            raise InvalidStateError("a card is listed twice" if copies == 1 else "a card is listed more than twice")
        if stock is not None and len(every) != self.size:
            raise InvalidStateError(
                f"with a stock given, hands, table, stock and piles must hold the {self.size} cards"
            )
        for b in build_ids:
            if len(b) < 2 or _build_value(b) > MAX_BUILD_VALUE:
                raise InvalidStateError(f"a build holds at least 2 cards worth at most {MAX_BUILD_VALUE} in all")
        tops = _read_pile_tops(self, pile_tops, pile_ids, InvalidStateError)

        if dealer is None and to_move is None:
            dealer, to_move = n - 1, 0
        elif dealer is None:
            to_move = seat(to_move, "to_move")
            dealer = (to_move - 1) % n
        elif to_move is None:
            dealer = seat(dealer, "dealer")
            to_move = (dealer + 1) % n
        dealer, to_move = seat(dealer, "dealer"), seat(to_move, "to_move")

        seats_in = set(range(n))
        if in_play is not None:
            if not self.eliminate:
                raise InvalidStateError("setup's in_play needs target_mode=eliminate")
            if isinstance(in_play, (str, bytes)) or not isinstance(in_play, Iterable):
                raise InvalidStateError("in_play must be a list of seats")
            seats_in = {seat(x, "in_play") for x in in_play}
            _check_in_play(seats_in, hand_ids, dealer, to_move)
        sizes, d_at, m_at = _compact(hand_ids, seats_in, dealer, to_move)
        problem = _round_sizes_problem(sizes, d_at, m_at, strict=True)
        if problem:
            raise InvalidStateError(problem)

        score_list = per(scores, S, "scores") if scores is not None else [0] * S
        scope_list = per(scope, S, "scope") if scope is not None else [0] * S
        if not all(_is_int(x) and abs(x) <= MAX_SCORE for x in score_list):
            raise InvalidStateError("scores must be ints within ±10^15 (negative totals are allowed)")
        if not all(_is_int(x) and x >= 0 for x in scope_list) or sum(scope_list) > MAX_SWEEPS:
            raise InvalidStateError(f"scope must be ints >= 0 totalling at most {MAX_SWEEPS}")
        if not _is_int(last_capturer) or not -1 <= last_capturer < S:
            raise InvalidStateError(f"last_capturer={last_capturer!r} must be a side 0..{S - 1} or -1")
        if not _is_int(seed) or not 0 <= seed <= MASK64:
            raise InvalidStateError(f"seed {seed!r} is invalid: expected an int in 0..2^64-1")

        s = EscobaState(self)
        s._rng = SplitMix64(seed)
        s._dealer = dealer
        s._to_move = to_move
        s._hands = [self.bag(h) for h in hand_ids]
        s._table = self.bag(table_ids)
        s._builds = sorted(sorted(b) for b in build_ids)
        s._stock = stock_ids
        s._piles = [self.bag(p) for p in pile_ids]
        s._tops = tops
        s._scores = list(score_list)
        s._sweeps = [side for side, k in enumerate(scope_list) for _ in range(k)]
        s._last_capturer = last_capturer
        s._in_play = seats_in
        return s

    def state_from_json(self, text: str) -> EscobaState:
        """Rebuild a state from its JSON, checking everything (docs/escoba_engine.md §8)."""
        return _state_from_json(self, text)


def _read_pile_tops(
    game: Escoba, given: Any, piles: list[list[int]], error: type, json_form: bool = False
) -> list[int]:
    """``pile_tops`` (docs/rules/escoba.md §2.21): with ``steal``, one entry per side, the top card of a non-empty
    pile (one of its cards) and None (-1 in a state JSON) for an empty one; without it absent."""
    S = game.num_sides
    tops = [-1] * S
    if given is None:
        if game._opts["steal"] and any(piles):
            raise error("pile_tops must name the top card of every non-empty pile (option steal)")
        return tops
    if not game._opts["steal"]:
        raise error("pile_tops is only kept with option steal")
    if isinstance(given, (str, bytes)) or not isinstance(given, Sequence) or len(given) != S:
        raise error(f"pile_tops must be a list of {S} entries")
    for side, x in enumerate(given):
        if x is None or (json_form and x == -1 and _is_int(x)):
            if piles[side]:
                raise error(f"pile_tops[{side}]: the non-empty pile {side} needs its top card")
            continue
        if json_form:
            if not _is_int(x) or x not in game.pack:
                raise error(f"pile_tops[{side}] must be a card id of the {pack_name(game.deck)} or -1")
            c = x
        else:
            c = _pack_card(x, error, game.deck)
        if c not in piles[side]:
            raise error(f"pile_tops[{side}]: {card_str(c)} is not a card of pile {side}")
        tops[side] = c
    return tops


def _check_in_play(seats: set[int], hands: Sequence[Iterable[int]], dealer: int, to_move: int) -> None:
    """The seats in play: at least two, with the dealer and the mover; the others hold no card."""
    if len(seats) < 2 or dealer not in seats or to_move not in seats:
        raise InvalidStateError(
            f"in_play must hold at least 2 seats, the dealer {dealer} and the seat to move {to_move}"
        )
    if any(list(h) for i, h in enumerate(hands) if i not in seats):
        raise InvalidStateError("a seat out of play holds cards")


def _compact(hands: Sequence[Iterable[int]], seats: set[int], dealer: int, to_move: int) -> tuple[list[int], int, int]:
    """Hand sizes of the seats in play (seat order) and the dealer's and mover's places among them."""
    order = [i for i in range(len(hands)) if i in seats]
    sizes = [len(list(hands[i])) for i in order]
    return sizes, order.index(dealer) if dealer in seats else 0, order.index(to_move) if to_move in seats else 0


def _round_sizes_problem(sizes: Sequence[int], dealer: int, to_move: int, strict: bool) -> str | None:
    """Why these hand sizes cannot occur at the start of ``to_move``'s turn, or None.

    Strict (a full hand was dealt): with ``k`` the mover's hand size (k >= 1), the seats from the
    mover up to the dealer hold ``k`` and the seats from ``D+1`` up to the mover (exclusive) hold
    ``k - 1``. Not strict (the last hand may have been dealt short when the stock ran out): read
    from the mover round the table the sizes never grow and differ by at most one.
    """
    n = len(sizes)
    k = sizes[to_move]
    if k < 1:
        return f"seat {to_move} is to move but holds no card"
    if strict:
        first = (dealer + 1) % n
        for s in range(n):
            played = (s - first) % n < (to_move - first) % n
            if sizes[s] != k - played:
                return (
                    f"hand sizes {list(sizes)} are not those of a round (dealer {dealer}, seat {to_move} "
                    f"to move with {k} cards: seats from the mover to the dealer hold {k}, the others {k - 1})"
                )
        return None
    order = [sizes[(to_move + i) % n] for i in range(n)]
    if any(a < b for a, b in zip(order, order[1:])) or order[0] - order[-1] > 1:
        return f"hand sizes {list(sizes)} are not those of a round with seat {to_move} to move"
    return None


# ---------------------------------------------------------------------------------------------
# The state
# ---------------------------------------------------------------------------------------------


class EscobaState(ReferenceState):
    """A position of a match. Mutated in place by ``apply``; ``clone`` for a copy."""

    def __init__(self, game: Escoba) -> None:
        self.game = game
        self._o = game._opts
        n, S = game.num_players, game.num_sides
        self._rng = SplitMix64(0)
        self._deal = 1
        self._deal_points: list[list[int]] = []
        self._dealer = n - 1
        self._hands: list[set[int]] = [set() for _ in range(n)]
        self._history: list[int] = []
        self._last_capturer = -1
        self._loser = -1
        self._winner = -1
        self._pending = -1
        self._piles: list[Any] = [set() for _ in range(S)]  # sets, or Bags with the double pack
        self._tops = [-1] * S  # each pile's top card (kept with steal only; docs/rules/escoba.md §2.21)
        self._scores = [0] * S
        self._selection: list[int] = []
        self._stock: list[int] = []
        self._sweeps: list[int] = []
        self._decls: list[list[int]] = []  # declarations of this deal: [seat, kind, sweeps before it]
        self._knock_state = [0] * n  # this hand's knock decision: 0 undecided, 1 no knock, 2 knocked
        self._matta_value = card_value(game.matta) if game.matta is not None else 0
        self._decls = []  # tuzzoli of this deal: [seat, kind, sweeps before it]
        self._ks_sweeps: list[int] = []  # indices in _sweeps of the sweeps made by playing Ks
        self._twin_sweeps: list[int] = []  # those that took the played card's twin (docs/escoba_engine.md §1a)
        self._table: Any = game.bag()  # a set, or a Bag with the double pack
        self._builds: list[
            list[int]
        ] = []  # ascending cards each, ascending by lowest card (docs/rules/escoba.md §2.20)
        self._terminal = False
        self._to_move = 0
        self._in_play: set[int] = set(range(n))  # seats still in the match (docs/rules/escoba.md §2.11)
        # fidasse (docs/rules/escoba.md §2.19): the claim waiting for answers and its claimant (-1: none), and the
        # trusted claim cards of this deal per claimant, face down to the other seats
        self._claim = -1
        self._claimant = -1
        self._claimed: list[set[int]] = [set() for _ in range(n)]
        # max_consecutive_sweeps (docs/rules/escoba.md §1.5): each side's run of sweeps this deal
        self._streak = [0] * S

    # -- dealing (docs/escoba_engine.md §5) -----------------------------------------------------------------

    def _start_deal(self, pack: list[int] | None = None) -> None:
        """Steps 2-5: deal a pack (a fresh shuffled one unless given), redeal void deals, award an
        escoba de mano, and give the turn to the eldest."""
        o, n = self._o, self.game.num_players
        D = self._dealer
        itc, cph = self._deal_shape()
        while True:
            if pack is None:
                pack = list(self.game.pack)
                self._rng.shuffle(pack)
            self._hands = [self.game.bag() for _ in range(n)]
            it = iter(pack)
            for _ in range(cph):
                for seat in self._seats_after(D):
                    self._hands[seat].add(next(it))
            table = [next(it) for _ in range(itc)]
            self._table = self.game.bag(table)
            self._stock = list(it)
            # under elimination the void check reads the first 4 table cards only (docs/rules/escoba.md §2.11)
            checked = table[:4] if self.game.eliminate else table
            kings = sum(1 for c in checked if _rank(c) == 13)
            aces = sum(1 for c in checked if _rank(c) == 1)
            void = (o["void_deal_min_kings"] is not None and kings >= o["void_deal_min_kings"]) or (
                o["void_deal_min_aces"] is not None and aces >= o["void_deal_min_aces"]
            )
            if not void:
                break
            pack = None  # the same dealer deals again from a fresh shuffle
        self._piles = [self.game.bag() for _ in range(self.game.num_sides)]
        self._tops = [-1] * self.game.num_sides
        self._claimed = [set() for _ in range(n)]
        self._builds = []
        self._sweeps = []
        self._decls = []
        self._knock_state = [0] * n
        self._matta_value = card_value(self.game.matta) if self.game.matta is not None else 0
        self._ks_sweeps = []
        self._twin_sweeps = []
        self._streak = [0] * self.game.num_sides
        self._last_capturer = -1
        self._pending = -1
        self._selection = []
        if o["initial_table_bonus"] == "sum15_30" and self._table:
            self._escoba_de_mano()
        self._to_move = self._next_in(D)
        self._declare_hands()

    def _seats_after(self, seat: int) -> list[int]:
        """The seats in play in turn order from the one after ``seat`` (``seat`` last if in play)."""
        n = self.game.num_players
        return [t for t in ((seat + i) % n for i in range(1, n + 1)) if t in self._in_play]

    def _next_in(self, seat: int) -> int:
        after = self._seats_after(seat)
        return after[0] if after else seat

    def _deal_shape(self) -> tuple[int, int]:
        """(initial_table_cards, cards_per_hand) of this deal: the options' with every seat in play,
        else the elimination shape for the players left (docs/rules/escoba.md §2.11)."""
        o = self._o
        if len(self._in_play) < self.game.num_players:
            return elimination_deal_shape(o["elimination_deal"], len(self._in_play))
        return o["initial_table_cards"], o["cards_per_hand"]

    def _declare_hands(self) -> None:
        """The mandatory tuzzoli of every hand just dealt, in play order (docs/escoba_engine.md §5)."""
        if not self._o["tuzzoli"]:
            return
        n = self.game.num_players
        for i in range(1, n + 1):
            seat = (self._dealer + i) % n
            kind = _tuzzoli_kind(self._hands[seat], self._o["tuzzoli_hybrids"])
            if kind:
                self._decls.append([seat, kind, len(self._sweeps)])

    def _table_sweeps(self, values: list[int]) -> int:
        o = self._o
        total = sum(values)
        if total == 15:
            return 1
        if total == 30 and (
            o["escoba_de_mano_30"] == "total" or _subsets_with_sum(sorted((v, i) for i, v in enumerate(values)), 15, 1)
        ):
            return 2
        if total <= 9 and o["initial_table_le9"] is not None:
            return o["initial_table_le9"]
        return 0

    def _escoba_de_mano(self) -> None:
        """An initial table worth 15 (one escoba) or 30 (two), or at most 9 with
        ``initial_table_le9``, goes to the dealer's side. A matta on it counts at the value 1..10
        that scores the most."""
        o = self._o
        m = self.game.matta
        others = [card_value(c) for c in self._table if c != m]
        if m in self._table:
            sweeps = max(self._table_sweeps(others + [v]) for v in range(1, 11))
        else:
            sweeps = self._table_sweeps(others)
        if not sweeps:
            return
        seat = self._dealer if o["escoba_de_mano_to"] == "dealer" else self._next_in(self._dealer)
        side = self.game.side_of(seat)
        self._piles[side] |= self._table
        self._table = set()
        self._last_capturer = side
        self._sweeps += [side] * sweeps

    def _deal_next_hand(self) -> None:
        """Later hands: deal from the top of the stock in seat order, stopping if it runs out."""
        for _ in range(self._deal_shape()[1]):
            for seat in self._seats_after(self._dealer):
                if not self._stock:
                    return
                self._hands[seat].add(self._stock.pop(0))

    # -- rules helpers -------------------------------------------------------------------------

    def _is_first_play(self) -> bool:
        itc, cph = self._deal_shape()
        return (
            self._pending == -1
            and all(len(self._hands[s]) == cph for s in self._in_play)
            and len(self._stock) == self.game.size - itc - len(self._in_play) * cph
        )

    def _matta(self) -> tuple[int, int] | None:
        m = self.game.matta
        return (m, self._matta_value) if m is not None else None

    def _knock_turn(self) -> bool:
        """The mover must first choose KNOCK or NO_KNOCK: the first turn of a hand of three that
        has something to declare (docs/rules/escoba.md §2.7)."""
        if not self.game.knocks or self._terminal or self._pending != -1:
            return False
        seat = self._to_move
        hand = self._hands[seat]
        return self._knock_state[seat] == 0 and len(hand) == 3 and _knock_best(hand, self._o)[0] != 0

    def _shown(self, seat: int) -> set[int]:
        """A knocked hand (docs/rules/escoba.md §2.7), and with ``last_hand_open`` every hand of the last hand
        (the stock is empty, docs/rules/escoba.md §2.23), is played face up."""
        last_open = self._o["last_hand_open"] and not self._stock
        return self._hands[seat] if last_open or self._knock_state[seat] == 2 else set()

    def _outcomes_of(self, card: int) -> dict:
        """O(card) for the mover, computed against the hand before ``card`` left it; with fidasse
        without the capture of the whole table, except on the last play (docs/rules/escoba.md §2.19)."""
        hand = set(self._hands[self._to_move])
        if self._pending != -1:
            hand.add(self._pending)
        outcomes = _outcomes(
            card, hand, self._table, self._o, self._is_first_play(), self._matta(), self._piles_ctx(), self._builds
        )
        if self._sweep_filtered():
            outcomes.pop(tuple(sorted(self._table)), None)
        return outcomes

    def _piles_ctx(self) -> tuple | None:
        """The piles as the capture rules see them from the mover's seat (with steal)."""
        if not self._o["steal"]:
            return None
        g = self.game
        tops = tuple(self._tops) + (-1,) * (6 - len(self._tops))
        return tops, g.side_of(self._to_move), g.side_of((self._to_move + 1) % g.num_players)

    # -- fidasse (docs/rules/escoba.md §2.19) -----------------------------------------------------------------

    def _is_last_play(self) -> bool:
        """The play about to be made is the last of the deal."""
        held = len(self._hands[self._to_move]) + (self._pending != -1)
        others = any(h for s, h in enumerate(self._hands) if s != self._to_move)
        return not self._stock and held == 1 and not others

    def _sweep_filtered(self) -> bool:
        return self._o["fidasse"] and bool(self._table) and not self._is_last_play()

    def _next_asked(self, seat: int) -> int:
        """The next opponent of the claimant after ``seat``, before the claimant; -1 if none."""
        n, side_of = self.game.num_players, self.game.side_of
        for k in range(1, n):
            t = (seat + k) % n
            if t == self._claimant:
                break
            if side_of(t) != side_of(self._claimant) and t in self._in_play:
                return t
        return -1

    def _hidden_from(self, p: int) -> set[int]:
        """Cards seat p may not see: the other seats' trusted claims, another seat's open claim."""
        hidden = {c for s, cards in enumerate(self._claimed) if s != p for c in cards}
        if self._claim != -1 and self._claimant != p:
            hidden.add(self._claim)
        return hidden

    def _step_fidasse(self, a: int) -> None:
        if CLAIM0 <= a < CLAIM0 + 52:
            seat = self._to_move
            self._hands[seat].discard(a - CLAIM0)
            self._claim, self._claimant = a - CLAIM0, seat
            asked = self._next_asked(seat)
            self._to_move = asked if asked != -1 else seat
            return
        card, claimant = self._claim, self._claimant
        side = self.game.side_of(claimant)
        if a == TRUST:
            asked = self._next_asked(self._to_move)
            if asked != -1:
                self._to_move = asked
                return
            self._claimed[claimant].add(card)
            self._claim_stands(card, side)
        else:  # DOUBT: the card is shown
            doubter = self.game.side_of(self._to_move)
            if tuple(sorted(self._table)) in _captures(card, self._table, self._o, self._matta()):
                self._scores[doubter] -= 1
                self._claim_stands(card, side)
            else:  # cancelled: the card trails, the claimant's side loses a point
                self._table.add(card)
                self._scores[side] -= 1
                self._streak[side] = 0
        self._claim = self._claimant = -1
        self._to_move = claimant
        self._pass_turn()

    def _claim_stands(self, card: int, side: int) -> None:
        self._piles[side] |= self._table | {card}
        self._table = set()
        self._last_capturer = side
        self._sweep(side, card)

    def _sweep(self, side: int, card: int, twin: bool = False) -> None:
        """A play of ``side`` with ``card`` made a scopa (docs/rules/escoba.md §1.5); ``twin``: it took
        the card's twin. With ``max_consecutive_sweeps`` a sweep that takes the side's run of
        sweeps beyond the cap scores nothing."""
        cap = self._o["max_consecutive_sweeps"]
        if cap is not None:
            self._streak[side] += 1
            if self._streak[side] > cap:
                return
        if self._o["maresciallo_penalty"] and card == MARESCIALLO:
            self._ks_sweeps.append(len(self._sweeps))
        if twin:
            self._twin_sweeps.append(len(self._sweeps))
        self._sweeps.append(side)

    def _items(self) -> set[int]:
        """Every table item: the loose cards and each build's name (its lowest card)."""
        return self._table | {b[0] for b in self._builds}

    # -- the step protocol (docs/escoba_engine.md §4) -------------------------------------------------------

    def current_player(self) -> int:
        return -1 if self._terminal else self._to_move

    def legal_actions(self) -> list[int]:
        if self._terminal:
            return []
        if self._knock_turn():
            return [KNOCK, NO_KNOCK]
        if self._claim != -1:
            return [TRUST, DOUBT]
        if self._pending == -1:
            hand = self._hands[self._to_move]
            plays = sorted({c for c in hand if self._outcomes_of(c)})  # a twin once
            if self._sweep_filtered():  # CLAIM(c): any card, the table not empty, not the last play
                plays += sorted(CLAIM0 + c for c in hand)
            return plays
        outcomes = self._outcomes_of(self._pending)
        chosen = tuple(self._selection)
        k = len(chosen)
        actions = {TAKE0 + x[k] for x in outcomes if isinstance(x, tuple) and len(x) > k and x[:k] == chosen}
        if chosen in outcomes:  # a capture equal to the selection, or the trail when none is chosen
            actions.add(DONE)
        if not chosen:
            actions |= {BUILD_ON0 + x.item for x in outcomes if isinstance(x, BuildOn)}
        return sorted(actions)

    def _apply(self, a: int) -> None:
        if a in (KNOCK, NO_KNOCK):
            seat = self._to_move
            if a == NO_KNOCK:
                self._knock_state[seat] = 1
                return
            kind, value = _knock_best(self._hands[seat], self._o)
            self._decls.append([seat, kind, len(self._sweeps)])
            if self.game.matta in self._hands[seat]:
                self._matta_value = value
            self._knock_state[seat] = 2
            return
        if CLAIM0 <= a <= DOUBT:
            self._step_fidasse(a)
            return
        if a < TAKE0:  # PLAY(c)
            outcomes = self._outcomes_of(a)
            self._hands[self._to_move].discard(a)
            if len(outcomes) == 1:
                (only,) = outcomes
                self._resolve(a, only, outcomes[only])
            else:
                self._pending, self._selection = a, []
            return
        outcomes = self._outcomes_of(self._pending)
        if a >= BUILD_ON0:
            self._resolve(self._pending, BuildOn(a - BUILD_ON0), False)
            return
        if a == DONE:
            chosen = tuple(self._selection)
            self._resolve(self._pending, chosen, outcomes[chosen])
            return
        self._selection.append(a - TAKE0)  # TAKE(t)
        chosen = tuple(self._selection)
        k = len(chosen)
        fitting = [x for x in outcomes if isinstance(x, tuple) and x[:k] == chosen and len(x) >= k]
        if len(fitting) == 1:
            self._resolve(self._pending, fitting[0], outcomes[fitting[0]])

    def _resolve(self, card: int, outcome: Any, normal: bool) -> None:
        """Apply the outcome of playing ``card`` (already out of the hand) and pass the turn."""
        o, _n = self._o, self.game.num_players
        side = self.game.side_of(self._to_move)
        last_play = not self._stock and not any(self._hands)
        swept = False  # a sweep that scores a scopa, before max_consecutive_sweeps
        if outcome == SELF:
            self._piles[side].add(card)
            self._last_capturer = side
            # docs/rules/escoba.md §2.1: with ace_self_capture_is_scopa a sweep, never on the last play
            swept = o["ace_self_capture_is_scopa"] and not last_play
        elif isinstance(outcome, BuildOn):
            t = outcome.item
            old = [b for b in self._builds if b[0] == t]
            if old:
                self._builds.remove(old[0])
            else:
                self._table.discard(t)
            self._builds.append(sorted((old[0] if old else [t]) + [card]))
            self._builds.sort()
        elif outcome == TRAIL:
            self._table.add(card)
        elif self.game.twins:
            swept = self._resolve_twins(card, outcome, normal, side, last_play)
        else:
            taken = {x for x in outcome if x < PILE0}
            for x in outcome:
                if x >= PILE0:  # a pile item: the whole pile moves under the played card
                    victim = x - PILE0
                    self._piles[side] |= self._piles[victim]
                    self._piles[victim] = set()
                    self._tops[victim] = -1
            if o["steal"]:
                self._tops[side] = card
            items = self._items()  # a build is taken as the item named by its lowest card
            sweep = bool(items) and taken == items
            built = [b for b in self._builds if b[0] in taken]
            self._builds = [b for b in self._builds if b[0] not in taken]
            self._table -= taken
            self._piles[side] |= taken | {card} | {c for b in built for c in b}
            self._last_capturer = side
            swept = (
                sweep and (normal or o["ace_takes_all_is_scopa"]) and not (last_play and not o["scopa_on_last_play"])
            )
        if swept:
            self._sweep(side, card, self.game.twins and outcome != SELF and card in outcome)
        else:
            self._streak[side] = 0
        self._pending, self._selection = -1, []
        self._pass_turn()

    def _resolve_twins(self, card: int, outcome: tuple, normal: bool, side: int, last_play: bool) -> bool:
        """A capture on the double pack (docs/escoba_engine.md §1a): ``outcome`` lists a twin twice.
        Whether it is a sweep that scores; one that takes the played card's twin is recorded in
        ``_twin_sweeps``."""
        o = self._o
        taken = Bag(outcome)
        sweep = bool(self._table) and taken == self._table
        self._table -= taken
        self._piles[side] |= taken | [card]
        self._last_capturer = side
        return sweep and (normal or o["ace_takes_all_is_scopa"]) and not (last_play and not o["scopa_on_last_play"])

    def _pass_turn(self) -> None:
        """After a play by ``_to_move``: the next seat with cards, a new hand, or the deal's end."""
        n = self.game.num_players
        if not any(self._hands):
            if self._stock:
                self._deal_next_hand()
                self._to_move = self._next_in(self._dealer)
                self._knock_state = [0] * self.game.num_players
                self._declare_hands()
            else:
                self._end_deal()
        else:  # the next seat holding cards (seats out of the match hold none)
            t = (self._to_move + 1) % n
            while not self._hands[t]:
                t = (t + 1) % n
            self._to_move = t

    # -- end of deal and match (docs/escoba_engine.md §6) ---------------------------------------------------

    def _end_deal(self) -> None:
        o, S = self._o, self.game.num_sides
        self._claimed = [set() for _ in range(self.game.num_players)]  # shown at the scoring
        if o["last_capturer_takes_rest"] and self._last_capturer != -1:
            self._piles[self._last_capturer] |= self._table | {c for b in self._builds for c in b}
        self._table = self.game.bag()  # otherwise the cards left on the table belong to nobody
        self._builds = []
        decls = [(self.game.side_of(seat), _decl(kind, o)[1], at) for seat, kind, at in self._decls]
        sides_in = sorted({self.game.side_of(t) for t in self._in_play})
        if len(sides_in) < S:
            # docs/rules/escoba.md §2.11: the deal is scored among the sides still in play only
            at = {side: i for i, side in enumerate(sides_in)}
            kept = [i for i, x in enumerate(self._sweeps) if x in at]
            part = _deal_awards(
                [self._piles[x] for x in sides_in],
                [at[self._sweeps[i]] for i in kept],
                o,
                [(at[x], p, a) for x, p, a in decls if x in at],
                [j for j, i in enumerate(kept) if i in self._ks_sweeps],
            )
            awards = [[vec[at[x]] if x in at else 0 for x in range(S)] for vec in part]
        elif self.game.twins:
            from .escoba_twins import deal_awards

            awards = deal_awards(self._piles, self._sweeps, o, self._ks_sweeps, self._twin_sweeps)
        else:
            awards = _deal_awards(self._piles, self._sweeps, o, decls, self._ks_sweeps)
        points = [sum(vec[s] for vec in awards) for s in range(S)]
        before = list(self._scores)
        self._deal_points.append(points)
        self._scores = [a + b for a, b in zip(before, points)]

        winner, loser = self._match_decision(points, before, awards)
        if winner != -1 and self.game.eliminate:
            # whatever decided it, only the winner's seats are left in the match
            self._in_play = {t for t in range(self.game.num_players) if self.game.side_of(t) == winner}
        if winner != -1 or loser != -1:
            self._finish(winner, loser)
        elif o["max_deals"] is not None and self._deal == o["max_deals"]:
            self._finish(-1, -1)  # drawn
        else:
            self._deal += 1
            self._dealer = self._next_in(self._dealer)
            self._start_deal()

    def _match_decision(self, points: list[int], before: list[int], awards: list[list[int]]) -> tuple[int, int]:
        """(winner side, loser side) after a deal, -1 for none (docs/escoba_engine.md §6 rules 1-4)."""
        o, S = self._o, self.game.num_sides
        totals = self._scores
        if o["napola_all_coins_wins"]:
            for s in range(S):
                if sum(1 for c in self._piles[s] if _suit(c) == COINS) == self.game.size // 4:
                    return s, -1
        if o["all_swords_wins"]:
            # docs/rules/escoba.md §2.24: a side with every sword of the pack wins at once
            for s in range(S):
                if sum(1 for c in self._piles[s] if _suit(c) == SWORDS) == self.game.size // 4:
                    return s, -1
        if o["game"] == "single_deal":
            best = max(points)
            top = [s for s in range(S) if points[s] == best]
            if len(top) > 1 and o["frac_single_deal"]:
                # docs/rules/escoba.md §2.16: a tie for the most goes to the tied side holding Kd
                top = [s for s in top if RE_BELLO in self._piles[s]] or top
            return (top[0], -1) if len(top) == 1 else (-1, -1)
        target = o["target"]
        if o["target_mode"] == "eliminate":
            return self._eliminate(totals, target), -1
        if o["target_mode"] == "lose":
            best = max(totals)
            top = [s for s in range(S) if totals[s] == best]
            return (-1, top[0]) if best >= target and len(top) == 1 else (-1, -1)
        if o["win_check"] == "count_out" and sum(1 for t in totals if t >= target) >= 2:
            running = list(before)
            for vec in awards:
                running = [a + b for a, b in zip(running, vec)]
                at = [s for s in range(S) if running[s] >= target]
                if at:
                    if len(at) == 1:
                        return at[0], -1
                    break  # several at once: fall through to the highest-unique test
        best = max(totals)
        top = [s for s in range(S) if totals[s] == best]
        if best >= target and len(top) == 1:
            others = [totals[s] for s in range(S) if s != top[0]]
            if o["win_margin"] is None or best - max(others) >= o["win_margin"]:
                return top[0], -1
        return -1, -1

    def _eliminate(self, totals: list[int], target: int) -> int:
        """docs/rules/escoba.md §2.11: every side in play at or above the target leaves; one side left wins; if
        none would be left, the lowest of the crossing totals wins and a tie plays on among the
        tied. Updates the seats in play; returns the winner side or -1."""
        side_of = self.game.side_of
        sides_in = {side_of(t) for t in self._in_play}
        cross = {x for x in sides_in if totals[x] >= target}
        if not cross:
            return -1
        left = sides_in - cross
        if not left:
            low = min(totals[x] for x in cross)
            left = {x for x in cross if totals[x] == low}
        self._in_play = {t for t in self._in_play if side_of(t) in left}
        return next(iter(left)) if len(left) == 1 else -1

    def _finish(self, winner: int, loser: int) -> None:
        self._terminal = True
        self._winner, self._loser = winner, loser
        self._to_move = -1
        self._pending, self._selection = -1, []

    # -- queries -------------------------------------------------------------------------------

    def is_terminal(self) -> bool:
        return self._terminal

    def returns(self) -> list[float]:
        n = self.game.num_players
        side_of = self.game.side_of
        if not self._terminal or (self._winner == -1 and self._loser == -1):
            return [0.0] * n
        if self._winner != -1:
            named = [s for s in range(n) if side_of(s) == self._winner]
            return [1.0 if s in named else -len(named) / (n - len(named)) for s in range(n)]
        named = [s for s in range(n) if side_of(s) == self._loser]
        return [-1.0 if s in named else len(named) / (n - len(named)) for s in range(n)]

    def scores(self) -> list[int]:
        """Each seat's side's match total."""
        return [self._scores[self.game.side_of(s)] for s in range(self.game.num_players)]

    def deals(self) -> int:
        """Deals started so far, the current one included."""
        return self._deal

    def action_to_string(self, action: Any) -> str:
        return action_to_string(action)

    def string_to_action(self, text: Any) -> int:
        return string_to_action(text)

    def play(self, move: str) -> None:
        """Apply a full move written for people: ``Qh x Ah 3s 5d`` (a capture), ``Kc`` (a trail, or
        an Ace's self-capture). Atomic: an illegal move raises and changes nothing."""
        if not isinstance(move, str):
            raise InvalidNotationError(f"{move!r} is not a move: expected text like 'Qh x Ah 3s 5d' or 'Kc'")
        if move.lstrip().lower().startswith("claim"):  # a fidasse claim is one action
            self.apply(string_to_action(move))
            return
        words = move.split()
        build = len(words) == 3 and words[1].lower() == "on"
        if not words or (len(words) > 1 and not build and (words[1].lower() != "x" or len(words) == 2)):
            raise InvalidNotationError(
                f"{move!r} is not a move: expected text like 'Qh x Ah 3s 5d', 'Kc' or '2d on 3h'"
            )
        card = card_id(words[0])

        def item(w: str) -> int:  # `pile2` names a pile (docs/rules/escoba.md §6.2)
            low = w.lower()
            if low.startswith("pile") and len(low) == 5 and low[4] in "012345":
                return PILE0 + int(low[4])
            return card_id(w)

        on = card_id(words[2]) if build else None
        taken = [] if build else sorted(item(w) for w in words[2:])
        if self._knock_turn():
            raise IllegalActionError(
                f"{move!r} is not legal now: the hand's declaration comes first (knock or no knock)"
            )
        if self._terminal or self._pending != -1 or self._claim != -1 or card not in self._hands[self._to_move]:
            raise IllegalActionError(
                f"{move!r} is not legal now: {words[0]} must be a card of the mover's hand at the start of a turn"
            )
        outcomes = self._outcomes_of(card)
        if on is not None:
            legal = BuildOn(on) in outcomes
        elif taken:
            legal = tuple(taken) in outcomes
        else:
            legal = TRAIL in outcomes or SELF in outcomes
        if not legal:
            raise IllegalActionError(f"{move!r} is not a legal move")
        self.apply(card)
        if on is not None:
            if self._pending == card:
                self.apply(BUILD_ON0 + on)
            return
        for t in taken:
            if self._pending != card:
                break
            self.apply(TAKE0 + t)
        if self._pending == card:
            self.apply(DONE)

    def clone(self) -> EscobaState:
        s = EscobaState.__new__(EscobaState)
        s.game, s._o = self.game, self._o
        s._rng = self._rng.clone()
        s._deal = self._deal
        s._deal_points = [list(p) for p in self._deal_points]
        s._dealer = self._dealer
        s._hands = [h.copy() for h in self._hands]
        s._history = list(self._history)
        s._last_capturer = self._last_capturer
        s._loser, s._winner = self._loser, self._winner
        s._pending = self._pending
        s._piles = [p.copy() for p in self._piles]
        s._tops = list(self._tops)
        s._scores = list(self._scores)
        s._selection = list(self._selection)
        s._stock = list(self._stock)
        s._sweeps = list(self._sweeps)
        s._decls = [list(d) for d in self._decls]
        s._knock_state = list(self._knock_state)
        s._matta_value = self._matta_value
        s._ks_sweeps = list(self._ks_sweeps)
        s._twin_sweeps = list(self._twin_sweeps)
        s._table = self._table.copy()
        s._builds = [list(b) for b in self._builds]
        s._terminal = self._terminal
        s._to_move = self._to_move
        s._in_play = set(self._in_play)
        s._claim, s._claimant = self._claim, self._claimant
        s._claimed = [set(c) for c in self._claimed]
        s._streak = list(self._streak)
        return s

    # -- serialisation -------------------------------------------------------------------------

    def _as_dict(self) -> dict[str, Any]:
        return {
            "deal": self._deal,
            "deal_points": [list(p) for p in self._deal_points],
            "dealer": self._dealer,
            "game": "escoba",
            "hands": [sorted(h) for h in self._hands],
            "history": list(self._history),
            "last_capturer": self._last_capturer,
            "loser": self._loser,
            "options": self._o,
            "pending": self._pending,
            "piles": [sorted(p) for p in self._piles],
            "rng": str(self._rng.state),
            "scores": list(self._scores),
            "selection": list(self._selection),
            "stock": list(self._stock),
            "sweeps": list(self._sweeps),
            "table": sorted(self._table),
            "terminal": self._terminal,
            "to_move": self._to_move,
            "version": 1,
            "winner": self._winner,
            **({"declarations": [list(d) for d in self._decls]} if self._o["tuzzoli"] or self.game.knocks else {}),
            **({"knock_state": list(self._knock_state)} if self.game.knocks else {}),
            **({"matta_value": self._matta_value} if self.game.matta is not None else {}),
            **({"ks_sweeps": list(self._ks_sweeps)} if self._o["maresciallo_penalty"] else {}),
            **({"twin_sweeps": list(self._twin_sweeps)} if self.game.twins else {}),
            **({"builds": [list(b) for b in self._builds]} if self._o["builds"] else {}),
            **({"in_play": sum(1 << t for t in self._in_play)} if self.game.eliminate else {}),
            **({"pile_tops": list(self._tops)} if self._o["steal"] else {}),
            **({"sweep_streak": list(self._streak)} if self._o["max_consecutive_sweeps"] is not None else {}),
            **(
                {"claim": self._claim, "claimant": self._claimant, "claimed": [sorted(c) for c in self._claimed]}
                if self._o["fidasse"]
                else {}
            ),
        }

    # -- what a seat sees (docs/escoba_engine.md §10) -------------------------------------------------------

    def _scope(self) -> list[int]:
        return [self._sweeps.count(s) for s in range(self.game.num_sides)]

    def _view(self, p: int) -> dict[str, Any]:

        def text(cards: Iterable[int]) -> list[str]:
            return [card_str(c) for c in sorted(cards)]

        hidden = self._hidden_from(p)

        def pile_text(pile: set[int]) -> list[str]:  # a hidden claim card is a face-down "??"
            return text(pile - hidden) + ["??"] * len(pile & hidden)

        return {
            "player": p,
            "current_player": self.current_player(),
            "dealer": self._dealer,
            "deal": self._deal,
            "hand": text(self._hands[p]),
            "hand_sizes": [len(h) for h in self._hands],
            "table": text(self._table),
            "piles": [pile_text(pile) for pile in self._piles],
            # docs/rules/escoba.md §2.21: the top card of every pile is public
            **({"pile_tops": [card_str(t) if t != -1 else None for t in self._tops]} if self._o["steal"] else {}),
            "scope": self._scope(),
            "stock_size": len(self._stock),
            "pending": card_str(self._pending) if self._pending != -1 else None,
            "selection": [_item_str(x) for x in self._selection],
            "scores": list(self._scores),
            "deal_points": [list(x) for x in self._deal_points],
            "last_capturer": self._last_capturer,
            "terminal": self._terminal,
            "winner": self._winner,
            "loser": self._loser,
            # tuzzoli are announced, not shown (docs/rules/escoba.md §2.8): the seat, the kind and its points
            **(
                {
                    "declarations": [
                        {"seat": seat, "declaration": _decl(kind, self._o)[0], "points": _decl(kind, self._o)[1]}
                        for seat, kind, _ in self._decls
                    ]
                }
                if self._o["tuzzoli"] or self.game.knocks
                else {}
            ),
            # a knocked hand (docs/rules/escoba.md §2.7), an open last hand (docs/rules/escoba.md §2.23):
            # played face up
            **({"shown": [text(self._shown(s)) for s in range(self.game.num_players)]} if self.game.show else {}),
            **({"matta_value": self._matta_value} if self.game.matta is not None else {}),
            **(
                {
                    "ks_sweeps": [
                        sum(1 for i in self._ks_sweeps if self._sweeps[i] == s) for s in range(self.game.num_sides)
                    ]
                }
                if self._o["maresciallo_penalty"]
                else {}
            ),
            **(
                {
                    "twin_sweeps": [
                        sum(1 for i in self._twin_sweeps if self._sweeps[i] == s) for s in range(self.game.num_sides)
                    ]
                }
                if self.game.twins
                else {}
            ),
            # builds are public (docs/rules/escoba.md §2.20)
            **(
                {"builds": [{"cards": text(b), "value": _build_value(b)} for b in self._builds]}
                if self._o["builds"]
                else {}
            ),
            **({"in_play": sorted(self._in_play)} if self.game.eliminate else {}),
            # docs/rules/escoba.md §1.5: each side's run of sweeps is public
            **({"sweep_streak": list(self._streak)} if self._o["max_consecutive_sweeps"] is not None else {}),
            **(self._fidasse_view(hidden) if self._o["fidasse"] else {}),
        }

    def _fidasse_view(self, hidden: set[int]) -> dict[str, Any]:
        """The open claim (its card "??" to the others) and the history, where the claim of a
        hidden card (the last CLAIM of that card: this deal's) reads "claim ??"."""
        claim = None
        if self._claim != -1:
            card = "??" if self._claim in hidden else card_str(self._claim)
            claim = {"seat": self._claimant, "card": card}
        history = []
        for i, a in enumerate(self._history):
            c = a - CLAIM0
            masked = 0 <= c < 52 and c in hidden and a not in self._history[i + 1 :]
            history.append("claim ??" if masked else action_to_string(a))
        return {"claim": claim, "history": history}

    def _observation(self, p: int) -> np.ndarray:
        n, S = self.game.num_players, self.game.num_sides
        C = self.game.slots  # one slot per card id of the pack
        obs = np.zeros(self.game.observation_shape, dtype=np.float32)

        def cards_at(offset: int, cards: Iterable[int]) -> None:
            for c in cards:  # a slot counts the copies (1 but with the double pack)
                obs[offset + _slot(c, C)] += 1.0

        cards_at(0, self._hands[p])
        cards_at(C, self._table)
        hidden = self._hidden_from(p)
        for s in range(S):
            cards_at(2 * C + C * s, self._piles[s] - hidden)
        base = 2 * C + C * S
        obs[base : base + S] = self._scope()
        obs[base + S] = len(self._stock)
        if self._pending != -1:
            cards_at(base + S + 1, [self._pending])
        if self._claim != -1 and self._claimant == p:  # the claimant knows its card
            cards_at(base + S + 1, [self._claim])
        cards_at(base + S + 1 + C, [x for x in self._selection if x < PILE0])
        base += S + 1 + 2 * C
        obs[base + p] = 1.0
        obs[base + n + self._dealer] = 1.0
        if not self._terminal:
            obs[base + 2 * n + self._to_move] = 1.0
        obs[base + 3 * n : base + 4 * n] = [len(h) for h in self._hands]
        obs[base + 4 * n : base + 4 * n + S] = self._scores
        base += 4 * n + S
        if self._o["tuzzoli"] or self.game.knocks:
            for seat, kind, _ in self._decls:
                obs[base + self.game.side_of(seat)] += _decl(kind, self._o)[1]
            base += S
        if self.game.eliminate:
            for t in self._in_play:
                obs[base + t] = 1.0
            base += n
        if self.game.show:
            for seat in range(n):
                cards_at(base + C * seat, self._shown(seat))
            obs[base + C * n] = self._matta_value
            base += C * n + 1
        if self._o["steal"]:  # docs/rules/escoba.md §2.21: every pile top is public; then the piles selected
            for s, top in enumerate(self._tops):
                if top != -1:
                    obs[base + C * s + _slot(top, C)] = 1.0
            for x in self._selection:
                if x >= PILE0:
                    obs[base + C * S + x - PILE0] = 1.0
            base += (C + 1) * S
        if self._o["maresciallo_penalty"]:
            for i in self._ks_sweeps:
                obs[base + self._sweeps[i]] += 1.0
            base += S
        if self.game.twins:  # the double pack refuses fidasse and builds: this block is the last
            for i in self._twin_sweeps:
                obs[base + self._sweeps[i]] += 1.0
            base += S
        if self._o["fidasse"]:  # face-down cards per side as p sees them, the seat of an open claim
            for s in range(S):
                obs[base + s] = len(self._piles[s] & hidden)
            if self._claim != -1:
                obs[base + S + self._claimant] = 1.0
            base += S + n
        if self._o["builds"]:
            for b in self._builds:  # each card in a build carries the build's value
                for c in b:
                    obs[base + _slot(c)] = _build_value(b)
            base += C
        cap = self._o["max_consecutive_sweeps"]
        if cap is not None:  # each side's sweep streak over the cap, at most 1
            obs[base : base + S] = [min(k / cap, 1.0) for k in self._streak]
        return obs

    # -- for people ----------------------------------------------------------------------------

    def __str__(self) -> str:
        g, o = self.game, self._o
        n, S = g.num_players, g.num_sides

        def text(cards: Iterable[int]) -> str:
            return " ".join(card_str(c) for c in sorted(cards)) or "-"

        lines = [f"{g.name} ({o['variant']}), deal {self._deal}, dealer: seat {self._dealer}"]
        for seat in range(n):
            mark = "  <- to move" if seat == self.current_player() else ""
            team = f" (side {g.side_of(seat)})" if g.teams else ""
            lines.append(f"  seat {seat}{team}: {text(self._hands[seat])}{mark}")
        lines.append(f"  table: {text(self._table)}")
        for b in self._builds:
            lines.append(f"  build of {_build_value(b)}: {text(b)}")
        if self._pending != -1:
            lines.append(f"  playing {card_str(self._pending)}, taking so far: {text(self._selection)}")
        lines.append(f"  stock: {len(self._stock)} cards")
        scope = self._scope()
        for s in range(S):
            who = f"side {s}" if g.teams else f"seat {s}"
            lines.append(
                f"  {who}: pile {len(self._piles[s])} cards, {scope[s]} scope, score {self._scores[s]}"
                + (" (last capturer)" if self._last_capturer == s else "")
            )
        if self._terminal:
            if self._winner != -1:
                lines.append(f"  match over: side {self._winner} wins")
            elif self._loser != -1:
                lines.append(f"  match over: side {self._loser} loses")
            else:
                lines.append("  match over: drawn")
        return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# Reading a state back (docs/escoba_engine.md §8)
# ---------------------------------------------------------------------------------------------

_JSON_KEYS = frozenset(
    "deal deal_points dealer game hands history last_capturer loser options pending piles rng "
    "scores selection stock sweeps table terminal to_move version winner".split()
)


def _state_from_json(game: Escoba, text: Any) -> EscobaState:
    keys = set(_JSON_KEYS)
    if game.options["tuzzoli"] or game.knocks:
        keys.add("declarations")
    if game.knocks:
        keys.add("knock_state")
    if game.matta is not None:
        keys.add("matta_value")
    if game.eliminate:
        keys.add("in_play")
    if game.options["steal"]:
        keys.add("pile_tops")
    if game.options["maresciallo_penalty"]:
        keys.add("ks_sweeps")
    if game.options["fidasse"]:
        keys |= {"claim", "claimant", "claimed"}
    if game.options["builds"]:
        keys.add("builds")
    if game.twins:
        keys.add("twin_sweeps")
    if game.options["max_consecutive_sweeps"] is not None:
        keys.add("sweep_streak")
    d = StateFields(text, "escoba", keys, game.options_json())
    bad, integer, int_list, per = d.bad, d.integer, d.ints, d.per
    o = game._opts
    n, S = game.num_players, game.num_sides

    def card_list(x: Any, what: str, ascending: bool) -> list[int]:
        xs = int_list(x, what, 0, 51)
        if any(c not in game.pack for c in xs):
            raise bad(f"{what} holds a card that is not in the {pack_name(game.deck)}")
        if ascending and game.twins:  # docs/escoba_engine.md §1a: ascending, an id at most twice
            if any(a > b for a, b in zip(xs, xs[1:])) or any(a == b for a, b in zip(xs, xs[2:])):
                raise bad(f"{what} must be ascending, each card at most twice")
        elif ascending and any(a >= b for a, b in zip(xs, xs[1:])):
            raise bad(f"{what} must be strictly ascending")
        return xs

    deal = integer("deal", 1, o["max_deals"])
    dealer = integer("dealer", 0, n - 1)
    last_capturer = integer("last_capturer", -1, S - 1)
    loser = integer("loser", -1, S - 1)
    winner = integer("winner", -1, S - 1)
    to_move = integer("to_move", -1, n - 1)
    pending = integer("pending", -1, 51)
    terminal = d["terminal"]
    if not isinstance(terminal, bool):
        raise bad("terminal must be a bool")
    hands = [card_list(h, f"hands[{i}]", True) for i, h in enumerate(per("hands", n))]
    piles = [card_list(p, f"piles[{i}]", True) for i, p in enumerate(per("piles", S))]
    table = card_list(d["table"], "table", True)
    stock = card_list(d["stock"], "stock", False)
    if o["steal"]:  # selection items: table cards and piles (PILE0 + side)
        selection = int_list(d["selection"], "selection", 0, PILE0 + S - 1)
        if any(c not in game.pack and c < PILE0 for c in selection) or any(
            a >= b for a, b in zip(selection, selection[1:])
        ):
            raise bad("selection must be ascending table cards and piles")
    else:
        selection = card_list(d["selection"], "selection", True)
    last_action = (
        NO_KNOCK
        if game.knocks
        else DOUBT
        if o["fidasse"]
        else BUILD_ON0 + 51
        if o["builds"]
        else TAKE_PILE0 + 5
        if o["steal"]
        else DONE
    )
    history = int_list(d["history"], "history", 0, last_action)
    builds: list[list[int]] = []
    if o["builds"]:
        if not isinstance(d["builds"], list) or len(d["builds"]) > 20:
            raise bad("builds must be a list of at most 20 builds")
        builds = [card_list(b, f"builds[{i}]", True) for i, b in enumerate(d["builds"])]
        for b in builds:
            if len(b) < 2 or _build_value(b) > MAX_BUILD_VALUE:
                raise bad(f"a build holds at least 2 cards worth at most {MAX_BUILD_VALUE} in all")
        if any(a[0] >= b[0] for a, b in zip(builds, builds[1:])):
            raise bad("builds must be ascending by their lowest card")
    scores = int_list(per("scores", S), "scores", -MAX_SCORE, MAX_SCORE)
    sweeps = int_list(d["sweeps"], "sweeps", 0, S - 1)
    if len(sweeps) > MAX_JSON_SWEEPS:
        raise bad(f"sweeps may list at most {MAX_JSON_SWEEPS} sweeps")
    decls: list[list[int]] = []
    if game.options["tuzzoli"] or game.knocks:
        kinds = (set(TUZZOLI) - {0} if game.options["tuzzoli"] else set()) | (set(KNOCKS) if game.knocks else set())
        if not isinstance(d["declarations"], list) or len(d["declarations"]) > 24:
            raise bad("declarations must be a list of at most 24 [seat, kind, at] entries")
        for i, e in enumerate(d["declarations"]):
            if not isinstance(e, list) or len(e) != 3:
                raise bad(f"declarations[{i}] must be [seat, kind, at]")
            seat, kind, at = int_list(e, f"declarations[{i}]", 0, None)
            last = decls[-1][2] if decls else 0
            if seat >= n or kind not in kinds or not last <= at <= len(sweeps):
                raise bad(
                    f"declarations[{i}] must be [seat 0..{n - 1}, kind in {sorted(kinds)}, at {last}..{len(sweeps)}]"
                )
            decls.append([seat, kind, at])
    knock_state = [0] * n
    if game.knocks:
        knock_state = int_list(per("knock_state", n), "knock_state", 0, 2)
    matta_value = card_value(game.matta) if game.matta is not None else 0
    if game.matta is not None:
        matta_value = integer("matta_value", 1, 10)
    ks_sweeps: list[int] = []
    if game.options["maresciallo_penalty"]:
        # each Ks makes at most one sweep, and it lies in the sweeper's pile
        ks_sweeps = int_list(d["ks_sweeps"], "ks_sweeps", 0, len(sweeps) - 1)
        if len(ks_sweeps) > (2 if game.twins else 1):
            raise bad("ks_sweeps may list at most one sweep per Ks")
        if any(MARESCIALLO not in piles[sweeps[i]] for i in ks_sweeps):
            raise bad("ks_sweeps: a sweep made by playing Ks leaves Ks in the sweeper's pile")
    twin_sweeps: list[int] = []
    if game.twins:  # docs/escoba_engine.md §1a: ascending indices of the sweeps that took the card's twin
        twin_sweeps = int_list(d["twin_sweeps"], "twin_sweeps", 0, len(sweeps) - 1)
        if any(a >= b for a, b in zip(twin_sweeps, twin_sweeps[1:])):
            raise bad("twin_sweeps must be strictly ascending")
    streak = [0] * S
    if o["max_consecutive_sweeps"] is not None:  # docs/rules/escoba.md §1.5: a side plays at most the pack
        streak = int_list(per("sweep_streak", S), "sweep_streak", 0, game.size)
    deal_points = d["deal_points"]
    if not isinstance(deal_points, list):
        raise bad("deal_points must be a list")
    for i, pts in enumerate(deal_points):
        if not isinstance(pts, list) or len(pts) != S:
            raise bad(f"deal_points[{i}] must list {S} ints")
        int_list(pts, f"deal_points[{i}]", -MAX_SCORE, MAX_SCORE)
    if len(deal_points) != deal - (0 if terminal else 1):
        raise bad(f"deal_points must list one entry per finished deal ({deal - (0 if terminal else 1)})")
    rng = d["rng"]
    if not isinstance(rng, str) or not rng.isdigit() or not rng.isascii() or str(int(rng)) != rng or int(rng) > MASK64:
        raise bad("rng must be the decimal text of an int in 0..2^64-1")

    claimed: list[list[int]] = [[] for _ in range(n)]
    claim, claimant = -1, -1
    if o["fidasse"]:
        claim = integer("claim", -1, 51)
        claimant = integer("claimant", -1, n - 1)
        claimed = [card_list(c, f"claimed[{i}]", True) for i, c in enumerate(per("claimed", n))]
        if (claim == -1) != (claimant == -1):
            raise bad("claim and claimant are both set or both -1")
        for i, cards in enumerate(claimed):
            if not set(cards) <= set(piles[game.side_of(i)]):
                raise bad(f"claimed[{i}] must be cards of the pile of seat {i}'s side")
        flat = [c for cards in claimed for c in cards]
        if len(set(flat)) != len(flat):
            raise bad("a claimed card is listed for two seats")

    # The cards: each of the pack exactly once (at a terminal state cards left to nobody may miss).
    every = (
        [c for h in hands for c in h] + table + [c for b in builds for c in b] + stock + [c for p in piles for c in p]
    )
    if claim != -1:
        if claim not in game.pack:
            raise bad(f"claim must be a card of the {pack_name(game.deck)} or -1")
        every.append(claim)
    if pending != -1:
        if pending not in game.pack:
            raise bad(f"pending must be a card of the {pack_name(game.deck)} or -1")
        every.append(pending)
    copies = 2 if game.twins else 1
    if any(k > copies for k in Bag(every)._n.values()):
        raise bad("a card appears twice" if copies == 1 else "a card appears more than twice")
    if len(every) != game.size and not (terminal and (not o["last_capturer_takes_rest"] or last_capturer == -1)):
        raise bad(
            f"the {game.size} cards must each appear exactly once across hands, table, stock, piles and pending"
            " (only a finished match whose last table went to nobody may miss cards)"
        )

    seats_in = set(range(n))
    if game.eliminate:
        mask = integer("in_play", 1, (1 << n) - 1)
        seats_in = {t for t in range(n) if mask >> t & 1}
        if terminal:
            ok = seats_in == {t for t in range(n) if game.side_of(t) == winner} if winner != -1 else len(seats_in) >= 2
            if not ok:
                raise bad("in_play does not fit a finished match (the winner's seats, else 2 or more)")
        else:
            _check_in_play(seats_in, hands, dealer, to_move)

    if terminal:
        if claim != -1 or any(claimed):
            raise bad("a terminal state has no open claim and no face-down claim cards")
        if any(hands) or table or builds or stock or pending != -1 or selection or to_move != -1:
            raise bad("a terminal state has empty hands, table, stock and selection, no pending card and to_move -1")
        if winner != -1 and loser != -1:
            raise bad("a match has a winner or a loser, not both")
        if winner == -1 and loser == -1 and (o["max_deals"] is None or deal != o["max_deals"]):
            raise bad("a drawn match ends only after max_deals deals")
    else:
        if winner != -1 or loser != -1:
            raise bad("winner and loser must be -1 before the end")
        if to_move == -1:
            raise bad("to_move must be a seat before the end")
        sizes = [len(h) for h in hands]
        if pending != -1:
            sizes[to_move] += 1
        if claim != -1:  # an open claim: the claimant played it, an opponent is asked
            if game.side_of(claimant) == game.side_of(to_move) or pending != -1 or not table or selection:
                raise bad(
                    "an open claim is answered by an opponent of the claimant,"
                    " with no pending card and cards on the table"
                )
            sizes[claimant] += 1
            to_move_for_sizes = claimant
        else:
            to_move_for_sizes = to_move
        order = [t for t in range(n) if t in seats_in]
        problem = _round_sizes_problem(
            [sizes[t] for t in order], order.index(dealer), order.index(to_move_for_sizes), strict=bool(stock)
        )
        if problem:
            raise bad(problem)
        if pending == -1 and selection:
            raise bad("a selection needs a pending card")
        if any(t not in table and t not in {b[0] for b in builds} for t in selection if t < PILE0):
            raise bad("the selection must be table items")
        if game.twins and any(selection.count(t) > table.count(t) for t in selection):
            raise bad("the selection must be table items")

    s = EscobaState(game)
    s._rng = SplitMix64(int(rng))
    s._deal = deal
    s._deal_points = [list(p) for p in deal_points]
    s._dealer = dealer
    s._hands = [game.bag(h) for h in hands]
    s._history = list(history)
    s._last_capturer = last_capturer
    s._loser, s._winner = loser, winner
    s._pending = pending
    s._piles = [game.bag(p) for p in piles]
    s._tops = _read_pile_tops(game, d["pile_tops"] if o["steal"] else None, piles, InvalidStateError, json_form=True)
    s._scores = list(scores)
    s._selection = list(selection)
    s._stock = list(stock)
    s._sweeps = list(sweeps)
    s._decls = decls
    s._knock_state = list(knock_state)
    s._matta_value = matta_value
    s._ks_sweeps = ks_sweeps
    s._twin_sweeps = twin_sweeps
    s._table = game.bag(table)
    s._builds = [list(b) for b in builds]
    s._terminal = terminal
    s._to_move = to_move
    s._in_play = seats_in
    s._claim, s._claimant = claim, claimant
    s._claimed = [set(c) for c in claimed]
    s._streak = list(streak)

    if pending != -1:
        # The pending card must really await a choice: more than one outcome fits the selection.
        outcomes = s._outcomes_of(pending)
        chosen = tuple(selection)
        k = len(chosen)
        fitting: list[Any] = [x for x in outcomes if isinstance(x, tuple) and x[:k] == chosen and len(x) >= k]
        fitting += [x for x in outcomes if isinstance(x, BuildOn) and not chosen]
        if len(fitting) < 2:
            raise bad("the pending card and selection do not leave a choice of capture")
    elif not terminal and claim == -1 and not s._hands[to_move]:
        raise bad("the player to move holds no card")
    return s
