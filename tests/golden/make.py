"""Write the golden vectors (tests/golden/vectors.json): ``python tests/golden/make.py``.

The vectors are the code's own output at the time they were made, not values derived from the
rules: they freeze the formats that stored data depends on (docs/design.md §4.1), so that any
change to them, on any platform, is seen. Run this only for a deliberate change of a format, after
bumping ``tapete.FORMAT_VERSION`` and saying what changed in CHANGELOG.md.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np

import tapete
from tapete._options import spec
from tapete.registry import GAMES

PATH = Path(__file__).resolve().parent / "vectors.json"
SEED = 20260
STEPS = 60  # states along the line of play: the deal and the first decisions of each game
SIM_GAMES = 16
SIM_SEED = 7

ABOUT = [
    "Golden vectors: sha256 digests of what the native engine produced, for each game, preset and",
    "main option set, when this file was made (python tests/golden/make.py). They are taken from",
    "the code at that point in time, not from the rules: they freeze the state JSON, the action ids,",
    "the observation layout and the RNG stream (docs/design.md section 4.1), and tests/test_golden.py",
    "checks them on every platform. A deliberate change bumps tapete.FORMAT_VERSION, says so in",
    "CHANGELOG.md and regenerates this file. Per entry: 'states' (the JSON of each state along a",
    "fixed line of play from new_state(seed), one per line), 'legal' (their legal action ids),",
    "'observations' (every seat's float32 observation, little-endian), 'final' (the last state's",
    "JSON), 'simulate' (the arrays of simulate(game, games, seed): returns float64, scores, deals,",
    "decisions int64, finished uint8, little-endian, in that order).",
]


def option_sets() -> Iterator[tuple[str, dict[str, Any]]]:
    """Every game's presets, one by one, then its main option sets (``tapete.registry``)."""
    for name, info in GAMES.items():
        seen: list[dict[str, Any]] = []
        for preset in spec(name).presets:
            seen.append({"variant": preset})
        for options in info.option_sets:
            if dict(options) not in seen:
                seen.append(dict(options))
        for options in seen:
            yield name, options


def _digest(chunks: Iterator[bytes]) -> str:
    h = hashlib.sha256()
    for chunk in chunks:
        h.update(chunk)
    return h.hexdigest()


def vector(name: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """The digests of one option set of one game."""
    game = GAMES[name].native(**options)
    state = game.new_state(SEED)
    jsons, legal, observations = [], [], []
    for step in range(STEPS):
        jsons.append(state.to_json().encode())
        actions = state.legal_actions()
        legal.append(json.dumps(actions).encode())
        for seat in range(game.num_players):
            observations.append(np.ascontiguousarray(state.observation(seat), dtype="<f4").tobytes())
        if state.is_terminal():
            break
        # a fixed line of play through the legal actions, not always the first one
        state.apply(actions[(step * 7 + 3) % len(actions)])
    result = tapete.simulate(game, games=SIM_GAMES, seed=SIM_SEED, threads=1)
    arrays = [
        result["returns"].astype("<f8"),
        result["scores"].astype("<i8"),
        result["deals"].astype("<i8"),
        result["decisions"].astype("<i8"),
        result["finished"].astype("u1"),
    ]
    return {
        "game": str(game),
        "states": len(jsons),
        "states_sha256": _digest(j + b"\n" for j in jsons),
        "legal_sha256": _digest(line + b"\n" for line in legal),
        "observations_sha256": _digest(iter(observations)),
        "final_sha256": hashlib.sha256(jsons[-1]).hexdigest(),
        "simulate_sha256": _digest(np.ascontiguousarray(a).tobytes() for a in arrays),
    }


def compute() -> dict[str, Any]:
    """The whole file's content, from the code as it is now."""
    entries = []
    versions = {}
    for name, options in option_sets():
        entries.append({"name": name, "options": options, **vector(name, options)})
        versions[name] = json.loads(GAMES[name].native().new_state(0).to_json())["version"]
    return {
        "_about": ABOUT,
        "format_version": tapete.FORMAT_VERSION,
        "state_json_version": versions,
        "seed": SEED,
        "steps": STEPS,
        "simulate": {"games": SIM_GAMES, "seed": SIM_SEED},
        "vectors": entries,
    }


def dumps(content: Mapping[str, Any]) -> str:
    return json.dumps(content, indent=1, sort_keys=False, ensure_ascii=False) + "\n"


def main() -> int:
    PATH.write_text(dumps(compute()), encoding="utf-8")
    print(f"wrote {PATH} (format version {tapete.FORMAT_VERSION})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
