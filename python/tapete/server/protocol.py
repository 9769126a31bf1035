"""What the server sends: every message to a seat is built from ``view(p)`` and public fields only,
and a spectator's from the engine's public view, what every seat sees (each game's contract).

Nothing here takes the full state toward a client: the functions read a state through ``view``,
``public_view``, ``current_player``, ``legal_actions``/``action_to_string`` (for the seat to move
only), ``is_terminal`` and ``returns``. No seed, RNG state or state JSON is ever part of a message.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

__all__ = [
    "MAX_MESSAGE_BYTES",
    "MAX_TOKEN_CHARS",
    "TOKEN_IN_URL",
    "ProtocolError",
    "dumps",
    "error_message",
    "parse_client_message",
    "public_view",
    "seat_message",
    "spectator_message",
]

#: The largest client frame the server reads, in bytes.
MAX_MESSAGE_BYTES = 4096

#: The longest token a hello frame may carry (the server's are 32 characters).
MAX_TOKEN_CHARS = 200

#: The notice in the first frame of a socket that put its token in the URL (docs/server.md).
TOKEN_IN_URL = (
    "the ?token= form is deprecated and will be refused in the next release: connect to /ws/<table> "
    'and send {"type": "hello", "token": ...} as the first frame'
)


class ProtocolError(Exception):
    """A client message the server cannot act on; its text goes back in an error frame."""


def dumps(message: Mapping[str, Any]) -> str:
    """The one serialization of every message: compact, keys sorted, so equal data is equal bytes."""
    return json.dumps(message, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def public_view(state: Any) -> dict[str, Any]:
    """What every seat sees: the engine's public view (each game's contract)."""
    return state.public_view()  # type: ignore[no-any-return]


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


def spectator_message(state: Any, table: Mapping[str, Any]) -> dict[str, Any]:
    """A spectator's state frame: the public view, no legal actions."""
    message = _common(state, table)
    message.update({"seat": None, "view": public_view(state), "legal": []})
    return message


def error_message(text: str) -> dict[str, Any]:
    return {"type": "error", "message": text}


def parse_client_message(raw: str | bytes) -> dict[str, Any]:
    """A client frame, checked for size and shape: ``{"type": "hello", "token": text}`` (a seat's
    socket says whose it is), ``{"type": "move", "action": id or notation}`` or ``{"type": "ping"}``.
    No error text quotes a token."""
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
    if kind == "hello":
        token = message.get("token")
        if not isinstance(token, str) or not 0 < len(token) <= MAX_TOKEN_CHARS:
            raise ProtocolError(f"a hello needs 'token': a seat's token (text of 1..{MAX_TOKEN_CHARS} characters)")
        return {"type": "hello", "token": token}
    if kind != "move":
        shown = kind if isinstance(kind, str) and len(kind) <= 40 else type(kind).__name__
        raise ProtocolError(f"unknown message type {shown!r}: expected 'hello', 'move' or 'ping'")
    action = message.get("action")
    if isinstance(action, bool) or not isinstance(action, (int, str)):
        raise ProtocolError("a move needs 'action': an action id (int) or its notation (text)")
    return {"type": "move", "action": action}
