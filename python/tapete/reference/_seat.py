"""What one seat may know of a reference position: ``state.for_seat(p)`` (docs/bots.md §2).

The seat object keeps a copy of the state in closures, never in an attribute: nothing it exposes
returns the state, its JSON, its full history or its picture. Pure Python cannot seal an object
(its closures are reachable by introspection), so this is the reference engine's statement of
the protocol; the native engine's seat object keeps its state in Rust, out of Python's reach.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NoReturn

import numpy as np

__all__ = ["SeatState"]


class SeatState:
    """Seat ``seat``'s knowledge of a reference position at the moment ``for_seat`` was called."""

    __slots__ = ("seat", "game", "_ask")

    seat: int
    game: Any
    _ask: Callable[..., Any]

    def __init__(self, state: Any, seat: int) -> None:
        held = state.clone()

        def ask(name: str, *args: Any) -> Any:
            if name == "legal":
                return held.legal_actions() if held.current_player() == seat else []
            if name == "action_to_string":
                return held._seat_action_to_string(seat, *args)
            if name == "string_to_action":
                return held._seat_string_to_action(*args, seat)
            if name in ("view", "observation", "resample"):
                return getattr(held, name)(seat, *args)
            if name in ("public_view", "current_player", "is_terminal", "is_truncated", "returns", "scores", "deals"):
                return getattr(held, name)()
            raise AttributeError(name)

        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "game", state.game)
        object.__setattr__(self, "_ask", ask)

    def __setattr__(self, name: str, value: Any) -> NoReturn:
        raise AttributeError(f"a seat object is read-only (cannot set {name!r})")

    @property
    def num_players(self) -> int:
        return int(self.game.num_players)

    @property
    def num_distinct_actions(self) -> int:
        return int(self.game.num_distinct_actions)

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return tuple(self.game.observation_shape)

    def view(self) -> dict[str, Any]:
        return self._ask("view")

    def public_view(self) -> dict[str, Any]:
        return self._ask("public_view")

    def observation(self) -> np.ndarray:
        return self._ask("observation")

    def history(self) -> list[Any]:
        """The seat's record of the history: ``view()["history"]``, item for item."""
        return list(self.view()["history"])

    def current_player(self) -> int:
        return int(self._ask("current_player"))

    def is_terminal(self) -> bool:
        return bool(self._ask("is_terminal"))

    def is_truncated(self) -> bool:
        return bool(self._ask("is_truncated"))

    def returns(self) -> list[float]:
        return list(self._ask("returns"))

    def scores(self) -> list[int]:
        return list(self._ask("scores"))

    def deals(self) -> int:
        return int(self._ask("deals"))

    def legal_actions(self) -> list[int]:
        """The legal actions when this seat is to act, else ``[]``."""
        return list(self._ask("legal"))

    def legal_mask(self) -> np.ndarray:
        mask = np.zeros(self.num_distinct_actions, dtype=bool)
        mask[self.legal_actions()] = True
        return mask

    def action_to_string(self, action: Any) -> str:
        return str(self._ask("action_to_string", action))

    def string_to_action(self, text: Any) -> int:
        return int(self._ask("string_to_action", text))

    def resample(self, seed: Any) -> Any:
        """A state in this seat's information set, drawn with ``seed`` (docs/design.md §10)."""
        return self._ask("resample", seed)

    def __reduce__(self) -> NoReturn:
        raise TypeError("a seat object cannot be pickled or copied: it holds what its seat may not see")

    def __repr__(self) -> str:
        return f"<SeatState {self.game.name} seat={self.seat} to_move={self.current_player()}>"
