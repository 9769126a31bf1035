"""``tapete serve``: a game server with a browser table, per-seat secrecy and write-ahead storage.

Needs the ``server`` extra (``pip install 'tapete[server]'``; PostgreSQL also ``tapete[postgres]``).
The protocol is documented in docs/server.md.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence

__all__ = ["main", "build_parser"]

DEFAULT_DB = "tapete.sqlite3"

#: The levels ``--log-level`` takes, as uvicorn names them (``trace`` is below ``debug``).
LOG_LEVELS = {"critical": 50, "error": 40, "warning": 30, "info": 20, "debug": 10, "trace": 5}


def build_parser(parser: argparse.ArgumentParser | None = None) -> argparse.ArgumentParser:
    """The options of ``tapete serve`` (on ``parser`` when given, e.g. a CLI subcommand)."""
    if parser is None:
        parser = argparse.ArgumentParser(prog="tapete serve", description="Serve games to browsers and bots.")
    parser.add_argument("--db", default=DEFAULT_DB, help=f"SQLite file or postgresql:// URL (default {DEFAULT_DB})")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--max-tables", type=int, default=1000, help="unfinished tables the server holds at most")
    parser.add_argument(
        "--move-timeout", type=float, default=0.0, help="seconds before a random move is played for a human (0: never)"
    )
    parser.add_argument("--bot-delay", type=float, default=0.6, help="seconds a bot waits before it moves")
    parser.add_argument("--allow-origin", action="append", default=[], help="an extra allowed WebSocket Origin")
    parser.add_argument(
        "--log-level",
        choices=list(LOG_LEVELS),
        default="info",
        help="the server's and uvicorn's log level (default info); tokens and frames are never logged",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the server until interrupted."""
    args = build_parser().parse_args(argv)
    try:
        import uvicorn

        from . import redact
        from .app import Config, create_app
        from .storage import open_storage
    except ImportError as error:
        print(f"tapete serve needs the server extra: pip install 'tapete[server]' ({error})", file=sys.stderr)
        return 2
    redact.install()  # before the first record: no logger of this process writes a token or a frame
    level = LOG_LEVELS[args.log_level]
    logging.addLevelName(LOG_LEVELS["trace"], "TRACE")
    logging.basicConfig(level=level, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    config = Config(
        max_tables=args.max_tables,
        move_timeout=args.move_timeout,
        bot_delay=args.bot_delay,
        allowed_origins=tuple(args.allow_origin),
    )
    app = create_app(open_storage(args.db), config)
    print(f"tapete serve: http://{args.host}:{args.port}/  (database {_shown_db(args.db)})", file=sys.stderr)
    # no access log: it adds nothing a table's own lines do not say, and a deprecated client's
    # request line carries its token (redacted all the same)
    uvicorn.run(app, host=args.host, port=args.port, access_log=False, ws_max_size=65536, log_level=args.log_level)
    return 0


def _shown_db(url: str) -> str:
    """The database as logs may show it: without a password."""
    from urllib.parse import urlparse

    parts = urlparse(url)
    if parts.password:
        return url.replace(f":{parts.password}@", ":***@")
    return url


if __name__ == "__main__":
    sys.exit(main())
