"""A seat of the server's tests playing over the socket."""

from __future__ import annotations

from typing import Any


def first_legal_to_the_end(ws: Any) -> dict[str, Any]:
    """Plays seat 0's first legal action at each of its turns (the bots play the others) until the
    match ends; returns the last state message."""
    message: dict[str, Any] = ws.receive_json()
    while not message["terminal"]:
        if message["to_move"] == 0:
            ws.send_json({"type": "move", "action": message["legal"][0][0]})
        message = ws.receive_json()
    return message
