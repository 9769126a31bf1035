"""Load test of ``tapete serve``, on loopback only and bounded: N concurrent tables of a client
against a server-side bot, each client playing a fixed number of moves over its WebSocket.

    python bench/server_load.py --tables 200 --moves 20

Prints moves per second, p50/p99 move latency (a client's send to the frame that shows its move
committed), errors (must be 0), and lost or duplicated actions (must be 0), checked against the
database: every table's stored actions are the ones its client saw committed, and replaying them
from the stored first state gives the stored state byte for byte.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def post(url: str, body: dict) -> dict:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"content-type": "application/json"})
    return json.load(urllib.request.urlopen(request, timeout=30))


async def play(port: int, table: str, token: str, moves: int, seed: int, latencies: list[float]) -> dict:
    import websockets

    rng = random.Random(seed)
    mine: list[int] = []
    errors = 0
    async with websockets.connect(f"ws://127.0.0.1:{port}/ws/{table}", max_size=2**20) as ws:
        await ws.recv()  # the spectator's frame, until the hello says whose socket this is
        await ws.send(json.dumps({"type": "hello", "token": token}))
        message = json.loads(await ws.recv())
        sent_at = None
        while len(mine) < moves and not message["terminal"]:
            if message["type"] == "error":
                errors += 1
                break
            if message["to_move"] == 0 and sent_at is None:
                action = rng.choice(message["legal"])[0]
                committed = message["moves"]
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "move", "action": action}))
            message = json.loads(await asyncio.wait_for(ws.recv(), 30))
            if sent_at is not None and message["type"] == "state" and message["moves"] > committed:
                latencies.append(time.perf_counter() - sent_at)
                mine.append(committed)  # the index our action took
                sent_at = None
    return {"table": table, "mine": mine, "errors": errors}


def check_database(db: str, results: list[dict]) -> tuple[int, int, int]:
    """(lost, duplicated, diverged): client-committed actions missing from the database, indices
    stored twice, and tables whose replay does not give the stored state."""
    sys.path.insert(0, str(ROOT / "python"))
    import tapete

    connection = sqlite3.connect(db)
    lost = duplicated = diverged = 0
    for result in results:
        game, start, state, moves = connection.execute(
            "SELECT game, start, state, moves FROM tables WHERE id = ?", (result["table"],)
        ).fetchone()
        rows = connection.execute(
            "SELECT n, seat, action FROM actions WHERE table_id = ? ORDER BY n", (result["table"],)
        ).fetchall()
        indices = [n for n, _, _ in rows]
        duplicated += len(indices) - len(set(indices))
        lost += moves - len(set(indices)) + sum(1 for n in result["mine"] if n not in indices or rows[n][1] != 0)
        replay = tapete.load(game).state_from_json(start)
        for _, _, action in rows:
            replay.apply(action)
        diverged += replay.to_json() != state
    connection.close()
    return lost, duplicated, diverged


async def run(args: argparse.Namespace, port: int) -> tuple[list[dict], list[float], float]:
    base = f"http://127.0.0.1:{port}"
    tables = [
        post(base + "/api/tables", {"game": args.game, "seats": ["human", "bot:random"]}) for _ in range(args.tables)
    ]
    latencies: list[float] = []
    start = time.perf_counter()
    results = await asyncio.gather(
        *(play(port, t["table"], t["tokens"]["0"], args.moves, i, latencies) for i, t in enumerate(tables)),
        return_exceptions=True,
    )
    elapsed = time.perf_counter() - start
    clean = []
    for result, table in zip(results, tables):
        if isinstance(result, BaseException):
            clean.append({"table": table["table"], "mine": [], "errors": 1, "exception": repr(result)})
        else:
            clean.append(result)
    return clean, latencies, elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--moves", type=int, default=20, help="client moves per table (fewer if the game ends)")
    parser.add_argument("--game", default="escoba(players=2)")
    parser.add_argument("--db", default=None, help="database (default: a fresh SQLite file)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    workdir = tempfile.mkdtemp(prefix="tapete-load-")
    db = args.db or os.path.join(workdir, "load.sqlite3")
    port = free_port()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "python"), os.environ.get("PYTHONPATH", "")]))
    command = [sys.executable, "-m", "tapete.server", "--db", db, "--port", str(port), "--bot-delay", "0"]
    command += ["--max-tables", str(max(1000, args.tables))]
    log = open(os.path.join(workdir, "server.log"), "wb")
    server = subprocess.Popen(command, stdout=log, stderr=log, env=env)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables", timeout=1).read()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit("the server did not start") from None
                time.sleep(0.1)
        results, latencies, elapsed = asyncio.run(asyncio.wait_for(run(args, port), 600))
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            server.kill()
    lost, duplicated, diverged = check_database(db, results)
    client_moves = sum(len(r["mine"]) for r in results)
    connection = sqlite3.connect(db)
    (all_moves,) = connection.execute("SELECT COUNT(*) FROM actions").fetchone()
    connection.close()
    quantiles = statistics.quantiles(latencies, n=100) if len(latencies) > 1 else [0.0] * 99
    report = {
        "game": args.game,
        "tables": args.tables,
        "client_moves": client_moves,
        "all_moves": all_moves,
        "seconds": round(elapsed, 3),
        "client_moves_per_second": round(client_moves / elapsed, 1),
        "all_moves_per_second": round(all_moves / elapsed, 1),
        "latency_p50_ms": round(quantiles[49] * 1000, 2),
        "latency_p99_ms": round(quantiles[98] * 1000, 2),
        "errors": sum(r["errors"] for r in results),
        "lost": lost,
        "duplicated": duplicated,
        "replay_mismatches": diverged,
    }
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        for key, value in report.items():
            print(f"{key:>24}: {value}")
    ok = report["errors"] == report["lost"] == report["duplicated"] == report["replay_mismatches"] == 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
