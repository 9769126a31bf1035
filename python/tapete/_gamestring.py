"""Game strings: ``escoba(variant=escoba,players=4)``, printed by ``str(game)`` and read by ``load``.

Pure Python and shared by the native fronts and the reference engines, so both print and read
the same text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any

from .errors import InvalidOptionError, excerpt

__all__ = ["format_game", "parse_game", "parse_value", "options_to_json"]

_NAME = re.compile(r"^\s*([a-z_][a-z0-9_]*)\s*(?:\((.*)\))?\s*$", re.S)
_BARE = re.compile(r"^[A-Za-z0-9_.+-]+$")


_MAX_DEPTH = 8
_MAX_INT = 2**63 - 1


def options_to_json(options: Mapping[str, Any]) -> str:
    """Canonical JSON of user options, refusing values that are not plain JSON data."""

    def check(value: Any, where: str, depth: int = 0) -> None:
        if depth > _MAX_DEPTH:
            raise InvalidOptionError(f"option {where} is nested too deeply")
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > _MAX_INT:
            raise InvalidOptionError(
                f"option {where} is out of range: an int of {value.bit_length()} bits does not fit in 64"
            )
        if value is None or isinstance(value, (bool, int, str)):
            return
        if isinstance(value, float):
            raise InvalidOptionError(f"option {where} is the float {value!r}: expected an int, bool, str, list or null")
        if isinstance(value, (list, tuple)):
            for item in value:
                check(item, where, depth + 1)
            return
        if isinstance(value, Mapping):
            for key, item in value.items():
                if not isinstance(key, str):
                    raise InvalidOptionError(f"option {where} has the key {key!r}: keys must be strings")
                check(item, where, depth + 1)
            return
        raise InvalidOptionError(
            f"option {where} has a value of type {type(value).__name__}: expected an int, bool, str, list, dict or null"
        )

    for name, value in options.items():
        check(value, name)
    return json.dumps(dict(options), sort_keys=True, separators=(",", ":"))


def _format_value(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(_format_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ",".join(f"{k}:{_format_value(v)}" for k, v in sorted(value.items())) + "}"
    raise InvalidOptionError(f"cannot print option value {value!r}")


def format_game(name: str, options: Mapping[str, Any], factory: Callable[..., Any]) -> str:
    """``name(variant=...,k=v,...)``: the variant (for games with presets), ``players`` when it is not
    the preset's default, then every option that differs from what the preset resolves to with the
    same players."""
    if "variant" in options:
        variant = options["variant"]
        default_players = factory(variant=variant).options["players"]
        preset = factory(variant=variant, players=options["players"]).options
        parts = [f"variant={_format_value(variant)}"]
    else:  # a game without presets: name(k=v,...)
        default_players = factory().options["players"]
        preset = factory(players=options["players"]).options
        parts = []
    if options["players"] != default_players:
        parts.append(f"players={_format_value(options['players'])}")
    for key in sorted(options):
        if key not in ("variant", "players") and options[key] != preset.get(key):
            parts.append(f"{key}={_format_value(options[key])}")
    return f"{name}({','.join(parts)})"


def _split_top(text: str, sep: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
            if depth < 0:
                raise InvalidOptionError(f"unbalanced brackets in {excerpt(text)!r}")
        elif ch == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    if depth != 0:
        raise InvalidOptionError(f"unbalanced brackets in {excerpt(text)!r}")
    parts.append(text[start:])
    return parts


def parse_value(text: str, depth: int = 0) -> Any:
    """One option value of a game string: true/false/null, an int, a word, [a,b] or {k:v}."""
    if depth > _MAX_DEPTH:
        raise InvalidOptionError("an option value is nested too deeply")
    text = text.strip()
    if text == "":
        raise InvalidOptionError("an option has no value: expected name=value")
    if text.startswith("["):
        if not text.endswith("]"):
            raise InvalidOptionError(f"list value {excerpt(text)!r} does not end with ]")
        inner = text[1:-1].strip()
        return [] if not inner else [parse_value(p, depth + 1) for p in _split_top(inner, ",")]
    if text.startswith("{"):
        if not text.endswith("}"):
            raise InvalidOptionError(f"dict value {excerpt(text)!r} does not end with }}")
        inner = text[1:-1].strip()
        result = {}
        for part in _split_top(inner, ",") if inner else []:
            key, colon, value = part.partition(":")
            if not colon or not key.strip():
                raise InvalidOptionError(f"dict entry {excerpt(part)!r} is not key:value")
            if key.strip() in result:
                raise InvalidOptionError(f"dict key {excerpt(key.strip())!r} is given twice")
            result[key.strip()] = parse_value(value, depth + 1)
        return result
    if text == "true":
        return True
    if text == "false":
        return False
    if text == "null":
        return None
    if re.fullmatch(r"[+-]?[0-9]+", text):  # ASCII digits only: \d takes any script's digits
        if len(text.lstrip("+-")) > 19:
            raise InvalidOptionError(f"option value {text[:24]}... is out of range: it does not fit in 64 bits")
        return int(text)
    if not _BARE.match(text):
        raise InvalidOptionError(f"option value {excerpt(text)!r} is not a word, number, list or dict")
    return text


def parse_game(text: str, factories: Mapping[str, Callable[..., Any]]) -> Any:
    """Build a game from its game string with the factory registered under its name."""
    if not isinstance(text, str):
        raise InvalidOptionError(f"a game string must be text like 'escoba(players=4)', not {type(text).__name__}")
    match = _NAME.match(text)
    if not match:
        raise InvalidOptionError(
            f"{excerpt(text)!r} is not a game string: expected name(option=value,...), e.g. 'escoba(players=4)'"
        )
    name, body = match.group(1), match.group(2)
    if name not in factories:
        raise InvalidOptionError(f"unknown game {excerpt(name)!r}: expected one of {', '.join(sorted(factories))}")
    options: dict[str, Any] = {}
    if body is not None and body.strip():
        for part in _split_top(body, ","):
            key, eq, value = part.partition("=")
            key = key.strip()
            if not eq or not re.fullmatch(r"[a-z_][a-z0-9_]*", key):
                raise InvalidOptionError(f"{excerpt(part.strip())!r} is not option=value")
            if key in options:
                raise InvalidOptionError(f"option {excerpt(key)!r} is given twice")
            options[key] = parse_value(value)
    return factories[name](**options)
