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
``escoba_parts``, one topic a module, none of them importing this one: ``cards`` (packs, values,
action ids), ``options``, ``position`` (the fields of a position and the ``Feature`` interface of
an optional part), ``captures`` (the capture search and every legal outcome), ``scoring`` (the
declarations and the awards of a deal, a list chosen once from the options), ``dealing``,
``turns``, ``match_end``, ``seeing`` (JSON, view, observation) and ``state_json`` (reading a state
back). Each optional part is a ``Feature`` in its own module, listed in order in ``features``
(which checks the options with them): ``declarations`` (tuzzoli, knocks), ``elimination``,
``open_hands`` (shown hands, the matta), ``piles`` (rubamazzo), ``maresciallo``, ``double_pack``
(the 80 cards: the same engine over multisets), ``fidasse``, ``builds`` and ``sweep_streak``.
``helpers`` holds the rules as functions of cards (``capture_options``, ``score_deal``...).
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
from ._base import is_int as _is_int
from ._base import whole_pack
from ._rng import MASK64, SplitMix64
from .escoba_parts import dealing, resample, seeing, turns
from .escoba_parts.captures import (
    MAX_BUILD_VALUE,
    PILE0,
    SELF,
    TRAIL,
    BuildOn,
    _build_value,
    _outcomes,
    _pack_card,
)
from .escoba_parts.cards import (
    BUILD_ON0,
    DONE,
    KNOCK,
    NUM_DISTINCT_ACTIONS,
    PACK,
    RE_BELLO,
    TAKE0,
    TAKE_PILE0,
    action_to_string,
    card_value,
    string_to_action,
)
from .escoba_parts.features import FEATURES, check_options, resolve_options
from .escoba_parts.helpers import capture_options, knock, score_deal, tuzzoli
from .escoba_parts.options import (
    MAX_SCORE,
    MAX_SWEEPS,
    VARIANTS,
    _expand_aliases,
    elimination_deal_shape,
)
from .escoba_parts.position import EscobaRules, Position
from .escoba_parts.positions import (
    _check_in_play,
    _compact,
    _entries_given,
    _read_pile_tops,
    _round_sizes_problem,
    _seat_given,
)
from .escoba_parts.scoring import award_steps
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


class Escoba(EscobaRules):
    """The Escoba / Scopa game with resolved options; a factory of states."""

    name = "escoba"
    num_distinct_actions = NUM_DISTINCT_ACTIONS

    def __init__(self, **options: Any) -> None:
        super().__init__(**_expand_aliases(options))

    def _check(self, options: dict[str, Any]) -> None:
        check_options(options)
        self._opts = options
        self._derive(options)
        self.features = tuple(F(self) for F in FEATURES if F.wanted(options))
        self.awards = award_steps(options)

    def score_sign(self) -> int:
        """Reaching the target loses or eliminates in the misère presets (docs/escoba_engine.md §6)."""
        return -1 if self._opts["target_mode"] in ("lose", "eliminate") else 1

    def _observation_size(self) -> int:
        """The size of a blank position's observation: every block has a fixed size."""
        return len(EscobaState(self)._observation(0))

    # -- states --------------------------------------------------------------------------------

    def _deck(self, deck: Any) -> list[int]:
        if isinstance(deck, (str, bytes)) or not isinstance(deck, Iterable):
            raise InvalidStateError(f"deck must be a list of the {self.size} cards, top first")
        cards = [_pack_card(c, InvalidStateError, self.deck) for c in deck]
        return whole_pack(cards, self.pack, f"each of the {self.size} cards exactly once")

    def _deal(self, seed: int, pack: list[int] | None) -> EscobaState:
        """A new match: the first dealer is drawn, then the first deal is dealt (docs/escoba_engine.md §5)."""
        s = EscobaState(self)
        s._rng = SplitMix64(seed)
        n = self.num_players
        if self._opts["first_dealer"] == "random":
            s._dealer = s._rng.below(n)
        else:  # deal_until_Kd: deal a shuffled pack face up; whoever receives Kd deals
            shuffled = list(self.pack)
            s._rng.shuffle(shuffled)
            s._dealer = shuffled.index(RE_BELLO) % n
        dealing.start_deal(s, pack)
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

        def seat(x: Any, what: str) -> int:
            return _seat_given(x, n, what)

        hand_ids = [cards(h, f"hands[{i}]") for i, h in enumerate(_entries_given(hands, n, "hands"))]
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
            [cards(p, f"piles[{i}]") for i, p in enumerate(_entries_given(piles, S, "piles"))]
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

        score_list = _entries_given(scores, S, "scores") if scores is not None else [0] * S
        scope_list = _entries_given(scope, S, "scope") if scope is not None else [0] * S
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
        s = EscobaState(self)
        _state_from_json(self, text, s)
        if s._pending != -1:
            # The pending card must really await a choice: more than one outcome fits the selection.
            outcomes = s._outcomes_of(s._pending)
            chosen = tuple(s._selection)
            k = len(chosen)
            fitting: list[Any] = [x for x in outcomes if isinstance(x, tuple) and x[:k] == chosen and len(x) >= k]
            fitting += [x for x in outcomes if isinstance(x, BuildOn) and not chosen]
            if len(fitting) < 2:
                raise InvalidStateError(
                    "invalid escoba state: the pending card and selection do not leave a choice of capture"
                )
        elif not s._terminal and s._claim == -1 and not s._hands[s._to_move]:
            raise InvalidStateError("invalid escoba state: the player to move holds no card")
        return s


# ---------------------------------------------------------------------------------------------
# The state
# ---------------------------------------------------------------------------------------------


class EscobaState(Position):
    """A position of a match. Mutated in place by ``apply``; ``clone`` for a copy."""

    # what the state shows, written in escoba_parts/seeing.py
    _as_dict = seeing.as_dict
    _view = seeing.view
    _public_view = seeing.public_view
    _observation = seeing.observation
    __str__ = seeing.describe

    # -- rules helpers -------------------------------------------------------------------------

    def _is_first_play(self) -> bool:
        itc, cph = dealing.deal_shape(self)
        return (
            self._pending == -1
            and all(len(self._hands[s]) == cph for s in self._in_play)
            and len(self._stock) == self.game.size - itc - len(self._in_play) * cph
        )

    def _asked(self) -> list[int]:
        """The decision a part puts to the mover before any play (a knock, an open claim), or []."""
        return next((acts for f in self.game.features if (acts := f.asks(self))), [])

    def _knock_turn(self) -> bool:
        """The mover must first choose KNOCK or NO_KNOCK (docs/rules/escoba.md §2.7)."""
        return KNOCK in self._asked()

    def _outcomes_of(self, card: int) -> dict:
        """O(card) for the mover, computed against the hand before ``card`` left it, less what a part
        forbids (with fidasse the capture of the whole table, docs/rules/escoba.md §2.19)."""
        hand = set(self._hands[self._to_move])
        if self._pending != -1:
            hand.add(self._pending)
        outcomes = _outcomes(
            card, hand, self._table, self._o, self._is_first_play(), self._matta(), self._piles_ctx(), self._builds
        )
        for f in self.game.features:
            f.restrict(self, outcomes)
        return outcomes

    def _piles_ctx(self) -> tuple | None:
        """The piles as the capture rules see them from the mover's seat (with steal)."""
        if not self._o["steal"]:
            return None
        g = self.game
        tops = tuple(self._tops) + (-1,) * (6 - len(self._tops))
        return tops, g.side_of(self._to_move), g.side_of((self._to_move + 1) % g.num_players)

    # -- the step protocol (docs/escoba_engine.md §4) -------------------------------------------------------

    def legal_actions(self) -> list[int]:
        if self._terminal:
            return []
        asked = self._asked()
        if asked:
            return asked
        if self._pending == -1:
            hand = self._hands[self._to_move]
            plays = sorted({c for c in hand if self._outcomes_of(c)})  # a twin once
            for f in self.game.features:
                plays += f.plays(self)
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
        for f in self.game.features:
            if a in f.actions:
                f.step(self, a)
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
        else:  # a capture: with the double pack ``taken`` is a multiset, a twin listed twice
            taken = self.game.bag(x for x in outcome if x < PILE0)
            for f in self.game.features:
                f.on_capture(self, side, card, outcome)
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
            turns.sweep(self, side, card, self.game.twins and outcome != SELF and card in outcome)
        else:
            self._streak[side] = 0
        self._pending, self._selection = -1, []
        turns.pass_turn(self)

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
        if self._terminal or self._pending != -1 or self._asked() or card not in self._hands[self._to_move]:
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

    def _resample_into(self, seat: int, seed: int, out: Any) -> None:
        """docs/escoba_engine.md §12 (``escoba_parts/resample.py``)."""
        resample.resample_into(self, seat, seed, out)

    def clone(self) -> EscobaState:
        s = EscobaState.__new__(EscobaState)
        self._copy_fields(s)
        return s
