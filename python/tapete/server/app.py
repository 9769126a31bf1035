"""The ASGI app of ``tapete serve``: the lobby over HTTP JSON, one WebSocket per seat, bots and
timeouts on the server, every accepted action committed before anyone hears of it.

Protocol and guarantees: docs/server.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import random
import secrets
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlparse

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from .. import _options
from ..errors import TapeteError
from ..games import load
from ..registry import GAMES
from . import redact
from .bots import Bot, parse_bot
from .protocol import (
    MAX_MESSAGE_BYTES,
    TOKEN_IN_URL,
    ProtocolError,
    dumps,
    error_message,
    parse_client_message,
    public_view,
    seat_message,
    spectator_message,
)
from .storage import ConflictError, Storage, TableRecord

__all__ = ["Config", "Server", "create_app"]

log = logging.getLogger("tapete.server")
STATIC = Path(__file__).parent / "static"
T = TypeVar("T")

#: The largest HTTP request body the lobby reads, in bytes.
MAX_BODY_BYTES = 16_384


@dataclass
class Config:
    """What a server may be asked to change. ``move_timeout`` (seconds, 0 = none): a human seat
    that has not moved by then gets a random legal move played for it. ``bot_delay`` (seconds):
    the pause before a bot moves, so people can follow the table."""

    max_tables: int = 1000
    move_timeout: float = 0.0
    bot_delay: float = 0.0
    allowed_origins: tuple[str, ...] = ()
    max_seats: int = 8


class MoveError(Exception):
    """A move the server refuses; nothing changed."""


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", errors="replace")).hexdigest()


@dataclass(eq=False)
class Client:
    websocket: WebSocket
    seat: int | None
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    close_code: int = 1000


@dataclass(eq=False)
class Table:
    record: TableRecord
    game: Any
    state: Any
    bots: dict[int, Bot]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    clients: set[Client] = field(default_factory=set)
    timer: asyncio.Task[None] | None = None

    @property
    def id(self) -> str:
        return self.record.id

    @property
    def game_name(self) -> str:
        return str(self.game.name)

    def public_fields(self) -> dict[str, Any]:
        return {
            "id": self.record.id,
            "game": self.record.game,
            "game_name": self.game_name,
            "seats": self.record.seats,
            "moves": self.record.moves,
        }

    def message_for(self, seat: int | None) -> dict[str, Any]:
        if seat is None:
            return spectator_message(self.state, self.public_fields())
        return seat_message(self.state, seat, self.public_fields())


class Server:
    """The tables in play, over one storage. Storage calls run on one worker thread, bots on
    another pool: the event loop only routes messages."""

    def __init__(self, storage: Storage, config: Config | None = None) -> None:
        self.storage = storage
        self.config = config or Config()
        self.tables: dict[str, Table] = {}
        self._db = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tapete-db")
        self._bots = ThreadPoolExecutor(max_workers=2, thread_name_prefix="tapete-bot")
        self._tasks: set[asyncio.Task[Any]] = set()
        self._create_lock = asyncio.Lock()

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._db, fn, *args)

    # -- life cycle

    async def start(self) -> None:
        """Resume every unfinished table at its last committed action."""
        records = await self.db(self.storage.tables, True)
        for record in records:
            table = self._revive(record)
            self.tables[record.id] = table
            self._after_commit(table)
        log.info("resumed %d unfinished tables", len(records))

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for table in self.tables.values():
            if table.timer is not None:
                table.timer.cancel()
            for client in table.clients:
                client.queue.put_nowait(None)
        self._bots.shutdown(wait=False, cancel_futures=True)
        await self.db(self.storage.close)
        self._db.shutdown(wait=True)

    def _revive(self, record: TableRecord) -> Table:
        game = load(record.game)
        state = game.state_from_json(record.state)
        if state.to_json() != record.state:  # the stored JSON is canonical: anything else is corruption
            raise RuntimeError(f"table {record.id}: stored state is not canonical")
        bots = {s: parse_bot(spec) for s, spec in enumerate(record.seats) if spec != "human"}
        return Table(record, game, state, bots)

    async def table(self, table_id: str) -> Table | None:
        table = self.tables.get(table_id)
        if table is None and 0 < len(table_id) <= 64:
            record = await self.db(self.storage.get, table_id)
            if record is not None:
                table = self.tables.setdefault(table_id, self._revive(record))
        return table

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- lobby

    async def create(
        self, game_text: Any, seats: Any, private: bool = False, start: str | None = None
    ) -> tuple[str, dict[str, str]]:
        """A new table dealt from a seed drawn from ``secrets``. ``start`` (Python callers only, never
        the HTTP API) starts it from a given state JSON instead, e.g. a ``setup`` position."""
        if not isinstance(game_text, str) or len(game_text) > 500:
            raise MoveError("'game' must be a game string such as 'escoba(variant=escoba,players=4)'")
        try:
            game = load(game_text)
        except TapeteError as error:
            raise MoveError(f"bad game: {error}") from None
        if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
            raise MoveError("'seats' must be a list of 'human' or bot specs, one per seat")
        if len(seats) != game.num_players:
            raise MoveError(f"{game} has {game.num_players} seats, but 'seats' lists {len(seats)}")
        bots: dict[int, Bot] = {}
        for seat, spec in enumerate(seats):
            if spec != "human":
                try:
                    bots[seat] = parse_bot(spec)
                except TapeteError as error:
                    raise MoveError(f"seat {seat}: {error}") from None
        async with self._create_lock:
            active = sum(1 for t in self.tables.values() if not t.record.terminal)
            if active >= self.config.max_tables:
                raise MoveError(f"this server holds its limit of {self.config.max_tables} unfinished tables")
            seed = secrets.randbits(64)  # never a counter: a known seed would give away every hand
            state = game.new_state(seed=seed) if start is None else game.state_from_json(start)
            tokens = {s: secrets.token_urlsafe(24) for s in range(len(seats)) if s not in bots}
            record = TableRecord(
                id=secrets.token_urlsafe(9),
                game=str(game),
                seats=list(seats),
                seed=seed,
                token_hashes=[_hash(tokens[s]) if s in tokens else None for s in range(len(seats))],
                taken=[s in bots for s in range(len(seats))],
                private=bool(private),
                start=state.to_json(),
                state=state.to_json(),
            )
            await self.db(self.storage.create_table, record)
            table = Table(record, game, state, bots)
            self.tables[record.id] = table
        log.info("table %s created: %s, seats %s", record.id, record.game, ",".join(record.seats))
        self._after_commit(table)
        return record.id, {str(s): t for s, t in tokens.items()}

    async def join(self, table: Table, seat: Any) -> tuple[int, str]:
        """A new token for a human seat nobody has taken (nor connected to); the seat's earlier token stops working."""
        async with table.lock:
            if table.record.private:
                raise MoveError("this table is private: its seats are joined only with the tokens given at creation")
            open_seats = [s for s, taken in enumerate(table.record.taken) if not taken]
            if seat is None:
                if not open_seats:
                    raise MoveError("no open seat at this table")
                seat = open_seats[0]
            if isinstance(seat, bool) or not isinstance(seat, int) or seat not in open_seats:
                raise MoveError(f"seat {str(seat)[:12]} is not an open seat: open seats are {open_seats}")
            token = secrets.token_urlsafe(24)
            record = table.record
            record.token_hashes[seat] = _hash(token)
            record.taken[seat] = True
            await self.db(self._store_seat, record)
        log.info("table %s: seat %d joined", table.id, seat)
        return seat, token

    def _store_seat(self, record: TableRecord) -> None:
        # the token hash and the taken flags move together
        self.storage.set_taken(record.id, record.taken)
        self.storage.set_token_hashes(record.id, record.token_hashes)

    def seat_of(self, table: Table, token: str) -> int | None:
        """The seat whose token this is, comparing against every seat in constant time."""
        digest = _hash(token)
        found = None
        for seat, stored in enumerate(table.record.token_hashes):
            if stored is not None and hmac.compare_digest(digest, stored):
                found = seat
        return found

    def listing(self) -> list[dict[str, Any]]:
        return [
            {
                "table": t.id,
                "game": t.record.game,
                "seats": t.record.seats,
                "moves": t.record.moves,
                "terminal": t.record.terminal,
                "open_seats": [] if t.record.private else [s for s, k in enumerate(t.record.taken) if not k],
            }
            for t in sorted(self.tables.values(), key=lambda t: (t.record.created, t.id))
        ]

    # -- play

    async def play(self, table: Table, seat: int, action: int | str, expect: int | None = None) -> bool:
        """Validate, commit, then announce one action of ``seat``. ``expect``: the move count a bot
        or timeout chose at; if the table moved on since, nothing happens (False)."""
        async with table.lock:
            if expect is not None and table.record.moves != expect:
                return False
            state = table.state
            if state.is_terminal():
                raise MoveError("the game is over")
            to_move = int(state.current_player())
            if to_move != seat:
                raise MoveError(f"not your turn: seat {to_move} is to move")
            action_id = self._resolve(state, action)
            after = state.clone()
            after.apply(action_id)
            text = after.to_json()
            n = table.record.moves
            terminal = bool(after.is_terminal())
            try:
                await self.db(self.storage.append, table.id, n, seat, action_id, text, terminal)
            except ConflictError:
                log.error("table %s: stored move count is not %d; move refused", table.id, n)
                raise MoveError("the table changed under this move; nothing was played") from None
            table.state = after
            table.record.moves = n + 1
            table.record.terminal = terminal
            table.record.state = text
            if terminal:
                log.info("table %s finished after %d moves", table.id, n + 1)
            self._announce(table)
        self._after_commit(table)
        return True

    @staticmethod
    def _resolve(state: Any, action: int | str) -> int:
        legal = state.legal_actions()
        if isinstance(action, str):
            if len(action) > 100:
                raise MoveError("an action's notation is at most 100 characters")
            try:
                action_id = int(state.string_to_action(action))
            except TapeteError as error:
                raise MoveError(f"bad action {action!r}: {error}") from None
        else:
            action_id = action
        if action_id not in legal:
            shown = action if isinstance(action, str) else str(action)[:20]
            raise MoveError(f"illegal action {shown!r}: pick one of the legal actions you were sent")
        return int(action_id)

    def _announce(self, table: Table) -> None:
        """Queue the new state for every client of the table (called under the table's lock, so
        frames go out in commit order)."""
        cache: dict[int | None, str] = {}
        for client in table.clients:
            if client.seat not in cache:
                cache[client.seat] = dumps(table.message_for(client.seat))
            client.queue.put_nowait(cache[client.seat])

    def _after_commit(self, table: Table) -> None:
        """Schedule the next bot move, or the timeout of the human seat to move."""
        if table.timer is not None:
            table.timer.cancel()
            table.timer = None
        if table.state.is_terminal():
            return
        seat = int(table.state.current_player())
        moves = table.record.moves
        if seat in table.bots:
            self._spawn(self._bot_move(table, seat, moves))
        elif self.config.move_timeout > 0:
            table.timer = asyncio.ensure_future(self._timeout(table, seat, moves))

    async def _bot_move(self, table: Table, seat: int, moves: int) -> None:
        if self.config.bot_delay > 0:
            await asyncio.sleep(self.config.bot_delay)
        snapshot = table.state.for_seat(seat)  # the seat's own knowledge, a copy, off the loop
        loop = asyncio.get_running_loop()
        try:
            action = await loop.run_in_executor(self._bots, table.bots[seat], snapshot)
            await self.play(table, seat, action, expect=moves)
        except (MoveError, TapeteError) as error:
            log.error("table %s: bot at seat %d failed: %s", table.id, seat, type(error).__name__)

    async def _timeout(self, table: Table, seat: int, moves: int) -> None:
        await asyncio.sleep(self.config.move_timeout)
        table.timer = None
        action = random.Random(secrets.randbits(64)).choice(table.state.legal_actions())
        with contextlib.suppress(MoveError):
            if await self.play(table, seat, action, expect=moves):
                log.info("table %s: seat %d timed out; a random legal move was played", table.id, seat)

    # -- replay

    def replay(self, record: TableRecord) -> dict[str, Any]:
        """A finished game move by move from the database: its first state and actions are played
        again and must reach the stored state byte for byte; what goes out is the public view
        after each move (never the seed, the actions' text or a hidden card)."""
        actions = self.storage.actions(record.id)
        game = load(record.game)
        state = game.state_from_json(record.start)
        steps: list[dict[str, Any]] = [{"seat": None, "view": public_view(state)}]
        for n, (index, seat, action) in enumerate(actions):
            if index != n or int(state.current_player()) != seat:
                raise RuntimeError(f"table {record.id}: stored actions are not in order")
            state.apply(action)
            steps.append({"seat": seat, "view": public_view(state)})
        if state.to_json() != record.state:
            raise RuntimeError(f"table {record.id}: the replay does not reach the stored state")
        return {
            "table": record.id,
            "game": record.game,
            "seats": record.seats,
            "moves": len(actions),
            "returns": [float(r) for r in state.returns()],
            "steps": steps,
        }


# -- HTTP and WebSocket front


def _error(status: int, text: str) -> JSONResponse:
    return JSONResponse({"error": text}, status_code=status)


async def _body(request: Request) -> Any:
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY_BYTES:
            raise MoveError(f"request body over {MAX_BODY_BYTES} bytes")
    try:
        return json.loads(raw or b"{}")
    except ValueError:
        raise MoveError("malformed JSON body") from None


def _origin_ok(websocket: WebSocket, allowed: tuple[str, ...]) -> bool:
    """Browsers send Origin: it must be this server's own (or listed). Clients that send none
    (bots, scripts) are not browsers and carry no ambient credentials."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    if origin in allowed:
        return True
    return urlparse(origin).netloc == websocket.headers.get("host", "")


def create_app(storage: Storage, config: Config | None = None) -> Starlette:
    redact.install()
    server = Server(storage, config)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await server.start()
        yield
        await server.stop()

    async def games(request: Request) -> Response:
        result = []
        for name in GAMES:
            example = load(f"{name}()")
            result.append(
                {
                    "name": name,
                    "example": str(example),
                    "players": example.num_players,
                    "variants": sorted(_options.spec(name).presets),
                }
            )
        return JSONResponse({"games": result})

    async def game_info(request: Request) -> Response:
        text = request.query_params.get("game", "")
        if len(text) > 500:
            return _error(400, "game string too long")
        try:
            game = load(text)
        except TapeteError as error:
            return _error(400, f"bad game: {error}")
        return JSONResponse({"game": str(game), "players": game.num_players})

    async def tables(request: Request) -> Response:
        if request.method == "GET":
            return JSONResponse({"tables": server.listing()})
        try:
            body = await _body(request)
            if not isinstance(body, dict):
                raise MoveError('expected a JSON object: {"game": ..., "seats": [...]}')
            table_id, tokens = await server.create(body.get("game"), body.get("seats"), bool(body.get("private")))
        except MoveError as error:
            status = 503 if "limit" in str(error) else 400
            return _error(status, str(error))
        return JSONResponse({"table": table_id, "tokens": tokens}, status_code=201)

    async def table_view(request: Request) -> Response:
        table = await server.table(request.path_params["table"])
        if table is None:
            return _error(404, "no such table")
        return JSONResponse(json.loads(dumps(table.message_for(None))))

    async def join(request: Request) -> Response:
        table = await server.table(request.path_params["table"])
        if table is None:
            return _error(404, "no such table")
        try:
            body = await _body(request)
            seat, token = await server.join(table, body.get("seat") if isinstance(body, dict) else None)
        except MoveError as error:
            return _error(409, str(error))
        return JSONResponse({"table": table.id, "seat": seat, "token": token})

    async def replay(request: Request) -> Response:
        table = await server.table(request.path_params["table"])
        if table is None:
            return _error(404, "no such table")
        if not table.record.terminal:
            return _error(409, "the game is not finished: a replay is given only for finished games")
        result = await server.db(server.replay, table.record)
        return JSONResponse(result)

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def table_page(request: Request) -> Response:
        return FileResponse(STATIC / "table.html")

    async def take(table: Table, seat: int | None) -> None:
        """A seat connected to is taken: nobody may join it any more."""
        if seat is not None and not table.record.taken[seat]:
            table.record.taken[seat] = True
            await server.db(storage.set_taken, table.id, table.record.taken)

    async def socket(websocket: WebSocket) -> None:
        await websocket.accept()

        async def refuse(text: str, code: int) -> None:
            await websocket.send_text(dumps(error_message(text)))
            await websocket.close(code=code)

        if not _origin_ok(websocket, server.config.allowed_origins):
            await refuse("origin not allowed", 4403)
            return
        table = await server.table(websocket.path_params["table"])
        if table is None:
            await refuse("no such table", 4404)
            return
        seat: int | None = None
        token = websocket.query_params.get("token")  # the deprecated form (docs/server.md)
        if token is not None:
            seat = server.seat_of(table, token)
            if seat is None:
                await refuse("wrong seat token", 4401)
                return
        client = Client(websocket, seat)
        async with table.lock:  # the first frame is the state at this commit, and the next one follows it
            table.clients.add(client)
            first = table.message_for(seat)
            if token is not None:
                first["deprecation"] = TOKEN_IN_URL
            client.queue.put_nowait(dumps(first))
            await take(table, seat)
        sender = asyncio.ensure_future(_send_loop(client))
        try:
            while True:
                frame = await websocket.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                raw = frame.get("text")
                if raw is None:
                    raw = frame.get("bytes") or b""
                try:
                    message = parse_client_message(raw)
                    if message["type"] == "ping":
                        client.queue.put_nowait(dumps({"type": "pong"}))
                        continue
                    if message["type"] == "hello":
                        if client.seat is not None:
                            raise ProtocolError(f"this socket already plays seat {client.seat}")
                        seat = server.seat_of(table, message["token"])
                        if seat is None:
                            client.close_code = 4401
                            client.queue.put_nowait(dumps(error_message("wrong seat token")))
                            break
                        async with table.lock:  # from this commit on, the seat's frames
                            client.seat = seat
                            client.queue.put_nowait(dumps(table.message_for(seat)))
                            await take(table, seat)
                        continue
                    if client.seat is None:
                        raise MoveError("spectators cannot move")
                    await server.play(table, client.seat, message["action"])
                except (ProtocolError, MoveError) as error:
                    client.queue.put_nowait(dumps(error_message(str(error))))
        except WebSocketDisconnect:
            pass
        finally:
            table.clients.discard(client)
            client.queue.put_nowait(None)
            with contextlib.suppress(Exception):
                await sender

    async def _send_loop(client: Client) -> None:
        ws = client.websocket
        while True:
            text = await client.queue.get()
            if text is None:
                break
            try:
                await ws.send_text(text)
            except Exception:
                break
        if ws.client_state == WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await ws.close(code=client.close_code)

    routes = [
        Route("/", page),
        Route("/table/{table}", table_page),
        Route("/api/games", games),
        Route("/api/game", game_info),
        Route("/api/tables", tables, methods=["GET", "POST"]),
        Route("/api/tables/{table}", table_view),
        Route("/api/tables/{table}/join", join, methods=["POST"]),
        Route("/api/tables/{table}/replay", replay),
        WebSocketRoute("/ws/{table}", socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.server = server
    app.state.started = time.time()
    return app


__all__ += ["MAX_MESSAGE_BYTES", "MoveError"]
