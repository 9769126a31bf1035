"""Burako (Argentine tile Buraco): the pure-Python reference engine.

This package is the readable statement of the rules that ``docs/burako_engine.md`` (the engine
contract) and ``docs/rules/burako.md`` (the rules) pin down. The native engine implements the same
page, and the differential tests hold the two to it byte for byte. Clarity comes first here.

The game in brief
-----------------
* 106 tiles: colours R K B Y, numbers 1..13, two copies each, and two jokers. A tile *type* is
  ``13*colour + n-1`` (joker 52); text ``R5``, ``K13``, ``J*``. Jokers are wild, and so is every 2,
  except that a 2 may be a natural 2 in a run of its own colour.
* 2 players, or 4 in two teams (seats 0+2 against 1+3). Racks of 11 (12/15/22 with two players),
  two face-down *muertos* of 11 tiles, the rest is the stock; the *pozo* (discard pile) starts empty.
* A turn: draw one stock tile or take the whole pozo; lay down melds (runs of one colour, or
  *piernas* of one number, at most one wild by default) one tile at a time through a buffer, and
  extend the team's melds; then discard. The mano may reject his very first draw (REDRAW).
* The first player of a team to empty his rack takes the team's muerto and plays on (directly,
  within the turn, when a meld empties it; on his next turn when a discard does). Once a team has its
  muerto and a canasta (a meld of 7+ tiles), emptying a rack closes the hand.
* Scoring per team: melded tiles plus, rack tiles minus, canastas (+200 pure / +100 impure), +100 for
  closing, +/-100 for the muerto; a team without a canasta counts its melds negative. Hands are
  played until a team reaches 3000.

The package
-----------
``tiles`` (types, text, values), ``actions`` (the 1966 action ids and their notation),
``options`` (resolved from ``tapete/data/burako.json``; the rack and muerto sizes), ``melds``
(validity, purity, values, the team score; the rule primitives ``classify_meld`` and
``score_team``), ``search`` (the melds a rack could make, for ``must_use_top_tile_now``),
``state`` (a position: dealing, legal actions, transitions, scoring, views), ``game`` (the game
object) and ``setup`` (``setup`` and reading the canonical JSON back).
"""

from __future__ import annotations

from .actions import NUM_DISTINCT_ACTIONS, action_to_string, string_to_action
from .game import Burako
from .melds import classify_meld, score_team
from .options import DEFAULTS, resolve_options
from .state import BurakoState
from .tiles import tile_id, tile_str, tile_value

__all__ = [
    "Burako",
    "BurakoState",
    "classify_meld",
    "score_team",
    "resolve_options",
    "tile_id",
    "tile_str",
    "tile_value",
    "action_to_string",
    "string_to_action",
    "NUM_DISTINCT_ACTIONS",
    "DEFAULTS",
]
