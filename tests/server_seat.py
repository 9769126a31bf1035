"""A seat of the server's tests playing over the socket: the hello handshake (docs/server.md
"Play"), and a seat that plays its first legal action to the end."""

from __future__ import annotations

import json
from typing import Any


def _receive(ws: Any) -> dict[str, Any]:
    if hasattr(ws, "receive_json"):  # Starlette's test client
        return ws.receive_json()  # type: ignore[no-any-return]
    return json.loads(ws.recv(timeout=30))  # type: ignore[no-any-return]


def _send(ws: Any, message: dict[str, Any]) -> None:
    if hasattr(ws, "send_json"):
        ws.send_json(message)
    else:
        ws.send(json.dumps(message))


def hello(ws: Any, token: str) -> dict[str, Any]:
    """Makes a socket just opened on ``/ws/<table>`` the socket of the seat whose token this is: it
    reads the spectator's first frame, sends the hello and returns the seat's first frame (or the
    error frame of a refused token)."""
    first = _receive(ws)
    assert first["type"] == "state" and first["seat"] is None, first
    _send(ws, {"type": "hello", "token": token})
    return _receive(ws)


def first_legal_to_the_end(ws: Any, message: dict[str, Any] | None = None) -> dict[str, Any]:
    """Plays seat 0's first legal action at each of its turns (the bots play the others) until the
    match ends, from ``message`` (the last frame read; else the next one); returns the last state
    message."""
    if message is None:
        message = _receive(ws)
    while not message["terminal"]:
        if message["to_move"] == 0 and message["seat"] == 0:
            _send(ws, {"type": "move", "action": message["legal"][0][0]})
        message = _receive(ws)
    return message
