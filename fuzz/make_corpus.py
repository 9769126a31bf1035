"""Writes the committed seed corpus of the fuzz targets (fuzz/corpus/<target>/): real inputs of
every game the targets pick (fuzz/src/lib.rs, ``with_game!``), so that fuzzing starts from valid
states, setups, moves and action sequences. Run from the repository root with the package
importable: ``python fuzz/make_corpus.py``."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import tapete

# the games of with_game!, by the first byte of an input
PICKS = [
    ("Escoba", {}),
    ("Escoba", {"variant": "escoba", "players": 4}),
    ("Escoba", {"variant": "rubamazzo", "players": 3}),
    ("Mosca", {}),
    ("Mosca", {"players": 5}),
    ("MustaMaija", {}),
    ("MustaMaija", {"players": 2}),
    ("Burako", {}),
]
ROOT = Path(__file__).parent / "corpus"


def write(target: str, data: bytes) -> None:
    folder = ROOT / target
    folder.mkdir(parents=True, exist_ok=True)
    (folder / hashlib.sha1(data).hexdigest()[:16]).write_bytes(data)


def main() -> None:
    rng = random.Random(0)
    for pick, (cls, options) in enumerate(PICKS):
        game = getattr(tapete, cls)(**options)
        for seed in range(3):
            state = game.new_state(seed)
            ids: list[int] = []
            for step in range(rng.choice([0, 5, 40, 400])):
                if state.is_terminal():
                    break
                legal = state.legal_actions()
                if step < 12:
                    write("notation", bytes([pick, seed]) + state.action_to_string(legal[0]).encode())
                a = rng.choice(legal)
                ids.append(a)
                state.apply(a)
            write("state_from_json", bytes([pick]) + state.to_json().encode())
            ids_bytes = b"".join(a.to_bytes(2, "little") for a in ids)
            write("actions", bytes([pick]) + seed.to_bytes(2, "little") + ids_bytes)
        # setup: the hands of a dealt state (accepted or not, a realistic shape to start from)
        d = json.loads(game.new_state(0).to_json())
        hands = d.get("hands") or d.get("racks")
        key = "hands" if "hands" in d else "racks"
        for spec in ({key: hands}, {}, {key: hands, "seed": 3}):
            write("setup", bytes([pick]) + json.dumps(spec).encode())


if __name__ == "__main__":
    main()
