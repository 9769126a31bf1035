"""The lockstep harness itself (``tapete.testing.compare_engines``) must catch what it claims to:
a bad input that changes a state, a bad input that fails differently, a different legal list.
Each check wraps the reference engine in a deliberately broken proxy."""

from __future__ import annotations

from typing import Any

import tapete
from tapete import reference
from tapete.errors import InvalidNotationError
from tapete.testing import compare_engines


class _Faulty:
    """Forwards every attribute to the wrapped reference object, except what ``fault`` breaks."""

    def __init__(self, inner: Any, fault: str) -> None:
        self._inner, self._fault = inner, fault

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


class _Proxy(_Faulty):
    """A reference state whose ``apply`` or ``legal_actions`` is broken by ``fault``."""

    def apply(self, action: Any) -> None:
        legal = self._inner.legal_actions()
        if action not in legal and self._fault == "mutates":
            self._inner.apply(legal[0])  # a refused action that still moves the game on
        if isinstance(action, str) and self._fault == "wrong_error":
            raise ValueError("not the contract's error type")
        self._inner.apply(action)

    def legal_actions(self) -> list[int]:
        legal = list(self._inner.legal_actions())
        return legal[1:] if self._fault == "drops_action" and len(legal) > 1 else legal


class _Game(_Faulty):
    """A reference game whose states are broken by ``fault``."""

    def new_state(self, seed: int) -> _Proxy:
        return _Proxy(self._inner.new_state(seed=seed), self._fault)


def _divergence(fault: str):
    return compare_engines(tapete.Escoba(), _Game(reference.Escoba(), fault), games=1, seed=3)


def test_clean_engines_agree():
    assert _divergence("none") is None


def test_a_state_changed_by_a_bad_input_is_caught():
    d = _divergence("mutates")
    assert d is not None and d.field.startswith("state of b changed by one of") and d.step == 0


def test_a_different_error_type_is_caught():
    d = _divergence("wrong_error")
    assert d is not None and d.field == "error of apply('no such move')"
    assert d.a == InvalidNotationError.__name__ and d.b == "ValueError"


def test_a_different_legal_list_is_caught():
    d = _divergence("drops_action")
    assert d is not None and d.field == "legal_actions"
