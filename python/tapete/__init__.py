"""tapete: exact, fast rules engines for Escoba/Scopa, La Mosca, Musta Maija and Burako.

>>> import tapete
>>> game = tapete.Escoba(variant="escoba", players=4)
>>> state = game.new_state(seed=7)
>>> state.apply(state.legal_actions()[0])

The games and their modules come from the one registry (``tapete.registry``) and load on first
use, so that the pure-Python reference engines in ``tapete.reference`` import without the native
core.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from . import errors, registry
from ._game import MAX_DECISIONS
from .errors import *  # noqa: F403  (the exception classes, listed once in errors.__all__)
from .registry import GAMES

#: The package's version, the same as the native core's (``tapete._core.__version__``).
__version__ = "0.1.0"

#: The version of the formats that stored games, replays and trained agents depend on: every
#: game's state JSON, action ids, observation layout and RNG stream (docs/design.md §4.1). It
#: changes only with a deliberate change of one of them, which CHANGELOG.md records; the golden
#: vectors (tests/golden/) hold the code to it.
FORMAT_VERSION = 1

#: What ``current_player()`` returns once the game is over. OpenSpiel reads -1 as its chance
#: player and has -4 for terminal; tapete has no chance player (the RNG in the state deals), so
#: test ``is_terminal()``, or compare with this constant, rather than with OpenSpiel's ids.
TERMINAL = -1

if TYPE_CHECKING:  # the real types for type checkers; at runtime these load lazily
    from . import bots, burako, cards, escoba, mosca, musta_maija, reference, testing
    from ._vecenv import VecEnv
    from .arena import arena  # the module is callable: tapete.arena(...) runs an arena
    from .burako import Burako
    from .escoba import Escoba
    from .games import load, simulate
    from .mosca import Mosca
    from .musta_maija import MustaMaija

# the games' names are listed here too, so that type checkers see them
__all__ = [
    "__version__",
    "FORMAT_VERSION",
    "TERMINAL",
    "MAX_DECISIONS",
    "Escoba",
    "escoba",
    "Mosca",
    "mosca",
    "MustaMaija",
    "musta_maija",
    "Burako",
    "burako",
    "load",
    "simulate",
    "arena",
    "VecEnv",
    "bots",
    "registry",
    "reference",
    "testing",
    "cards",
]
__all__ += errors.__all__

# name -> (module, attribute or None for the module itself)
_LAZY: dict[str, tuple[str, str | None]] = {
    "load": (".games", "load"),
    "simulate": (".games", "simulate"),
    "VecEnv": ("._vecenv", "VecEnv"),
    "arena": (".arena", None),
    "bots": (".bots", None),
    "reference": (".reference", None),
    "testing": (".testing", None),
    "cards": (".cards", None),
}
for _info in GAMES.values():
    _LAZY[_info.name] = (f".{_info.name}", None)
    _LAZY[_info.class_name] = (f".{_info.name}", _info.class_name)


def __getattr__(name: str) -> Any:
    try:
        module_name, attribute = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'tapete' has no attribute {name!r}") from None
    module = import_module(module_name, __name__)
    value = module if attribute is None else getattr(module, attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
