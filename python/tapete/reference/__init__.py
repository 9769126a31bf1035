"""Pure-Python reference engines: the readable statement of each game's rules.

Same API as the native engines in ``tapete``, no native code: this package never imports
``tapete._core``, so it works (slowly) everywhere and serves as the oracle of the differential
tests.
"""

from typing import Any

from .._gamestring import parse_game
from . import burako, escoba, mosca, musta_maija
from .burako import Burako
from .escoba import Escoba
from .mosca import Mosca
from .musta_maija import MustaMaija

__all__ = ["Escoba", "escoba", "Mosca", "mosca", "MustaMaija", "musta_maija", "Burako", "burako", "load", "GAMES"]

GAMES = {"escoba": Escoba, "mosca": Mosca, "musta_maija": MustaMaija, "burako": Burako}


def load(text: str) -> Any:
    """A reference game from its game string, e.g. ``load("escoba(variant=escoba,players=4)")``."""
    return parse_game(text, GAMES)
