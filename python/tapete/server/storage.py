"""The server's one storage layer: SQLite by default, PostgreSQL by URL.

Write-ahead and exact: a table row holds the game string, the deal seed and the canonical state
JSON; every accepted action is appended to ``actions`` in the same transaction that advances the
row, guarded by the move count, so a crash leaves each table at its last committed action and a
finished game replays from its first state (``new_state(seed)``, stored with the seed) and the
actions alone.

The calls are synchronous; the app runs them on one worker thread, off the event loop.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlparse

__all__ = ["ConflictError", "Storage", "TableRecord", "open_storage"]

_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS tables (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        seats TEXT NOT NULL,
        seed TEXT NOT NULL,
        token_hashes TEXT NOT NULL,
        taken TEXT NOT NULL,
        private INTEGER NOT NULL,
        created DOUBLE PRECISION NOT NULL,
        start TEXT NOT NULL,
        state TEXT NOT NULL,
        moves INTEGER NOT NULL,
        terminal INTEGER NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS actions (
        table_id TEXT NOT NULL REFERENCES tables(id),
        n INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        action INTEGER NOT NULL,
        PRIMARY KEY (table_id, n)
    )""",
)

_COLUMNS = "id, game, seats, seed, token_hashes, taken, private, created, start, state, moves, terminal"


class ConflictError(Exception):
    """The stored table is not at the move count the caller expected (nothing was written)."""


@dataclass
class TableRecord:
    """One stored table. ``token_hashes[s]`` is the SHA-256 of seat s's token (None for a bot);
    ``start`` is the state JSON the table was dealt (``new_state(seed)``), ``state`` its state now."""

    id: str
    game: str
    seats: list[str]
    seed: int
    token_hashes: list[str | None]
    start: str
    state: str
    moves: int = 0
    terminal: bool = False
    taken: list[bool] = field(default_factory=list)
    private: bool = False
    created: float = field(default_factory=time.time)

    def row(self) -> tuple[Any, ...]:
        return (
            self.id,
            self.game,
            json.dumps(self.seats),
            str(self.seed),
            json.dumps(self.token_hashes),
            json.dumps(self.taken),
            int(self.private),
            self.created,
            self.start,
            self.state,
            self.moves,
            int(self.terminal),
        )

    @classmethod
    def from_row(cls, row: Sequence[Any]) -> TableRecord:
        return cls(
            id=row[0],
            game=row[1],
            seats=json.loads(row[2]),
            seed=int(row[3]),
            token_hashes=json.loads(row[4]),
            taken=json.loads(row[5]),
            private=bool(row[6]),
            created=float(row[7]),
            start=row[8],
            state=row[9],
            moves=int(row[10]),
            terminal=bool(row[11]),
        )


class Storage:
    """The SQL both backends share, written with ``?`` placeholders."""

    placeholder = "?"

    def __init__(self, connection: Any) -> None:
        self._db = connection
        self._lock = threading.Lock()  # one statement sequence at a time, whatever the caller's thread
        with self._lock:
            for statement in _SCHEMA:
                self._execute(statement)
            self._db.commit()

    def _sql(self, text: str) -> str:
        return text if self.placeholder == "?" else text.replace("?", self.placeholder)

    def _execute(self, text: str, args: Sequence[Any] = ()) -> Any:
        cursor = self._db.cursor()
        cursor.execute(self._sql(text), tuple(args))
        return cursor

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """Holds the lock; commits what the block wrote, or rolls it all back if it raises."""
        with self._lock:
            try:
                yield
                self._db.commit()
            except BaseException:
                self._db.rollback()
                raise

    def create_table(self, record: TableRecord) -> None:
        with self._transaction():
            self._execute(f"INSERT INTO tables ({_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", record.row())

    def append(self, table_id: str, n: int, seat: int, action: int, state: str, terminal: bool) -> None:
        """Append action number ``n`` and advance the table to ``state``, in one transaction."""
        with self._transaction():
            cursor = self._execute(
                "UPDATE tables SET state = ?, moves = ?, terminal = ? WHERE id = ? AND moves = ?",
                (state, n + 1, int(terminal), table_id, n),
            )
            if cursor.rowcount != 1:
                raise ConflictError(f"table {table_id} is not at move {n}")
            self._execute(
                "INSERT INTO actions (table_id, n, seat, action) VALUES (?,?,?,?)", (table_id, n, seat, action)
            )

    def set_taken(self, table_id: str, taken: list[bool]) -> None:
        with self._transaction():
            self._execute("UPDATE tables SET taken = ? WHERE id = ?", (json.dumps(taken), table_id))

    def set_token_hashes(self, table_id: str, hashes: list[str | None]) -> None:
        with self._transaction():
            self._execute("UPDATE tables SET token_hashes = ? WHERE id = ?", (json.dumps(hashes), table_id))

    def get(self, table_id: str) -> TableRecord | None:
        with self._lock:
            row = self._execute(f"SELECT {_COLUMNS} FROM tables WHERE id = ?", (table_id,)).fetchone()
            self._db.commit()
        return None if row is None else TableRecord.from_row(row)

    def tables(self, unfinished_only: bool = False, limit: int = 10_000) -> list[TableRecord]:
        where = "WHERE terminal = 0 " if unfinished_only else ""
        with self._lock:
            rows = self._execute(
                f"SELECT {_COLUMNS} FROM tables {where}ORDER BY created, id LIMIT ?", (limit,)
            ).fetchall()
            self._db.commit()
        return [TableRecord.from_row(r) for r in rows]

    def count_unfinished(self) -> int:
        with self._lock:
            row = self._execute("SELECT COUNT(*) FROM tables WHERE terminal = 0").fetchone()
            self._db.commit()
        return int(row[0])

    def actions(self, table_id: str) -> list[tuple[int, int, int]]:
        """``(n, seat, action)`` of every committed action of the table, in order."""
        with self._lock:
            rows = self._execute(
                "SELECT n, seat, action FROM actions WHERE table_id = ? ORDER BY n", (table_id,)
            ).fetchall()
            self._db.commit()
        return [(int(n), int(s), int(a)) for n, s, a in rows]

    def close(self) -> None:
        with self._lock:
            self._db.close()


class SQLiteStorage(Storage):
    def __init__(self, path: str) -> None:
        connection = sqlite3.connect(path, check_same_thread=False, isolation_level="DEFERRED")
        # WAL with FULL sync: a commit is on disk before the move is announced
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=FULL")
        connection.execute("PRAGMA foreign_keys=ON")
        super().__init__(connection)


class PostgresStorage(Storage):
    placeholder = "%s"

    def __init__(self, url: str) -> None:
        try:
            import psycopg
        except ImportError as error:  # pragma: no cover - depends on the install
            raise RuntimeError("a postgresql:// database needs psycopg: pip install 'tapete[postgres]'") from error
        super().__init__(psycopg.connect(url))


def open_storage(url: str) -> Storage:
    """``postgresql://…`` (or ``postgres://…``), ``sqlite:///path``, or a plain file path (SQLite)."""
    scheme = urlparse(url).scheme
    if scheme in ("postgresql", "postgres"):
        return PostgresStorage(url)
    if scheme == "sqlite":
        path = url[len("sqlite:///") :] if url.startswith("sqlite:///") else url[len("sqlite:") :]
        return SQLiteStorage(path or ":memory:")
    return SQLiteStorage(url)
