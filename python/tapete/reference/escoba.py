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

Where the rules are written
---------------------------
This module holds the game (options checked, dealing a match, ``setup``) and the state's step
protocol: which actions are legal, what a play does, ``play(text)``. The rest is in
``escoba_parts``, one topic a module, read in this order: ``cards`` (packs, values, action ids),
``options``, ``captures`` (the capture search and every legal outcome), ``scoring`` (declarations
and the awards of a deal), ``dealing``, ``fidasse``, ``match_end``, ``seeing`` (JSON, view,
observation) and ``state_json`` (reading a state back). The double pack's multiset rules are in
``escoba_twins``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..cards import card_id
from ..errors import (
    IllegalActionError,
    InvalidNotationError,
    InvalidStateError,
)
from ._base import ReferenceGame, ReferenceState
from ._base import is_int as _is_int
from ._rng import MASK64, SplitMix64
from .escoba_parts import dealing, fidasse, match_end, seeing
from .escoba_parts.captures import (
    MAX_BUILD_VALUE,
    PILE0,
    SELF,
    TRAIL,
    BuildOn,
    _build_value,
    _outcomes,
    _pack_card,
    capture_options,
)
from .escoba_parts.cards import (
    BUILD_ON0,
    CLAIM0,
    DONE,
    DOUBT,
    KNOCK,
    MARESCIALLO,
    NO_KNOCK,
    NUM_DISTINCT_ACTIONS,
    PACK,
    RE_BELLO,
    TAKE0,
    TAKE_PILE0,
    TRUST,
    action_to_string,
    card_value,
    pack_of,
    string_to_action,
)
from .escoba_parts.options import (
    MAX_SCORE,
    MAX_SWEEPS,
    VARIANTS,
    _check_options,
    _expand_aliases,
    elimination_deal_shape,
    resolve_options,
)
from .escoba_parts.positions import _check_in_play, _compact, _read_pile_tops, _round_sizes_problem
from .escoba_parts.scoring import _knock_best, knock, score_deal, tuzzoli
from .escoba_parts.state_json import _state_from_json
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
    "VARIANTS",
    "tuzzoli",
    "knock",
    "elimination_deal_shape",
    "TAKE0",
    "TAKE_PILE0",
    "PILE0",
    "BuildOn",
    "TRAIL",
    "SELF",
]

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

    def _blank_state(self) -> EscobaState:
        """A state to fill in (the JSON reader's)."""
        return EscobaState(self)


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

    # the parts of the state written in their own modules (escoba_parts)
    _start_deal = dealing.start_deal
    _seats_after = dealing.seats_after
    _next_in = dealing.next_in
    _deal_shape = dealing.deal_shape
    _declare_hands = dealing.declare_hands
    _table_sweeps = dealing.table_sweeps
    _escoba_de_mano = dealing.escoba_de_mano
    _deal_next_hand = dealing.deal_next_hand
    _is_last_play = fidasse.is_last_play
    _sweep_filtered = fidasse.sweep_filtered
    _next_asked = fidasse.next_asked
    _hidden_from = fidasse.hidden_from
    _step_fidasse = fidasse.step_fidasse
    _claim_stands = fidasse.claim_stands
    _fidasse_view = fidasse.fidasse_view
    _end_deal = match_end.end_deal
    _match_decision = match_end.match_decision
    _eliminate = match_end.eliminate
    _finish = match_end.finish
    _as_dict = seeing.as_dict
    _scope = seeing.scope
    _view = seeing.view
    _observation = seeing.observation
    __str__ = seeing.describe

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
