"""What every reference engine shares, written once: options resolved from the game's data file,
the action-id checks, the legal mask, applying an action, copying, the canonical JSON and the
state header it starts with, equality, ``key()`` and pickling. Each game keeps only its rules.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable
from collections.abc import Set as AbstractSet
from typing import Any, ClassVar

import numpy as np

from .._game import MAX_DECISIONS, MAX_NOTATION_CHARS, GameBase, exact_int, seed_value, shown
from .._options import canonical, spec
from ..cards import card_id
from ..errors import (
    EXCERPT_CHARS,
    IllegalActionError,
    InvalidNotationError,
    InvalidPlayerError,
    InvalidStateError,
    TapeteError,
    excerpt,
)
from ._rng import MASK64, SplitMix64

__all__ = [
    "ReferenceGame",
    "ReferenceState",
    "index_in",
    "no_card_twice",
    "whole_pack",
    "word_or_card_action",
    "is_int",
    "read_state_object",
    "StateFields",
    "seed_value",
    "shown",
]


def is_int(value: Any) -> bool:
    """An int that is not a bool (JSON ``true`` must never pass for 1)."""
    return isinstance(value, int) and not isinstance(value, bool)


def word_or_card_action(words: list[str], word_actions: dict[str, int]) -> int | None:
    """The action an action text's lower-case ``words`` name when they are one of the
    ``word_actions`` or one card's text (a card's id is its play); else None."""
    text = " ".join(words)
    if text in word_actions:
        return word_actions[text]
    if len(words) == 1:
        try:
            return card_id(words[0])
        except InvalidNotationError:
            return None
    return None


def no_card_twice(ids: list[int], where: str, empty: str | None = None) -> None:
    """Refuses a card listed twice in ``ids``: ``InvalidStateError`` saying ``where`` ("in the
    stock", "across the hands"); given ``empty``, refuses an empty ``ids`` first, saying that."""
    if empty is not None and not ids:
        raise InvalidStateError(empty)
    if len(set(ids)) != len(ids):
        raise InvalidStateError(f"a card appears twice {where}")


def whole_pack(ids: list[int], pack: Iterable[int], what: str) -> list[int]:
    """``ids``, a deck given top first, when it holds ``pack`` (each id as often as the pack does);
    else ``InvalidStateError``: the deck must hold ``what``."""
    if sorted(ids) != list(pack):
        raise InvalidStateError(f"deck must hold {what}, top first")
    return ids


def index_in(value: Any, stop: int, error: type[TapeteError], what: str) -> int:
    """``value`` as an int in ``0..stop-1`` (numpy ints welcome, bools not), else ``error``."""
    index = exact_int(value)
    if index is None:
        raise error(f"{shown(value)} is not {what}: expected an int 0..{stop - 1}")
    if not 0 <= index < stop:
        raise error(f"{what} {shown(index)} is out of range: expected 0..{stop - 1}")
    return index


#: The most actions a state's ``history`` may hold: the decision cap. Each game checks that every
#: entry is one of its action ids.
MAX_HISTORY = MAX_DECISIONS


class _RepeatedKey(Exception):
    pass


def _object_without_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are all distinct (json.loads would keep the last silently)."""
    d = dict(pairs)
    if len(d) != len(pairs):
        seen: set[str] = set()
        raise _RepeatedKey(next(k for k, _ in pairs if k in seen or seen.add(k)))  # type: ignore[func-returns-value]
    return d


def read_state_object(text: Any, game: str, keys: AbstractSet[str], options_json: str) -> dict[str, Any]:
    """The object of a state's JSON text after the checks every game shares: exactly the game's
    ``keys``, ``"game"`` naming it, ``"version"`` 1 and ``"options"`` equal to the game's resolved
    options; anything else is an ``InvalidStateError`` naming what is wrong."""

    def bad(why: str) -> InvalidStateError:
        return InvalidStateError(f"invalid {game} state: {why}")

    if isinstance(text, (bytes, bytearray)):
        text = text.decode("utf-8", errors="replace")
    if not isinstance(text, str):
        raise bad("expected JSON text")
    try:
        d = json.loads(text, object_pairs_hook=_object_without_repeats)
    except _RepeatedKey as e:
        raise bad(f"the key {shown(e.args[0])} is given twice") from None
    except (ValueError, RecursionError) as e:
        raise bad(f"not JSON ({shown(str(e))})") from None
    if not isinstance(d, dict):
        raise bad("expected a JSON object")
    if set(d) != keys:
        missing, extra = sorted(keys - set(d)), sorted(map(shown, set(d) - keys))
        raise bad(f"keys: missing {missing}, unexpected {extra}")
    if isinstance(d.get("history"), list) and len(d["history"]) > MAX_HISTORY:
        raise bad(f"history holds {len(d['history'])} actions, more than the longest game ({MAX_HISTORY})")
    if not is_int(d["version"]) or d["version"] != 1:
        raise bad("version must be 1")
    if d["game"] != game:
        raise bad(f'game must be "{game}"')
    # compared as canonical JSON, so that 0 never passes for false nor 1.0 for 1
    if canonical(d["options"]) != options_json:
        raise bad("options differ from this game's resolved options")
    return d


class StateFields:
    """A state's JSON object (after ``read_state_object``'s checks) and the typed readers every
    reference engine reads it with: each bad value is an ``InvalidStateError`` naming the game and
    the field (the reference's counterpart of the native JSON layer)."""

    def __init__(self, text: Any, game: str, keys: AbstractSet[str], options_json: str) -> None:
        self.game = game
        self.d = read_state_object(text, game, keys, options_json)

    def __getitem__(self, key: str) -> Any:
        return self.d[key]

    def bad(self, why: str) -> InvalidStateError:
        return InvalidStateError(f"invalid {self.game} state: {why}")

    def integer_of(self, x: Any, what: str, lo: int, hi: int | None) -> int:
        """``x`` as an int in ``lo..hi`` (no upper bound when ``hi`` is None)."""
        if not is_int(x) or x < lo or (hi is not None and x > hi):
            raise self.bad(f"{what} must be an int in {lo}..{'' if hi is None else hi}")
        return int(x)

    def integer(self, key: str, lo: int, hi: int | None) -> int:
        return self.integer_of(self.d[key], key, lo, hi)

    def ints(self, x: Any, what: str, lo: int, hi: int | None) -> list[int]:
        if not isinstance(x, list) or not all(is_int(v) and v >= lo and (hi is None or v <= hi) for v in x):
            raise self.bad(f"{what} must be a list of ints in {lo}..{'' if hi is None else hi}")
        return x

    def boolean(self, x: Any, what: str) -> bool:
        if not isinstance(x, bool):
            raise self.bad(f"{what} must be a bool")
        return x

    def per(self, key: str, count: int) -> list[Any]:
        """The list under ``key``, with exactly ``count`` entries (one per seat, per side...)."""
        x = self.d[key]
        if not isinstance(x, list) or len(x) != count:
            raise self.bad(f"{key} must be a list of {count} entries")
        return x

    def rng(self) -> SplitMix64:
        """The stream under ``"rng"``, whose state is written as decimal text (a 64-bit int)."""
        x = self.d["rng"]
        if not isinstance(x, str) or not x.isascii() or not x.isdigit() or str(int(x)) != x or int(x) > MASK64:
            raise self.bad("rng must be the decimal text of an int in 0..2^64-1")
        return SplitMix64(int(x))

    def ascending(self, xs: list[int], what: str, strict: bool = True) -> list[int]:
        """``xs`` in ascending order (strictly: each id once)."""
        if any(a > b or (strict and a == b) for a, b in zip(xs, xs[1:])):
            raise self.bad(f"{what} must be {'strictly ' if strict else ''}ascending")
        return xs


def _restore(game: ReferenceGame, text: str) -> ReferenceState:
    """What pickle calls: a state from its game and its canonical JSON."""
    return game.state_from_json(text)


class ReferenceGame(GameBase):
    """A reference game with resolved options; a factory of states.

    Subclasses set ``name`` and ``num_distinct_actions``, and define ``_check(options)`` (the
    checks across options and the values derived from them), ``_observation_size()``,
    ``_deck(deck)``, ``_deal(seed, pack)``, ``setup(...)`` and ``state_from_json(text)``.
    """

    num_distinct_actions: ClassVar[int]

    def __init__(self, **options: Any) -> None:
        opts = spec(self.name).resolve(options)
        self._check(opts)
        self._opts: dict[str, Any] = opts
        self._options_json = canonical(opts)
        self.num_players: int = opts["players"]
        self.observation_shape: tuple[int, ...] = (self._observation_size(),)

    def _check(self, options: dict[str, Any]) -> None:
        """Checks across options, and values derived from them (written into ``options``)."""

    def _observation_size(self) -> int:
        raise NotImplementedError

    def score_sign(self) -> int:
        """+1 where a seat wants a higher ``scores()``, -1 where its score counts what it wants to
        avoid: how bots read a deal's points (docs/bots.md §3.5; ``Game::score_sign``)."""
        raise NotImplementedError

    @property
    def options(self) -> dict[str, Any]:  # type: ignore[override]
        """Every resolved option (a copy)."""
        return json.loads(self._options_json)

    def options_json(self) -> str:
        return self._options_json

    def __repr__(self) -> str:
        return f"reference.{self}"

    def new_state(self, seed: int = 0, deck: Any = None) -> Any:
        """A new match dealt with the seeded RNG; ``deck`` fixes the first deal's order (top first)."""
        seed = seed_value(seed)
        return self._deal(seed, None if deck is None else self._deck(deck))

    def _deck(self, deck: Any) -> list[int]:
        """The ids of a ``deck`` given top first, the whole pack (else ``InvalidStateError``)."""
        raise NotImplementedError

    def _deal(self, seed: int, pack: list[int] | None) -> Any:
        """A new match seeded with ``seed``: its first seat, then its first deal from ``pack`` (top
        first) if given, else from a shuffled pack."""
        raise NotImplementedError

    def state_from_json(self, text: Any) -> Any:
        raise NotImplementedError


def _bounded_notation(read: Callable[..., Any]) -> Callable[..., Any]:
    """``read`` (a state's ``string_to_action`` or ``play``) behind the layer's bounds on text:
    at most ``MAX_NOTATION_CHARS`` characters are read, and a message quoting the whole text
    quotes its excerpt (as the native bindings do)."""

    @functools.wraps(read)
    def bounded(self: Any, text: Any, *args: Any, **kwargs: Any) -> Any:
        if not isinstance(text, str):
            return read(self, text, *args, **kwargs)
        what = "move" if read.__name__ == "play" else "action text"
        if len(text) > MAX_NOTATION_CHARS:
            raise InvalidNotationError(
                f"{what} of {len(text)} characters is too long (at most {MAX_NOTATION_CHARS}): {excerpt(text)!r}"
            )
        try:
            return read(self, text, *args, **kwargs)
        except TapeteError as error:
            message = str(error)
            if len(text) <= EXCERPT_CHARS or text not in message:
                raise
            raise type(error)(message.replace(text, excerpt(text))) from None

    bounded._bounded = True  # type: ignore[attr-defined]
    return bounded


def _capped_is_terminal(self: ReferenceState) -> bool:
    return self._rules_is_terminal() or self.is_truncated()


def _capped_current_player(self: ReferenceState) -> int:
    return -1 if self.is_truncated() else self._rules_current_player()


def _capped_legal_actions(self: ReferenceState) -> list[int]:
    return [] if self.is_truncated() else self._rules_legal_actions()  # type: ignore[attr-defined]


def _capped_play(self: ReferenceState, text: Any) -> None:
    self._check_not_truncated()
    self._rules_play(text)  # type: ignore[attr-defined]


def _calling(f: Callable[..., Any]) -> Callable[..., Any]:
    """A fresh function calling ``f`` (``functools.wraps`` then names it per class)."""

    def call(self: Any, *args: Any) -> Any:
        return f(self, *args)

    return call


#: The public names a game's rules define and the decision cap overrides.
_CAPPED: dict[str, Callable[..., Any]] = {
    "is_terminal": _capped_is_terminal,
    "current_player": _capped_current_player,
    "legal_actions": _capped_legal_actions,
    "play": _capped_play,
}


class ReferenceState:
    """A position of a reference game. Mutated in place by ``apply``; ``clone`` for a copy.

    Subclasses define ``legal_actions()``, ``_apply(action)`` (the action is legal and already
    in the history), ``action_to_string``, ``string_to_action``, ``clone()``, ``_as_dict()`` (the
    canonical JSON's object), ``_view(seat)`` and ``_observation(seat)``.
    """

    game: Any
    _history: list[int]

    def __init__(self, game: Any) -> None:
        """Before the first deal: the game, its resolved options (``_o``), an RNG to be seeded
        by the deal and an empty history. Subclasses add their own fields."""
        self.game = game
        self._o = game._opts
        self._rng = SplitMix64(0)
        self._history = []

    def _first_seat(self, seed: int, option: str) -> int:
        """Seeds a new match's stream with ``seed``; its first seat (dealer, mano) is the seat the
        option names, or the stream's first draw for ``"random"``."""
        self._rng = SplitMix64(seed)
        first = self._o[option]
        return self._rng.below(self.game.num_players) if first == "random" else first

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name in ("string_to_action", "play", "_seat_string_to_action"):
            read = cls.__dict__.get(name)
            if read is not None and not getattr(read, "_bounded", False):
                setattr(cls, name, _bounded_notation(read))
        for name, capped in _CAPPED.items():
            rules = cls.__dict__.get(name)
            if rules is not None:
                setattr(cls, "_rules_" + name, rules)
                setattr(cls, name, functools.wraps(rules)(_calling(capped)))

    # -- the step protocol ---------------------------------------------------------------------

    def legal_actions(self) -> list[int]:
        raise NotImplementedError

    def _apply(self, action: int) -> None:
        raise NotImplementedError

    def action_to_string(self, action: Any) -> str:
        raise NotImplementedError

    def string_to_action(self, text: Any) -> int:
        raise NotImplementedError

    def legal_mask(self) -> np.ndarray:
        mask = np.zeros(self.game.num_distinct_actions, dtype=bool)
        mask[self.legal_actions()] = True
        return mask

    def _action_id(self, action: Any) -> int:
        """An action given as an id (numpy ints welcome) or as its notation."""
        if isinstance(action, str):
            return self.string_to_action(action)
        return index_in(action, self.game.num_distinct_actions, IllegalActionError, "an action id")

    def _illegal(self, action: int, legal: list[int]) -> IllegalActionError:
        listed = ", ".join(self.action_to_string(a) for a in legal[:40]) or "none (the match is over)"
        return IllegalActionError(f"{self.action_to_string(action)!r} (id {action}) is not legal now; legal: {listed}")

    def apply(self, action: Any) -> None:
        """Apply one action (an id or its notation); an illegal one raises and changes nothing."""
        a = self._action_id(action)
        self._check_not_truncated()
        legal = self.legal_actions()
        if a not in legal:
            raise self._illegal(a, legal)
        self._history.append(a)
        self._apply(a)

    def history(self) -> list[int]:
        return list(self._history)

    # -- copies, JSON, identity ----------------------------------------------------------------

    def clone(self) -> Any:
        raise NotImplementedError

    def __copy__(self) -> Any:
        return self.clone()

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        return self.clone()

    def _as_dict(self) -> dict[str, Any]:
        raise NotImplementedError

    def to_json(self) -> str:
        return canonical(self._as_dict())

    def key(self) -> str:
        """A frozen, hashable identity of the position: its canonical JSON without the history
        (the options, the cards and the RNG state decide everything to come)."""
        d = self._as_dict()
        del d["history"]
        return canonical(d)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.to_json() == self.to_json()

    __hash__ = None  # type: ignore[assignment]  # mutable: key() is the hashable identity

    def __reduce__(self) -> tuple[Any, ...]:
        return (_restore, (self.game, self.to_json()))

    def deals(self) -> int:
        raise NotImplementedError

    def current_player(self) -> int:
        raise NotImplementedError

    def scores(self) -> list[int]:
        raise NotImplementedError

    def is_terminal(self) -> bool:
        raise NotImplementedError

    # -- the decision cap (docs/design.md §8): each game writes the rules' answers; the public
    # names add the cap, and the games' own JSON and views read the ``_rules_`` ones.

    def _rules_is_terminal(self) -> bool:
        raise NotImplementedError

    def _rules_current_player(self) -> int:
        raise NotImplementedError

    def is_truncated(self) -> bool:
        """Cut unfinished at ``tapete.MAX_DECISIONS`` decisions (returns all 0)."""
        return len(self._history) >= MAX_DECISIONS and not self._rules_is_terminal()

    def _check_not_truncated(self) -> None:
        if self.is_truncated():
            raise IllegalActionError(f"no move is legal: the match was cut at {MAX_DECISIONS} decisions")

    def __repr__(self) -> str:
        """As the native state's: the deal, the seat to move and the scores."""
        end = " truncated" if self.is_truncated() else " terminal" if self.is_terminal() else ""
        where = f"deal={self.deals()} to_move={self.current_player()} scores={self.scores()}"
        return f"<{type(self).__name__} {where}{end}>"

    # -- what a seat sees ----------------------------------------------------------------------

    def _seat(self, player: Any) -> int:
        return index_in(player, self.game.num_players, InvalidPlayerError, "a seat")

    def view(self, player: Any) -> dict[str, Any]:
        """What ``player`` may see (the contract's view)."""
        return self._view(self._seat(player))

    def observation(self, player: Any) -> np.ndarray:
        """What ``player`` may see as a flat float32 tensor (the contract's observation)."""
        return self._observation(self._seat(player))

    def resample(self, player: Any, seed: Any) -> Any:
        """A state in ``player``'s information set, drawn with ``seed`` (docs/design.md §10)."""
        seat = self._seat(player)
        seed = seed_value(seed)
        out = self.clone()
        self._resample_into(seat, seed, out)
        return out

    def _resample_into(self, seat: int, seed: int, out: Any) -> None:
        """Places again in ``out`` (a clone of this state) every card hidden from ``seat``."""
        # Interim: every game overrides this.
        del seat, seed, out

    def public_view(self) -> dict[str, Any]:
        """What every seat may see (the contract's public view)."""
        return self._public_view()

    def for_seat(self, player: Any) -> Any:
        """What seat ``player`` may know now: a seat object over a copy of this state
        (``tapete.reference._seat.SeatState``, docs/bots.md §2)."""
        from ._seat import SeatState

        return SeatState(self, self._seat(player))

    def _seat_action_to_string(self, seat: int, action: Any) -> str:
        """``action``'s text as ``seat`` may read it: a game whose notation names cards of the
        mover's hand gives the other seats a form that names none."""
        return self.action_to_string(action)

    def _seat_string_to_action(self, text: Any, seat: int) -> int:
        """The action ``text`` names, read as ``seat`` may read it."""
        return self.string_to_action(text)

    def _view(self, seat: int) -> dict[str, Any]:
        raise NotImplementedError

    def _public_view(self) -> dict[str, Any]:
        raise NotImplementedError

    def _observation(self, seat: int) -> np.ndarray:
        raise NotImplementedError
