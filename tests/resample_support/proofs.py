"""Steps of the resampling proofs that every game's tests take alike: the native and reference
resamples of one state agree, and a rebuilt deal replays legally."""

from __future__ import annotations

from typing import Any


def resampled_alike(native: Any, native_state: Any, reference_state: Any, seat: int, seed: int) -> Any:
    """The reference resample of ``seat``'s information set, once the native one is checked to be
    byte-identical, to read back unchanged in the ``native`` game, and to keep the seat's view."""
    ours, theirs = native_state.resample(seat, seed), reference_state.resample(seat, seed)
    assert ours.to_json() == theirs.to_json()
    assert native.state_from_json(ours.to_json()).to_json() == ours.to_json()
    assert theirs.view(seat) == reference_state.view(seat)
    return theirs


def replayed(rebuilt: tuple[Any, list[int]]) -> Any:
    """The state ``rebuild_deal``'s start reaches after its actions, every one of them legal."""
    start, actions = rebuilt
    for action in actions:
        assert action in start.legal_actions(), f"replayed action {action} is not legal"
        start.apply(action)
    return start
