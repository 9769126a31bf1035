"""What every reference engine's ``state_from_json`` checks first: JSON text holding one object
with exactly the game's keys, version 1, the game's name and this game's resolved options."""

from __future__ import annotations

import json
from collections.abc import Set as AbstractSet
from typing import Any

from ..errors import InvalidStateError


def is_int(value: Any) -> bool:
    """An int that is not a bool (JSON ``true`` must never pass for 1)."""
    return isinstance(value, int) and not isinstance(value, bool)


def read_state_object(text: Any, game: str, keys: AbstractSet[str], options_json: str) -> dict[str, Any]:
    """The state object of ``text``, or ``InvalidStateError`` naming what is wrong."""

    def bad(why: str) -> InvalidStateError:
        return InvalidStateError(f"invalid {game} state: {why}")

    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    if not isinstance(text, str):
        raise bad("expected JSON text")
    try:
        d = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise bad(f"not JSON ({e})") from None
    if not isinstance(d, dict):
        raise bad("expected a JSON object")
    if set(d) != keys:
        missing, extra = sorted(keys - set(d)), sorted(set(d) - keys)
        raise bad(f"keys: missing {missing}, unexpected {extra}")
    if not is_int(d["version"]) or d["version"] != 1:
        raise bad("version must be 1")
    if d["game"] != game:
        raise bad(f'game must be "{game}"')
    # compared as canonical JSON, so that 0 never passes for false nor 1.0 for 1
    if json.dumps(d["options"], sort_keys=True, separators=(",", ":")) != options_json:
        raise bad("options differ from this game's resolved options")
    return d
