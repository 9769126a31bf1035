"""The optional parts of the game in their fixed order (that of their JSON, view and observation
blocks), and the options checked with them (docs/escoba_engine.md §2)."""

from __future__ import annotations

from typing import Any

from ..._options import spec
from .builds import Builds
from .declarations import Declarations
from .double_pack import DoublePack
from .elimination import Elimination
from .fidasse import Fidasse
from .maresciallo import Maresciallo
from .open_hands import Matta, OpenHands
from .options import _check_options, _expand_aliases
from .piles import Piles
from .position import Feature
from .sweep_streak import SweepStreak

FEATURES: tuple[type[Feature], ...] = (
    Declarations,
    Elimination,
    OpenHands,
    Matta,
    Piles,
    Maresciallo,
    DoublePack,
    Fidasse,
    Builds,
    SweepStreak,
)


def check_options(opts: dict[str, Any]) -> None:
    """Values derived from the resolved options (written into ``opts``), the checks across
    options, then what each part played refuses (docs/escoba_engine.md §2)."""
    _check_options(opts)
    for feature in FEATURES:
        if feature.wanted(opts):
            feature.check_options(opts)


def resolve_options(**given: Any) -> dict[str, Any]:
    """Every option's value: the alias, then the table's defaults, the preset and the given options
    (``tapete/data/escoba.json``), then what is derived from them and the checks across them."""
    opts = spec("escoba").resolve(_expand_aliases(given))
    check_options(opts)
    return opts
