"""``setup`` (docs/burako_engine.md §12): a position from a partial description, the tiles not
listed dealt to the muertos and the stock; and reading a state back from its canonical JSON
(docs/burako_engine.md §10), every field checked."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ...errors import InvalidStateError, shown
from .._base import StateFields, is_int, seed_value
from .._rng import SplitMix64
from .actions import M_MAX, NUM_DISTINCT_ACTIONS
from .melds import meld_facts
from .options import muerto_size
from .state import DRAW, INDIRECT, MAX_TOTAL, MELD, STATUS_WORDS, UNTAKEN, BurakoState
from .tiles import NUM_TYPES, counts, tile_id, tile_str

if TYPE_CHECKING:
    from .game import Burako

__all__ = ["setup_state", "state_from_json"]


def setup_state(
    game: Burako,
    racks: Any,
    melds: Any,
    pozo: Any,
    stock: Any,
    muertos: Any,
    muerto_status: Any,
    to_move: Any,
    mano: Any,
    phase: Any,
    buffer: Any,
    turns: Any,
    cancels: Any,
    totals: Any,
    hand: Any,
    seed: Any,
) -> BurakoState:
    o, P = game._opts, game.num_players

    def bad(why: str) -> InvalidStateError:
        return InvalidStateError(f"setup: {why}")

    def is_list(x: Any) -> bool:
        return isinstance(x, Iterable) and not isinstance(x, (str, bytes, dict))

    def tiles(xs: Any, what: str) -> list[int]:
        if not is_list(xs):
            raise bad(f"{what} must be a list of tiles such as ['R5', 'J*']")
        return [tile_id(t, InvalidStateError) for t in xs]

    def per(xs: Any, count: int, what: str) -> list:
        if not is_list(xs):
            raise bad(f"{what} must be a list of {count} entries")
        xs = list(xs)
        if len(xs) != count:
            raise bad(f"{what} must be a list of {count} entries")
        return xs

    def integer(x: Any, what: str, lo: int, hi: int) -> int:
        if not is_int(x) or not lo <= x <= hi:
            raise bad(f"{what}={shown(x)} must be an int in {lo}..{hi}")
        return x

    rack_ids = [tiles(r, f"racks[{i}]") for i, r in enumerate(per(racks, P, "racks"))]
    meld_lists: list[list[tuple[str, list[int]]]] = [[], []]
    if melds is not None:
        for team, team_melds in enumerate(per(melds, 2, "melds")):
            if not is_list(team_melds):
                raise bad(f"melds[{team}] must be a list of tile lists")
            for i, m in enumerate(team_melds):
                ids = sorted(tiles(m, f"melds[{team}][{i}]"))
                facts = meld_facts(ids, o)
                if facts is None:
                    raise bad(f"melds[{team}][{i}] = {[tile_str(t) for t in ids]} is not a valid meld")
                meld_lists[team].append((facts[0], ids))
            if len(meld_lists[team]) > M_MAX:
                raise bad(f"a team has at most {M_MAX} melds")
    pozo_ids = tiles(pozo, "pozo")
    buffer_ids = sorted(tiles(buffer, "buffer"))
    stock_ids = tiles(stock, "stock") if stock is not None else None
    status: list[int] = []
    for x in per(muerto_status, 2, "muerto_status") if muerto_status is not None else [0, 0]:
        if isinstance(x, str) and x in STATUS_WORDS:
            status.append(STATUS_WORDS.index(x))
        elif is_int(x) and 0 <= x <= 2:
            status.append(x)
        else:
            raise bad(f"muerto_status entries must be 0, 1, 2 or one of {', '.join(STATUS_WORDS)}; got {shown(x)}")
    to_move = integer(to_move, "to_move", 0, P - 1)
    mano = to_move if mano is None else integer(mano, "mano", 0, P - 1)
    if phase not in (DRAW, MELD):
        raise bad(f"phase={shown(phase)} must be 'draw' or 'meld'")
    if buffer_ids and phase != MELD:
        raise bad("a buffer needs phase 'meld'")
    turns = integer(turns, "turns", 0, o["max_turns"] - 1)
    cancels = integer(cancels, "cancels", 0, o["max_cancels_per_turn"])
    if phase == DRAW and cancels != 0:  # a turn's counter belongs to its meld phase (as in JSON)
        raise bad("cancels must be 0 in the draw phase")
    hand = integer(hand, "hand", 1, o["max_hands"])
    totals_list = per(totals, 2, "totals") if totals is not None else [0, 0]
    for x in totals_list:
        integer(x, "a total", -MAX_TOTAL, MAX_TOTAL)
    seed = seed_value(seed)

    listed = [t for r in rack_ids for t in r] + [t for team in meld_lists for _, m in team for t in m]
    listed += pozo_ids + buffer_ids + (stock_ids or [])
    muerto_lists: list[list[int]]
    if muertos is not None:
        if not is_list(muertos):
            raise bad("muertos must be a list of tile lists")
        muerto_lists = [tiles(m, f"muertos[{i}]") for i, m in enumerate(muertos)]
        if len(muerto_lists) > 2:
            raise bad("there are at most 2 muertos")
        listed += [t for m in muerto_lists for t in m]
    have = counts(listed)
    for t in range(NUM_TYPES):
        if have[t] > 2:
            raise bad(f"{tile_str(t)} is listed {have[t]} times: there are only 2 of each tile")
    leftover = [t for t in range(NUM_TYPES) for _ in range(2 - have[t])]
    if muertos is None:
        size = muerto_size(o)
        wanted = 2 - sum(1 for x in status if x != UNTAKEN)
        if len(leftover) < wanted * size:
            raise bad(f"{len(leftover)} tiles are left for {wanted} muertos of {size}")
        muerto_lists = [leftover[i * size : (i + 1) * size] for i in range(wanted)]
        leftover = leftover[wanted * size :]
        if stock_ids is None:
            stock_ids = leftover
        elif leftover:
            if not muerto_lists:
                raise bad("with a stock given and no muerto left, all 106 tiles must be listed")
            muerto_lists[-1] = muerto_lists[-1] + leftover
    elif stock_ids is None:
        stock_ids = leftover
    elif leftover:
        raise bad("with muertos and a stock given, all 106 tiles must be listed")

    s = BurakoState(game)
    s._rng = SplitMix64(seed)
    s._racks = [counts(r) for r in rack_ids]
    s._melds = meld_lists
    s._pozo = pozo_ids
    s._stock = list(stock_ids)
    s._muertos = muerto_lists
    s._muerto = status
    s._to_move = to_move
    s._mano = mano
    s._phase = phase
    s._buffer = buffer_ids
    s._turns = turns
    s._cancels = cancels
    s._totals = list(totals_list)
    s._hand = hand
    s._hand_scores = [[0, 0] for _ in range(hand - 1)]
    return s


_JSON_KEYS = frozenset(
    "buffer cancels drawn game hand hand_scores history mano melds muerto_status muerto_unplayed muertos "
    "must_use no_discard options phase pozo racks rng stock terminal to_move totals turns version winner".split()
)


def state_from_json(game: Burako, text: Any) -> BurakoState:
    d = StateFields(text, "burako", _JSON_KEYS, game.options_json())
    bad, integer, int_list, per = d.bad, d.integer, d.ints, d.per
    o, P = game._opts, game.num_players

    def tile_list(x: Any, what: str, ascending: bool) -> list[int]:
        xs = int_list(x, what, 0, NUM_TYPES - 1)
        return d.ascending(xs, what, strict=False) if ascending else xs

    terminal = d["terminal"]
    if not isinstance(terminal, bool):
        raise bad("terminal must be a bool")
    hand = integer("hand", 1, o["max_hands"])
    cancels = integer("cancels", 0, o["max_cancels_per_turn"])
    drawn = integer("drawn", -1, NUM_TYPES - 1)
    mano = integer("mano", 0, P - 1)
    must_use = integer("must_use", -1, NUM_TYPES - 1)
    no_discard = integer("no_discard", -1, NUM_TYPES - 1)
    to_move = integer("to_move", -1, P - 1)
    turns = integer("turns", 0, o["max_turns"])
    winner = integer("winner", -1, 1)
    phase = d["phase"]
    if phase not in (DRAW, MELD):
        raise bad('phase must be "draw" or "meld"')
    racks = [tile_list(r, f"racks[{i}]", True) for i, r in enumerate(per("racks", P))]
    buffer = tile_list(d["buffer"], "buffer", True)
    pozo = tile_list(d["pozo"], "pozo", False)
    stock = tile_list(d["stock"], "stock", False)
    history = int_list(d["history"], "history", 0, NUM_DISTINCT_ACTIONS - 1)
    totals = int_list(per("totals", 2), "totals", -MAX_TOTAL, MAX_TOTAL)
    status = int_list(per("muerto_status", 2), "muerto_status", 0, 2)
    unplayed = int_list(per("muerto_unplayed", 2), "muerto_unplayed", -1, P - 1)
    for team, seat in enumerate(unplayed):
        if seat != -1 and (seat % 2 != team or status[team] != INDIRECT):
            raise bad("muerto_unplayed must name a seat of that team holding an indirect muerto, or -1")
    muertos = d["muertos"]
    if not isinstance(muertos, list) or len(muertos) > 2 - sum(1 for x in status if x != UNTAKEN):
        raise bad("muertos must list at most the muertos not yet taken")
    muertos = [tile_list(m, f"muertos[{i}]", False) for i, m in enumerate(muertos)]
    hand_scores = d["hand_scores"]
    finished = hand if terminal else hand - 1
    if not isinstance(hand_scores, list) or len(hand_scores) != finished:
        raise bad(f"hand_scores must list one [team0, team1] per finished hand ({finished})")
    for i, x in enumerate(hand_scores):
        if not isinstance(x, list) or len(x) != 2:
            raise bad(f"hand_scores[{i}] must be [team0, team1]")
        int_list(x, f"hand_scores[{i}]", -MAX_TOTAL, MAX_TOTAL)
    melds: list[list[tuple[str, list[int]]]] = [[], []]
    for team, team_melds in enumerate(per("melds", 2)):
        if not isinstance(team_melds, list) or len(team_melds) > M_MAX:
            raise bad(f"melds[{team}] must be a list of at most {M_MAX} melds")
        for i, m in enumerate(team_melds):
            if not isinstance(m, dict) or set(m) != {"kind", "tiles"} or m["kind"] not in ("run", "pierna"):
                raise bad(f'melds[{team}][{i}] must be {{"kind": "run" | "pierna", "tiles": [...]}}')
            tiles = tile_list(m["tiles"], f"melds[{team}][{i}].tiles", True)
            if meld_facts(tiles, o, m["kind"]) is None:
                raise bad(f"melds[{team}][{i}] is not a valid {m['kind']}")
            melds[team].append((m["kind"], list(tiles)))
    rng = d.rng()
    every = [t for r in racks for t in r] + buffer + pozo + stock + [t for m in muertos for t in m]
    every += [t for team in melds for _, m in team for t in m]
    if counts(every) != [2] * NUM_TYPES:
        raise bad(
            "the 106 tiles must each appear exactly once (two of each type) across racks, buffer, melds,"
            " pozo, stock and muertos"
        )
    # the turn's counters and flags belong to the meld phase (docs/burako_engine.md §10)
    if phase == DRAW and cancels != 0:
        raise bad("cancels must be 0 in the draw phase")
    if drawn != -1 and (phase != MELD or turns != 0 or not racks[max(to_move, 0)].count(drawn)):
        raise bad("drawn must be -1 unless the first-turn drawn tile is in the mover's rack in the meld phase")
    if (must_use != -1 or no_discard != -1) and phase != MELD:
        raise bad("must_use and no_discard are set only in the meld phase")
    if terminal:
        if to_move != -1 or buffer:
            raise bad("a terminal state has to_move -1 and an empty buffer")
    else:
        if to_move == -1 or winner != -1:
            raise bad("before the end to_move is a seat and winner -1")
        if buffer and phase != MELD:
            raise bad("a buffer exists only in the meld phase")
        if drawn != -1 and (phase != MELD or not racks[to_move].count(drawn)):
            raise bad("drawn must be a tile of the mover's rack in the meld phase, or -1")

    s = BurakoState(game)
    s._rng = rng
    s._history = list(history)
    s._hand = hand
    s._hand_scores = [list(x) for x in hand_scores]
    s._totals = list(totals)
    s._mano = mano
    s._to_move = to_move
    s._phase = phase
    s._racks = [counts(r) for r in racks]
    s._buffer = list(buffer)
    s._melds = melds
    s._pozo = list(pozo)
    s._stock = list(stock)
    s._muertos = [list(m) for m in muertos]
    s._muerto = list(status)
    s._unplayed = list(unplayed)
    s._turns = turns
    s._cancels = cancels
    s._drawn = drawn
    s._no_discard = no_discard
    s._must_use = must_use
    s._terminal = terminal
    s._winner = winner
    return s
