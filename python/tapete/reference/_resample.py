"""The one sampler behind every game's ``resample`` (docs/design.md §10), written for clarity: the
native engine's ``tapete_core::resample::place`` draws the same placements from the same seed.

A game lists the cards hidden from a seat (ascending ids), the mask of places each may be in, and
each place's size; ``place`` returns one placement, uniform over all placements that fit.
"""

from __future__ import annotations

from ._rng import SplitMix64

__all__ = ["place", "place_merged", "unit_float"]

#: The most hidden places and cards one resample may have (the native engine's limits).
MAX_SLOTS = 32
MAX_CARDS = 128


def unit_float(rng: SplitMix64) -> float:
    """A uniform float in [0, 1) from the top 53 bits of one draw."""
    return (rng.next() >> 11) * (1.0 / 9007199254740992.0)


def binomial(n: int, k: int) -> float:
    """``C(n, k)`` as a float, multiplied in the order the design document fixes."""
    r = 1.0
    for i in range(1, k + 1):
        r = r * (n - k + i) / i
    return r


def splits(mask: int, size: int, left: tuple[int, ...]) -> list[tuple[tuple[int, ...], float]]:
    """Every way to split ``size`` cards over the places of ``mask`` that still have room, with its
    multinomial: the lowest place's count outermost and ascending, the highest place the rest."""
    places = [j for j, room in enumerate(left) if mask >> j & 1 and room > 0]
    found: list[tuple[tuple[int, ...], float]] = []
    if not places:
        if size == 0:
            found.append((tuple(0 for _ in left), 1.0))
        return found
    take = [0] * len(left)

    def walk(i: int, rest: int, weight: float) -> None:
        j = places[i]
        if i + 1 == len(places):
            if rest <= left[j]:
                take[j] = rest
                found.append((tuple(take), weight))
                take[j] = 0
            return
        for x in range(min(rest, left[j]) + 1):
            take[j] = x
            walk(i + 1, rest - x, weight * binomial(rest, x))
        take[j] = 0

    walk(0, size, 1.0)
    return found


def place(cards: list[int], allowed: list[int], caps: list[int], rng: SplitMix64) -> list[list[int]] | None:
    """Places ``cards`` (ascending) into places of sizes ``caps``, card ``i`` only into a place of
    mask ``allowed[i]``, uniformly among all such placements; each place's cards in a uniform
    order. None when nothing fits (a reachable state's own placement always does)."""
    n = len(cards)
    if len(allowed) != n or n > MAX_CARDS or len(caps) > MAX_SLOTS or sum(caps) != n:
        return None
    every = (1 << len(caps)) - 1
    masks = [m & every for m in allowed]
    # Groups from the most constrained (fewest places) to the least, ties by mask.
    order = sorted(set(masks), key=lambda m: (bin(m).count("1"), m))
    groups = [(m, [c for c, cm in zip(cards, masks) if cm == m]) for m in order]
    memo: dict[tuple[int, tuple[int, ...]], float] = {}

    def ways(g: int, left: tuple[int, ...]) -> float:
        if g == len(groups):
            return 1.0 if not any(left) else 0.0
        if (g, left) not in memo:
            total = 0.0
            for take, m in splits(groups[g][0], len(groups[g][1]), left):
                total += m * ways(g + 1, tuple(a - b for a, b in zip(left, take)))
            memo[g, left] = total
        return memo[g, left]

    left = tuple(caps)
    if len(groups) > 1 and ways(0, left) <= 0.0:
        return None
    out: list[list[int]] = [[] for _ in caps]
    for g, (mask, members) in enumerate(groups):
        if g + 1 == len(groups):
            if any(room > 0 and not mask >> j & 1 for j, room in enumerate(left)):
                return None
            take = left
        else:
            u = unit_float(rng) * ways(g, left)
            cum = 0.0
            chosen = None
            for t, m in splits(mask, len(members), left):
                w = m * ways(g + 1, tuple(a - b for a, b in zip(left, t)))
                if w > 0.0:
                    cum += w
                    chosen = t
                    if cum > u:
                        break
            if chosen is None:
                return None
            take = chosen
        members = list(members)
        rng.shuffle(members)
        k = 0
        for j, count in enumerate(take):
            out[j].extend(members[k : k + count])
            k += count
        left = tuple(a - b for a, b in zip(left, take))
    for contents in out:
        rng.shuffle(contents)
    return out


def place_merged(cards: list[int], allowed: list[int], caps: list[int], rng: SplitMix64) -> list[list[int]] | None:
    """``place`` over the places merged where they admit the same cards (fewer places, a far
    smaller count); a merged place's uniform order is cut back into its places, in place order.
    The same distribution as ``place`` on the places as given, not the same draws."""
    m = len(caps)
    column = [frozenset(i for i, a in enumerate(allowed) if a >> j & 1) for j in range(m)]
    first: list[int] = []
    merged_of: list[int] = []
    for j in range(m):
        q = next((q for q, f in enumerate(first) if column[f] == column[j]), None)
        if q is None:
            q = len(first)
            first.append(j)
        merged_of.append(q)
    mcaps = [sum(caps[j] for j in range(m) if merged_of[j] == q) for q in range(len(first))]
    mallowed = [sum(1 << q for q in {merged_of[j] for j in range(m) if a >> j & 1}) for a in allowed]
    got = place(cards, mallowed, mcaps, rng)
    if got is None:
        return None
    used = [0] * len(first)
    out = []
    for j in range(m):
        q = merged_of[j]
        out.append(got[q][used[q] : used[q] + caps[j]])
        used[q] += caps[j]
    return out
