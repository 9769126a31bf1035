"""The type checkers, run as tests so that the README's test command runs them: mypy over the
package (strict on the public modules, see pyproject.toml) and stubtest, which holds the
hand-written stub of the native module (``tapete/_core.pyi``) to the compiled module."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_mypy_finds_nothing() -> None:
    pytest.importorskip("mypy")
    r = run("mypy", "--no-incremental")
    assert r.returncode == 0, r.stdout + r.stderr


def test_the_native_stub_matches_the_native_module() -> None:
    pytest.importorskip("mypy")
    r = run("mypy.stubtest", "tapete._core", "--allowlist", "tests/stubtest_allowlist.txt")
    assert r.returncode == 0, r.stdout + r.stderr
