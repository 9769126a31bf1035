"""The server's storage on PostgreSQL (``--db postgresql://…``): run when TAPETE_TEST_POSTGRES
holds the URL of a database the test may fill (.ci/run starts a local server from Debian's
package and sets it)."""

from __future__ import annotations

import os
import uuid

import pytest

from server_seat import first_legal_to_the_end, hello

URL = os.environ.get("TAPETE_TEST_POSTGRES")
pytestmark = pytest.mark.skipif(not URL, reason="TAPETE_TEST_POSTGRES is not set")

pytest.importorskip("psycopg")
pytest.importorskip("starlette")


def test_postgres_storage_appends_write_ahead_and_refuses_conflicts():
    import tapete
    from tapete.server.storage import ConflictError, TableRecord, open_storage

    storage = open_storage(URL)
    state = tapete.load("escoba(players=2)").new_state(seed=2**64 - 1)
    table = uuid.uuid4().hex
    text = state.to_json()
    storage.create_table(
        TableRecord(table, "escoba(variant=scopa)", ["human", "human"], 2**64 - 1, [None, None], text, text)
    )
    action = state.legal_actions()[0]
    seat = state.current_player()
    state.apply(action)
    storage.append(table, 0, seat, action, state.to_json(), False)
    with pytest.raises(ConflictError):
        storage.append(table, 0, seat, action, "{}", False)
    record = storage.get(table)
    assert record.seed == 2**64 - 1 and record.moves == 1 and record.state == state.to_json()
    assert storage.actions(table) == [(0, seat, action)]
    storage.close()


def test_a_whole_game_on_postgres():
    from starlette.testclient import TestClient

    from tapete.server.app import create_app
    from tapete.server.storage import open_storage

    with TestClient(create_app(open_storage(URL))) as client:
        made = client.post(
            "/api/tables", json={"game": "mosca(players=3)", "seats": ["human", "bot:random", "bot:random"]}
        )
        table, token = made.json()["table"], made.json()["tokens"]["0"]
        with client.websocket_connect(f"/ws/{table}") as ws:
            message = first_legal_to_the_end(ws, hello(ws, token))
        replay = client.get(f"/api/tables/{table}/replay").json()
        assert replay["moves"] == message["moves"] and replay["returns"] == message["returns"]
