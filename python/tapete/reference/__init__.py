"""Pure-Python reference engines: the readable statement of each game's rules.

Same API as the native engines in ``tapete``, no native code: this package never imports
``tapete._core``, so it works (slowly) everywhere and serves as the oracle of the differential
tests. The games come from the one registry (``tapete.registry``).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from .._gamestring import parse_game
from ..registry import GAMES, factories

if TYPE_CHECKING:
    from . import burako, escoba, mosca, musta_maija
    from .burako import Burako
    from .escoba import Escoba
    from .mosca import Mosca
    from .musta_maija import MustaMaija

__all__ = ["Escoba", "escoba", "Mosca", "mosca", "MustaMaija", "musta_maija", "Burako", "burako", "load"]


def load(text: str) -> Any:
    """A reference game from its game string, e.g. ``load("escoba(variant=escoba,players=4)")``."""
    return parse_game(text, factories("reference"))


def __getattr__(name: str) -> Any:
    for info in GAMES.values():
        if name in (info.name, info.class_name):
            module = import_module(f".{info.name}", __name__)
            value = module if name == info.name else getattr(module, name)
            globals()[name] = value
            return value
    raise AttributeError(f"module 'tapete.reference' has no attribute {name!r}")
