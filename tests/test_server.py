"""``tapete serve``: the lobby, play over WebSockets, write-ahead storage, bots, and every kind of
bad input (docs/server.md). The secrecy test is tests/test_server_secrecy.py."""

from __future__ import annotations

import json
import sqlite3

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

import tapete  # noqa: E402
from server_seat import first_legal_to_the_end, hello  # noqa: E402
from tapete.server.app import Config, create_app  # noqa: E402
from tapete.server.bots import parse_bot  # noqa: E402
from tapete.server.protocol import MAX_MESSAGE_BYTES  # noqa: E402
from tapete.server.storage import ConflictError, TableRecord, open_storage  # noqa: E402


@pytest.fixture
def db_path(tmp_path):
    return str(tmp_path / "tables.sqlite3")


@pytest.fixture
def client(db_path):
    with TestClient(create_app(open_storage(db_path))) as c:
        yield c


def stored(db_path: str, table: str) -> tuple[str, int, list[int]]:
    db = sqlite3.connect(db_path)
    state, moves = db.execute("SELECT state, moves FROM tables WHERE id = ?", (table,)).fetchone()
    actions = [a for (a,) in db.execute("SELECT action FROM actions WHERE table_id = ? ORDER BY n", (table,))]
    db.close()
    return state, moves, actions


def create(client, game="escoba(players=2)", seats=("human", "human"), **extra):
    response = client.post("/api/tables", json={"game": game, "seats": list(seats), **extra})
    assert response.status_code == 201, response.text
    return response.json()


def test_a_whole_game_against_a_bot_is_stored_move_by_move_and_replays_exactly(client, db_path):
    made = create(client, seats=["human", "bot:random"])
    table, token = made["table"], made["tokens"]["0"]
    assert set(made["tokens"]) == {"0"}  # no token for a bot seat
    with client.websocket_connect(f"/ws/{table}") as ws:
        message = hello(ws, token)
        while not message["terminal"]:
            assert message["type"] == "state" and message["seat"] == 0
            if message["to_move"] == 0:
                assert message["legal"], "the seat to move is sent its legal actions"
                ws.send_json({"type": "move", "action": message["legal"][-1][1]})  # by notation
            else:
                assert message["legal"] == []
            message = ws.receive_json()
    state_json, moves, actions = stored(db_path, table)
    assert moves == len(actions) == message["moves"]
    # the stored actions, played again from the stored first state, give the stored state
    game = tapete.load(message["game"])
    db = sqlite3.connect(db_path)
    (start,) = db.execute("SELECT start FROM tables WHERE id = ?", (table,)).fetchone()
    db.close()
    state = game.state_from_json(start)
    for action in actions:
        state.apply(action)
    assert state.to_json() == state_json
    assert message["returns"] == state.returns()
    replay = client.get(f"/api/tables/{table}/replay").json()
    assert replay["moves"] == moves and len(replay["steps"]) == moves + 1
    assert replay["returns"] == state.returns()
    assert replay["steps"][-1]["view"]["scores"] == state.view(0)["scores"]
    listed = client.get("/api/tables").json()["tables"]
    assert [t["table"] for t in listed] == [table] and listed[0]["terminal"]


def test_the_first_state_is_the_deal_of_the_stored_seed(client, db_path):
    table = create(client)["table"]
    db = sqlite3.connect(db_path)
    game, seed, start = db.execute("SELECT game, seed, start FROM tables WHERE id = ?", (table,)).fetchone()
    db.close()
    assert tapete.load(game).new_state(seed=int(seed)).to_json() == start


def test_seeds_are_not_a_counter(client, db_path):
    for _ in range(3):
        create(client)
    db = sqlite3.connect(db_path)
    seeds = [int(s) for (s,) in db.execute("SELECT seed FROM tables")]
    db.close()
    assert len(set(seeds)) == 3 and max(seeds) > 2**40  # 64 random bits; a counter would be small


def test_tokens_are_stored_only_as_hashes(client, db_path):
    made = create(client)
    raw = open(db_path, "rb").read() + open(db_path + "-wal", "rb").read()
    for token in made["tokens"].values():
        assert token.encode() not in raw


def test_join_hands_out_an_open_seat_once(client):
    made = create(client)
    table = made["table"]
    with client.websocket_connect(f"/ws/{table}") as ws:
        hello(ws, made["tokens"]["0"])
    assert client.get("/api/tables").json()["tables"][0]["open_seats"] == [1]
    joined = client.post(f"/api/tables/{table}/join", json={}).json()
    assert joined["seat"] == 1
    assert client.post(f"/api/tables/{table}/join", json={}).status_code == 409
    with client.websocket_connect(f"/ws/{table}") as ws:
        assert hello(ws, joined["token"])["seat"] == 1
    with client.websocket_connect(f"/ws/{table}") as ws:
        assert hello(ws, made["tokens"]["1"]) == {
            "type": "error",
            "message": "wrong seat token",
        }  # replaced by the join
    private = create(client, private=True)["table"]
    assert client.post(f"/api/tables/{private}/join", json={}).status_code == 409


def test_reconnecting_with_the_token_restores_the_seat(client):
    made = create(client)
    table, token = made["table"], made["tokens"]["0"]
    with client.websocket_connect(f"/ws/{table}") as ws:
        first = hello(ws, token)
        ws.send_json({"type": "move", "action": first["legal"][0][0]} if first["to_move"] == 0 else {"type": "ping"})
        ws.receive_json()
    with client.websocket_connect(f"/ws/{table}") as ws:
        again = hello(ws, token)
    assert again["seat"] == 0
    assert again["view"] == client.app.state.server.tables[table].state.view(0)


def test_spectators_get_the_public_view(client):
    made = create(client, game="escoba(players=4)", seats=["human"] * 4)
    table = made["table"]
    with client.websocket_connect(f"/ws/{table}") as ws:
        message = ws.receive_json()
    assert message["seat"] is None and message["legal"] == [] and message["view"]["hand"] is None
    assert client.get(f"/api/tables/{table}").json() == message


# -- bad input: a clear error, nothing changes, the connection survives where sensible


@pytest.mark.parametrize(
    "body,status,needle",
    [
        ("{not json", 400, "malformed JSON"),
        ("[1, 2]", 400, "expected a JSON object"),
        ({"game": "chess()", "seats": ["human"]}, 400, "unknown game"),
        ({"game": "escoba(players=9)", "seats": ["human"] * 9}, 400, "bad game"),
        ({"game": 7, "seats": ["human"]}, 400, "game string"),
        ({"game": "escoba(players=2)", "seats": ["human"]}, 400, "has 2 seats"),
        ({"game": "escoba(players=2)", "seats": "human,human"}, 400, "list"),
        ({"game": "escoba(players=2)", "seats": ["human", "robot"]}, 400, "not a seat"),
        ({"game": "escoba(players=2)", "seats": ["human", "bot:ismcts(iterations=1000000000)"]}, 400, "refused"),
        ({"game": "escoba(players=2)", "seats": ["human", "bot:mcts"]}, 400, "unknown bot"),
        ({"game": "escoba(players=2)", "seats": ["human", "bot:random(iterations=5)"]}, 400, "no parameter"),
        ({"game": "escoba(players=2)", "seats": ["human", "x" * 20_000]}, 400, "over 16384 bytes"),
    ],
)
def test_a_bad_table_request_is_refused_with_a_reason(client, body, status, needle):
    if isinstance(body, str):
        response = client.post("/api/tables", content=body, headers={"content-type": "application/json"})
    else:
        response = client.post("/api/tables", json=body)
    assert response.status_code == status
    assert needle in response.json()["error"]
    assert client.get("/api/tables").json()["tables"] == []


@pytest.mark.parametrize("bot", ["bot:heuristic", "bot:ismcts(iterations=40)"])
def test_a_human_plays_the_native_bots_to_the_end(client, bot):
    made = create(client, game="musta_maija(players=2)", seats=["human", bot])
    table, token = made["table"], made["tokens"]["0"]
    with client.websocket_connect(f"/ws/{table}") as ws:
        message = first_legal_to_the_end(ws, hello(ws, token))
    assert sorted(message["returns"]) == [-1.0, 1.0]


def test_bot_budgets_are_capped():
    from tapete.errors import InvalidOptionError
    from tapete.server import bots

    bots.register_bot("counting", lambda iterations=10: lambda state: state.legal_actions()[0], {"iterations": 1000})
    try:
        assert callable(parse_bot("bot:counting(iterations=1000)"))
        with pytest.raises(InvalidOptionError, match="refused"):
            parse_bot("bot:counting(iterations=1000000000)")
        with pytest.raises(InvalidOptionError, match="refused"):
            parse_bot("bot:counting(iterations=true)")
    finally:
        del bots.BOTS["counting"]


def test_the_number_of_tables_is_capped(db_path):
    with TestClient(create_app(open_storage(db_path), Config(max_tables=2))) as c:
        create(c)
        create(c)
        response = c.post("/api/tables", json={"game": "escoba(players=2)", "seats": ["human", "human"]})
        assert response.status_code == 503 and "limit of 2" in response.json()["error"]


@pytest.mark.parametrize("path", ["/api/tables/nope", "/api/tables/nope/replay"])
def test_a_missing_table_is_a_404(client, path):
    assert client.get(path).status_code == 404


def test_the_replay_of_an_unfinished_game_is_refused(client):
    table = create(client)["table"]
    response = client.get(f"/api/tables/{table}/replay")
    assert response.status_code == 409 and "not finished" in response.json()["error"]


@pytest.mark.parametrize("token", ["wrong", "x" * 200])
def test_a_wrong_token_is_refused_and_the_socket_closed(client, token):
    from starlette.websockets import WebSocketDisconnect

    table = create(client)["table"]
    with client.websocket_connect(f"/ws/{table}") as ws:
        assert hello(ws, token) == {"type": "error", "message": "wrong seat token"}
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4401


@pytest.mark.parametrize(
    "frame,needle",
    [
        ({"type": "hello"}, "needs 'token'"),
        ({"type": "hello", "token": ""}, "needs 'token'"),
        ({"type": "hello", "token": 7}, "needs 'token'"),
        ({"type": "hello", "token": "x" * 201}, "needs 'token'"),
    ],
)
def test_a_bad_hello_is_an_error_frame_and_the_socket_stays_a_spectators(client, frame, needle):
    made = create(client)
    table = made["table"]
    with client.websocket_connect(f"/ws/{table}") as ws:
        assert ws.receive_json()["seat"] is None
        ws.send_json(frame)
        reply = ws.receive_json()
        assert reply["type"] == "error" and needle in reply["message"]
        ws.send_json({"type": "hello", "token": made["tokens"]["0"]})
        assert ws.receive_json()["seat"] == 0
        ws.send_json({"type": "hello", "token": made["tokens"]["1"]})
        assert ws.receive_json() == {"type": "error", "message": "this socket already plays seat 0"}


@pytest.mark.parametrize("query", ["?token=wrong", "?token="])
def test_a_wrong_token_in_the_deprecated_url_form_is_refused(client, query):
    table = create(client)["table"]
    with client.websocket_connect(f"/ws/{table}{query}") as ws:
        assert ws.receive_json() == {"type": "error", "message": "wrong seat token"}


def test_the_deprecated_url_form_still_plays_its_seat_with_a_notice_in_the_first_frame(client):
    from tapete.server.protocol import TOKEN_IN_URL

    made = create(client)
    table, token = made["table"], made["tokens"]["0"]
    with client.websocket_connect(f"/ws/{table}?token={token}") as ws:
        first = ws.receive_json()
        assert first["seat"] == 0 and first["deprecation"] == TOKEN_IN_URL
        assert first["view"] == client.app.state.server.tables[table].state.view(0)
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}
    with client.websocket_connect(f"/ws/{table}") as ws:
        assert "deprecation" not in hello(ws, token)


def test_a_missing_table_or_a_foreign_origin_is_refused_on_the_socket(client):
    with client.websocket_connect("/ws/nope") as ws:
        assert ws.receive_json() == {"type": "error", "message": "no such table"}
    table = create(client)["table"]
    with client.websocket_connect(f"/ws/{table}", headers={"origin": "http://evil.example"}) as ws:
        assert ws.receive_json() == {"type": "error", "message": "origin not allowed"}
    with client.websocket_connect(f"/ws/{table}", headers={"origin": "http://testserver"}) as ws:
        assert ws.receive_json()["type"] == "state"


def test_bad_frames_get_an_error_and_change_nothing(client, db_path):
    made = create(client)
    table = made["table"]
    before = stored(db_path, table)
    with (
        client.websocket_connect(f"/ws/{table}") as ws0,
        client.websocket_connect(f"/ws/{table}") as ws1,
        client.websocket_connect(f"/ws/{table}") as spectator,
    ):
        first = hello(ws0, made["tokens"]["0"])
        ws1_first = hello(ws1, made["tokens"]["1"])
        spectator.receive_json()
        mover, waiting = (ws0, ws1) if first["to_move"] == 0 else (ws1, ws0)
        frames = [
            ("garbage", "malformed message"),
            ("[1]", "malformed message"),
            (json.dumps({"type": "dance"}), "unknown message type 'dance'"),
            (json.dumps({"type": "hello", "token": made["tokens"]["0"]}), "already plays seat"),
            (json.dumps({"type": "move"}), "needs 'action'"),
            (json.dumps({"type": "move", "action": True}), "needs 'action'"),
            (json.dumps({"type": "move", "action": 1.5}), "needs 'action'"),
            (json.dumps({"type": "move", "action": 10**6}), "illegal action"),
            (json.dumps({"type": "move", "action": -1}), "illegal action"),
            (json.dumps({"type": "move", "action": "take the lot"}), "bad action"),
            (json.dumps({"type": "move", "action": "x" * 3000}), "at most 100 characters"),
            ("x" * (MAX_MESSAGE_BYTES + 1), "message too large"),
        ]
        for raw, needle in frames:
            mover.send_text(raw)
            reply = mover.receive_json()
            assert reply["type"] == "error" and needle in reply["message"], (raw[:40], reply)
        waiting.send_json({"type": "move", "action": 0})
        assert "not your turn" in waiting.receive_json()["message"]
        spectator.send_json({"type": "move", "action": 0})
        assert spectator.receive_json()["message"] == "spectators cannot move"
        assert stored(db_path, table) == before
        # the connection survived every error: a good move still goes through
        legal = (first if first["to_move"] == 0 else ws1_first)["legal"]
        mover.send_json({"type": "move", "action": legal[0][0]})
        assert mover.receive_json()["moves"] == 1
    assert stored(db_path, table)[1] == 1


def test_a_failed_commit_refuses_the_move_and_changes_nothing(client, db_path, monkeypatch):
    made = create(client)
    table = made["table"]
    server = client.app.state.server
    before = stored(db_path, table)

    def broken(*args):
        raise ConflictError("disk on fire")

    monkeypatch.setattr(server.storage, "append", broken)
    token = made["tokens"][str(server.tables[table].state.current_player())]
    with client.websocket_connect(f"/ws/{table}") as ws:
        first = hello(ws, token)
        ws.send_json({"type": "move", "action": first["legal"][0][0]})
        assert "nothing was played" in ws.receive_json()["message"]
        monkeypatch.undo()
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}
    assert stored(db_path, table) == before
    assert server.tables[table].record.moves == 0


def test_the_storage_refuses_an_append_at_the_wrong_move_count(tmp_path):
    storage = open_storage(str(tmp_path / "s.sqlite3"))
    state = tapete.load("escoba(players=2)").new_state(seed=1)
    record = TableRecord(
        "t", "escoba(variant=scopa)", ["human", "human"], 1, [None, None], state.to_json(), state.to_json()
    )
    storage.create_table(record)
    storage.append("t", 0, 1, 5, "{}", False)
    with pytest.raises(ConflictError):
        storage.append("t", 0, 1, 5, "{}", False)  # a duplicate of action 0
    with pytest.raises(ConflictError):
        storage.append("t", 2, 1, 5, "{}", False)  # a gap
    assert storage.actions("t") == [(0, 1, 5)]
    assert storage.get("t").moves == 1
    storage.close()


def test_every_log_record_is_redacted_whatever_its_logger(caplog):
    """docs/server.md "Secrecy": the second guard, on records of any logger and any level."""
    import logging

    from tapete.server import redact

    redact.install()
    token = "qX3-secret_token_of_32_characters"
    caplog.set_level(5)  # uvicorn's trace
    logging.getLogger("uvicorn.error").info('%s - "WebSocket /ws/t1?token=%s" [accepted]', "127.0.0.1:5", token)
    logging.getLogger("anything.else").debug("hello frame %s", json.dumps({"type": "hello", "token": token}))
    logging.getLogger("tapete.server").warning('made {"tokens": {"0": "%s"}}', token)
    logging.getLogger("uvicorn.error").debug("< TEXT '%s' [52 bytes]", json.dumps({"type": "move", "action": 3}))
    logging.getLogger("uvicorn.error").debug('> TEXT \'{"view": {"hand": ["7d"]}}\' [812 bytes]')
    logging.getLogger("uvicorn.error").log(5, "ASGI [4] Send %s", {"type": "websocket.send", "text": "<476 chars>"})
    assert token not in caplog.text and "7d" not in caplog.text and "bytes" not in caplog.text
    assert "476" not in caplog.text
    assert caplog.messages == [
        '127.0.0.1:5 - "WebSocket /ws/t1?token=<redacted>" [accepted]',
        'hello frame {"type": "hello", "token": "<redacted>"}',
        'made {"tokens": {<redacted>}}',
        "< TEXT [frame not logged]",
        "> TEXT [frame not logged]",
        "ASGI [4] Send {'type': 'websocket.send', 'text': '<not logged>'}",
    ]
    logging.getLogger("tapete.server").info("table %s created", "abc")
    assert caplog.records[-1].args == ("abc",)  # a record with nothing to redact keeps its arguments
