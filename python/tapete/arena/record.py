"""``arena(record=DIR)``: every game's deal seed, seats, actions and returns, one part per batch.

A part is written to a temporary name and renamed when complete, under a name fixed by its
batch: a batch run again (a Ray retry after a worker died) replaces its part, so each game is
kept once and no part is ever half written.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from .runner import Plan


def _has_pyarrow() -> bool:
    try:
        import pyarrow  # noqa: F401
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        return False
    return True


def prepare(path: str | os.PathLike[str]) -> str:
    """The record directory, made if missing; one that already holds parts is refused (two runs'
    games would mix)."""
    from ..errors import InvalidOptionError

    p = Path(path)
    if p.exists() and (not p.is_dir() or any(p.glob("part-*"))):
        raise InvalidOptionError(f"record: {str(p)!r:.80} must be a new or empty directory")
    p.mkdir(parents=True, exist_ok=True)
    return str(p)


def play_recorded(plan: Plan, g0: int, g1: int, directory: str) -> dict[str, np.ndarray]:
    """Plays groups ``g0..g1`` in this process, keeping each game's actions, and writes the part."""
    from ..bots import as_bot
    from ..games import seat_seed

    n, size, seats = g1 - g0, plan.group_size, len(plan.sides)
    returns = np.zeros((n, size, seats))
    scores = np.zeros((n, size, seats), dtype=np.int64)
    rows: list[dict[str, Any]] = []
    for i in range(n):
        deal = plan.deal_seed(g0 + i)
        for j, lineup in enumerate(plan.lineups):
            seat_bots = plan.seat_bots(lineup)
            players = [as_bot(b, seat_seed(deal, p)) if isinstance(b, str) else b for p, b in enumerate(seat_bots)]
            state = plan.game.new_state(seed=deal)
            while not state.is_terminal():
                p = state.current_player()
                state.apply(players[p].act(state.for_seat(p)))
            returns[i, j] = state.returns()
            scores[i, j] = state.scores()
            rows.append(
                {
                    "group": g0 + i,
                    "seating": j,
                    "deal_seed": deal,
                    "bots": [plan.names[lineup[s]] for s in plan.sides],
                    "actions": [int(a) for a in state.history()],
                    "returns": [float(x) for x in returns[i, j]],
                    "scores": [int(x) for x in scores[i, j]],
                }
            )
    write_part(directory, g0, g1, rows, str(plan.game))
    return {"returns": returns, "scores": scores}


def write_part(directory: str, g0: int, g1: int, rows: list[dict[str, Any]], game: str) -> str:
    stem = os.path.join(directory, f"part-{g0:012d}-{g1:012d}")
    if _has_pyarrow():
        import pyarrow as pa
        import pyarrow.parquet as pq

        table = pa.Table.from_pylist(rows).replace_schema_metadata({"game": game})
        final = stem + ".parquet"
        tmp = f"{final}.tmp-{os.getpid()}"
        pq.write_table(table, tmp)
    else:
        final = stem + ".ndjson"
        tmp = f"{final}.tmp-{os.getpid()}"
        with open(tmp, "w", encoding="utf-8") as f:
            for row in rows:
                f.write(json.dumps({"game": game, **row}) + "\n")
    os.replace(tmp, final)
    return final


def remove_part(directory: str, g0: int, g1: int) -> None:
    for suffix in (".parquet", ".ndjson"):
        Path(directory, f"part-{g0:012d}-{g1:012d}{suffix}").unlink(missing_ok=True)


def read_record(path: str | os.PathLike[str]) -> Iterator[dict[str, Any]]:
    """The recorded games of a directory, in deal order (Parquet and NDJSON parts alike)."""
    for part in sorted(Path(path).glob("part-*")):
        if part.suffix == ".parquet":
            import pyarrow.parquet as pq

            table = pq.read_table(part)
            game = (table.schema.metadata or {}).get(b"game", b"").decode()
            for row in table.to_pylist():
                yield {"game": game, **row}
        elif part.suffix == ".ndjson":
            with open(part, encoding="utf-8") as f:
                for line in f:
                    yield json.loads(line)


def replay(row: dict[str, Any], game: Any) -> Any:
    """The final state of a recorded game, replayed from its deal seed and actions."""
    state = game.new_state(seed=int(row["deal_seed"]))
    for action in row["actions"]:
        state.apply(int(action))
    return state
