"""Escoba options (docs/escoba_engine.md §2): the presets, the input aliases, the values derived
from the resolved options and the checks across them."""

from __future__ import annotations

import copy
from typing import Any

from ..._options import spec
from ...cards import card_id
from ...errors import (
    InvalidOptionError,
)
from .._base import is_int as _is_int
from .cards import pack_name, pack_of

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
    if opts["ace_self_capture_is_scopa"] and not (
        opts["ace_takes_all"] and opts["ace_on_empty_table"] == "self_capture"
    ):
        raise InvalidOptionError(
            "option ace_self_capture_is_scopa needs ace_takes_all=true and ace_on_empty_table=self_capture"
            " (docs/rules/escoba.md §2.1)"
        )
    if opts["ace_may_trail"] and not opts["ace_takes_all"]:
        raise InvalidOptionError("option ace_may_trail needs ace_takes_all=true (docs/rules/escoba.md §2.1)")
    per_round = players * opts["cards_per_hand"]
    size = len(pack_of(opts["deck"]))
    rest = size - opts["initial_table_cards"]
    if rest <= 0 or rest % per_round:
        raise InvalidOptionError(
            f"{size} - initial_table_cards = {rest} must be a positive multiple of"
            f" players * cards_per_hand = {per_round}"
        )
    _check_cicera(opts)
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


def supported_by_twins(opts: dict) -> bool:
    """Whether the double pack's capture search covers these options: kinds ``match`` and ``sum``
    only, natural values, no fewest-cards filter, no piles (the native search covers the same)."""
    return (
        set(opts["capture_kinds"]) <= {"match", "sum"}
        and opts["value_modulus"] is None
        and opts["matta"] is None
        and opts["fewest_cards"] == "none"
        and not opts["steal"]
    )
