"""What a new user expects of the package: its version, license and metadata, the constants it
documents, and (when the suite runs against an installed wheel, TAPETE_TEST_INSTALLED=1 as in
.ci/run and the wheels workflow) that the tests really import that wheel."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
from importlib import metadata
from pathlib import Path

import pytest

import tapete
from tapete import _core
from tapete.registry import GAMES

ROOT = Path(__file__).resolve().parent.parent
INSTALLED = os.environ.get("TAPETE_TEST_INSTALLED") == "1"
installed_only = pytest.mark.skipif(not INSTALLED, reason="runs against an installed wheel (TAPETE_TEST_INSTALLED=1)")


def toml_value(path: str, section: str, key: str) -> str:
    """One ``key = "value"`` line of a TOML section (tomllib is Python 3.11+; the suite runs on 3.10)."""
    text = (ROOT / path).read_text(encoding="utf-8")
    body = text.split(f"\n[{section}]\n", 1)[1].split("\n[", 1)[0]
    match = re.search(rf'^{re.escape(key)} = "([^"]*)"', body, re.MULTILINE)
    assert match, (path, section, key)
    return match[1]


def cargo_version() -> str:
    return toml_value("Cargo.toml", "workspace.package", "version")


def test_one_version_everywhere():
    assert tapete.__version__ == _core.__version__ == cargo_version()
    assert re.fullmatch(r"\d+\.\d+\.\d+", tapete.__version__)


def test_the_changelog_has_this_version():
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert re.search(rf"^## {re.escape(tapete.__version__)}\b", text, re.MULTILINE)


def test_the_license_is_the_mit_the_metadata_declares():
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License")
    assert toml_value("pyproject.toml", "project", "license") == "MIT"
    assert 'license-files = ["LICENSE"]' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    for key in ("Homepage", "Repository", "Issues", "Changelog"):
        assert toml_value("pyproject.toml", "project.urls", key).startswith("https://"), key


def test_terminal_is_what_a_finished_game_reports():
    assert tapete.TERMINAL == -1
    for info in GAMES.values():
        for factory in (info.native, info.reference):
            state = factory().new_state(3)
            step = 0
            while not state.is_terminal():
                actions = state.legal_actions()
                state.apply(actions[step % len(actions)])
                step += 1
            assert state.current_player() == tapete.TERMINAL, info.name


def test_terminal_and_the_format_version_are_documented():
    design = (ROOT / "docs" / "design.md").read_text(encoding="utf-8")
    assert "tapete.TERMINAL" in design and "OpenSpiel" in design
    assert f"`tapete.FORMAT_VERSION`, now **{tapete.FORMAT_VERSION}**" in design
    assert "OpenSpiel" in (_core.EscobaState.current_player.__doc__ or "")


def test_the_readme_says_which_pythons_are_served():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert toml_value("pyproject.toml", "project", "requires-python") == ">=3.10"
    cargo = (ROOT / "Cargo.toml").read_text(encoding="utf-8")
    assert '"abi3-py310"' in cargo
    assert "CPython 3.10 and every later CPython" in readme and "3.13t" in readme
    workflow = (ROOT / ".github" / "workflows" / "wheels.yml").read_text(encoding="utf-8")
    assert "python3.13t" in workflow and "python-version: 3.13t" in workflow


def test_the_workflow_builds_and_tests_every_platform():
    workflow = (ROOT / ".github" / "workflows" / "wheels.yml").read_text(encoding="utf-8")
    for platform in (
        "manylinux-x86_64",
        "manylinux-aarch64",
        "musllinux-x86_64",
        "musllinux-aarch64",
        "macos-x86_64",
        "macos-arm64",
        "windows-x86_64",
    ):
        # built, and named again in a test job's matrix
        assert workflow.count(platform) >= 2, platform
    assert "command: sdist" in workflow and "twine check --strict dist/*" in workflow
    assert workflow.count("tests/test_golden.py") == 3  # every test job checks the golden vectors first


@installed_only
def test_the_suite_imports_the_installed_wheel():
    package = Path(tapete.__file__).resolve().parent
    assert ROOT not in package.parents, f"tapete imported from the source tree: {package}"
    assert Path(sysconfig.get_paths()["purelib"]).resolve() in package.parents
    assert Path(_core.__file__).resolve().parent == package


@installed_only
def test_the_wheel_metadata():
    meta = metadata.metadata("tapete")
    assert meta["Version"] == tapete.__version__
    assert meta["License-Expression"] == "MIT"
    assert any(url.startswith("Repository, https://") for url in meta.get_all("Project-URL") or [])
    files = {str(f) for f in metadata.files("tapete") or []}
    license_file = next(f for f in files if f.endswith("LICENSE") and ".dist-info" in f)
    assert metadata.distribution("tapete").locate_file(license_file).read_text().startswith("MIT License")
    wheel = metadata.distribution("tapete").read_text("WHEEL") or ""
    assert "Tag: cp310-abi3-" in wheel or "Tag: cp313-cp313t-" in wheel


@installed_only
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ELF section headers")
def test_the_native_module_is_stripped():
    data = Path(_core.__file__).read_bytes()
    assert data[:4] == b"\x7fELF" and data[4] == 2 and data[5] == 1  # ELF64, little-endian
    # the section names, from the section header table and its string table
    shoff = int.from_bytes(data[0x28:0x30], "little")
    entsize, count, names = (int.from_bytes(data[o : o + 2], "little") for o in (0x3A, 0x3C, 0x3E))

    def header(i: int) -> tuple[int, int]:  # (name offset, file offset) of section i
        at = shoff + i * entsize
        return int.from_bytes(data[at : at + 4], "little"), int.from_bytes(data[at + 0x18 : at + 0x20], "little")

    strtab = header(names)[1]
    sections = {
        data[strtab + name : data.index(b"\0", strtab + name)].decode() for name, _ in map(header, range(count))
    }
    assert ".text" in sections and ".dynsym" in sections
    assert ".symtab" not in sections and not any(name.startswith(".debug") for name in sections), sorted(sections)


@installed_only
def test_the_command_is_installed():
    exe = shutil.which("tapete", path=str(Path(sys.executable).parent))
    assert exe, "no tapete command beside the interpreter"
    out = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=60, check=True).stdout
    assert out.strip() == f"tapete {tapete.__version__} (format version {tapete.FORMAT_VERSION})"
