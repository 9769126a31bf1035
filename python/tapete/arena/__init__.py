"""Arenas: matches between bots over shared deals, and their statistics.

``tapete.arena(game, bots={name: spec}, games, seed)`` runs one; the module is callable, so that
``tapete.arena(...)`` runs an arena while ``tapete.arena.stats`` and the rest stay reachable as
its attributes (docs/arena.md).
"""

from __future__ import annotations

import sys
import types
from typing import Any

from .record import read_record, replay
from .runner import ArenaResult, arena, sides_of

__all__ = ["arena", "ArenaResult", "read_record", "replay", "sides_of"]


class _CallableModule(types.ModuleType):
    def __call__(self, *args: Any, **kwargs: Any) -> ArenaResult:
        return arena(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
