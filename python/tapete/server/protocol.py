"""What the server sends: every message to a seat is built from ``view(p)`` and public fields only,
and a spectator's from the public view, which starts empty and keeps only what every seat sees.

Nothing here takes the full state toward a client: the functions read a state through ``view``,
``current_player``, ``legal_actions``/``action_to_string`` (for the seat to move only),
``is_terminal`` and ``returns``. No seed, RNG state or state JSON is ever part of a message.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = [
    "HIDDEN",
    "PRIVATE_KEYS",
    "MAX_MESSAGE_BYTES",
    "ProtocolError",
    "dumps",
    "error_message",
    "parse_client_message",
    "public_view",
    "seat_message",
    "spectator_message",
]

#: The marker of a hidden card, as the engines write it (docs/escoba_engine.md §10).
HIDDEN = "??"

#: Per game, the keys of ``view(p)`` that hold what only seat p sees, and what a spectator gets in
#: their place. The rest of a view is kept for a spectator only where every seat's view agrees
#: (``public_view``), so a key missing here masks itself rather than leak.
PRIVATE_KEYS: dict[str, dict[str, Any]] = {
    "escoba": {"player": None, "hand": None},  # docs/escoba_engine.md §10
    "mosca": {"player": None, "hand": None, "discards": None},  # docs/mosca_engine.md §10
    "musta_maija": {"player": None, "hand": None},  # docs/musta_maija_engine.md §8
    "burako": {"player": None, "rack": None, "buffer": None, "drawn": None},  # docs/burako_engine.md §11
}

#: The largest client frame the server reads, in bytes.
MAX_MESSAGE_BYTES = 4096


class ProtocolError(Exception):
    """A client message the server cannot act on; its text goes back in an error frame."""


def dumps(message: Mapping[str, Any]) -> str:
    """The one serialization of every message: compact, keys sorted, so equal data is equal bytes."""
    return json.dumps(message, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _agree(values: Sequence[Any]) -> Any:
    """What every seat sees of one value: the value where all views agree; else, for dicts, the
    agreement per key; for lists, the engine's own masked form where the lists differ only where
    one of them shows ``??``, otherwise the items common to all (first seat's order) padded with
    ``??`` to the length all share; anything else, masked."""
    first = values[0]
    if all(v == first for v in values[1:]):
        return first
    if all(isinstance(v, dict) for v in values) and all(v.keys() == first.keys() for v in values):
        return {k: _agree([v[k] for v in values]) for k in first}
    if all(isinstance(v, list) for v in values):
        if all(len(v) == len(first) for v in values):
            columns = list(zip(*values))
            if all(len(set(map(repr, col))) == 1 or any(_masked(x) for x in col) for col in columns):
                return [_agree(list(col)) for col in columns]
            common = Counter(map(repr, first))
            for v in values[1:]:
                common &= Counter(map(repr, v))
            kept: list[Any] = []
            for item in first:
                if common[repr(item)] > 0:
                    common[repr(item)] -= 1
                    kept.append(item)
            return kept + [HIDDEN] * (len(first) - len(kept))
        return []
    if all(isinstance(v, str) for v in values):
        shown = sorted({v for v in values if _masked(v)})
        return shown[0] if len(shown) == 1 else HIDDEN
    return None


def _masked(value: Any) -> bool:
    return isinstance(value, str) and HIDDEN in value


def public_view(game_name: str, state: Any, num_players: int) -> dict[str, Any]:
    """The seatless view: the game's private keys replaced by their public stand-ins, every other
    key as all seats agree on it (``_agree``)."""
    private = PRIVATE_KEYS[game_name]
    views = [state.view(p) for p in range(num_players)]
    result: dict[str, Any] = {}
    for key in views[0]:
        if key in private:
            result[key] = private[key]
        else:
            result[key] = _agree([v.get(key) for v in views])
    return result


def _common(state: Any, table: Mapping[str, Any]) -> dict[str, Any]:
    terminal = bool(state.is_terminal())
    return {
        "type": "state",
        "table": table["id"],
        "game": table["game"],
        "seats": list(table["seats"]),
        "moves": table["moves"],
        "to_move": -1 if terminal else int(state.current_player()),
        "terminal": terminal,
        "returns": [float(r) for r in state.returns()] if terminal else None,
    }


def seat_message(state: Any, seat: int, table: Mapping[str, Any]) -> dict[str, Any]:
    """Seat ``seat``'s state frame: its view, and its legal actions when it is to move."""
    message = _common(state, table)
    legal: list[list[Any]] = []
    if not message["terminal"] and message["to_move"] == seat:
        legal = [[a, state.action_to_string(a)] for a in state.legal_actions()]
    message.update({"seat": seat, "view": state.view(seat), "legal": legal})
    return message


def spectator_message(state: Any, table: Mapping[str, Any], num_players: int) -> dict[str, Any]:
    """A spectator's state frame: the public view, no legal actions."""
    message = _common(state, table)
    message.update({"seat": None, "view": public_view(table["game_name"], state, num_players), "legal": []})
    return message


def error_message(text: str) -> dict[str, Any]:
    return {"type": "error", "message": text}


def parse_client_message(raw: str | bytes) -> dict[str, Any]:
    """A client frame, checked for size and shape: ``{"type": "move", "action": id or notation}``
    or ``{"type": "ping"}``."""
    if len(raw) > MAX_MESSAGE_BYTES:
        raise ProtocolError(f"message too large: {len(raw)} bytes, the limit is {MAX_MESSAGE_BYTES}")
    try:
        message = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise ProtocolError("malformed message: expected a JSON object") from None
    if not isinstance(message, dict):
        raise ProtocolError("malformed message: expected a JSON object")
    kind = message.get("type")
    if kind == "ping":
        return {"type": "ping"}
    if kind != "move":
        shown = kind if isinstance(kind, str) and len(kind) <= 40 else type(kind).__name__
        raise ProtocolError(f"unknown message type {shown!r}: expected 'move' or 'ping'")
    action = message.get("action")
    if isinstance(action, bool) or not isinstance(action, (int, str)):
        raise ProtocolError("a move needs 'action': an action id (int) or its notation (text)")
    return {"type": "move", "action": action}
