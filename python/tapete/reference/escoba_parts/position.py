"""What every part of the Escoba reference engine stands on: the game's facts derived from its
options (``EscobaRules``), the fields of a position (``Position``) and the interface of an
optional part of the game (``Feature``, docs/escoba_engine.md §2).

The step protocol (``reference/escoba.py``) and the rule topics of ``escoba_parts`` work on these
classes; none of them imports the step protocol back.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from ...cards import card_id
from .._base import ReferenceGame, ReferenceState, StateFields
from .._rng import SplitMix64
from ..multiset import Bag
from .cards import _slot, action_to_string, card_value, pack_of, string_to_action
from .options import _refuse_clashes


class EscobaRules(ReferenceGame):
    """The facts of an Escoba game that follow from its resolved options: the pack, the sides,
    and the optional parts it plays (``features``, in their fixed order)."""

    features: tuple[Feature, ...] = ()
    #: The award steps a deal is scored by (``scoring.award_steps``).
    awards: tuple[Callable[[Any], list[list[int]]], ...] = ()

    def _derive(self, o: dict[str, Any]) -> None:
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

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.teams else seat


class Observation:
    """The observation tensor written block after block: its size is the sum of the blocks, so
    the size and the writing are the same code (docs/escoba_engine.md §10)."""

    def __init__(self, slots: int) -> None:
        self.slots = slots
        self._blocks: list[np.ndarray] = []

    def block(self, size: int) -> np.ndarray:
        """The next ``size`` floats, zero."""
        b = np.zeros(size, dtype=np.float32)
        self._blocks.append(b)
        return b

    def cards(self, block: np.ndarray, offset: int, cards: Iterable[int]) -> None:
        """Count ``cards`` in the card slots of ``block`` from ``offset`` (a slot counts the copies,
        more than 1 only with the double pack)."""
        for c in cards:
            block[offset + _slot(c, self.slots)] += 1.0

    def array(self) -> np.ndarray:
        return np.concatenate(self._blocks) if self._blocks else np.zeros(0, dtype=np.float32)


class Position(ReferenceState):
    """The fields of a position of a match. The optional parts' fields keep the value the rest of
    the rules read when the part is not played (no builds, no claim, no pile tops...)."""

    game: EscobaRules

    def __init__(self, game: EscobaRules) -> None:
        self.game = game
        self._o = game._opts
        n, S = game.num_players, game.num_sides
        self._rng = SplitMix64(0)
        self._deal = 1
        self._deal_points: list[list[int]] = []
        self._dealer = n - 1
        self._hands: list[Any] = [game.bag() for _ in range(n)]  # sets, or Bags with the double pack
        self._history: list[int] = []
        self._last_capturer = -1
        self._loser = -1
        self._winner = -1
        self._pending = -1
        self._piles: list[Any] = [game.bag() for _ in range(S)]
        self._scores = [0] * S
        self._selection: list[int] = []
        self._stock: list[int] = []
        self._sweeps: list[int] = []
        self._table: Any = game.bag()
        self._terminal = False
        self._to_move = 0
        self._in_play: set[int] = set(range(n))  # seats still in the match (docs/rules/escoba.md §2.11)
        # the optional parts' fields (each part's module says what they mean)
        self._decls: list[list[int]] = []  # declarations: [seat, kind, sweeps before it]
        self._knock_state = [0] * n  # knocks: 0 undecided, 1 no knock, 2 knocked
        self._matta_value = card_value(game.matta) if game.matta is not None else 0
        self._tops = [-1] * S  # piles: each pile's top card
        self._ks_sweeps: list[int] = []  # maresciallo: the sweeps made by playing Ks
        self._twin_sweeps: list[int] = []  # double pack: the sweeps that took the card's twin
        self._claim = -1  # fidasse: the open claim and its claimant, the trusted claims
        self._claimant = -1
        self._claimed: list[set[int]] = [set() for _ in range(n)]
        self._builds: list[list[int]] = []  # builds: ascending cards each, ascending by lowest card
        self._streak = [0] * S  # max_consecutive_sweeps: each side's run of sweeps

    # -- notation (docs/escoba_engine.md §4): the ids and their text, whatever the position --------

    def action_to_string(self, action: Any) -> str:
        return action_to_string(action)

    def string_to_action(self, text: Any) -> int:
        return string_to_action(text)

    def _copy_from(self, other: Position) -> None:
        """Become a copy of ``other`` (a resample drawn again)."""
        other._copy_fields(self)

    def _copy_fields(self, s: Position) -> None:
        """Copy every field into ``s`` (``clone``)."""
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
        s._scores = list(self._scores)
        s._selection = list(self._selection)
        s._stock = list(self._stock)
        s._sweeps = list(self._sweeps)
        s._table = self._table.copy()
        s._terminal = self._terminal
        s._to_move = self._to_move
        s._in_play = set(self._in_play)
        s._decls = [list(d) for d in self._decls]
        s._knock_state = list(self._knock_state)
        s._matta_value = self._matta_value
        s._tops = list(self._tops)
        s._ks_sweeps = list(self._ks_sweeps)
        s._twin_sweeps = list(self._twin_sweeps)
        s._claim, s._claimant = self._claim, self._claimant
        s._claimed = [set(c) for c in self._claimed]
        s._builds = [list(b) for b in self._builds]
        s._streak = list(self._streak)

    # -- queries (docs/escoba_engine.md §4, §6) -------------------------------------------------

    def current_player(self) -> int:
        return -1 if self._terminal else self._to_move

    def deals(self) -> int:
        """Deals started so far, the current one included."""
        return self._deal

    def is_terminal(self) -> bool:
        return self._terminal

    def returns(self) -> list[float]:
        """+1 to each seat of the winning side, the losers sharing as much below zero (a losing
        side under ``target_mode = lose``: the reverse); a draw and a match in play 0."""
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

    # -- what the rules read of a position ----------------------------------------------------

    def _matta(self) -> tuple[int, int] | None:
        m = self.game.matta
        return (m, self._matta_value) if m is not None else None

    def _scope(self) -> list[int]:
        return [self._sweeps.count(s) for s in range(self.game.num_sides)]

    def _shown(self, seat: int) -> Any:
        """A knocked hand (docs/rules/escoba.md §2.7), and with ``last_hand_open`` every hand of the
        last hand (the stock is empty, docs/rules/escoba.md §2.23), is played face up."""
        last_open = self._o["last_hand_open"] and not self._stock
        return self._hands[seat] if last_open or self._knock_state[seat] == 2 else set()

    def _items(self) -> set[int]:
        """Every table item: the loose cards and each build's name (its lowest card)."""
        return self._table | {b[0] for b in self._builds}

    def _hidden_from(self, seat: int) -> set[int]:
        """The cards of the piles and claims that ``seat`` may not see, as every part says."""
        return set().union(*(f.hidden_from(self, seat) for f in self.game.features))


class Feature:
    """An optional part of the game (knocks, fidasse, piles, builds, ...), on when its options
    say so (``wanted``). The position, its JSON, its view and its observation are the core's
    followed by each part's, the parts in a fixed order (docs/escoba_engine.md §8, §10).

    A part owns: the options it refuses to be combined with (``check_options``); the state
    JSON keys it writes (``to_json``) and reads back checked (``from_json``); its block of the
    observation (``observe``, the block's size is what it writes); what it adds to a seat's view
    (``view``) and the cards it hides from a seat (``hidden_from``); and its hooks:
    ``new_deal`` (its ``fields`` afresh), ``new_hand`` (a hand dealt), the turn's (``asks``: a
    decision before the play, ``plays``: more plays, ``restrict``: outcomes it forbids, ``step``:
    its own ``actions``), ``on_capture``, ``sweep_scores`` and ``on_sweep`` (a sweep).
    """

    #: The option that turns the part on (``wanted``'s test unless it says otherwise).
    option = ""
    #: Its fields of the position that each deal starts afresh.
    fields: tuple[str, ...] = ()
    #: The state JSON keys the part writes and reads.
    keys: tuple[str, ...] = ()
    #: The action ids it steps (``step``).
    actions: range = range(0)

    def __init__(self, game: EscobaRules) -> None:
        self.game = game

    @classmethod
    def wanted(cls, opts: dict[str, Any]) -> bool:
        return bool(opts[cls.option])

    #: How the part is named when it refuses options (``clashes``).
    refusing = ""

    @classmethod
    def clashes(cls, opts: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
        """The options it cannot be played with, each as (their name, whether they are set)."""
        return ()

    @classmethod
    def check_options(cls, opts: dict[str, Any]) -> None:
        """Refuse what it cannot be played with (``InvalidOptionError``); checked when wanted."""
        _refuse_clashes(cls.refusing, *cls.clashes(opts))

    def new_deal(self, state: Position) -> None:
        """Its fields at the start of a deal: as in a new position."""
        fresh = Position(self.game)
        for name in self.fields:
            setattr(state, name, getattr(fresh, name))

    def new_hand(self, state: Position) -> None:
        """A hand was just dealt to every seat in play."""

    def asks(self, state: Position) -> list[int]:
        """The actions of a decision it puts to the mover before any play ([]: none)."""
        return []

    def plays(self, state: Position) -> list[int]:
        """The actions it adds to the mover's plays at the start of a turn."""
        return []

    def restrict(self, state: Position, outcomes: dict[Any, bool]) -> None:
        """Remove from the outcomes of a play those it forbids."""

    def step(self, state: Position, action: int) -> None:
        """Apply one of its ``actions`` (legal)."""

    def on_capture(self, state: Position, side: int, card: int, outcome: tuple[int, ...]) -> None:
        """``side`` captures ``outcome`` by playing ``card`` (before the table cards move)."""

    def sweep_scores(self, state: Position, side: int) -> bool:
        """Whether a sweep ``side`` is making scores (it is then recorded)."""
        return True

    def on_sweep(self, state: Position, side: int, card: int, twin: bool) -> None:
        """``side`` makes a scoring sweep by playing ``card`` (``twin``: it took the card's twin),
        to be recorded as ``state._sweeps[len(state._sweeps)]``."""

    def to_json(self, state: Position) -> dict[str, Any]:
        return {}

    def from_json(self, state: Position, d: StateFields) -> None:
        """Read its keys into ``state`` (its core fields already read), checking them."""

    def view(self, state: Position, seat: int, hidden: set[int]) -> dict[str, Any]:
        return {}

    def hidden_from(self, state: Position, seat: int) -> set[int]:
        """The cards it keeps from ``seat`` (face down in the piles, or an open claim)."""
        return set()

    def observe(self, state: Position, seat: int, obs: Observation) -> None:
        """Write its observation block (a fixed size, whatever the position)."""
