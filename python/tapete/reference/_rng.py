"""SplitMix64, the one random stream of every tapete engine (docs/design.md §5).

The native engines implement the very same generator, so a seed and a sequence of actions give the
same game in both. Every random choice a game makes (the first dealer, every shuffle) is drawn from
one stream held in the state and serialised with it (``state`` is the 64-bit counter ``x``).

    next():     x = (x + 0x9E3779B97F4A7C15) mod 2^64
                z = x; z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) mod 2^64
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) mod 2^64; return z ^ (z >> 31)
    below(n):   next() mod n
    shuffle(a): for i from len(a)-1 down to 1: j = next() mod (i+1); swap a[i], a[j]
"""

from __future__ import annotations

from collections.abc import MutableSequence

__all__ = ["SplitMix64", "MASK64"]

MASK64 = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15
_MUL1 = 0xBF58476D1CE4E5B9
_MUL2 = 0x94D049BB133111EB


class SplitMix64:
    """The SplitMix64 generator; ``state`` is the counter x, an int in 0 .. 2^64-1."""

    __slots__ = ("_x",)

    def __init__(self, seed: int = 0) -> None:
        self.state = seed

    @property
    def state(self) -> int:
        return self._x

    @state.setter
    def state(self, value: int) -> None:
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MASK64:
            raise ValueError(f"SplitMix64 state must be an int in 0..2^64-1, got {value!r}")
        self._x = value

    def next(self) -> int:
        """The next 64-bit output."""
        self._x = (self._x + _GAMMA) & MASK64
        z = self._x
        z = ((z ^ (z >> 30)) * _MUL1) & MASK64
        z = ((z ^ (z >> 27)) * _MUL2) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A draw in 0 .. n-1, as ``next() mod n`` (the slight modulo bias is part of the spec)."""
        if n <= 0:
            raise ValueError("below(n) needs n >= 1")
        return self.next() % n

    def shuffle(self, items: MutableSequence) -> None:
        """Fisher-Yates in place, from the last index down; afterwards ``items[0]`` is the top."""
        for i in range(len(items) - 1, 0, -1):
            j = self.next() % (i + 1)
            items[i], items[j] = items[j], items[i]

    def clone(self) -> SplitMix64:
        return SplitMix64(self._x)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SplitMix64) and other._x == self._x

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"SplitMix64(state={self._x})"
