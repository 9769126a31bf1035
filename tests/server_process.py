"""A ``tapete serve`` process for tests: started on a free loopback port, killed with SIGKILL."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import tapete

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    def __init__(self, db: str, port: int | None = None, *extra: str) -> None:
        self.db, self.port, self.extra = db, port or free_port(), extra
        self.process: subprocess.Popen[bytes] | None = None
        self.log = Path(db).with_suffix(".log")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> ServerProcess:
        env = dict(os.environ)
        # the tapete these tests import (the source tree, or the installed wheel in CI), not python/
        # by path: a wheel-tested run has no native core there
        package_root = Path(tapete.__file__).resolve().parent.parent
        env["PYTHONPATH"] = os.pathsep.join([str(package_root), env.get("PYTHONPATH", "")])
        command = [sys.executable, "-m", "tapete.server", "--db", self.db, "--port", str(self.port), *self.extra]
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=log, env=env)
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

    def get(self, path: str) -> dict:
        return json.load(urllib.request.urlopen(self.url + path, timeout=10))

    def post(self, path: str, body: dict) -> dict:
        request = urllib.request.Request(
            self.url + path, data=json.dumps(body).encode(), headers={"content-type": "application/json"}
        )
        return json.load(urllib.request.urlopen(request, timeout=10))
