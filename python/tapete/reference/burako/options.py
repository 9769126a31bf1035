"""Burako options (docs/rules/burako.md §10, docs/burako_engine.md §2). The option table, its
defaults and the one preset are data (``tapete/data/burako.json``), resolved by the shared scheme
(``tapete._options``); Burako refuses no combination beyond the table (``first_mano`` is checked
against ``players`` there). What follows from the options is derived here: the rack size H and
the muerto size."""

from __future__ import annotations

from typing import Any

from ..._options import spec

__all__ = ["DEFAULTS", "resolve_options", "hand_size", "muerto_size"]

#: Every option's default (docs/burako_engine.md §2).
DEFAULTS: dict[str, Any] = dict(spec("burako").defaults)


def resolve_options(**given: Any) -> dict[str, Any]:
    """Every option resolved: the defaults of docs/rules/burako.md §10 overridden by the given ones."""
    return spec("burako").resolve(given)


def hand_size(opts: dict) -> int:
    """The rack size H: 11 with 4 players, ``two_player_hand`` with 2."""
    return 11 if opts["players"] == 4 else opts["two_player_hand"]


def muerto_size(opts: dict) -> int:
    """The muerto size: 11, or H under ``muerto_size = hand_size``."""
    return 11 if opts["muerto_size"] == 11 else hand_size(opts)
