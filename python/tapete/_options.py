"""The one options scheme, in Python: each game's option table, defaults and presets are data
(``tapete/data/<game>.json``), read here by the reference engines and by the native core in Rust
(``rust/tapete-core/src/options.rs``), which resolve user options the same way
(docs/design.md §9):

1. every given option must be known and of its kind;
2. the preset is ``variant`` (or the default one); its allowed player counts (first = default)
   decide ``players``;
3. the values start from the defaults; the preset's ``base`` chain and its ``set`` apply, then
   each of its ``when`` rules whose ``if`` holds on those values with the given options on top;
4. the given options apply last.

Pure Python, no native code.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

from .cards import card_id, card_str
from .errors import InvalidNotationError, InvalidOptionError, shown

__all__ = ["OptionsSpec", "spec", "canonical"]


def canonical(value: Any) -> str:
    """Canonical JSON: sorted keys, no whitespace (docs/design.md §4)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


_shown = shown


class OptionsSpec:
    """One game's option table and presets."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.game: str = data["game"]
        self.options: dict[str, dict[str, Any]] = {o["name"]: o for o in data["options"]}
        self.presets: dict[str, dict[str, Any]] = {p["name"]: p for p in data.get("presets", [])}
        self.defaults: dict[str, Any] = {name: self._default(o) for name, o in self.options.items()}
        self.players: list[int] | None = data.get("players")

    @staticmethod
    def _default(o: Mapping[str, Any]) -> Any:
        if "default" in o:
            return o["default"]
        if o["kind"] == "word":
            return o["values"][0]
        return {"bool": False, "seat": "random"}[o["kind"]]

    def players_of(self, preset: str | None) -> list[int]:
        """The player counts a preset allows, its default first."""
        for _ in range(8):  # a preset without a list inherits its base's
            entry = self.presets.get(preset or "", {})
            if "players" in entry:
                return list(entry["players"])
            preset = entry.get("base")
        if self.players is not None:
            return list(self.players)
        o = self.options["players"]
        if o["kind"] == "int":
            default = self.defaults["players"]
            return [default] + [x for x in range(o["min"], o["max"] + 1) if x != default]
        return list(o["ints"])

    def check(self, name: str, value: Any) -> Any:
        """One given value checked against its option's kind (normalized where the kind says)."""
        o = self.options[name]
        kind = o["kind"]

        def bad(expected: str) -> InvalidOptionError:
            return InvalidOptionError(f"option {name}={_shown(value)} is invalid: expected {expected}")

        if kind == "bool":
            if not isinstance(value, bool):
                raise bad("a bool (true or false)")
            return value
        if kind == "int":
            if value is None and o.get("null"):
                return None
            if not _is_int(value) or not o["min"] <= value <= o["max"]:
                raise bad(f"an int {o['min']}..{o['max']}" + (" or null" if o.get("null") else ""))
            return value
        if kind in ("word", "preset"):
            words = o["values"] if kind == "word" else list(self.presets)
            if not isinstance(value, str) or value not in words:
                raise bad("one of " + ", ".join(words))
            return value
        if kind == "seat":
            if value == "random" or (_is_int(value) and 0 <= value < 64):
                return value
            raise bad("'random' or a seat int 0..players-1")
        if kind == "int_or_word":
            if isinstance(value, str) and value in o["words"]:
                return value
            if _is_int(value) and (value in o["ints"] if "ints" in o else o["min"] <= value <= o["max"]):
                return value
            ints = ", ".join(map(str, o["ints"])) if "ints" in o else f"an int {o['min']}..{o['max']}"
            # an option of a few ints only (no words) names just the ints
            words = " or one of " + ", ".join(o["words"]) if o["words"] else ""
            raise bad(ints + words)
        if kind == "words":
            if (
                not isinstance(value, (list, tuple))
                or not all(isinstance(w, str) and w in o["values"] for w in value)
                or len(set(value)) != len(value)
            ):
                raise bad("a list of distinct names from " + ", ".join(o["values"]))
            return list(value)
        if kind == "card":
            if value is None and o.get("null"):
                return None
            try:
                if isinstance(value, str):
                    return card_str(card_id(value))
            except InvalidNotationError:
                pass
            raise bad("a card such as '7h'" + (" or null" if o.get("null") else ""))
        if kind == "map":
            what = ("names from " + ", ".join(o["keys"])) if "keys" in o else "cards such as '7h'"
            wrong = bad(f"a dict of {what} to ints in {o['min']}..{o['max']}")
            if not isinstance(value, Mapping):
                raise wrong
            out: dict[str, int] = {}
            for key, count in value.items():
                if "keys" in o:
                    if key not in o["keys"]:
                        raise wrong
                    label = key
                else:
                    try:
                        label = card_str(card_id(key)) if isinstance(key, str) else ""
                    except InvalidNotationError:
                        label = ""
                if not label or not _is_int(count) or not o["min"] <= count <= o["max"] or label in out:
                    raise wrong
                out[label] = count
            return out
        raise AssertionError(kind)  # pragma: no cover

    def resolve(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """Every option's value for the user options ``given`` (module doc)."""
        explicit: dict[str, Any] = {}
        for name, value in given.items():
            if name not in self.options:
                raise InvalidOptionError(f"unknown option {_shown(name)}: known options are {', '.join(self.options)}")
            explicit[name] = self.check(name, value)
        values = copy.deepcopy(self.defaults)
        variant = explicit.get("variant", values.get("variant"))
        if variant is not None:
            allowed = self.players_of(variant)
            players = explicit.get("players", allowed[0])
            if players not in allowed:
                raise InvalidOptionError(
                    f"variant {variant} is played by {', '.join(map(str, allowed))} players, not players={players}"
                )
            values["variant"], values["players"] = variant, players
            self._apply_preset(variant, values, explicit, 0)
        values.update(copy.deepcopy(explicit))
        for name, o in self.options.items():
            if o["kind"] == "seat" and _is_int(values[name]) and values[name] >= values["players"]:
                raise InvalidOptionError(
                    f"option {name}={values[name]} is invalid:"
                    f" expected 'random' or a seat int 0..{values['players'] - 1}"
                )
        return values

    def _apply_preset(self, name: str, values: dict[str, Any], explicit: Mapping[str, Any], depth: int) -> None:
        preset = self.presets[name]
        if "base" in preset and depth < 8:
            self._apply_preset(preset["base"], values, explicit, depth + 1)
        values.update(copy.deepcopy(preset.get("set", {})))
        for rule in preset.get("when", []):
            if all(explicit.get(k, values.get(k)) == want for k, want in rule["if"].items()):
                values.update(copy.deepcopy(rule["set"]))


@cache
def spec(game: str) -> OptionsSpec:
    """The option spec of ``game``, read once from the package's data."""
    text = resources.files("tapete").joinpath(f"data/{game}.json").read_text(encoding="utf-8")
    return OptionsSpec(json.loads(text))
