"""La Mosca (French *Mouche*): the pure-Python reference engine.

This module is the readable statement of the rules that ``rules/mosca.md`` (the rules) and
``docs/mosca_engine.md`` (the engine contract) pin down. The native engine implements the same
page, and the differential tests hold the two to it byte for byte. Clarity comes first here.

The game in brief
-----------------
* 2-6 players play for chips. Each deal the dealer antes one chip per player into the pot.
* Every player gets 5 cards (2 then 3, from the eldest hand ``mano = next(dealer)``), and the next
  card is turned up: its suit is trump. The rest is the talon.
* A player dealt five cards of one suit (a *mosca*) takes the pot at once (trump mosca first, then
  the stronger cards, an exact tie splits).
* Otherwise each player from the mano declares: ``pass`` (fold) or ``play``, exchanging any of his
  cards with the talon (first come, first served). A dealer who plays may swap a card for the
  turn-up.
* Nobody plays: the pot stays. One player: he takes the pot. Two or more: five tricks, with the
  duties to follow suit, to head the trick, to trump, to overtrump and to undertrump. A player who
  took no trick pays 2 chips into the pot; the player with most tricks takes it; a tie carries it.
* The match lasts ``match_deals`` deals (``2 * players`` by default).

Actions (a fixed space of 91 ids)
---------------------------------
=========  ======================  =====================  =========================================
ids        action                  notation               meaning
=========  ======================  =====================  =========================================
0..51      ``PLAY_CARD(c)``        ``Qh``                 play card ``c`` to the trick
52         ``PASS``                ``pass``               fold
53..84     ``PLAY(mask)``          ``play``, ``play x 9d  play, exchanging the sorted-hand slots of
                                   Ks``                   ``mask = id - 53`` (53 = stand)
85..89     ``TAKE_TURNUP(slot)``   ``take turnup 7c``     the dealer gives up slot ``id - 85`` and
                                                          takes the turn-up
90         ``LEAVE_TURNUP``        ``leave turnup``       the dealer leaves the turn-up
=========  ======================  =====================  =========================================

Outside the phase that gives the slots a hand, ``play slots 0 1 4`` and ``take turnup slot 1``
name the slots instead of the cards (docs/mosca_engine.md §5).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from .._game import seed_value
from ..cards import card_id, card_str
from ..errors import IllegalActionError, InvalidNotationError, InvalidOptionError, InvalidStateError, shown
from ._base import ReferenceGame, ReferenceState, StateFields, index_in, no_card_twice, whole_pack, word_or_card_action
from ._base import is_int as _is_int
from ._rng import SplitMix64
from .mosca_resample import resample_into, view_history

__all__ = [
    "Mosca",
    "MoscaState",
    "legal_cards",
    "trick_winner",
    "mosca_winner",
    "action_to_string",
    "string_to_action",
    "deck_cards",
    "NUM_DISTINCT_ACTIONS",
]

# ---------------------------------------------------------------------------------------------
# Cards (docs/rules/mosca.md §1.2)
# ---------------------------------------------------------------------------------------------

SUITS = "cdhs"
DECK_SIZES = (32, 36, 40, 44, 48, 52)
#: The ranks (1 = A .. 13 = K) of the 32-card piquet core, then the ranks each larger deck adds.
_CORE_RANKS = (1, 7, 8, 9, 10, 11, 12, 13)
_EXTRA_RANKS = (6, 5, 4, 3, 2)


def deck_cards(size: int) -> list[int]:
    """The cards of a ``size``-card deck in ascending id order: the piquet core K Q J A T 9 8 7,
    then the 6s, the 5s, the 4s, the 3s and the 2s as the deck grows."""
    ranks = set(_CORE_RANKS) | set(_EXTRA_RANKS[: (size - 32) // 4])
    return [c for c in range(52) if c % 13 + 1 in ranks]


#: The text of every card id (docs/design.md §4), looked up by the views.
CARD_TEXT: tuple[str, ...] = tuple(card_str(c) for c in range(52))


def _suit(card: int) -> int:
    return card // 13


def _rank(card: int) -> int:
    """Face 1..13 (A=1, J=11, Q=12, K=13)."""
    return card % 13 + 1


def strength(card: int, ace_rank: str = "between_jack_and_ten") -> int:
    """Strength within a suit (docs/mosca_engine.md §1; only the order matters). ``between_jack_and_ten``
    (docs/rules/mosca.md §1.2): K=13 Q=12 J=11 A=10 T=9 9=8 .. 2=1; ``high``: A=14, the others their face value
    (J=11 Q=12 K=13); ``low``: A=1, the others their face value."""
    face = _rank(card)
    if ace_rank == "between_jack_and_ten":
        return 10 if face == 1 else face if face >= 11 else face - 1
    if ace_rank == "high" and face == 1:
        return 14
    return face


# ---------------------------------------------------------------------------------------------
# Actions (docs/rules/mosca.md §8)
# ---------------------------------------------------------------------------------------------

NUM_DISTINCT_ACTIONS = 91
DECLARE, TURNUP, TRICK, END = "declare", "turnup", "trick", "end"
PASS = 52
PLAY0 = 53  # PLAY(mask) = 53 + mask
TAKE_TURNUP0 = 85  # TAKE_TURNUP(slot) = 85 + slot
LEAVE_TURNUP = 90


def _as_action_id(action: Any) -> int:
    return index_in(action, NUM_DISTINCT_ACTIONS, IllegalActionError, "an action id")


def _slots_of(mask: int) -> list[int]:
    return [i for i in range(5) if mask >> i & 1]


_SLOT_WORDS = ("0", "1", "2", "3", "4")
#: The actions written as words alone.
_WORD_ACTIONS = {"pass": PASS, "play": PLAY0, "leave turnup": LEAVE_TURNUP}


def action_to_string(action: Any, phase: str | None = None, hand: Iterable[int] = ()) -> str:
    """Notation of an action id (docs/mosca_engine.md §5). ``play x 9d Ks`` and ``take turnup 7c`` name cards
    of the actor's ``hand`` and are printed in phase ``declare`` / ``turnup``; in any other phase
    (no hand to resolve) the slot forms ``play slots 0 1 4`` / ``take turnup slot 1``."""
    a = _as_action_id(action)
    if a < PASS:
        return card_str(a)
    if a == PASS:
        return "pass"
    if a == PLAY0:
        return "play"
    if a == LEAVE_TURNUP:
        return "leave turnup"
    sorted_hand = sorted(hand)
    if a < TAKE_TURNUP0:
        slots = _slots_of(a - PLAY0)
        if phase == DECLARE and len(sorted_hand) == 5:
            return "play x " + " ".join(card_str(sorted_hand[i]) for i in slots)
        return "play slots " + " ".join(str(i) for i in slots)
    slot = a - TAKE_TURNUP0
    if phase == TURNUP and len(sorted_hand) == 5:
        return "take turnup " + card_str(sorted_hand[slot])
    return f"take turnup slot {slot}"


def string_to_action(text: Any, phase: str | None = None, hand: Iterable[int] = ()) -> int:
    """Action id of a notation string (case-insensitive, any whitespace between words). The card
    forms ``play x <cards>`` and ``take turnup <card>`` are resolved against the actor's ``hand``
    and need phase ``declare`` / ``turnup``; the slot forms work in any state."""
    if not isinstance(text, str):
        raise InvalidNotationError(f"{shown(text)} is not action text: expected a string such as 'Qh' or 'pass'")
    words = text.lower().split()
    sorted_hand = sorted(hand)

    def bad(why: str) -> InvalidNotationError:
        return InvalidNotationError(
            f"{shown(text)} is not an action{why}: expected a card ('Qh'), 'pass', 'play', 'play x' and the "
            "cards to exchange ('play x 9d Ks'), 'play slots 0 4', 'take turnup 7c', "
            "'take turnup slot 1' or 'leave turnup'"
        )

    def slots_of_cards(cards: list[str], needed: str) -> list[int]:
        if phase != needed or len(sorted_hand) != 5:
            raise bad(f" now: the card form needs phase {needed}")
        slots = []
        for w in cards:
            c = card_id(w)
            if c not in sorted_hand:
                raise InvalidNotationError(f"{shown(text)}: {card_str(c)} is not a card of the actor's hand")
            slots.append(sorted_hand.index(c))
        if len(set(slots)) != len(slots):
            raise InvalidNotationError(f"{shown(text)} names a card twice")
        return slots

    def slot_numbers(numbers: list[str]) -> list[int]:
        if not numbers or any(w not in _SLOT_WORDS for w in numbers) or len(set(numbers)) != len(numbers):
            raise bad(": slots are distinct numbers 0..4")
        return [int(w) for w in numbers]

    action = word_or_card_action(words, _WORD_ACTIONS)
    if action is not None:
        return action
    if len(words) == 1:
        raise bad("")
    if len(words) >= 3 and words[:2] == ["play", "x"]:
        return PLAY0 + sum(1 << i for i in slots_of_cards(words[2:], DECLARE))
    if len(words) >= 3 and words[:2] == ["play", "slots"]:
        return PLAY0 + sum(1 << i for i in slot_numbers(words[2:]))
    if len(words) == 4 and words[:3] == ["take", "turnup", "slot"]:
        return TAKE_TURNUP0 + slot_numbers(words[3:])[0]
    if len(words) == 3 and words[:2] == ["take", "turnup"]:
        return TAKE_TURNUP0 + slots_of_cards(words[2:], TURNUP)[0]
    raise bad("")


# ---------------------------------------------------------------------------------------------
# Options (docs/rules/mosca.md §7)
# ---------------------------------------------------------------------------------------------

# The option table and its defaults are data (tapete/data/mosca.json, docs/mosca_engine.md §2),
# resolved by tapete._options for both engines; only what follows from the resolved values is here.


def auto_deck(players: int) -> int:
    """The smallest deck whose talon after the deal holds at least 3 cards per player
    (docs/rules/mosca.md §1.2)."""
    return next(d for d in DECK_SIZES if d - 5 * players - 1 >= 3 * players)


def _check_options(opts: dict[str, Any]) -> None:
    """The values derived from the others, written into the resolved options so that they read as
    ints (docs/mosca_engine.md §2): ``deck = auto`` and ``match_deals`` (null by default, which
    no user may give) = ``2 * players``; then the check across options: the deck deals every hand
    and the turn-up."""
    n = opts["players"]
    if opts["deck"] == "auto":
        opts["deck"] = auto_deck(n)
    if opts["match_deals"] is None:
        opts["match_deals"] = 2 * n
    if opts["deck"] < 5 * n + 1:
        raise InvalidOptionError(
            f"option deck={opts['deck']} is invalid: expected a deck of at least 5 * players + 1 = {5 * n + 1} cards"
        )


# ---------------------------------------------------------------------------------------------
# Rule primitives (docs/rules/mosca.md §4.3, §4.4, §5.1)
# ---------------------------------------------------------------------------------------------


def _beats(x: int, winning: int, trump: int, ace_rank: str) -> bool:
    """Card ``x`` beats ``winning``: same suit and stronger, or a trump over a non-trump (docs/rules/mosca.md §4.3)."""
    if _suit(x) == _suit(winning):
        return strength(x, ace_rank) > strength(winning, ace_rank)
    return _suit(x) == trump


def _winning_index(trick: Sequence[int], trump: int, ace_rank: str) -> int:
    """Index in ``trick`` of the card winning it (docs/rules/mosca.md §4.4): the strongest trump, else the strongest
    card of the led suit."""
    best = 0
    for i in range(1, len(trick)):
        if _beats(trick[i], trick[best], trump, ace_rank):
            best = i
    return best


def _legal_cards(hand: Iterable[int], trick: Sequence[int], trump: int, o: dict) -> list[int]:
    """The cards of ``hand`` that may be played to ``trick`` (docs/rules/mosca.md §4.3), ascending id."""
    hand = sorted(hand)
    if not trick:
        return hand  # 1. the leader plays any card
    ace = o["ace_rank"]
    led = _suit(trick[0])
    winning = trick[_winning_index(trick, trump, ace)]
    follow = [c for c in hand if _suit(c) == led]
    if follow:  # 2. follow suit, and head the trick when possible
        heading = [c for c in follow if _beats(c, winning, trump, ace)]
        return heading if o["must_head"] and heading else follow
    trumps = [c for c in hand if _suit(c) == trump]
    if trumps and o["must_trump"]:  # 3. void in the led suit: trump, overtrump, undertrump
        over = [c for c in trumps if _beats(c, winning, trump, ace)]
        if over:
            return over if o["must_overtrump"] else trumps
        return trumps if o["must_undertrump"] else hand
    return hand  # 4. (or must_trump off) any card


def _is_mosca(hand: Iterable[int]) -> bool:
    """Exactly five cards of one suit."""
    hand = list(hand)
    return len(hand) == 5 and len({_suit(c) for c in hand}) == 1


def _mosca_winners(hands: Sequence[Iterable[int]], order: Sequence[int], trump: int, o: dict) -> list[int]:
    """The seats that take the pot on a mosca (docs/rules/mosca.md §5.1), ascending; [] when nobody holds one.

    ``order`` lists the seats to consider, starting from the mano (``eldest_wins`` picks the first
    of the tied seats in that order)."""
    holders = [seat for seat in order if _is_mosca(hands[seat])]
    # 1. A trump mosca beats any plain one (with 40+ cards two players may both hold one).
    trump_holders = [s for s in holders if _suit(next(iter(hands[s]))) == trump]
    if trump_holders:
        holders = trump_holders
    if not holders:
        return []

    def key(seat: int) -> list[int]:  # 2. strengths from high to low, compared in turn
        return sorted((strength(c, o["ace_rank"]) for c in hands[seat]), reverse=True)

    best = max(key(s) for s in holders)
    tied = [s for s in holders if key(s) == best]
    if o["mosca_tie"] == "eldest_wins":
        return tied[:1]
    return sorted(tied)  # 3. an exact tie shares the pot


def _trump_suit(trump: Any) -> int:
    """A trump is a suit letter ``c d h s`` (either case)."""
    if isinstance(trump, str) and len(trump) == 1 and trump.lower() in SUITS:
        return SUITS.index(trump.lower())
    raise InvalidNotationError(f"{shown(trump)} is not a trump suit: expected a suit letter c, d, h or s")


def _card_list(cards: Any, what: str) -> list[int]:
    if isinstance(cards, (str, bytes)) or not isinstance(cards, Iterable):
        raise InvalidStateError(f"{what} must be a list of cards, not {type(cards).__name__}")
    return [card_id(c) for c in cards]


def legal_cards(hand: Iterable[Any], trick: Sequence[Any], trump: Any, **options: Any) -> list[str]:
    """The cards of ``hand`` the player to act may play, ``trick`` being the cards already played
    to this trick in order; ascending id. TV-M14: trump ``s``, led 9h, hand 7h Jh Kc -> ``['Jh']``.
    """
    o = Mosca(**options)._opts
    h = _card_list(hand, "hand")
    t = _card_list(trick, "trick")
    suit = _trump_suit(trump)
    no_card_twice(h + t, "across the hand and the trick")
    return [card_str(c) for c in _legal_cards(h, t, suit, o)]


def trick_winner(trick: Sequence[Any], trump: Any, **options: Any) -> int:
    """Index in ``trick`` of the winning card. TV-M23: trump ``s``, Qd Kd 7s Ad -> 2."""
    o = Mosca(**options)._opts
    t = _card_list(trick, "trick")
    suit = _trump_suit(trump)
    no_card_twice(t, "in the trick", empty="trick_winner needs a trick of at least one card")
    return _winning_index(t, suit, o["ace_rank"])


def mosca_winner(hands: Sequence[Iterable[Any]], trump: Any, **options: Any) -> list[int]:
    """The indexes of ``hands`` (index 0 the mano) that take the pot on the deal, ascending; empty
    when nobody holds a mosca. TV-M05: a trump mosca beats a stronger plain one."""
    o = Mosca(**options)._opts
    if isinstance(hands, (str, bytes)) or not isinstance(hands, Iterable):
        raise InvalidStateError(f"hands must be a list of card lists, not {type(hands).__name__}")
    hs = [_card_list(h, f"hands[{i}]") for i, h in enumerate(hands)]
    suit = _trump_suit(trump)
    no_card_twice([c for h in hs for c in h], "across the hands")
    return _mosca_winners(hs, range(len(hs)), suit, o)


# ---------------------------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------------------------

MAX_CHIPS = 10**15  # the match ends when a balance or the pot leaves ±10^15 (docs/mosca_engine.md §3 step 5)
UNDECLARED, PASSED, PLAYED = -1, 0, 1


class Mosca(ReferenceGame):
    """La Mosca with resolved options; a factory of states."""

    name = "mosca"

    def score_sign(self) -> int:
        """Scores are chip balances (docs/mosca_engine.md §4)."""
        return 1

    num_distinct_actions = NUM_DISTINCT_ACTIONS

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.deck_size: int = self._opts["deck"]
        self.pack: tuple[int, ...] = tuple(deck_cards(self.deck_size))

    def _check(self, options: dict[str, Any]) -> None:
        _check_options(options)

    def _observation_size(self) -> int:
        return 216 + 60 * self.num_players

    def _deck_card(self, card: Any, what: str) -> int:
        try:
            c = card_id(card)
        except InvalidNotationError as e:
            raise InvalidStateError(f"{what}: {e}") from None
        if c not in self.pack:
            raise InvalidStateError(f"{what}: {card_str(c)} is not a card of the {self.deck_size}-card deck")
        return c

    def _deck_cards(self, cards: Any, what: str) -> list[int]:
        if isinstance(cards, (str, bytes)) or not isinstance(cards, Iterable):
            raise InvalidStateError(f"{what} must be a list of cards")
        return [self._deck_card(c, what) for c in cards]

    def _deck(self, deck: Any) -> list[int]:
        cards = self._deck_cards(deck, "deck")
        return whole_pack(cards, self.pack, f"each of the {self.deck_size} deck cards exactly once")

    def _deal(self, seed: int, pack: list[int] | None) -> MoscaState:
        """A new match: the first dealer (one draw unless ``first_dealer`` is a seat), then the
        first deal (docs/mosca_engine.md §3)."""
        s = MoscaState(self)
        s._dealer = s._first_seat(seed, "first_dealer")
        s._start_deal(pack=pack)
        return s

    def setup(
        self,
        hands: Sequence[Iterable[Any]],
        turnup: Any,
        talon: Iterable[Any] | None = None,
        dealer: int = 0,
        balances: Sequence[int] | None = None,
        pot: int = 0,
        deals_played: int = 0,
        seed: int = 0,
    ) -> MoscaState:
        """The start of a deal from these cards (docs/mosca_engine.md §9): the ante, then MOSCA_CHECK and on."""
        n, o = self.num_players, self._opts
        if isinstance(hands, (str, bytes)) or not isinstance(hands, Sequence) or len(hands) != n:
            raise InvalidStateError(f"hands must be a list of {n} hands, one per seat")
        hand_ids = [self._deck_cards(h, f"hands[{i}]") for i, h in enumerate(hands)]
        if any(len(h) != 5 for h in hand_ids):
            raise InvalidStateError("every hand must hold exactly 5 cards")
        up = self._deck_card(turnup, "turnup")
        listed = [c for h in hand_ids for c in h] + [up]
        if talon is None:
            talon_ids = [c for c in self.pack if c not in set(listed)]
        else:
            talon_ids = self._deck_cards(talon, "talon")
        every = listed + talon_ids
        if len(set(every)) != len(every):
            raise InvalidStateError("a card is listed twice")
        if sorted(every) != list(self.pack):
            raise InvalidStateError(f"hands, turn-up and talon must hold the {self.deck_size} deck cards exactly once")
        if not _is_int(dealer) or not 0 <= dealer < n:
            raise InvalidStateError(f"dealer={shown(dealer)} is not a seat: expected 0..{n - 1}")
        if balances is None:
            balances = [o["initial_chips"]] * n
        if isinstance(balances, (str, bytes)) or not isinstance(balances, Sequence) or len(balances) != n:
            raise InvalidStateError(f"balances must be a list of {n} ints")
        if not all(_is_int(b) and abs(b) <= MAX_CHIPS for b in balances):
            raise InvalidStateError("balances must be ints within ±10^15")
        if not _is_int(pot) or not 0 <= pot <= MAX_CHIPS:
            raise InvalidStateError("pot must be an int in 0..10^15")
        if not _is_int(deals_played) or not 0 <= deals_played < o["match_deals"]:
            raise InvalidStateError(f"deals_played must be an int in 0..{o['match_deals'] - 1}")
        seed = seed_value(seed)
        s = MoscaState(self)
        s._rng = SplitMix64(seed)
        s._dealer = dealer
        s._balances = list(balances)
        s._pot = pot
        s._deals_played = deals_played
        s._start_deal(cards=(hand_ids, up, talon_ids))
        return s

    def state_from_json(self, text: str) -> MoscaState:
        """Rebuild a state from its JSON, checking everything (docs/mosca_engine.md §8)."""
        return _state_from_json(self, text)


# ---------------------------------------------------------------------------------------------
# The state
# ---------------------------------------------------------------------------------------------


class MoscaState(ReferenceState):
    """A position of a match. Mutated in place by ``apply``; ``clone`` for a copy."""

    def __init__(self, game: Mosca) -> None:
        super().__init__(game)
        n = game.num_players
        self._balances = [self._o["initial_chips"]] * n
        self._pot = 0
        self._dealer = 0
        self._deals_played = 0
        self._eliminated = [False] * n
        self._phase = DECLARE
        self._to_move = 0
        self._hands: list[set[int]] = [set() for _ in range(n)]
        self._turnup = 0
        self._talon: list[int] = []  # top first
        self._discard_pile: set[int] = set()  # exchange discards not yet reshuffled into the talon
        self._discarded: list[set[int]] = [set() for _ in range(n)]  # per seat: given up this deal
        self._declarations = [UNDECLARED] * n
        self._exchanged = [0] * n
        self._turnup_taken = False
        self._turnup_discard = -1
        self._trick: list[int] = []  # the current trick's cards in play order
        self._trick_number = 0
        self._leader = -1
        self._tricks_won = [0] * n
        self._played: set[int] = set()  # cards played to tricks this deal

    # -- seats ---------------------------------------------------------------------------------

    @property
    def _trump(self) -> int:
        return _suit(self._turnup)

    def _in_match(self) -> list[int]:
        return [s for s in range(self.game.num_players) if not self._eliminated[s]]

    def _next(self, s: int) -> int:
        """next(s): the following seat still in the match (docs/rules/mosca.md §1.1)."""
        n = self.game.num_players
        for i in range(1, n + 1):
            t = (s + i) % n
            if not self._eliminated[t]:
                return t
        return s  # every seat eliminated (a finished match): next(s) is s itself

    def _order_from(self, start: int) -> list[int]:
        """The seats in the match, in seat order from ``start`` (itself in the match)."""
        n = self.game.num_players
        return [start] + [t for t in ((start + i) % n for i in range(1, n)) if not self._eliminated[t]]

    def _mano(self) -> int:
        return self._next(self._dealer)

    def _active(self) -> list[int]:
        """The seats that chose PLAY, in seat order from the mano."""
        return [s for s in self._order_from(self._mano()) if self._declarations[s] == PLAYED]

    def _trick_seats(self) -> list[int]:
        """The seats that played the current trick's cards: the active seats from the leader."""
        if not self._trick:
            return []
        active = self._active()
        i = active.index(self._leader)
        order = active[i:] + active[:i]
        return order[: len(self._trick)]

    # -- dealing (docs/rules/mosca.md §2, docs/mosca_engine.md §3) ---------------------------------

    def _start_deal(self, pack: list[int] | None = None, cards: tuple | None = None) -> None:
        """DEAL_START: ante, then the cards (``cards`` from setup, else ``pack`` or a shuffled
        pack dealt in packets), the turn-up and the talon; then MOSCA_CHECK."""
        o, n = self._o, self.game.num_players
        seats = self._in_match()
        m = len(seats)
        # 1. Ante.
        if o["ante"] == "each_player_pays_1":
            for s in seats:
                self._balances[s] -= 1
            self._pot += m
        else:
            amount = m if o["ante"] == "dealer_pays_N" else 5
            self._balances[self._dealer] -= amount
            self._pot += amount
        # 2-5. Shuffle, deal, turn-up, talon.
        order = self._order_from(self._mano())
        self._hands = [set() for _ in range(n)]
        if cards is not None:
            hands, self._turnup, talon = cards
            self._hands = [set(h) for h in hands]
            self._talon = list(talon)
        else:
            if pack is None:
                pack = list(self.game.pack)
                self._rng.shuffle(pack)
            for k, seat in enumerate(order):
                if o["deal_packets"] == "2_then_3":
                    idx = [2 * k, 2 * k + 1, 2 * m + 3 * k, 2 * m + 3 * k + 1, 2 * m + 3 * k + 2]
                elif o["deal_packets"] == "3_then_2":
                    idx = [3 * k, 3 * k + 1, 3 * k + 2, 3 * m + 2 * k, 3 * m + 2 * k + 1]
                else:  # 1_at_a_time
                    idx = [k + j * m for j in range(5)]
                self._hands[seat] = {pack[i] for i in idx}
            self._turnup = pack[5 * m]
            self._talon = pack[5 * m + 1 :]
        self._discard_pile = set()
        self._discarded = [set() for _ in range(n)]
        self._declarations = [UNDECLARED] * n
        self._exchanged = [0] * n
        self._turnup_taken = False
        self._turnup_discard = -1
        self._trick = []
        self._trick_number = 0
        self._leader = -1
        self._tricks_won = [0] * n
        self._played = set()
        # MOSCA_CHECK on the cards as dealt.
        winners = _mosca_winners(self._hands, order, self._trump, o)
        if winners:
            self._settle_mosca(winners)
            self._end_deal()
            return
        self._phase = DECLARE
        self._begin_declare_turn(self._mano())

    def _begin_declare_turn(self, seat: int) -> None:
        """Give the DECLARE turn to ``seat``; with ``reshuffle_discards_when_empty`` an empty talon
        is first rebuilt from the discard pile (ascending ids, shuffled with the stream)."""
        self._to_move = seat
        if self._o["exchange_limit"] == "reshuffle_discards_when_empty" and not self._talon and self._discard_pile:
            talon = sorted(self._discard_pile)
            self._rng.shuffle(talon)
            self._talon = talon
            self._discard_pile = set()

    # -- settling (docs/rules/mosca.md §5, docs/mosca_engine.md §4) --------------------------------

    def _penalty(self) -> int:
        """The penalty: ``no_trick_penalty`` chips, or the pot as it stands under ``pot``."""
        p = self._o["no_trick_penalty"]
        return self._pot if p == "pot" else p

    def _settle_mosca(self, winners: list[int]) -> None:
        """docs/rules/mosca.md §5.1: (with the bonus, every other seat first pays the penalty into the pot), then the
        mosca holder takes the pot; tied holders share it and the remainder stays."""
        if self._o["mosca_bonus"] == "each_other_player_pays_penalty":
            amount = self._penalty()
            for s in self._in_match():
                if s not in winners:
                    self._balances[s] -= amount
                    self._pot += amount
        share = self._pot // len(winners)
        for s in winners:
            self._balances[s] += share
        self._pot -= share * len(winners)

    def _resolve_declare(self) -> None:
        """RESOLVE_DECLARE (docs/rules/mosca.md §3): the second mosca check, throw-in, lone player or tricks."""
        o = self._o
        active = self._active()
        if o["mosca_after_exchange"]:
            winners = _mosca_winners(self._hands, active, self._trump, o)
            if winners:
                self._settle_mosca(winners)
                self._end_deal()
                return
        if not active:  # throw-in: the pot stays
            self._end_deal()
            return
        if len(active) == 1 and o["lone_player"] != "must_play_tricks":
            if o["lone_player"] == "wins_pot":
                self._balances[active[0]] += self._pot
                self._pot = 0
            self._end_deal()  # pot_carries: the deal is void
            return
        self._phase = TRICK
        self._trick_number = 1
        self._leader = self._to_move = active[0]

    def _score(self) -> None:
        """SCORE (docs/rules/mosca.md §5.4): penalties and the award; a lone player takes the pot."""
        o = self._o
        active = self._active()
        if len(active) == 1:
            self._balances[active[0]] += self._pot
            self._pot = 0
            return
        penalty = self._penalty()  # with ``pot``: the pot at SCORE, before any penalty
        zero = [s for s in active if self._tricks_won[s] == 0]

        def pay_penalties() -> None:
            for s in zero:
                self._balances[s] -= penalty
                self._pot += penalty

        if o["pot_award"] == "per_trick":
            value = self._pot // 5
            for s in active:
                self._balances[s] += value * self._tricks_won[s]
                self._pot -= value * self._tricks_won[s]
            pay_penalties()
            return
        if o["penalty_timing"] == "before_award":
            pay_penalties()
        best = max(self._tricks_won[s] for s in active)
        top = [s for s in active if self._tricks_won[s] == best]
        if len(top) == 1:
            self._balances[top[0]] += self._pot
            self._pot = 0
        elif o["trick_tie"] == "split_equally":
            share = self._pot // len(top)
            for s in top:
                self._balances[s] += share
            self._pot -= share * len(top)
        if o["penalty_timing"] == "next_pot":
            pay_penalties()

    def _end_deal(self) -> None:
        """DEAL_END: count the deal, eliminate the broke (an option), end the match or deal again."""
        o = self._o
        self._deals_played += 1
        self._phase = END  # until the next deal starts
        self._leader, self._trick_number = -1, 0
        if o["bankruptcy"] == "eliminate_at_zero":
            for s in self._in_match():
                if self._balances[s] <= 0:
                    self._eliminated[s] = True
        overflow = abs(self._pot) > MAX_CHIPS or any(abs(b) > MAX_CHIPS for b in self._balances)
        if self._deals_played >= o["match_deals"] or len(self._in_match()) < 2 or overflow:
            self._finish()
            return
        self._dealer = self._next(self._dealer)
        self._start_deal()

    def _finish(self) -> None:
        n = self.game.num_players
        if self._o["leftover_pot"] == "split_equally_among_all":
            share = self._pot // n
            for s in range(n):
                self._balances[s] += share
            self._pot -= share * n
        self._phase = END
        self._to_move = -1

    # -- the step protocol (docs/mosca_engine.md §4) -----------------------------------------------

    def current_player(self) -> int:
        return -1 if self._phase == END else self._to_move

    def is_terminal(self) -> bool:
        return self._phase == END

    def _exchange_cap(self) -> int:
        """The most cards the declaring seat may exchange now (docs/rules/mosca.md §4.1)."""
        cap = min(5, len(self._talon))
        return min(cap, 3) if self._o["exchange_limit"] == "max_3" else cap

    def legal_actions(self) -> list[int]:
        if self._phase == END:
            return []
        if self._phase == DECLARE:
            cap = self._exchange_cap()
            return [PASS] + [PLAY0 + m for m in range(32) if bin(m).count("1") <= cap]
        if self._phase == TURNUP:
            return [TAKE_TURNUP0 + slot for slot in range(5)] + [LEAVE_TURNUP]
        hand = self._hands[self._to_move]
        if len(self._active()) == 1:  # a lone player under must_play_tricks: any card
            return sorted(hand)
        return _legal_cards(hand, self._trick, self._trump, self._o)

    def _actor_hand(self) -> set[int]:
        return set() if self._phase == END else self._hands[self._to_move]

    def action_to_string(self, action: Any) -> str:
        return action_to_string(action, self._phase, self._actor_hand())

    def string_to_action(self, text: Any) -> int:
        return string_to_action(text, self._phase, self._actor_hand())

    def _seat_action_to_string(self, seat: int, action: Any) -> str:
        """Another seat than the mover's reads exchanges and turn-up steps in their slot forms."""
        if seat == self._rules_current_player():
            return self.action_to_string(action)
        return action_to_string(action)

    def _seat_string_to_action(self, text: Any, seat: int) -> int:
        if seat == self._rules_current_player():
            return self.string_to_action(text)
        return string_to_action(text)

    def _apply(self, a: int) -> None:
        if self._phase == DECLARE:
            self._declare(a)
        elif self._phase == TURNUP:
            self._take_or_leave_turnup(a)
        else:
            self._play_card(a)

    def _declare(self, a: int) -> None:
        """PASS or PLAY(mask): exchange the masked slots of the sorted hand with the talon."""
        s = self._to_move
        if a == PASS:
            self._declarations[s] = PASSED
        else:
            self._declarations[s] = PLAYED
            hand = sorted(self._hands[s])
            out = [hand[i] for i in _slots_of(a - PLAY0)]
            for c in out:
                self._hands[s].discard(c)
                self._discarded[s].add(c)
                self._discard_pile.add(c)
            for _ in out:
                self._hands[s].add(self._talon.pop(0))
            self._exchanged[s] = len(out)
            if s == self._dealer and self._o["dealer_may_take_turnup"]:
                self._phase = TURNUP
                return
        if s != self._dealer:
            self._begin_declare_turn(self._next(s))
        else:
            self._resolve_declare()

    def _take_or_leave_turnup(self, a: int) -> None:
        if a != LEAVE_TURNUP:
            s = self._to_move
            card = sorted(self._hands[s])[a - TAKE_TURNUP0]
            self._hands[s].discard(card)
            self._discarded[s].add(card)
            self._turnup_discard = card
            self._hands[s].add(self._turnup)
            self._turnup_taken = True
        self._resolve_declare()

    def _play_card(self, card: int) -> None:
        s = self._to_move
        self._hands[s].discard(card)
        self._trick.append(card)
        self._played.add(card)
        active = self._active()
        if len(self._trick) < len(active):
            self._to_move = active[(active.index(s) + 1) % len(active)]
            return
        seats = self._trick_seats()
        winner = seats[_winning_index(self._trick, self._trump, self._o["ace_rank"])]
        self._tricks_won[winner] += 1
        self._trick = []
        if self._trick_number == 5:
            self._score()
            self._end_deal()
            return
        self._trick_number += 1
        self._leader = self._to_move = winner

    # -- queries -------------------------------------------------------------------------------

    def returns(self) -> list[float]:
        """0 until the match ends; then each seat's net chip change plus an equal share of the pot."""
        n = self.game.num_players
        if self._phase != END:
            return [0.0] * n
        start = self._o["initial_chips"]
        return [float(b - start) + self._pot / n for b in self._balances]

    def scores(self) -> list[int]:
        """Chip balances per seat."""
        return list(self._balances)

    def deals(self) -> int:
        """Deals started so far, the current one included."""
        return self._deals_played + (0 if self._phase == END else 1)

    def play(self, move: Any) -> None:
        """Apply a move written for people: every action is a whole move (docs/mosca_engine.md §5),
        so this is ``apply`` of its notation."""
        if not isinstance(move, str):
            raise InvalidNotationError(f"{shown(move)} is not a move: expected text such as 'play x 9d Ks' or 'Qh'")
        self.apply(move)

    def clone(self) -> MoscaState:
        s = MoscaState.__new__(MoscaState)
        s.__dict__.update(self.__dict__)
        s._rng = self._rng.clone()
        for name in (
            "_history",
            "_balances",
            "_eliminated",
            "_talon",
            "_declarations",
            "_exchanged",
            "_trick",
            "_tricks_won",
        ):
            setattr(s, name, list(getattr(self, name)))
        s._hands = [set(h) for h in self._hands]
        s._discarded = [set(d) for d in self._discarded]
        s._discard_pile = set(self._discard_pile)
        s._played = set(self._played)
        return s

    # -- serialisation (docs/mosca_engine.md §8) ---------------------------------------------------

    def _as_dict(self) -> dict[str, Any]:
        return {
            "balances": list(self._balances),
            "dealer": self._dealer,
            "deals_played": self._deals_played,
            "declarations": list(self._declarations),
            "discard_pile": sorted(self._discard_pile),
            "discarded": [sorted(d) for d in self._discarded],
            "eliminated": list(self._eliminated),
            "exchanged": list(self._exchanged),
            "game": "mosca",
            "hands": [sorted(h) for h in self._hands],
            "history": list(self._history),
            "leader": self._leader,
            "options": self._o,
            "phase": self._phase,
            "played": sorted(self._played),
            "pot": self._pot,
            "rng": str(self._rng.state),
            "talon": list(self._talon),
            "terminal": self._phase == END,
            "to_move": self._rules_current_player(),
            "trick": list(self._trick),
            "trick_number": self._trick_number,
            "tricks_won": list(self._tricks_won),
            "turnup": self._turnup,
            "turnup_discard": self._turnup_discard,
            "turnup_taken": self._turnup_taken,
            "version": 1,
        }

    # -- what a seat sees (docs/mosca_engine.md §10) -----------------------------------------------

    def _public_view(self) -> dict[str, Any]:
        return self._view(None)

    def _view(self, p: int | None) -> dict[str, Any]:
        """What ``p`` may see; the public view for None (no hand, no discards, every exchange masked)."""

        def text(cards: Iterable[int]) -> list[str]:
            return [CARD_TEXT[c] for c in sorted(cards)]

        words = {UNDECLARED: None, PASSED: "pass", PLAYED: "play"}
        return {
            "player": p,
            "current_player": self._rules_current_player(),
            "phase": self._phase,
            "dealer": self._dealer,
            "mano": self._mano(),
            "deals_played": self._deals_played,
            "hand": None if p is None else text(self._hands[p]),
            "hand_sizes": [len(h) for h in self._hands],
            "turnup": CARD_TEXT[self._turnup],
            "trump": SUITS[self._trump],
            "turnup_taken": self._turnup_taken,
            "declarations": [words[d] for d in self._declarations],
            "exchanged": list(self._exchanged),
            "discards": None if p is None else text(self._discarded[p]),
            "talon_size": len(self._talon),
            "trick": [CARD_TEXT[c] for c in self._trick],
            "trick_seats": self._trick_seats(),
            "leader": self._leader,
            "trick_number": self._trick_number,
            "played": text(self._played),
            "tricks_won": list(self._tricks_won),
            "pot": self._pot,
            "balances": list(self._balances),
            "eliminated": list(self._eliminated),
            "terminal": self._phase == END,
            "history": view_history(self, p),
        }

    def _resample_into(self, seat: int, seed: int, out: Any) -> None:
        resample_into(self, seat, seed, out)

    def _observation(self, p: int) -> np.ndarray:
        n = self.game.num_players
        obs = [0.0] * self.game.observation_shape[0]
        seat_at = [(p + j) % n for j in range(n)]  # entry j describes seat (p + j) mod n
        entry = {s: j for j, s in enumerate(seat_at)}

        def cards_at(offset: int, cards: Iterable[int]) -> None:
            for c in cards:
                obs[offset + c] = 1.0

        cards_at(0, self._hands[p])
        cards_at(52, self._discarded[p])
        obs[104 + self._turnup] = 1.0
        obs[156 + self._trump] = 1.0
        obs[160] = float(self._turnup_taken)
        for j, s in enumerate(seat_at):
            obs[161 + 3 * j] = float(self._declarations[s] == PLAYED)
            obs[161 + 3 * j + 1] = float(self._declarations[s] == PASSED)
            obs[161 + 3 * j + 2] = float(self._eliminated[s])
            obs[161 + 3 * n + j] = self._exchanged[s]
            obs[214 + 57 * n + j] = self._tricks_won[s]
            obs[215 + 58 * n + j] = self._balances[s]
        obs[161 + 4 * n] = len(self._talon)
        for s, c in zip(self._trick_seats(), self._trick):
            obs[162 + 4 * n + 52 * entry[s] + c] = 1.0
        if self._phase == TRICK:
            obs[162 + 56 * n + entry[self._leader]] = 1.0
        cards_at(162 + 57 * n, self._played)
        obs[214 + 58 * n] = self._pot
        obs[215 + 59 * n + entry[self._dealer]] = 1.0
        obs[215 + 60 * n] = self._deals_played
        return np.array(obs, dtype=np.float32)

    # -- for people ------------------------------------------------------------------------------

    def __str__(self) -> str:
        n = self.game.num_players

        def text(cards: Iterable[int]) -> str:
            return " ".join(card_str(c) for c in sorted(cards)) or "-"

        words = {UNDECLARED: "", PASSED: " (passed)", PLAYED: " (plays)"}
        lines = [
            f"mosca, deal {self._deals_played + (0 if self._phase == END else 1)}, dealer: seat {self._dealer}, "
            f"turn-up {card_str(self._turnup)}{' (taken)' if self._turnup_taken else ''}, "
            f"pot {self._pot}, phase {self._phase}"
        ]
        for s in range(n):
            mark = "  <- to move" if s == self.current_player() else ""
            status = " (eliminated)" if self._eliminated[s] else words[self._declarations[s]]
            lines.append(
                f"  seat {s}{status}: {text(self._hands[s])}  chips {self._balances[s]}, "
                f"tricks {self._tricks_won[s]}{mark}"
            )
        lines.append(f"  talon: {len(self._talon)} cards")
        if self._trick:
            lines.append(f"  trick {self._trick_number}: " + " ".join(card_str(c) for c in self._trick))
        return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# Reading a state back (docs/mosca_engine.md §8)
# ---------------------------------------------------------------------------------------------

_JSON_KEYS = frozenset(
    "balances dealer deals_played declarations discard_pile discarded eliminated exchanged game hands "
    "history leader options phase played pot rng talon terminal to_move trick trick_number tricks_won "
    "turnup turnup_discard turnup_taken version".split()
)
_MAX_JSON_CHIPS = 8 * MAX_CHIPS  # a finished match may lie a little outside ±10^15 (the overflow guard)


def _state_from_json(game: Mosca, text: Any) -> MoscaState:
    d = StateFields(text, "mosca", _JSON_KEYS, game.options_json())
    bad, integer, boolean = d.bad, d.integer_of, d.boolean
    o, n = game._opts, game.num_players
    deck = set(game.pack)

    def per_seat(key: str) -> list:
        return d.per(key, n)

    def cards(x: Any, what: str, ascending: bool) -> list[int]:
        if not isinstance(x, list) or not all(_is_int(c) and c in deck for c in x):
            raise bad(f"{what} must be a list of card ids of the {game.deck_size}-card deck")
        return d.ascending(list(x), what) if ascending else list(x)

    balances = [integer(b, "balances", -_MAX_JSON_CHIPS, _MAX_JSON_CHIPS) for b in per_seat("balances")]
    pot = integer(d["pot"], "pot", 0, _MAX_JSON_CHIPS)
    dealer = integer(d["dealer"], "dealer", 0, n - 1)
    deals_played = integer(d["deals_played"], "deals_played", 0, o["match_deals"])
    declarations = [integer(x, "declarations", -1, 1) for x in per_seat("declarations")]
    eliminated = [boolean(x, "eliminated") for x in per_seat("eliminated")]
    exchanged = [integer(x, "exchanged", 0, 5) for x in per_seat("exchanged")]
    tricks_won = [integer(x, "tricks_won", 0, 5) for x in per_seat("tricks_won")]
    hands = [cards(h, f"hands[{i}]", True) for i, h in enumerate(per_seat("hands"))]
    discarded = [cards(h, f"discarded[{i}]", True) for i, h in enumerate(per_seat("discarded"))]
    discard_pile = cards(d["discard_pile"], "discard_pile", True)
    played = cards(d["played"], "played", True)
    talon = cards(d["talon"], "talon", False)
    trick = cards(d["trick"], "trick", False)
    history = d["history"]
    if not isinstance(history, list) or not all(_is_int(a) and 0 <= a < NUM_DISTINCT_ACTIONS for a in history):
        raise bad(f"history must be a list of action ids 0..{NUM_DISTINCT_ACTIONS - 1}")
    leader = integer(d["leader"], "leader", -1, n - 1)
    to_move = integer(d["to_move"], "to_move", -1, n - 1)
    trick_number = integer(d["trick_number"], "trick_number", 0, 5)
    phase = d["phase"]
    if phase not in (DECLARE, TURNUP, TRICK, END):
        raise bad("phase must be one of declare, turnup, trick, end")
    terminal = boolean(d["terminal"], "terminal")
    turnup = d["turnup"]
    if not _is_int(turnup) or turnup not in deck:
        raise bad("turnup must be a card id of the deck")
    turnup_discard = d["turnup_discard"]
    if not _is_int(turnup_discard) or (turnup_discard != -1 and turnup_discard not in deck):
        raise bad("turnup_discard must be a card id of the deck or -1")
    turnup_taken = boolean(d["turnup_taken"], "turnup_taken")
    rng = d.rng()

    # The cards: the deck exactly once across hands, talon, discard pile, played cards, the
    # card given up for the turn-up and (when not taken) the turn-up.
    every = [c for h in hands for c in h] + talon + discard_pile + played
    if turnup_discard != -1:
        every.append(turnup_discard)
    if not turnup_taken:
        every.append(turnup)
    if len(every) != len(set(every)) or set(every) != deck:
        raise bad(
            f"the {game.deck_size} deck cards must each appear exactly once across hands, talon, "
            "discard_pile, played, turnup_discard and (when not taken) turnup"
        )
    if turnup_taken != (turnup_discard != -1):
        raise bad("turnup_discard is a card exactly when the turn-up was taken")
    if turnup_taken and turnup not in hands[dealer] and turnup not in played:
        raise bad("a taken turn-up is in the dealer's hand until he plays it")
    if any(c not in played for c in trick):
        raise bad("the current trick's cards must be among the played cards")
    if turnup_taken and turnup_discard not in discarded[dealer]:
        raise bad("the card given up for the turn-up is among the dealer's discarded cards")
    for seat in range(n):
        # discarded: the cards exchanged, and for the dealer the one given up for the turn-up
        given_up = exchanged[seat] + (1 if turnup_taken and seat == dealer else 0)
        if len(discarded[seat]) != given_up:
            raise bad(f"discarded[{seat}] must hold the {given_up} cards seat {seat} gave up")
        if exchanged[seat] and declarations[seat] != PLAYED:
            raise bad(f"seat {seat} exchanged cards without choosing play")
        if eliminated[seat] and (hands[seat] or declarations[seat] != UNDECLARED) and phase != END:
            raise bad(f"eliminated seat {seat} takes no part in a deal")
    if terminal != (phase == END) or (to_move == -1) != terminal:
        raise bad("terminal, phase end and to_move -1 go together")
    if not terminal and sum(1 for e in eliminated if not e) < 2:
        raise bad("a match in play has at least two seats in it")

    s = MoscaState(game)
    s._rng = rng
    s._history = list(history)
    s._balances = balances
    s._pot = pot
    s._dealer = dealer
    s._deals_played = deals_played
    s._eliminated = eliminated
    s._phase = phase
    s._to_move = to_move
    s._hands = [set(h) for h in hands]
    s._turnup = turnup
    s._talon = talon
    s._discard_pile = set(discard_pile)
    s._discarded = [set(x) for x in discarded]
    s._declarations = declarations
    s._exchanged = exchanged
    s._turnup_taken = turnup_taken
    s._turnup_discard = turnup_discard
    s._trick = trick
    s._trick_number = trick_number
    s._leader = leader
    s._tricks_won = tricks_won
    s._played = set(played)

    if phase != END:
        problem = _phase_problem(s)
        if problem:
            raise bad(problem)
    elif leader != -1 or trick_number != 0 or trick:
        raise bad("a finished match has no current trick (leader -1, trick_number 0)")
    return s


def _phase_problem(s: MoscaState) -> str | None:
    """Why a non-terminal state is not a position of its phase, or None."""
    o = s._o
    if s._eliminated[s._dealer]:
        return "the dealer must be in the match"
    if s._deals_played >= o["match_deals"]:
        return "deals_played must be below match_deals before the end"
    seats = s._order_from(s._mano())
    if s._to_move not in seats:
        return "to_move must be a seat in the match"
    if s._turnup_taken and s._phase != TRICK:
        return "the turn-up is taken only in the turnup step, just before the tricks"
    if s._phase in (DECLARE, TURNUP):
        if s._trick or s._played or s._leader != -1 or s._trick_number != 0 or any(s._tricks_won):
            return "no trick is played before the declarations end"
        if any(len(s._hands[x]) != 5 for x in seats):
            return "every seat in the match holds 5 cards until the tricks"
        position = seats.index(s._to_move)
        if s._phase == DECLARE:
            done, todo = seats[:position], seats[position:]
        else:
            if s._to_move != s._dealer or not o["dealer_may_take_turnup"]:
                return "only the dealer has the turnup step, when dealer_may_take_turnup"
            done, todo = seats, []
        if any(s._declarations[x] == UNDECLARED for x in done) or any(s._declarations[x] != UNDECLARED for x in todo):
            return "the seats from the mano up to the actor have declared, the others not"
        if s._phase == TURNUP and s._declarations[s._dealer] != PLAYED:
            return "the turnup step follows the dealer's play"
        if (
            s._phase == DECLARE
            and len(s._talon) == 0
            and s._discard_pile
            and o["exchange_limit"] == "reshuffle_discards_when_empty"
        ):
            return "an empty talon is rebuilt from the discard pile when a declare turn begins"
        return None
    # TRICK
    if any(s._declarations[x] == UNDECLARED for x in seats):
        return "every seat in the match has declared before the tricks"
    active = s._active()
    if not active or (len(active) == 1 and o["lone_player"] != "must_play_tricks"):
        return "tricks need two active seats (or a lone one under must_play_tricks)"
    if not 1 <= s._trick_number <= 5 or s._leader not in active or len(s._trick) >= len(active):
        return "trick_number 1..5, a leader among the active seats and an incomplete trick"
    if sum(s._tricks_won) != s._trick_number - 1 or any(s._tricks_won[x] for x in seats if x not in active):
        return "tricks_won must count the finished tricks of the active seats"
    if not s._trick and s._to_move != s._leader:
        return "the leader plays first"
    seats_in_trick = s._trick_seats()
    order = active[active.index(s._leader) :] + active[: active.index(s._leader)]
    if s._to_move != order[len(s._trick)]:
        return "the actor is the next active seat after the cards of the trick"
    for x in seats:
        played = s._trick_number - 1 + (1 if x in seats_in_trick else 0)
        want = 5 - played if x in active else 5
        if len(s._hands[x]) != want:
            return f"seat {x} must hold {want} cards"
    if len(s._played) != len(active) * (s._trick_number - 1) + len(s._trick):
        return "played must hold the cards of the finished tricks and the current one"
    return None
