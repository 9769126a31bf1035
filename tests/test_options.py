"""The Python resolver of the one options scheme (tapete/_options.py) on a toy game's data file,
tests/data/toy_options.json, which the Rust resolver's unit tests read too
(rust/tapete-core/src/options.rs): the same expectations, worked from the resolution order of
docs/design.md §9, hold for both."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tapete._options import OptionsSpec, spec
from tapete.errors import InvalidOptionError
from tapete.registry import GAMES

TOY = OptionsSpec(json.loads((Path(__file__).parent / "data" / "toy_options.json").read_text()))


def test_defaults_then_preset_then_when_then_given():
    r = TOY.resolve({})
    assert (r["players"], r["hand"]) == (2, 3)
    r = TOY.resolve({"variant": "big"})  # the preset's own player list, default first
    assert (r["players"], r["hand"]) == (4, 5)
    assert TOY.resolve({"variant": "big", "players": 6})["hand"] == 4  # a `when` reads the given players
    assert TOY.resolve({"variant": "big", "deal": "long"})["hand"] == 9
    assert TOY.resolve({"variant": "big", "hand": 7})["hand"] == 7  # given beats the preset
    r = TOY.resolve({"variant": "bigger", "players": 6})  # `base` applies first, with its `when` rules
    assert (r["hand"], r["cap"], r["variant"]) == (4, 2, "bigger")


@pytest.mark.parametrize(
    "given",
    [
        {"nope": 1},
        {"players": 5},
        {"variant": "big", "players": 2},
        {"dealer": 3},
        {"hand": 1.0},
        {"hand": True},
        {"cap": 10},
        {"kinds": ["a", "a"]},
        {"kinds": "a"},
        {"wild": "1x"},
        {"bonus": {"7d": 4}},
        {"bonus": {"Zz": 1}},
        {"limit": 3},
        {"variant": "huge"},
    ],
    ids=repr,
)
def test_refusals_are_invalid_option(given):
    with pytest.raises(InvalidOptionError):
        TOY.resolve(given)


def test_an_option_of_ints_only_names_its_ints():
    with pytest.raises(InvalidOptionError, match=r"expected 12, 15$"):
        TOY.resolve({"size": 13})


def test_values_are_normalised():
    r = TOY.resolve({"cap": None, "wild": "7D", "bonus": {"10h": 2}, "limit": "none"})
    assert (r["wild"], r["bonus"], r["limit"], r["cap"]) == ("7d", {"Th": 2}, "none", None)


@pytest.mark.parametrize("name", list(GAMES))
def test_every_game_has_a_data_file_whose_defaults_resolve(name):
    s = spec(name)
    assert s.game == name
    resolved = s.resolve({})
    assert set(resolved) == set(s.options)
    for preset in s.presets:
        for players in s.players_of(preset):
            assert s.resolve({"variant": preset, "players": players})["variant"] == preset
