"""Who wins a category (docs/rules/escoba.md §1.7 "Ties"): the side with strictly the most, or every
side tied at the top under ``category_tie_policy = all_tied``."""

from __future__ import annotations

from collections.abc import Sequence


def _most(values: Sequence[int], candidates: Sequence[int], opts: dict) -> list[int]:
    """The sides among ``candidates`` with strictly the most; a tie at the top gives nobody, or
    every tied side under ``category_tie_policy = all_tied``."""
    if not candidates:
        return []
    best = max(values[s] for s in candidates)
    top = [s for s in candidates if values[s] == best]
    if len(top) == 1 or opts["category_tie_policy"] == "all_tied":
        return top
    return []
