"""The melds a rack could make that hold one given tile: the search behind
``pozo_take_requirement = must_use_top_tile_now`` (docs/burako_engine.md §7), which allows taking
the pozo only when its top tile can be melded at once."""

from __future__ import annotations

from collections.abc import Sequence

from .melds import ace_positions, max_run_length, wilds_allowed
from .tiles import JOKER, colour, is_two

__all__ = ["melds_containing"]


def _wild_supply(counts: Sequence[int], opts: dict, exclude_twos_of_number: bool = False) -> int:
    """Wild-capable tiles in ``counts``: jokers, and 2s when 2s are wild."""
    supply = counts[JOKER]
    if opts["twos_wild"] and not exclude_twos_of_number:
        supply += sum(counts[13 * c + 1] for c in range(4))
    return supply


def _run_windows(opts: dict) -> list[list[tuple[int, int, bool]]]:
    """Every window a run can fill: a list of ``(position, number, may a natural 1 sit here)``.

    Straight windows: L consecutive positions inside 1..14 (L up to the longest run), the 1 at
    position 1 (low) or 14 (high) as ``ace_position`` allows. With ``run_wrap``, also the windows
    that turn the corner 13-1-2: positions a..a+L-1 with a <= 13 < 15 <= a+L-1 and L <= 13,
    position q > 13 holding the number q - 13; the 1 at 14 there needs ``low_or_high``.
    """
    aces = ace_positions(opts)
    windows = []
    for L in range(3, max_run_length(opts) + 1):
        for a in range(1, 16 - L):
            windows.append([(q, 1 if q == 14 else q, q in aces) for q in range(a, a + L)])
    if opts["run_wrap"]:
        turn_ok = opts["ace_position"] == "low_or_high"
        for L in range(3, 14):
            for a in range(16 - L, 14):
                windows.append([(q, q if q <= 13 else q - 13, turn_ok) for q in range(a, a + L)])
    return windows


def melds_containing(u: int, counts: Sequence[int], opts: dict) -> dict[int, int]:
    """For every size L, the fewest wilds of a valid meld made of tiles from ``counts`` that holds
    a tile of type ``u`` (``counts`` includes it); sizes with no such meld are absent.

    Runs are found window by window: each position of a window of L consecutive positions in 1..14
    takes a natural of the colour when the rack has one, else a wild; piernas number by number.
    """
    best: dict[int, int] = {}

    def note(L: int, w: int, naturals: int) -> None:
        if naturals >= 1 and wilds_allowed(w, naturals, opts) and (L not in best or w < best[L]):
            best[L] = w

    twos_wild = opts["twos_wild"]
    u_is_wild_capable = u == JOKER or (twos_wild and is_two(u))
    # Runs
    for c in range(4):
        if u != JOKER and not (twos_wild and is_two(u)) and colour(u) != c:
            continue
        for window in _run_windows(opts):
            L = len(window)
            fill: dict[int, int] = {}  # position -> natural type
            ace_copies = counts[13 * c]
            two_at = 0  # the position of the number 2 in the window (0: it holds none)
            for q, n, ace_ok in window:
                if n == 1:
                    if ace_ok and ace_copies:
                        fill[q] = 13 * c
                        ace_copies -= 1
                elif counts[13 * c + n - 1]:
                    fill[q] = 13 * c + n - 1
                if n == 2:
                    two_at = q
            # u's role: natural at its position, or a wild
            options_for_u = []
            if u in fill.values():
                options_for_u.append("natural")
            if u_is_wild_capable:
                options_for_u.append("wild")
            for role in options_for_u:
                naturals = dict(fill)
                if role == "wild" and u == 13 * c + 1 and naturals.get(two_at) == u and counts[u] < 2:
                    del naturals[two_at]  # the only colour-c 2 serves as the wild
                w = L - len(naturals)
                if role == "wild" and w == 0:
                    # give up one natural for u (not u itself if it is natural there)
                    drop = next(q for q, _, _ in window if naturals.get(q) != u)
                    del naturals[drop]
                    w = 1
                supply = _wild_supply(counts, opts) - (1 if naturals.get(two_at) is not None and twos_wild else 0)
                if w <= supply:
                    note(L, w, len(naturals))
    # Piernas
    numbers = [n for n in range(1, 14) if n != 2 or not twos_wild or opts["pierna_of_twos"] == "allowed_as_naturals"]
    for n in numbers:
        twos_natural = n == 2
        natural_types = [13 * c + n - 1 for c in range(4)]
        k = sum(counts[t] for t in natural_types)
        supply = counts[JOKER] + (sum(counts[13 * c + 1] for c in range(4)) if twos_wild and not twos_natural else 0)
        if u in natural_types:
            forced_wild = 0
        elif u == JOKER or (twos_wild and is_two(u) and not twos_natural):
            forced_wild = 1
        else:
            continue
        for L in range(3, k + supply + 1):
            nat = min(k, L - forced_wild)
            w = L - nat
            if w <= supply:
                note(L, w, nat)
    return best
