"""Shared pytest configuration for the tapete test suite.

* ``engine``: a fixture parametrized over the two engines, with ids ``native`` and ``reference``.
  ``engine.Escoba`` is the game class and ``engine.escoba`` the module of rule primitives (likewise
  ``engine.Mosca`` / ``engine.mosca`` and every other game), resolved lazily on first use.
* Hypothesis profiles: ``ci`` (the default) and ``deep`` (more examples), the latter selected with
  the environment variable ``TAPETE_DEEP=1``.
"""

from __future__ import annotations

import importlib
import os

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


class Engine:
    """One engine of every game: ``engine.Mosca`` is ``tapete.Mosca`` or ``tapete.reference.Mosca``,
    ``engine.mosca`` the module of rule primitives. Attributes resolve on first use, so a missing or
    broken engine fails only the tests that touch it."""

    def __init__(self, name: str, package: str) -> None:
        self.name = name
        self._package = package

    def __getattr__(self, attribute: str):
        if attribute.startswith("_"):
            raise AttributeError(attribute)
        return _module_attr(self._package, attribute)

    def __repr__(self) -> str:
        return f"Engine({self.name})"


_PACKAGES = {"native": "tapete", "reference": "tapete.reference"}


@pytest.fixture(params=["native", "reference"], ids=["native", "reference"])
def engine(request) -> Engine:
    """The engine under test: ``engine.Escoba`` (a game class), ``engine.escoba`` (its rule primitives)."""
    return Engine(request.param, _PACKAGES[request.param])


@pytest.fixture
def tapete_serve(tmp_path):
    """Starts ``tapete serve`` processes (tests/server_process.py): ``tapete_serve(*extra, name=...)``
    gives a started ``ServerProcess`` with its own database under ``tmp_path``; every one is
    stopped after the test."""
    from server_process import ServerProcess

    started = []

    def start(*extra: str, name: str = "tables", log_level: str = "debug", before=None) -> ServerProcess:
        """``before(db_path)``, when given, runs first (e.g. to store tables the server resumes)."""
        folder = tmp_path / name
        folder.mkdir(exist_ok=True)
        process = ServerProcess(str(folder / "tables.sqlite3"), None, *extra, log_level=log_level)
        if before is not None:
            before(process.db)
        started.append(process)
        return process.start()

    yield start
    for process in started:
        process.kill()
