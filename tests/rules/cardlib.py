"""Card ids for the rules tests, written out from docs/design.md §4 (id = 13 * suit + rank index, suits
``c d h s``) rather than taken from the package's parser, so a wrong id mapping fails here too."""

from __future__ import annotations

RANKS = "A23456789TJQK"
SUITS = "cdhs"
PACK40 = [r + s for s in SUITS for r in "A234567JQK"]  # the 40-card pack, ascending id order
PACK52 = [r + s for s in SUITS for r in RANKS]  # the full pack, ascending id order


def cid(card: str) -> int:
    return 13 * SUITS.index(card[1].lower()) + RANKS.index(card[0].upper())


def rest_of(*groups, pack=PACK40) -> list[str]:
    """The cards of ``pack`` not in any of the groups, ascending id."""
    used = {c for g in groups for c in g}
    return [c for c in pack if c not in used]


M64 = (1 << 64) - 1


class SplitMix64:
    """docs/design.md §5, written from the spec for these tests."""

    def __init__(self, seed: int) -> None:
        self.x = seed & M64

    def next(self) -> int:
        self.x = (self.x + 0x9E3779B97F4A7C15) & M64
        z = self.x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        return z ^ (z >> 31)

    def shuffle(self, a: list) -> None:
        for i in range(len(a) - 1, 0, -1):
            j = self.next() % (i + 1)
            a[i], a[j] = a[j], a[i]
