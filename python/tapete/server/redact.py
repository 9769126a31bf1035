"""The second guard on the server's logs: every log record of every logger, ours and uvicorn's and
the WebSocket library's, is redacted as it is made. Seat tokens (in a query string or a JSON
frame) read ``<redacted>``, and a WebSocket frame logged at debug level keeps its opcode only:
neither its payload nor its size (a size tells one hand from another) reaches a log, nor does a
message's size in uvicorn's trace.

The first guard is that nothing sends a token through a URL or logs a frame on purpose
(docs/server.md "Secrecy").
"""

from __future__ import annotations

import logging
import re
from typing import Any

__all__ = ["install", "redact"]

_SECRETS = [
    (re.compile(r"(token=)[^\s&#\"'\]]*"), r"\1<redacted>"),
    (re.compile(r"(\"token\"\s*:\s*)\"(?:[^\"\\]|\\.)*\""), r'\1"<redacted>"'),
    (re.compile(r"(\"tokens\"\s*:\s*)\{[^{}]*\}"), r"\1{<redacted>}"),
    # uvicorn's trace of ASGI messages gives each payload's size: a frame's tells hands apart
    (re.compile(r"('(?:text|bytes|body)': )'<\d+ (?:chars|bytes)>'"), r"\1'<not logged>'"),
]
# the WebSocket library's frame lines: "< TEXT '{...}' [52 bytes]", "> CLOSE 1000 (OK) [2 bytes]"
_FRAME = re.compile(r"^([<>] (?:TEXT|BINARY|CONT|PING|PONG|CLOSE))\b.*", re.S)


def redact(text: str) -> str:
    """``text`` without seat tokens or frame payloads."""
    frame = _FRAME.match(text)
    if frame:
        return frame.group(1) + " [frame not logged]"
    for pattern, replacement in _SECRETS:
        text = pattern.sub(replacement, text)
    return text


def _redacting(factory: Any) -> Any:
    def make(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record: logging.LogRecord = factory(*args, **kwargs)
        try:
            message = record.getMessage()
        except Exception:  # arguments that do not fit: logging reports the record as it always does
            return record
        clean = redact(message)
        if clean == message:
            return record
        if isinstance(record.args, tuple):  # keep the arguments where a formatter reads them (access logs)
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
            record.msg = redact(record.msg) if isinstance(record.msg, str) else record.msg
            try:
                if redact(record.getMessage()) == record.getMessage():
                    return record
            except Exception:
                pass
        record.msg, record.args = clean, None
        return record

    make._tapete_redacting = True  # type: ignore[attr-defined]
    return make


def install() -> None:
    """Redact every log record made from now on, whatever its logger (once per process)."""
    factory = logging.getLogRecordFactory()
    if not getattr(factory, "_tapete_redacting", False):
        logging.setLogRecordFactory(_redacting(factory))
