"""The one base of the native game fronts (``tapete.Escoba``, ``tapete.Mosca``...): a typed
Python object over the generated ``tapete._core.<Name>Game``. States are the native state objects
themselves, so stepping from Python costs one call per action.

Structured arguments (decks, setup descriptions, the rule primitives' arguments) cross to the
core as JSON and are checked there by the game's own readers.
"""

from __future__ import annotations

import inspect
import json
import operator
from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar, Concatenate, Generic, ParamSpec, TypeVar

from ._game import GameBase, seed_value, shown
from ._gamestring import options_to_json
from .errors import InvalidStateError, TapeteError

__all__ = ["NativeGame", "json_arg", "seed_value", "setup_like"]

StateT = TypeVar("StateT")
P = ParamSpec("P")

_MAX_DEPTH = 8
_MAX_ITEMS = 100_000


def _plain(value: Any, what: str, error: type[TapeteError], depth: int) -> Any:
    """``value`` as plain JSON data. Numbers, text and null pass as they are (the core says what
    is wrong with them); lists, tuples and other iterables become lists; anything else becomes
    its short repr, which the core then refuses with the error the game names for it."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**30:
        return shown(value)  # too long for JSON text: the core refuses its short text
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if depth > _MAX_DEPTH:
        raise error(f"{what} is nested too deeply")
    if isinstance(value, Mapping):
        return {str(k): _plain(v, what, error, depth + 1) for k, v in value.items()}
    if not isinstance(value, (bytes, bytearray)):
        try:
            return operator.index(value)  # numpy integers
        except TypeError:
            pass
        if isinstance(value, Iterable):
            items: list[Any] = []
            for item in value:
                if len(items) == _MAX_ITEMS:
                    raise error(f"{what} holds more than {_MAX_ITEMS} items")
                items.append(_plain(item, what, error, depth + 1))
            return items
    return shown(value)


def json_arg(value: Any, what: str, error: type[TapeteError] = InvalidStateError) -> str:
    """An argument as the JSON text the core reads."""
    return json.dumps(_plain(value, what, error, 0), separators=(",", ":"))


class NativeGame(GameBase, Generic[StateT]):
    """A native game. Subclasses name the game and its generated core class (``_core_class``)
    and give ``setup`` its typed signature; everything else is here."""

    _core_class: ClassVar[Any]

    def __init__(self, **options: Any) -> None:
        self._game = self._core_class(options_to_json(options))
        self._options_json: str = self._game.options_json
        self.options: dict[str, Any] = json.loads(self._options_json)

    @property
    def num_players(self) -> int:
        return int(self._game.num_players)

    @property
    def num_sides(self) -> int:
        """Scoring sides: partners share a side (seat ``p`` is on side ``p % num_sides``) and its
        total score; one side per seat unless the game has teams."""
        return self.num_players

    @property
    def num_distinct_actions(self) -> int:
        return int(self._game.num_distinct_actions)

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return tuple(self._game.observation_shape)

    def new_state(self, seed: int = 0, deck: Iterable[Any] | None = None) -> StateT:
        """Deal a new match with the seeded RNG; ``deck`` fixes the first deal's order (top first)."""
        seed = seed_value(seed)
        return self._game.new_state(seed, None if deck is None else json_arg(deck, "deck"))  # type: ignore[no-any-return]

    def _setup(self, **spec: Any) -> StateT:
        """A position from a partial description (each game's contract, "setup")."""
        return self._game.setup(json_arg(spec, "setup"))  # type: ignore[no-any-return]

    def state_from_json(self, text: str | bytes) -> StateT:
        """Rebuild a state from ``state.to_json()``."""
        if isinstance(text, (bytes, bytearray)):
            text = text.decode("utf-8", errors="replace")
        if not isinstance(text, str):
            raise InvalidStateError(f"a state is JSON text, not {type(text).__name__}")
        return self._game.state_from_json(text)  # type: ignore[no-any-return]

    @classmethod
    def _primitive(cls, name: str, options: Mapping[str, Any], **args: Any) -> Any:
        """A rule primitive of the game under ``options`` (the game's contract lists them)."""
        game = cls._core_class(options_to_json(options))
        return json.loads(game.primitive(name, json_arg(args, f"the arguments of {name}")))

    def __repr__(self) -> str:
        return f"tapete.load({str(self)!r})"


def setup_like(
    reference_setup: Callable[Concatenate[Any, P], Any], state: type[StateT]
) -> Callable[Concatenate[Any, P], StateT]:
    """A native front's ``setup``, with the reference engine's signature and docstring: both
    engines take the same position descriptions, and the signature is written once, in the
    reference, where the rules read the arguments. ``state`` is the native state class."""
    signature = inspect.signature(reference_setup)

    def setup(self: NativeGame[StateT], /, *args: P.args, **kwargs: P.kwargs) -> StateT:
        bound = signature.bind(self, *args, **kwargs)
        bound.apply_defaults()
        spec = {name: value for name, value in bound.arguments.items() if name != "self"}
        for name, value in spec.items():
            # None means "the default" only where the default is None (the core reads null as
            # absent, so this check keeps both engines alike)
            default = signature.parameters[name].default
            if value is None and default is not None:
                shown_default = "none: it is required" if default is inspect.Parameter.empty else shown(default)
                raise InvalidStateError(f"{name}=None is not a position's {name} (its default: {shown_default})")
        if "seed" in spec:
            spec["seed"] = seed_value(spec["seed"])
        return self._setup(**spec)

    setup.__signature__ = signature  # type: ignore[attr-defined]
    setup.__doc__ = reference_setup.__doc__
    return setup
