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
