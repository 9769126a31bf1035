"""The 80-card double pack of ``maresciallo_80`` (docs/rules/escoba.md §2.18), reference side: the
names its rules are tested by. The two copies of a card share its id, so hands, table and piles
are multisets, ascending lists in which a twin appears twice; the same engine plays them
(``escoba_parts/double_pack.py``: the twin rule of the capture search, the sweep values, the
doubled awards). The native counterpart is ``rust/tapete-core/src/games/escoba/twins.rs``.
"""

from __future__ import annotations

from .escoba_parts.cards import PACK80
from .escoba_parts.double_pack import (
    KS_ON_KS_POINTS,
    TWIN_SWEEP_POINTS,
    awards,
    captures,
    napola_points,
    sweep_points,
    sweep_value,
)
from .escoba_parts.options import supported_by_twins as supported
from .escoba_parts.scoring import tally

__all__ = [
    "KS_ON_KS_POINTS",
    "PACK80",
    "TWIN_SWEEP_POINTS",
    "awards",
    "captures",
    "napola_points",
    "supported",
    "sweep_points",
    "sweep_value",
    "tally",
]
