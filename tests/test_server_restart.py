"""Kill ``tapete serve`` with SIGKILL mid-game and start it again: every table resumes at exactly its
last committed action (byte-identical state JSON), seats reconnect with their tokens, and bots
play on (docs/server.md "Persistence")."""

from __future__ import annotations

import contextlib
import json
import random
import sqlite3
import time

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
websockets_sync = pytest.importorskip("websockets.sync.client")

import tapete  # noqa: E402
from server_process import ServerProcess  # noqa: E402
from server_seat import hello  # noqa: E402


def stored(db: str) -> dict[str, tuple[str, str, str, int, list[int]]]:
    connection = sqlite3.connect(db)
    tables = {}
    for table, game, start, state, moves in connection.execute("SELECT id, game, start, state, moves FROM tables"):
        actions = [a for (a,) in connection.execute("SELECT action FROM actions WHERE table_id=? ORDER BY n", (table,))]
        tables[table] = (game, start, state, moves, actions)
    connection.close()
    return tables


def replayed(game: str, start: str, actions: list[int]) -> str:
    state = tapete.load(game).state_from_json(start)
    for action in actions:
        state.apply(action)
    return state.to_json()


def test_a_killed_server_resumes_every_table_at_its_last_committed_action(tmp_path):
    db = str(tmp_path / "tables.sqlite3")
    server = ServerProcess(db, None, "--bot-delay", "0.005").start()
    rng = random.Random(20)
    try:
        human = server.post("/api/tables", {"game": "escoba(players=2)", "seats": ["human", "human"]})
        busy = [
            server.post("/api/tables", {"game": g, "seats": ["bot:random"] * n})["table"]
            for g, n in [("burako(match=single_hand)", 4), ("musta_maija(players=4)", 4), ("mosca(players=5)", 5)]
        ]
        stack = contextlib.ExitStack()
        sockets = {
            seat: stack.enter_context(websockets_sync.connect(f"ws://127.0.0.1:{server.port}/ws/{human['table']}"))
            for seat in human["tokens"]
        }
        last = {seat: hello(ws, human["tokens"][seat]) for seat, ws in sockets.items()}
        for _ in range(15):
            mover = str(last["0"]["to_move"])
            sockets[mover].send(json.dumps({"type": "move", "action": rng.choice(last[mover]["legal"])[0]}))
            last = {seat: json.loads(ws.recv(timeout=10)) for seat, ws in sockets.items()}
        stack.close()
        time.sleep(0.3)  # the bot tables are mid-game, committing as fast as they can
        server.kill()
        before = stored(db)
        assert before[human["table"]][3] == 15
        assert all(0 < before[t][3] for t in busy)
        # nothing half-written: each table's state is its first state plus its actions, byte for byte
        for _table, (game, start, state, moves, actions) in before.items():
            assert len(actions) == moves
            assert replayed(game, start, actions) == state

        server.start()
        view = server.get(f"/api/tables/{human['table']}")
        assert view["moves"] == 15
        for seat, token in human["tokens"].items():
            with websockets_sync.connect(f"ws://127.0.0.1:{server.port}/ws/{human['table']}") as ws:
                again = hello(ws, token)
            assert again == last[seat]  # the same frame as before the crash, byte for byte in content
        time.sleep(0.5)  # the bots play on after the restart
        after = stored(db)
        assert all(after[t][3] > before[t][3] or server.get(f"/api/tables/{t}")["terminal"] for t in busy)
        for t in busy:
            game, start, state, moves, actions = after[t]
            assert actions[: before[t][3]] == before[t][4]  # no committed action lost or rewritten
            assert replayed(game, start, actions) == state
    finally:
        server.kill()
