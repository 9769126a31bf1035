"""Musta Maija ("Black Maria"): the pure-Python reference engine.

This module is the readable statement of the rules that ``rules/musta_maija.md`` (the rules) and
``docs/musta_maija_engine.md`` (the engine contract) pin down. The native engine implements the
same pages, and the differential tests hold the two to it byte for byte. Clarity comes first here.

The game in brief
-----------------
* 2-6 players, the 52-card pack, ace high. The dealer deals ``hand_size`` (5) cards to each
  player one at a time from ``next(dealer)``; the rest is the stock, top first.
* Trump determination: the top stock card is turned; a spade (Maija included) goes back into the
  middle of the stock and the next top card is turned, until a non-spade turns up (a spade turned
  a second time ends the search). The trump card lies face up at the bottom of the stock.
* Maija, the queen of spades (``Qs``, id 50), can never beat and can never be beaten.
* The attacker leads a set of cards of one suit, no more than the defender (the next active
  player) holds. The defender beats any subset of them, one card for one card: a higher card of
  the same suit, or a trump against a non-trump. Beaten pairs leave the game; the defender picks
  up the rest. The attacker refills right after attacking, the defender after the defence.
* Whoever beat everything attacks next; otherwise the player after the defender. Once the stock
  is empty a player without cards is out; the last player holding cards (always holding Maija)
  loses.

Actions (54 ids)
----------------
=========  ===========  =================================  ===============================
ids        notation     in ATTACK                          in DEFEND
=========  ===========  =================================  ===============================
0..51      ``7h``       add card c to the attack           beat the current target with c
52         ``done``     commit the attack (>= 1 card)      leave the current target unbeaten
53         ``take all`` (never legal)                      leave this and every later target
=========  ===========  =================================  ===============================

Attack cards are added in strictly increasing id; targets are defended in ascending id.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import Any

import numpy as np

from .._game import seed_value
from .._options import spec
from ..cards import card_id, card_str
from ..errors import (
    IllegalActionError,
    InvalidNotationError,
    InvalidOptionError,
    InvalidStateError,
    shown,
)
from ._base import ReferenceGame, ReferenceState, StateFields, index_in, no_card_twice, whole_pack, word_or_card_action
from ._base import is_int as _is_int
from ._rng import SplitMix64

__all__ = [
    "MustaMaija",
    "MustaMaijaState",
    "can_beat",
    "legal_attacks",
    "trump_from_stock",
    "action_to_string",
    "VARIANTS",
    "string_to_action",
    "MAIJA",
    "DONE",
    "TAKE_ALL",
    "NUM_DISTINCT_ACTIONS",
]

# ---------------------------------------------------------------------------------------------
# Cards
# ---------------------------------------------------------------------------------------------

PACK: tuple[int, ...] = tuple(range(52))
SPADES = 3
MAIJA = 50  # Qs
_SUIT_CHARS = "cdhs"


def _suit(card: int) -> int:
    return card // 13


def _strength(card: int) -> int:
    """Ace high: 2..K = 2..13, A = 14."""
    face = card % 13 + 1
    return 14 if face == 1 else face


def _beats(target: int, card: int, trump: int) -> bool:
    """docs/rules/musta_maija.md §4.2: may ``card`` beat ``target`` with trump suit ``trump`` (-1: no trump)?"""
    if target == MAIJA or card == MAIJA:
        return False
    if _suit(card) == _suit(target):
        return _strength(card) > _strength(target)
    return _suit(card) == trump


# ---------------------------------------------------------------------------------------------
# Actions
# ---------------------------------------------------------------------------------------------

NUM_DISTINCT_ACTIONS = 54
DONE = 52
TAKE_ALL = 53
#: The actions written as words alone.
_WORD_ACTIONS = {"done": DONE, "take all": TAKE_ALL}


def _as_action_id(action: Any) -> int:
    return index_in(action, NUM_DISTINCT_ACTIONS, IllegalActionError, "an action id")


def action_to_string(action: Any) -> str:
    """Notation of an action id: a card (``7h``), ``done`` or ``take all``."""
    a = _as_action_id(action)
    if a < DONE:
        return card_str(a)
    return "done" if a == DONE else "take all"


def string_to_action(text: Any) -> int:
    """Action id of a notation string (case-insensitive, any whitespace between words)."""
    if not isinstance(text, str):
        raise InvalidNotationError(
            f"{shown(text)} is not action text: expected a card such as '7h', 'done' or 'take all'"
        )
    words = text.lower().split()
    action = word_or_card_action(words, _WORD_ACTIONS)
    if action is not None:
        return action
    raise InvalidNotationError(f"{shown(text)} is not an action: expected a card such as '7h', 'done' or 'take all'")


# ---------------------------------------------------------------------------------------------
# Options (docs/rules/musta_maija.md §7; docs/musta_maija_engine.md §2)
# ---------------------------------------------------------------------------------------------

VARIANTS = tuple(spec("musta_maija").presets)
_NOLIMIT = 10**9  # every integer option is at most 10^9


def _check_options(opts: dict[str, Any]) -> None:
    """The check across options (docs/musta_maija_engine.md §2): a stock must be left."""
    n = opts["players"]
    if n * opts["hand_size"] > 51:
        raise InvalidOptionError(
            f"players * hand_size = {n * opts['hand_size']} leaves no stock: it must be at most 51"
        )


def _attack_cap(defender_cards: int, opts: dict) -> int:
    """The most cards an attack may hold (docs/rules/musta_maija.md §4.1; ``attack_limit`` of
    docs/musta_maija_engine.md §2)."""
    limit = opts["attack_limit"]
    if limit == "unlimited":
        return 52
    if limit == "defender_hand_size_max_5":
        return min(defender_cards, 5)
    return defender_cards


# ---------------------------------------------------------------------------------------------
# Trump determination (docs/rules/musta_maija.md §2 step 3; docs/musta_maija_engine.md §5 step 3)
# ---------------------------------------------------------------------------------------------


def _determine_trump(stock: Sequence[int], opts: dict, rng: SplitMix64) -> tuple[int, list[int], set[int]]:
    """The procedure of docs/rules/musta_maija.md §2 step 3 on ``stock`` (top first): (trump card,
    new stock, cards turned).

    The trump card ends at the bottom of the new stock. ``rng`` is drawn from only with
    ``spade_reinsert = random_position``.
    """
    stock = list(stock)
    turned: set[int] = set()
    while True:
        c = stock[0]
        if opts["spades_can_be_trump"] or _suit(c) != SPADES:
            trump = c
            break
        if c in turned:
            # a spade turned a second time: the first non-spade from the top, else c itself
            trump = next((x for x in stock if _suit(x) != SPADES), c)
            break
        turned.add(c)
        rest = stock[1:]
        index = len(rest) // 2 if opts["spade_reinsert"] == "middle" else rng.below(len(rest) + 1)
        stock = rest[:index] + [c] + rest[index:]
    stock.remove(trump)
    stock.append(trump)
    turned.add(trump)
    return trump, stock, turned


# ---------------------------------------------------------------------------------------------
# Rule primitives (docs/musta_maija_engine.md §1, §5)
# ---------------------------------------------------------------------------------------------


def _card(card: Any, error: type = InvalidNotationError) -> int:
    try:
        return card_id(card)
    except InvalidNotationError as e:
        raise error(str(e)) from None


def _card_list(cards: Any, what: str, error: type = InvalidNotationError) -> list[int]:
    """Card ids of a list; a non-list is an ``InvalidStateError``, bad card text ``error``."""
    if isinstance(cards, (str, bytes)) or not isinstance(cards, Iterable):
        raise InvalidStateError(f"{what} must be a list of cards, not {type(cards).__name__}")
    return [_card(c, error) for c in cards]


def _trump_suit(trump: Any) -> int:
    """A trump given as a suit letter (either case), a suit index 0..3, or None (-1: no trump)."""
    if trump is None:
        return -1
    if isinstance(trump, str) and trump.strip().lower() in ("c", "d", "h", "s"):
        return _SUIT_CHARS.index(trump.strip().lower())
    if _is_int(trump) and 0 <= trump < 4:
        return trump
    raise InvalidNotationError(
        f"{shown(trump)} is not a trump suit: expected one of c, d, h, s, a suit index 0..3 or None"
    )


def can_beat(attack_card: Any, defence_card: Any, trump: Any, **options: Any) -> bool:
    """May ``defence_card`` beat ``attack_card`` when ``trump`` is the trump suit (docs/rules/musta_maija.md §4.2)?

    TV-MM07: trump d, target 9h: Jh and 2d may beat it, 8h and Ks may not.
    """
    MustaMaija(**options)
    t, c = _card(attack_card), _card(defence_card)
    suit = _trump_suit(trump)
    if t == c:
        raise InvalidStateError("the attack card and the defence card must be different cards")
    return _beats(t, c, suit)


def _attack_sets(hand: Iterable[int], cap: int) -> list[tuple[int, ...]]:
    """Every non-empty single-suit subset of ``hand`` with at most ``cap`` cards, ascending ids."""
    sets: list[tuple[int, ...]] = []
    for suit in range(4):
        cards = sorted(c for c in hand if _suit(c) == suit)
        for k in range(1, min(cap, len(cards)) + 1):
            sets.extend(combinations(cards, k))
    return sorted(sets)


def legal_attacks(hand: Iterable[Any], defender_hand_size: int, **options: Any) -> list[list[str]]:
    """Every legal attack set from ``hand`` against a defender holding ``defender_hand_size``
    cards (docs/rules/musta_maija.md §4.1): each an ascending card list, the sets sorted by their id lists.
    TV-MM05: hand 3h 5h 9h against 2 cards -> no set of three."""
    opts = MustaMaija(**options)._opts
    cards = _card_list(hand, "hand")
    no_card_twice(cards, "in the hand")
    if not _is_int(defender_hand_size) or not 0 <= defender_hand_size <= 52:  # at most the whole pack
        raise InvalidStateError(f"defender_hand_size={shown(defender_hand_size)} must be an int in 0..52")
    return [[card_str(c) for c in s] for s in _attack_sets(cards, _attack_cap(defender_hand_size, opts))]


def trump_from_stock(stock: Iterable[Any], seed: int = 0, **options: Any) -> tuple[str, list[str]]:
    """The procedure of docs/rules/musta_maija.md §2 step 3 on ``stock`` (top first): ``(trump card,
    new stock)``, the trump card at the bottom of the new stock. TV-MM02: ``[7h, y1..y26]`` -> ``7h``,
    ``[y1..y26, 7h]``. ``seed`` seeds the stream of the reinsertion draws (``spade_reinsert = random_position``)."""
    opts = MustaMaija(**options)._opts
    cards = _card_list(stock, "stock")
    seed = seed_value(seed)
    no_card_twice(cards, "in the stock", empty="the stock must hold at least one card")
    trump, new_stock, _ = _determine_trump(cards, opts, SplitMix64(seed))
    return card_str(trump), [card_str(c) for c in new_stock]


def _max_matching(targets: Iterable[int], cards: Iterable[int], trump: int) -> int:
    """The size of a maximum matching between attack cards and defending cards, ``can_beat``
    being the edge relation (Kuhn's augmenting paths)."""
    cards = sorted(cards)
    owner: dict[int, int] = {}  # defending card -> the target it beats

    def augment(t: int, seen: set[int]) -> bool:
        for c in cards:
            if c not in seen and _beats(t, c, trump):
                seen.add(c)
                if c not in owner or augment(owner[c], seen):
                    owner[c] = t
                    return True
        return False

    return sum(1 for t in targets if augment(t, set()))


# ---------------------------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------------------------


class MustaMaija(ReferenceGame):
    """Musta Maija with resolved options; a factory of states."""

    name = "musta_maija"

    def score_sign(self) -> int:
        """Scores count losses (docs/musta_maija_engine.md §4)."""
        return -1

    num_distinct_actions = NUM_DISTINCT_ACTIONS

    def _check(self, options: dict[str, Any]) -> None:
        _check_options(options)

    def _observation_size(self) -> int:
        return 370 + 57 * self.num_players

    def _deck(self, deck: Any) -> list[int]:
        return whole_pack(_card_list(deck, "deck", InvalidStateError), PACK, "each of the 52 cards exactly once")

    def _deal(self, seed: int, pack: list[int] | None) -> MustaMaijaState:
        """A new match: the first dealer (one draw unless a seat is given), then the first hand
        (docs/musta_maija_engine.md §5)."""
        s = MustaMaijaState(self)
        s._dealer = s._first_seat(seed, "first_dealer")
        s._start_hand(pack)
        return s

    def setup(
        self,
        hands: Sequence[Iterable[Any]],
        stock: Iterable[Any] = (),
        trump: Any = None,
        out_of_play: Iterable[Any] | None = None,
        attacker: int = 0,
        dealer: int | None = None,
        known: Sequence[Iterable[Any]] | None = None,
        losses: Sequence[int] | None = None,
        attacks: int = 0,
        seed: int = 0,
    ) -> MustaMaijaState:
        """A position at the start of an attack, trump already turned (docs/musta_maija_engine.md §7)."""
        n, o = self.num_players, self._opts

        def cards(xs: Any, what: str) -> list[int]:
            return _card_list(xs, what, InvalidStateError)

        def per(xs: Any, what: str) -> list:
            if isinstance(xs, (str, bytes)) or not isinstance(xs, Sequence) or len(xs) != n:
                raise InvalidStateError(f"{what} must be a list of {n} entries, one per seat")
            return list(xs)

        def seat(x: Any, what: str) -> int:
            if not _is_int(x) or not 0 <= x < n:
                raise InvalidStateError(f"{what}={shown(x)} is not a seat: expected 0..{n - 1}")
            return x

        hand_ids = [cards(h, f"hands[{i}]") for i, h in enumerate(per(hands, "hands"))]
        stock_ids = cards(stock, "stock")
        listed = [c for h in hand_ids for c in h] + stock_ids
        if len(set(listed)) != len(listed):
            raise InvalidStateError("a card is listed twice")
        if out_of_play is None:
            out_ids = [c for c in PACK if c not in set(listed)]
        else:
            out_ids = cards(out_of_play, "out_of_play")
            if sorted(listed + out_ids) != list(PACK):
                raise InvalidStateError("hands, stock and out_of_play must hold the 52 cards exactly once")
        if MAIJA in out_ids:
            raise InvalidStateError("Qs (Maija) can never be out of play")
        if trump is None:
            if not stock_ids:
                raise InvalidStateError("with an empty stock the trump card must be given")
            trump_card = stock_ids[-1]
        else:
            trump_card = _card(trump, InvalidStateError)
            if stock_ids and trump_card != stock_ids[-1]:
                raise InvalidStateError("the trump card must be the last stock card while the stock is not empty")
        attacker = seat(attacker, "attacker")
        dealer = seat((attacker - 1) % n if dealer is None else dealer, "dealer")
        known_ids = (
            [cards(k, f"known[{i}]") for i, k in enumerate(per(known, "known"))]
            if known is not None
            else [[] for _ in range(n)]
        )
        if any(not set(k) <= set(h) for k, h in zip(known_ids, hand_ids)):
            raise InvalidStateError("known cards must be cards of that seat's hand")
        loss_list = per(losses, "losses") if losses is not None else [0] * n
        if not all(_is_int(x) and 0 <= x <= _NOLIMIT for x in loss_list):
            raise InvalidStateError("losses must be ints >= 0")
        if _match_over(loss_list, o):
            raise InvalidStateError(f"losses {loss_list} already end the match")
        cap = o["max_attacks"]
        if not _is_int(attacks) or attacks < 0 or (cap is not None and attacks >= cap):
            raise InvalidStateError(f"attacks={shown(attacks)} must be an int 0..max_attacks-1")
        seed = seed_value(seed)

        s = MustaMaijaState(self)
        s._rng = SplitMix64(seed)
        s._hand_no = sum(loss_list) + 1
        s._dealer = dealer
        s._hands = [set(h) for h in hand_ids]
        s._stock = stock_ids
        s._trump = trump_card
        s._out = set(out_ids)
        s._known = [set(k) for k in known_ids]
        s._losses = list(loss_list)
        s._attacks = attacks
        s._attacker = attacker
        if stock_ids and not all(hand_ids):
            raise InvalidStateError("while the stock is not empty every seat must hold cards")
        if not s._hands[attacker]:
            raise InvalidStateError(f"the attacker (seat {attacker}) must hold cards")
        s._defender = s._next_active(attacker)
        if s._defender == attacker or not s._hands[s._defender]:
            raise InvalidStateError(
                "the defender (the next active seat after the attacker) must be another seat holding cards"
            )
        return s

    def state_from_json(self, text: Any) -> MustaMaijaState:
        """Rebuild a state from its JSON, checking everything (docs/musta_maija_engine.md §6)."""
        return _state_from_json(self, text)


def _match_over(losses: Sequence[int], opts: dict) -> bool:
    """Whether these loss counts end the match (docs/musta_maija_engine.md §4), hand = Σlosses hands played."""
    if opts["match"] == "single_hand":
        return sum(losses) >= 1
    if opts["match"] == "first_to_losses":
        return max(losses) >= opts["match_losses"]
    return sum(losses) >= opts["match_hands"]


def _match_losers(losses: Sequence[int], opts: dict) -> list[int]:
    """The match losers at the end (docs/musta_maija_engine.md §4): the seat that lost (single_hand, at its only
    loss; first_to_losses, at match_losses losses), or every seat with the most (fixed_hands)."""
    if opts["match"] == "first_to_losses":
        return [s for s, x in enumerate(losses) if x >= opts["match_losses"]]
    most = max(losses)
    return [s for s, x in enumerate(losses) if x == most]


# ---------------------------------------------------------------------------------------------
# The state
# ---------------------------------------------------------------------------------------------

ATTACK, DEFEND, END = "attack", "defend", "end"


class MustaMaijaState(ReferenceState):
    """A position of a match. Mutated in place by ``apply``; ``clone`` for a copy."""

    def __init__(self, game: MustaMaija) -> None:
        super().__init__(game)
        n = game.num_players
        self._hand_no = 1
        self._dealer = n - 1
        self._hands: list[set[int]] = [set() for _ in range(n)]
        self._stock: list[int] = []  # top first; the trump card at the bottom while in the stock
        self._trump = -1  # the trump card, -1 before it is turned
        self._turned: set[int] = set()  # cards turned during this hand's trump determination
        self._out: set[int] = set()  # out_of_play: beaten pairs
        self._known: list[set[int]] = [set() for _ in range(n)]  # cards seen entering each hand
        self._losses = [0] * n
        self._phase = ATTACK
        self._attacker = 0
        self._defender = 1
        self._attack: list[int] = []  # A, ascending ids (beaten targets included)
        self._beaten: dict[int, int] = {}  # target -> the card that beat it, this defence
        self._left: set[int] = set()  # targets left unbeaten in this defence
        self._attacks = 0  # attacks committed this hand

    # -- dealing (docs/rules/musta_maija.md §2; docs/musta_maija_engine.md §5) -----------------------------------------

    def _start_hand(self, pack: list[int] | None = None) -> None:
        o, n = self._o, self.game.num_players
        if pack is None:
            pack = list(PACK)
            self._rng.shuffle(pack)
        D, k = self._dealer, o["hand_size"]
        self._hands = [set() for _ in range(n)]
        for i in range(n * k):  # one at a time, clockwise from next(dealer)
            self._hands[(D + 1 + i % n) % n].add(pack[i])
        self._stock = list(pack[n * k :])
        self._trump, self._turned = -1, set()
        self._out = set()
        self._known = [set() for _ in range(n)]
        self._attacks = 0
        if o["trump_reveal"] == "at_deal":
            self._turn_trump()
        self._start_attack((D + 1) % n)

    def _turn_trump(self) -> None:
        self._trump, self._stock, self._turned = _determine_trump(self._stock, self._o, self._rng)

    def _start_attack(self, attacker: int) -> None:
        self._phase = ATTACK
        self._attacker = attacker
        self._defender = self._next_active(attacker)
        self._attack, self._beaten, self._left = [], {}, set()

    # -- rules helpers -------------------------------------------------------------------------

    def _trump_suit(self) -> int:
        return _suit(self._trump) if self._trump != -1 else -1

    def _active(self, seat: int) -> bool:
        return bool(self._hands[seat]) or bool(self._stock)

    def _next_active(self, seat: int) -> int:
        """The first active seat after ``seat``, clockwise (``seat`` itself if no other is)."""
        n = self.game.num_players
        for i in range(1, n + 1):
            s = (seat + i) % n
            if self._active(s):
                return s
        return seat

    def _draw(self, seat: int) -> None:
        """Refill ``seat`` up to hand_size from the top of the stock."""
        while len(self._hands[seat]) < self._o["hand_size"] and self._stock:
            c = self._stock.pop(0)
            self._hands[seat].add(c)
            if c == self._trump:  # the face-up trump card: everyone saw who took it
                self._known[seat].add(c)

    def _target(self) -> int:
        """The current target in DEFEND: the lowest attack card neither beaten nor left."""
        return next(t for t in self._attack if t not in self._beaten and t not in self._left)

    # -- the step protocol (docs/rules/musta_maija.md §3, §8; docs/musta_maija_engine.md §3) ---------------------------

    def current_player(self) -> int:
        if self._phase == END:
            return -1
        return self._attacker if self._phase == ATTACK else self._defender

    def legal_actions(self) -> list[int]:
        if self._phase == END:
            return []
        if self._phase == ATTACK:
            hand = self._hands[self._attacker]
            if not self._attack:
                return sorted(hand)  # a single card is always within the limit
            cap = _attack_cap(len(self._hands[self._defender]), self._o)
            top = self._attack[-1]
            more = [c for c in hand if c > top and _suit(c) == _suit(top)] if len(self._attack) < cap else []
            return sorted(more) + [DONE]
        trump = self._trump_suit()
        t = self._target()
        hand = self._hands[self._defender]
        beaters = sorted(c for c in hand if _beats(t, c, trump))
        if self._o["beat_optional"]:
            return beaters + [DONE, TAKE_ALL]
        # Must beat as many as possible: the beaten count must still be able to reach M.
        b = len(self._beaten)
        later = [x for x in self._attack if x > t]
        M = _max_matching(self._attack, hand | set(self._beaten.values()), trump)
        actions = [c for c in beaters if b + 1 + _max_matching(later, hand - {c}, trump) >= M]
        if b + _max_matching(later, hand, trump) >= M:
            actions.append(DONE)
        if b >= M:
            actions.append(TAKE_ALL)
        return actions

    def _apply(self, a: int) -> None:
        if self._phase == ATTACK:
            if a == DONE:
                self._commit_attack()
            else:
                self._hands[self._attacker].remove(a)
                self._known[self._attacker].discard(a)
                self._attack.append(a)
            return
        t = self._target()
        if a == TAKE_ALL:
            self._left |= {x for x in self._attack if x >= t}
        elif a == DONE:
            self._left.add(t)
        else:
            self._hands[self._defender].remove(a)
            self._known[self._defender].discard(a)
            self._beaten[t] = a
        if len(self._beaten) + len(self._left) == len(self._attack):
            self._resolve_defence()

    def _commit_attack(self) -> None:
        """The attack is committed: trumps may be turned now (after_first_lead), the attacker
        refills (attacker_then_defender), and the defence starts."""
        self._attacks += 1
        if self._trump == -1:
            self._turn_trump()
        if self._o["draw_order"] == "attacker_then_defender":
            self._draw(self._attacker)
        self._phase = DEFEND

    def _resolve_defence(self) -> None:
        a, d = self._attacker, self._defender
        all_beaten = not self._left
        for t, c in self._beaten.items():
            self._out |= {t, c}
        self._hands[d] |= self._left
        self._known[d] |= self._left
        self._draw(d)
        if self._o["draw_order"] == "defender_then_attacker":
            self._draw(a)
        self._attack, self._beaten, self._left = [], {}, set()
        self._next(all_beaten)

    def _next(self, all_beaten: bool) -> None:
        """NEXT (docs/rules/musta_maija.md §3; docs/musta_maija_engine.md §4): the end tests, then the next attacker."""
        d = self._defender
        holders = [s for s, h in enumerate(self._hands) if h]
        if len(holders) <= 1 and not self._stock:
            self._end_hand(holders[0])  # Maija never leaves play: someone holds cards
            return
        cap = self._o["max_attacks"]
        if cap is not None and self._attacks >= cap:
            self._end_hand(self._maija_holder())
            return
        self._start_attack(d if all_beaten and self._active(d) else self._next_active(d))

    def _maija_holder(self) -> int:
        """The loser at the attack cap: the seat holding Qs; if Qs is still in the stock (the
        rules are silent; docs/musta_maija_engine.md §4), the seat with the most cards, the lowest on a tie."""
        for s, h in enumerate(self._hands):
            if MAIJA in h:
                return s
        sizes = [len(h) for h in self._hands]
        return sizes.index(max(sizes))

    # -- end of hand and match (docs/rules/musta_maija.md §5; docs/musta_maija_engine.md §4) ---------------------------

    def _end_hand(self, loser: int) -> None:
        o, n = self._o, self.game.num_players
        self._losses[loser] += 1
        if _match_over(self._losses, o):
            self._phase = END
            self._attacker = self._defender = -1
            return
        self._hand_no += 1
        self._dealer = loser if o["next_dealer"] == "loser" else (self._dealer + 1) % n
        self._start_hand()

    # -- queries -------------------------------------------------------------------------------

    def is_terminal(self) -> bool:
        return self._phase == END

    def _losers(self) -> list[int]:
        return _match_losers(self._losses, self._o) if self._phase == END else []

    def returns(self) -> list[float]:
        n = self.game.num_players
        losers = self._losers()
        k = len(losers)
        if k == 0 or k == n:
            return [0.0] * n
        return [-1.0 / k if s in losers else 1.0 / (n - k) for s in range(n)]

    def scores(self) -> list[int]:
        """Hands lost per seat in this match."""
        return list(self._losses)

    def deals(self) -> int:
        """Hands started so far, the current one included."""
        return self._hand_no

    def action_to_string(self, action: Any) -> str:
        return action_to_string(action)

    def string_to_action(self, text: Any) -> int:
        return string_to_action(text)

    def play(self, move: Any) -> None:
        """Apply a full move written for people (docs/musta_maija_engine.md §3): ``attack 5h 9h``, ``defend 6h -``
        (beat the first target with 6h, leave the second) or ``take all``. Atomic."""
        if not isinstance(move, str):
            raise InvalidNotationError(
                f"{shown(move)} is not a move: expected text like 'attack 5h 9h', 'defend 6h -' or 'take all'"
            )
        words = move.lower().split()
        usage = "expected 'attack <cards>', 'defend <card or - per target>' or 'take all'"
        if not words:
            raise InvalidNotationError(f"{shown(move)} is not a move: {usage}")
        verb, rest = words[0], words[1:]
        if verb == "take" and rest == ["all"]:
            steps = [TAKE_ALL]
            where = self._phase == DEFEND and not self._beaten and not self._left
        elif verb in ("attack", "defend") and not rest:
            raise InvalidNotationError(f"{shown(move)} is not a move: {verb} needs at least one token; {usage}")
        elif verb == "attack":
            cards = [card_id(w) for w in rest]  # InvalidNotationError on bad card text (or '-')
            steps = sorted(cards) + [DONE]
            where = self._phase == ATTACK and not self._attack and len(set(cards)) == len(cards)
        elif verb == "defend":
            tokens = [-1 if w == "-" else card_id(w) for w in rest]
            steps = [DONE if x == -1 else x for x in tokens]
            played = [x for x in tokens if x != -1]
            where = (
                self._phase == DEFEND
                and not self._beaten
                and not self._left
                and len(tokens) == len(self._attack)
                and len(set(played)) == len(played)
            )
        else:
            raise InvalidNotationError(f"{shown(move)} is not a move: {usage}")
        if not where:
            raise IllegalActionError(f"{shown(move)} is not legal here (phase {self._phase})")
        trial = self.clone()
        for step in steps:
            if step not in trial.legal_actions():
                raise IllegalActionError(
                    f"{shown(move)} is not legal: {action_to_string(step)} cannot be played at that point"
                )
            trial.apply(step)
        self.__dict__.update(trial.__dict__)

    def clone(self) -> MustaMaijaState:
        s = MustaMaijaState.__new__(MustaMaijaState)
        s.__dict__.update(self.__dict__)
        s._rng = self._rng.clone()
        s._hands = [set(h) for h in self._hands]
        s._stock = list(self._stock)
        s._turned = set(self._turned)
        s._out = set(self._out)
        s._known = [set(k) for k in self._known]
        s._losses = list(self._losses)
        s._attack = list(self._attack)
        s._beaten = dict(self._beaten)
        s._left = set(self._left)
        s._history = list(self._history)
        return s

    def _resample_into(self, seat: int, seed: int, out: Any) -> None:
        """docs/musta_maija_engine.md §11."""
        from .musta_maija_resample import resample_into

        resample_into(self, seat, seed, out)

    # -- serialisation (docs/musta_maija_engine.md §6) -----------------------------------------------------------

    def _as_dict(self) -> dict[str, Any]:
        end = self._phase == END
        return {
            "attack": list(self._attack),
            "attacker": self._attacker,
            "attacks": self._attacks,
            "beaten": [[t, self._beaten[t]] for t in sorted(self._beaten)],
            "dealer": self._dealer,
            "defender": self._defender,
            "game": "musta_maija",
            "hand": self._hand_no,
            "hands": [sorted(h) for h in self._hands],
            "history": list(self._history),
            "known": [sorted(k) for k in self._known],
            "left": sorted(self._left),
            "losses": list(self._losses),
            "options": self._o,
            "out_of_play": sorted(self._out),
            "phase": self._phase,
            "rng": str(self._rng.state),
            "stock": list(self._stock),
            "terminal": end,
            "to_move": self._rules_current_player(),
            "trump": self._trump,
            "turned": sorted(self._turned),
            "version": 1,
        }

    # -- what a seat sees (docs/musta_maija_engine.md §8) ---------------------------------------

    def _public_view(self) -> dict[str, Any]:
        return self._view(None)

    def _view(self, p: int | None) -> dict[str, Any]:
        """What ``p`` may see; the public view for None (no hand: every action is public)."""
        n = self.game.num_players

        def text(cards: Iterable[int]) -> list[str]:
            return [card_str(c) for c in sorted(cards)]

        turned = self._trump != -1
        return {
            "player": p,
            "current_player": self._rules_current_player(),
            "phase": self._phase,
            "hand_number": self._hand_no,
            "dealer": self._dealer,
            "attacker": self._attacker,
            "defender": self._defender,
            "hand": None if p is None else text(self._hands[p]),
            "hand_sizes": [len(h) for h in self._hands],
            "history": list(self._history),  # every action is public: nothing to mask
            "known": [text(k) for k in self._known],
            "out": [not self._active(s) for s in range(n)],
            "stock_size": len(self._stock),
            "trump": _SUIT_CHARS[_suit(self._trump)] if turned else None,
            "trump_card": card_str(self._trump) if turned else None,
            "trump_in_stock": turned and self._trump in self._stock,
            "turned": text(self._turned),
            "out_of_play": text(self._out),
            "attack": text(self._attack),
            "beaten": [[card_str(t), card_str(self._beaten[t])] for t in sorted(self._beaten)],
            "left": text(self._left),
            "target": card_str(self._target()) if self._phase == DEFEND else None,
            "attacks": self._attacks,
            "losses": list(self._losses),
            "terminal": self._phase == END,
            "losers": self._losers(),
        }

    def _observation(self, p: int) -> np.ndarray:
        n = self.game.num_players
        obs = np.zeros(self.game.observation_shape, dtype=np.float32)

        def seat_at(j: int) -> int:  # per-seat blocks are rotated: entry 0 is the observer
            return (p + j) % n

        def cards_at(offset: int, cards: Iterable[int]) -> None:
            for c in cards:
                obs[offset + c] = 1.0

        cards_at(0, self._hands[p])
        if self._trump != -1:
            obs[52 + _suit(self._trump)] = 1.0
            obs[56 + self._trump] = 1.0
            obs[108] = float(self._trump in self._stock)
        obs[109] = len(self._stock)
        for j in range(n):
            s = seat_at(j)
            obs[110 + j] = len(self._hands[s])
            obs[110 + n + j] = float(not self._active(s))
        cards_at(110 + 2 * n, self._out)
        cards_at(162 + 2 * n, self._attack)
        cards_at(214 + 2 * n, self._beaten.keys())
        cards_at(266 + 2 * n, self._beaten.values())
        if self._phase == DEFEND:
            cards_at(318 + 2 * n, [self._target()])
        for j in range(1, n):
            cards_at(370 + 2 * n + 52 * (j - 1), self._known[seat_at(j)])
        cards_at(318 + 54 * n, self._turned)
        for j in range(n):
            s = seat_at(j)
            if self._phase != END:
                obs[370 + 54 * n + j] = float(s == self._attacker)
                obs[370 + 55 * n + j] = float(s == self._defender)
            obs[370 + 56 * n + j] = self._losses[s]
        return obs

    # -- for people ----------------------------------------------------------------------------

    def __str__(self) -> str:
        n = self.game.num_players

        def text(cards: Iterable[int]) -> str:
            return " ".join(card_str(c) for c in sorted(cards)) or "-"

        trump = card_str(self._trump) if self._trump != -1 else "not turned yet"
        lines = [f"musta_maija, hand {self._hand_no}, dealer: seat {self._dealer}, trump card: {trump}"]
        for s in range(n):
            marks = []
            if s == self.current_player():
                marks.append("to move")
            if self._phase != END and s == self._attacker:
                marks.append("attacker")
            if self._phase != END and s == self._defender:
                marks.append("defender")
            if not self._active(s):
                marks.append("out")
            mark = f"  <- {', '.join(marks)}" if marks else ""
            lines.append(f"  seat {s}: {text(self._hands[s])}  (losses {self._losses[s]}){mark}")
        if self._attack:
            pairs = " ".join(
                f"{card_str(t)}/{card_str(self._beaten[t])}"
                if t in self._beaten
                else card_str(t) + ("(left)" if t in self._left else "")
                for t in self._attack
            )
            lines.append(f"  attack: {pairs}")
        lines.append(f"  stock: {len(self._stock)} cards, out of play: {len(self._out)} cards")
        if self._phase == END:
            lines.append(f"  match over: seat(s) {', '.join(map(str, self._losers()))} lose")
        return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# Reading a state back (docs/musta_maija_engine.md §6)
# ---------------------------------------------------------------------------------------------

_JSON_KEYS = frozenset(
    "attack attacker attacks beaten dealer defender game hand hands history known left losses "
    "options out_of_play phase rng stock terminal to_move trump turned version".split()
)


def _state_from_json(game: MustaMaija, text: Any) -> MustaMaijaState:
    d = StateFields(text, "musta_maija", _JSON_KEYS, game.options_json())
    bad, integer = d.bad, d.integer
    o, n = game._opts, game.num_players

    def card_list(x: Any, what: str, ascending: bool = True) -> list[int]:
        xs = d.ints(x, what, 0, 51)
        return d.ascending(xs, what) if ascending else xs

    def per(key: str) -> list:
        return d.per(key, n)

    terminal = d["terminal"]
    if not isinstance(terminal, bool):
        raise bad("terminal must be a bool")
    phase = d["phase"]
    if phase not in (ATTACK, DEFEND, END):
        raise bad('phase must be "attack", "defend" or "end"')
    if terminal != (phase == END):
        raise bad('terminal must be true exactly when phase is "end"')
    lo_seat = -1 if terminal else 0
    attacker = integer("attacker", lo_seat, -1 if terminal else n - 1)
    defender = integer("defender", lo_seat, -1 if terminal else n - 1)
    to_move = integer("to_move", lo_seat, -1 if terminal else n - 1)
    dealer = integer("dealer", 0, n - 1)
    hand_no = integer("hand", 1, 2 * _NOLIMIT)
    cap = o["max_attacks"]
    attacks = integer("attacks", 0, cap if cap is not None else _NOLIMIT * 10)
    trump = integer("trump", -1, 51)
    hands = [card_list(h, f"hands[{i}]") for i, h in enumerate(per("hands"))]
    known = [card_list(k, f"known[{i}]") for i, k in enumerate(per("known"))]
    losses = per("losses")
    if not all(_is_int(x) and 0 <= x <= _NOLIMIT for x in losses):
        raise bad("losses must be ints 0..10^9")
    stock = card_list(d["stock"], "stock", ascending=False)
    out = card_list(d["out_of_play"], "out_of_play")
    attack = card_list(d["attack"], "attack")
    left = card_list(d["left"], "left")
    turned = card_list(d["turned"], "turned")
    beaten_raw = d["beaten"]
    if not isinstance(beaten_raw, list) or not all(
        isinstance(pair, list) and len(pair) == 2 and all(_is_int(c) and 0 <= c < 52 for c in pair)
        for pair in beaten_raw
    ):
        raise bad("beaten must be a list of [target, card] id pairs")
    targets = [t for t, _ in beaten_raw]
    if any(a >= b for a, b in zip(targets, targets[1:])):
        raise bad("beaten must be in strictly ascending target order")
    history = d["history"]
    if not isinstance(history, list) or not all(_is_int(a) and 0 <= a < NUM_DISTINCT_ACTIONS for a in history):
        raise bad(f"history must be a list of action ids 0..{NUM_DISTINCT_ACTIONS - 1}")
    rng = d.rng()

    # The 52 cards, each exactly once.
    defending = [c for _, c in beaten_raw]
    every = [c for h in hands for c in h] + stock + attack + defending + out
    if sorted(every) != list(PACK):
        raise bad(
            "the 52 cards must each appear exactly once across hands, stock, attack,"
            " beaten defending cards and out_of_play"
        )
    if MAIJA in out:
        raise bad("Qs (Maija) can never be out of play")
    if any(not set(k) <= set(h) for k, h in zip(known, hands)):
        raise bad("known cards must be in that seat's hand")
    if hand_no != sum(losses) + (0 if terminal else 1):
        raise bad("hand must be the number of hands lost so far plus one (the total when terminal)")
    if terminal != _match_over(losses, o):
        raise bad("the losses must end the match exactly when the state is terminal")
    if trump == -1:
        if o["trump_reveal"] != "after_first_lead" or attacks != 0 or phase != ATTACK or turned:
            raise bad(
                "the trump card may be unturned only before the first attack of a hand"
                " with trump_reveal=after_first_lead"
            )
    elif stock and stock[-1] != trump:
        raise bad("the trump card must be the last stock card while it is in the stock")
    if set(left) - set(attack) or set(targets) - set(attack) or set(left) & set(targets):
        raise bad("beaten and left targets must be distinct cards of the attack")

    s = MustaMaijaState(game)
    s._rng = rng
    s._hand_no = hand_no
    s._dealer = dealer
    s._hands = [set(h) for h in hands]
    s._stock = list(stock)
    s._trump = trump
    s._turned = set(turned)
    s._out = set(out)
    s._known = [set(k) for k in known]
    s._losses = list(losses)
    s._phase = phase
    s._attacker, s._defender = attacker, defender
    s._attack = list(attack)
    s._beaten = {t: c for t, c in beaten_raw}
    s._left = set(left)
    s._attacks = attacks
    s._history = list(history)

    if terminal:
        if attack or beaten_raw or left:
            raise bad("a terminal state has no attack on the table")
        return s
    if to_move != (attacker if phase == ATTACK else defender):
        raise bad("to_move must be the attacker in attack and the defender in defend")
    if phase == ATTACK and defender != s._next_active(attacker):
        raise bad("the defender must be the next active seat after the attacker")
    # in defend the defender may have used his last card, so he need not be active any more
    between = [(attacker + i) % n for i in range(1, (defender - attacker) % n)]
    if attacker == defender or any(s._active(x) for x in between):
        raise bad("the defender must be the first active seat after the attacker")
    if cap is not None and attacks >= cap and phase == ATTACK:
        raise bad("attacks must be below max_attacks at an attack")
    if phase == ATTACK:
        if beaten_raw or left:
            raise bad("no target is beaten or left while the attack is built")
        if attack:
            if len({_suit(c) for c in attack}) != 1:
                raise bad("the attack must be of one suit")
            if len(attack) > _attack_cap(len(hands[defender]), o):
                raise bad("the attack holds more cards than the limit allows")
        elif not hands[attacker]:
            raise bad("the attacker must hold cards")
        if not hands[defender]:
            raise bad("the defender must hold cards")
    else:
        if not attack or attacks < 1 or trump == -1:
            raise bad("a defence needs a committed attack and a turned trump card")
        decided = len(beaten_raw) + len(left)
        if decided >= len(attack):
            raise bad("a defence in progress has a target left to decide")
        first = s._target()
        if any(t > first for t in targets + left):
            raise bad("targets are decided in ascending id order")
        if any(not _beats(t, c, s._trump_suit()) for t, c in beaten_raw):
            raise bad("a beaten pair does not follow can_beat")
    return s
