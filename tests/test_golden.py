"""The formats stay put: every game's state JSON, action ids, observations and RNG stream give the
digests committed in tests/golden/vectors.json (docs/design.md §4.1), on every platform.

The vectors are the code's output when they were made, not values derived from the rules (the
rules tests do that): a failure here means a format moved. If the change is deliberate, bump
``tapete.FORMAT_VERSION``, say what moved in CHANGELOG.md and run ``python tests/golden/make.py``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import tapete
from golden import make

ROOT = Path(__file__).resolve().parent.parent
COMMITTED = json.loads(make.PATH.read_text(encoding="utf-8"))
HOW = "a format moved: if deliberate, bump tapete.FORMAT_VERSION, note it in CHANGELOG.md, run tests/golden/make.py"


def test_the_vectors_are_of_this_format_version():
    assert COMMITTED["format_version"] == tapete.FORMAT_VERSION, HOW
    # the state JSON's own version key moves with the format, never alone
    for name, version in COMMITTED["state_json_version"].items():
        state = json.loads(tapete.registry.GAMES[name].native().new_state(0).to_json())
        assert state["version"] == version, f"{name}: {HOW}"


def test_the_changelog_records_this_format_version():
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert re.search(rf"format version {tapete.FORMAT_VERSION}\b", text), "CHANGELOG.md must say so"


def test_every_preset_and_option_set_has_vectors():
    have = [(v["name"], v["options"]) for v in COMMITTED["vectors"]]
    assert have == list(make.option_sets()), "a new preset or option set: run tests/golden/make.py"


def test_the_file_says_where_its_values_come_from():
    about = " ".join(COMMITTED["_about"])
    assert "taken from the code at that point in time, not from the rules" in about


@pytest.mark.parametrize("entry", COMMITTED["vectors"], ids=lambda v: f"{v['name']}-{v['game']}")
def test_golden_vector(entry):
    got = make.vector(entry["name"], entry["options"])
    want = {key: entry[key] for key in got}
    # name the first format that moved, then compare the whole entry
    for key in ("game", "states", "states_sha256", "legal_sha256", "observations_sha256", "simulate_sha256"):
        assert got[key] == want[key], f"{entry['game']}: {key} differs; {HOW}"
    assert got == want
