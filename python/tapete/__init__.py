"""tapete: exact, fast rules engines for Escoba/Scopa, La Mosca, Musta Maija and Burako.

>>> import tapete
>>> game = tapete.Escoba(variant="escoba", players=4)
>>> state = game.new_state(seed=7)
>>> state.apply(state.legal_actions()[0])

The native engines (Rust, ``tapete._core``) are loaded on first use, so that the pure-Python
reference engines in ``tapete.reference`` import without them.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from .errors import (
    IllegalActionError,
    InvalidNotationError,
    InvalidOptionError,
    InvalidPlayerError,
    InvalidStateError,
    TapeteError,
)

__all__ = [
    "Escoba",
    "escoba",
    "MustaMaija",
    "musta_maija",
    "Mosca",
    "mosca",
    "Burako",
    "burako",
    "load",
    "simulate",
    "reference",
    "testing",
    "cards",
    "TapeteError",
    "IllegalActionError",
    "InvalidNotationError",
    "InvalidOptionError",
    "InvalidStateError",
    "InvalidPlayerError",
]

# name -> (module, attribute or None for the module itself)
_LAZY = {
    "Escoba": (".escoba", "Escoba"),
    "escoba": (".escoba", None),
    "MustaMaija": (".musta_maija", "MustaMaija"),
    "musta_maija": (".musta_maija", None),
    "Mosca": (".mosca", "Mosca"),
    "mosca": (".mosca", None),
    "Burako": (".burako", "Burako"),
    "burako": (".burako", None),
    "load": (".games", "load"),
    "simulate": (".games", "simulate"),
    "reference": (".reference", None),
    "testing": (".testing", None),
    "cards": (".cards", None),
}


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
