"""Card multisets for the 80-card double pack (docs/escoba_engine.md §1a), reference side.

``Bag`` stands in for the ``set`` of card ids that hands, table and piles are with one pack, with
the same methods the engine uses; iteration is ascending with a twin twice, ``len`` counts copies,
``|`` adds copies and ``-`` removes them. It is used only under ``deck = double_italian80``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator


class Bag:
    __slots__ = ("_n",)

    def __init__(self, cards: Iterable[int] = ()) -> None:
        self._n: dict[int, int] = {}
        for c in cards:
            self.add(c)

    def add(self, c: int) -> None:
        self._n[c] = self._n.get(c, 0) + 1

    def discard(self, c: int) -> None:
        k = self._n.get(c, 0)
        if k > 1:
            self._n[c] = k - 1
        elif k:
            del self._n[c]

    def count(self, c: int) -> int:
        return self._n.get(c, 0)

    def copy(self) -> Bag:
        b = Bag()
        b._n = dict(self._n)
        return b

    def __contains__(self, c: object) -> bool:
        return c in self._n

    def __iter__(self) -> Iterator[int]:
        return iter([c for c in sorted(self._n) for _ in range(self._n[c])])

    def __len__(self) -> int:
        return sum(self._n.values())

    def __bool__(self) -> bool:
        return bool(self._n)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (Bag, set, frozenset, list, tuple)):
            return list(self) == sorted(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __or__(self, other: Iterable[int]) -> Bag:
        b = self.copy()
        for c in other:
            b.add(c)
        return b

    __ror__ = __or__

    def __ior__(self, other: Iterable[int]) -> Bag:
        for c in list(other):
            self.add(c)
        return self

    def __sub__(self, other: Iterable[int]) -> Bag:
        b = self.copy()
        for c in other:
            b.discard(c)
        return b

    def __isub__(self, other: Iterable[int]) -> Bag:
        for c in list(other):
            self.discard(c)
        return self

    def __and__(self, other: Iterable[int]) -> Bag:
        o = Bag(other)
        return Bag(c for c in self._n for _ in range(min(self._n[c], o.count(c))))

    def __repr__(self) -> str:
        return f"Bag({list(self)})"
