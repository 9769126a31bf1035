"""Ctrl-C during ``tapete.simulate``: in a fresh process, at several moments (while the package
imports, right as the batch starts, well into it), SIGINT gives a clean ``KeyboardInterrupt`` (no
native panic) and stops the batch; the interrupted batch reports the games it finished. How fast
it stops is measured in bench/interrupt.py, not asserted here."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process is POSIX")

# far more work than any test waits for: only an interruption ends it in time
SCRIPT = """
import sys
print("importing", flush=True)
import tapete
game = tapete.{game}
simulate = tapete.simulate
print("started", flush=True)
try:
    simulate(game, games={games}, seed=1, aggregate={aggregate})
except KeyboardInterrupt as stop:
    result = getattr(stop, "result", None)
    if result is None:  # raised before the batch began
        raise
    games = result["games"] if "games" in result else len(result["deals"])
    print("interrupted", stop.done, stop.total, games, flush=True)
    raise
"""


def default_sigint() -> None:
    """In the child before it starts: SIGINT unblocked and at its default, as in a new terminal.
    A test worker may hold it blocked or ignored (a library it ran earlier), and the child would
    inherit that, never seeing the signal these tests send."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def run(delay: float, after: str, game: str = "Escoba()", aggregate: bool = True) -> tuple[int, str, str]:
    """Starts the script, waits for the line ``after`` (or for nothing when empty), sleeps
    ``delay`` seconds, sends SIGINT; returns the exit status, stdout and stderr."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    games = 50_000_000 if aggregate else 2_000_000  # the arrays of 2M games: about 74 MB
    proc = subprocess.Popen(
        [sys.executable, "-c", SCRIPT.format(game=game, aggregate=aggregate, games=games)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        preexec_fn=default_sigint,
    )
    assert proc.stdout is not None
    lines = []
    if after:
        while True:
            line = proc.stdout.readline()
            assert line, "the script ended before it was interrupted"
            lines.append(line)
            if line.strip() == after:
                break
    time.sleep(delay)
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        pytest.fail(f"still running 60 s after SIGINT: {err[-2000:]}")
    return proc.returncode, "".join(lines) + out, err


def assert_clean(code: int, err: str) -> None:
    assert "panicked" not in err and "PanicException" not in err, err[-3000:]
    # killed by SIGINT before Python installed its handler, or a KeyboardInterrupt traceback
    assert code == -signal.SIGINT or "KeyboardInterrupt" in err, (code, err[-3000:])


@pytest.mark.parametrize("delay", [0.0, 0.02, 0.05, 0.1, 0.2])
def test_sigint_while_the_package_loads(delay):
    code, _, err = run(delay, after="importing")
    assert_clean(code, err)


@pytest.mark.parametrize("delay", [0.0, 0.001, 0.01, 0.3])
@pytest.mark.parametrize("aggregate", [True, False])
def test_sigint_stops_simulate_and_keeps_the_finished_games(delay, aggregate):
    code, out, err = run(delay, after="started", aggregate=aggregate, game="Escoba()")
    assert_clean(code, err)
    assert code == -signal.SIGINT
    if "interrupted" in out:  # else the signal came before the batch began
        done, total, games = map(int, out.split("interrupted", 1)[1].split())
        assert total in (50_000_000, 2_000_000) and 0 <= done < total and games == done


def test_sigint_in_a_slow_game_stops_too():
    code, out, err = run(0.5, after="started", game="Burako()")
    assert_clean(code, err)
    assert "interrupted" in out
