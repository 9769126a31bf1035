"""Steps of the resampling proofs that every game's tests take alike: the native and reference
resamples of one state agree, and a rebuilt deal replays legally."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any


def resampled_alike(native: Any, native_state: Any, reference_state: Any, seat: int, seed: int) -> Any:
    """The reference resample of ``seat``'s information set, once the native one is checked to be
    byte-identical, to read back unchanged in the ``native`` game, and to keep the seat's view."""
    ours, theirs = native_state.resample(seat, seed), reference_state.resample(seat, seed)
    assert ours.to_json() == theirs.to_json()
    assert native.state_from_json(ours.to_json()).to_json() == ours.to_json()
    assert theirs.view(seat) == reference_state.view(seat)
    return theirs


def resample_sweep(native: Any, reference: Any, positions: Iterable[tuple[int, Any]]) -> Iterator[tuple[int, Any, Any]]:
    """For each ``(seed, native position)`` and each seat p: p, the position's reference twin and
    its reference resample with seed ``seed * 31 + p``, checked by ``resampled_alike``."""
    for seed, a in positions:
        b = reference.state_from_json(a.to_json())
        for p in range(native.num_players):
            assert a.view(p) == b.view(p)
            yield p, b, resampled_alike(native, a, b, p, seed * 31 + p)


def replayed(rebuilt: tuple[Any, list[int]]) -> Any:
    """The state ``rebuild_deal``'s start reaches after its actions, every one of them legal."""
    start, actions = rebuilt
    for action in actions:
        assert action in start.legal_actions(), f"replayed action {action} is not legal"
        start.apply(action)
    return start
