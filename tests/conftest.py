"""Shared pytest configuration for the tapete test suite.

* ``engine``: a fixture parametrized over the two Escoba engines, with ids ``native`` and
  ``reference``. Each param is a namespace with ``.Escoba`` (the game class) and ``.escoba`` (the
  module holding the rule primitives ``capture_options`` and ``score_deal``). The engines are
  imported lazily inside the fixture, so a missing or broken engine fails only its own tests.
* Hypothesis profiles: ``ci`` (the default) and ``deep`` (more examples), the latter selected with
  the environment variable ``TAPETE_DEEP=1``.
"""

from __future__ import annotations

import importlib
import os
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    deadline=None,
    derandomize=False,
    max_examples=100,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "deep",
    deadline=None,
    derandomize=False,
    max_examples=2000,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile("deep" if os.environ.get("TAPETE_DEEP") == "1" else "ci")


def _module_attr(package: str, name: str):
    """``package.name``, importing ``package.name`` as a submodule when it is not yet an attribute."""
    pkg = importlib.import_module(package)
    if not hasattr(pkg, name):
        importlib.import_module(f"{package}.{name}")
    return getattr(pkg, name)


def _native_escoba() -> SimpleNamespace:
    return SimpleNamespace(
        name="native", Escoba=_module_attr("tapete", "Escoba"), escoba=_module_attr("tapete", "escoba")
    )


def _reference_escoba() -> SimpleNamespace:
    return SimpleNamespace(
        name="reference",
        Escoba=_module_attr("tapete.reference", "Escoba"),
        escoba=_module_attr("tapete.reference", "escoba"),
    )


_ENGINES = {"native": _native_escoba, "reference": _reference_escoba}


@pytest.fixture(params=["native", "reference"], ids=["native", "reference"])
def engine(request) -> SimpleNamespace:
    """The Escoba engine under test: ``.Escoba`` (game class) and ``.escoba`` (rule primitives)."""
    return _ENGINES[request.param]()
