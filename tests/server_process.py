"""A ``tapete serve`` process for tests, started as a user starts it: the command line, a uvicorn
process on a free loopback port, at ``--log-level debug`` unless told otherwise, its stdout and
stderr kept apart in files beside the database. ``kill`` is SIGKILL (a crash); ``stop`` is
SIGTERM (a clean shutdown, its last log lines written).

The ``tapete_serve`` fixture of tests/conftest.py starts them and ends them after the test."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import tapete

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    def __init__(self, db: str, port: int | None = None, *extra: str, log_level: str = "debug") -> None:
        self.db, self.port, self.extra, self.log_level = db, port or free_port(), extra, log_level
        self.process: subprocess.Popen[bytes] | None = None
        self.log = Path(db).with_suffix(".log")  # stderr: where logging writes
        self.out = Path(db).with_suffix(".out")  # stdout

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> ServerProcess:
        env = dict(os.environ)
        # the tapete these tests import (the source tree, or the installed wheel in CI), not python/
        # by path: a wheel-tested run has no native core there
        package_root = Path(tapete.__file__).resolve().parent.parent
        env["PYTHONPATH"] = os.pathsep.join([str(package_root), env.get("PYTHONPATH", "")])
        env["PYTHONUNBUFFERED"] = "1"  # every line in the files as it is written
        command = [
            sys.executable, "-m", "tapete.server", "--db", self.db, "--port", str(self.port),
            "--log-level", self.log_level, *self.extra,
        ]  # fmt: skip
        with open(self.log, "ab") as log, open(self.out, "ab") as out:
            self.process = subprocess.Popen(command, stdout=out, stderr=log, env=env)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.url + "/api/tables", timeout=1).read()
                return self
            except (urllib.error.URLError, ConnectionError, OSError):
                if self.process.poll() is not None:
                    raise RuntimeError(f"server exited: {self.log.read_text()[-2000:]}") from None
                time.sleep(0.1)
        raise RuntimeError("server did not start in 30 s")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, as in a crash."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        """SIGTERM, as Ctrl-C or a service manager stops it: uvicorn shuts down cleanly."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.kill()

    def output(self) -> str:
        """Everything the process wrote so far, stdout then stderr."""
        text = ""
        for path in (self.out, self.log):
            if path.exists():
                text += path.read_text(errors="replace")
        return text

    def get(self, path: str) -> Any:
        return json.load(urllib.request.urlopen(self.url + path, timeout=10))

    def get_text(self, path: str) -> str:
        return urllib.request.urlopen(self.url + path, timeout=10).read().decode()

    def post(self, path: str, body: dict[str, Any]) -> Any:
        request = urllib.request.Request(
            self.url + path, data=json.dumps(body).encode(), headers={"content-type": "application/json"}
        )
        return json.load(urllib.request.urlopen(request, timeout=10))


#: What differs between two runs of the same session: times (and the HTTP date), ports, process
#: ids, durations, and the random handshake keys of each WebSocket.
_VOLATILE = [
    (re.compile(r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d+)?"), "<time>"),
    (re.compile(r"\w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT"), "<date>"),
    (re.compile(r"127\.0\.0\.1:\d+"), "127.0.0.1:<port>"),
    (re.compile(r"\[\d+\]"), "[<pid>]"),
    (re.compile(r"\b\d+(?:\.\d+)?\s?(?:ms|s|µs)\b"), "<duration>"),
    (re.compile(r"(?i)(sec-websocket-(?:key|accept):) \S+"), r"\1 <key>"),
]
#: Lines that come with the passing of time, not with what was sent: WebSocket keepalives.
_TIMED = re.compile(r"(?:[<>] P[IO]NG\b|% (?:sending|received) keepalive)")


def masked(text: str, replace: dict[str, str] | None = None) -> list[str]:
    """The lines of ``text`` with times, ports, process ids, durations and handshake keys masked,
    keepalive lines left out, and each key of ``replace`` (a table id, a database path) written
    as its value."""
    for old, new in (replace or {}).items():
        text = text.replace(old, new)
    for pattern, stand_in in _VOLATILE:
        text = pattern.sub(stand_in, text)
    return [line for line in text.splitlines() if not _TIMED.search(line)]
