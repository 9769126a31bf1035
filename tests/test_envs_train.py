"""The training example (examples/train_escoba.py) runs its first few hundred steps."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "train_escoba.py"


def test_training_example_smoke(tmp_path):
    spec = importlib.util.spec_from_file_location("train_escoba", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    png = tmp_path / "curve.png"
    args = [
        "--updates",
        "3",
        "--num-envs",
        "8",
        "--steps",
        "16",
        "--minibatch",
        "64",
        "--report-every",
        "1",
        "--eval-matches",
        "16",
    ]
    curve = module.main([*args, "--heuristic-updates", "1", "--threads", "1", "--plot", str(png)])
    # 3 updates of 8 envs x 16 steps: 384 learner steps; a point per update that finished a match,
    # and one at the end
    steps = [point[0] for point in curve if point[2] == "random"]
    assert steps[-1] == 384 and all(s % 128 == 0 for s in steps)
    assert all(0.0 <= point[1] <= 1.0 or point[1] != point[1] for point in curve)
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return
    assert png.stat().st_size > 0
