"""Musta Maija: the current hand rebuilt from a state (docs/musta_maija_engine.md §11), for the
consistency-with-the-past proof of resampling."""

from __future__ import annotations

import json
from typing import Any

from tapete.reference.musta_maija_resample import assign_arrivals, timeline


def rebuild_deal(state: Any) -> tuple[Any, list[int]]:
    """``(start, actions)``: the position right after the current hand's deal and trump card
    (docs/musta_maija_engine.md §11), with the cards each seat was dealt and the stock in the order
    its refills took them, and the hand's actions since. Replaying them reaches ``state`` again.
    ``state`` is a reference state; each seat's cards get the times they entered its hand from
    the public record alone (``assign_arrivals``), so any state of the information set rebuilds."""
    x = state
    n = x.game.num_players
    line = timeline(x)
    deal = line.start - 1
    dealt: list[list[int]] = []
    drawn: dict[tuple[int, int], list[int]] = {}
    for s in range(n):
        played = [c for _, c in line.departures[s]]
        unseen = played + sorted(x._hands[s] - x._known[s])
        times = assign_arrivals(x, line, s, unseen)
        assert times is not None, f"seat {s}'s cards cannot have come about"
        dealt.append(sorted(c for c, t in times.items() if t == deal))
        for c, t in sorted(times.items()):
            if t != deal:
                drawn.setdefault((t, s), []).append(c)
    stock = [c for key in line.draws for c in drawn[key]]
    if x._trump >= 0 and x._trump not in x._stock:
        stock.append(x._trump)  # drawn last, face up
    stock += x._stock
    d = json.loads(x.to_json())
    losses = list(x._losses)
    if x._phase == "end":
        holders = [s for s in range(n) if x._hands[s]]
        # the hand's loser (docs/musta_maija_engine.md §4): the last holder, or at the cap
        losses[holders[0] if len(holders) == 1 and not x._stock else x._maija_holder()] -= 1
    attacker = (x._dealer + 1) % n
    d.update(
        attack=[],
        attacker=attacker,
        attacks=0,
        beaten=[],
        defender=(attacker + 1) % n,
        hands=dealt,
        history=x._history[: line.start],
        known=[[] for _ in range(n)],
        left=[],
        losses=losses,
        out_of_play=[],
        phase="attack",
        stock=stock,
        terminal=False,
        to_move=attacker,
    )
    if x._o["trump_reveal"] == "after_first_lead" and x._attacks == 0:
        d.update(trump=-1, turned=[])  # not turned yet
    start = x.game.state_from_json(json.dumps(d, sort_keys=True, separators=(",", ":")))
    return start, x._history[line.start :]
