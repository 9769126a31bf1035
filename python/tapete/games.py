"""``tapete.load`` and ``tapete.simulate``, for every registered game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import _core
from ._game import exact_int, shown
from ._gamestring import parse_game
from ._native import NativeGame, seed_value
from .errors import InvalidOptionError
from .registry import factories

__all__ = ["load", "simulate"]


def load(text: str) -> Any:
    """A native game from its game string, e.g. ``load("escoba(variant=escoba,players=4)")``."""
    return parse_game(text, factories("native"))


def simulate(
    game: Any,
    games: int = 1000,
    seed: int = 0,
    bots: Any = "random",
    threads: int = 0,
    *,
    progress: Callable[[int, int], object] | None = None,
    aggregate: bool = False,
) -> dict[str, Any]:
    """Play ``games`` whole matches natively, with the GIL released and on ``threads`` cores (0 = all).

    Game ``i`` is dealt with seed ``seed + i``, so results do not depend on the thread count or on
    how a run is split into calls. Returns numpy arrays: ``returns`` (games, seats), ``scores``
    (games, seats), ``deals`` (games,), ``decisions`` (games,), ``finished`` (games,): False when a
    match reached the cap of 1,000,000 decisions unfinished (possible only under option sets that
    never let anyone win; its returns are then all 0). A batch whose arrays would not fit in the
    memory available is refused (``InvalidOptionError`` saying how much it needs) before anything
    is allocated.

    ``aggregate=True`` keeps no per-game arrays (constant memory, any batch size) and returns the
    totals instead: ``games``, per seat ``returns_sum``, ``scores_sum``, ``wins`` (return > 0) and
    ``losses`` (return < 0), and ``draws``, ``unfinished``, ``deals_sum``, ``decisions_sum``.

    The batch runs in chunks of about 20 ms; after each, ``progress(done, total)`` is called (if
    given) and signals are handled: Ctrl-C raises ``KeyboardInterrupt`` within about 100 ms, with
    attributes ``result`` (this function's result for the games finished, always the first
    ``done`` games of the batch), ``done`` and ``total``.

    ``bots`` plays the seats: ``"random"`` (every seat uniformly random, on one stream per game),
    one bot for every seat, or a list of one bot per seat. A bot is a spec text (``"heuristic"``,
    ``"ismcts:200"``, docs/bots.md §1), a native bot (``tapete.bots.ISMCTS(...)``: its spec counts,
    its seed does not), or any ``tapete.bots.Bot`` or function ``(view, legal_actions) -> action``.
    Seat ``p`` of game ``i`` draws from its own stream (docs/bots.md §7), so results do not depend
    on the thread count. Native bots play in Rust on all threads; a Python bot in any seat plays
    the batch in this thread instead, one game after another, with the same results for the
    native seats.
    """
    if isinstance(game, str):
        game = load(game)
    if not isinstance(game, NativeGame):
        raise InvalidOptionError(
            f"cannot simulate {game!r:.80}: expected a native game such as tapete.Escoba() or tapete.Mosca()"
        )
    if not isinstance(aggregate, bool):
        raise InvalidOptionError(f"aggregate must be a bool, got {shown(aggregate)}")
    seed = seed_value(seed, InvalidOptionError)
    seats = _seat_bots(bots, game.num_players)
    if seats is not None and not all(isinstance(b, str) for b in seats):
        return _simulate_in_python(game, games, seed, seats, progress, aggregate)
    # games and threads are checked by the native call; 0 threads is rayon's pool of all cores
    return _core.simulate(game._game, games, seed, threads, progress=progress, aggregate=aggregate, bots=seats)


def _seat_bots(bots: Any, seats: int) -> list[Any] | None:
    """One bot per seat (spec texts for native bots), or None for the shared random stream."""
    if isinstance(bots, str) and bots == "random":
        return None
    listed = list(bots) if isinstance(bots, (list, tuple)) else [bots] * seats
    if len(listed) != seats:
        raise InvalidOptionError(f"bots: expected one bot per seat ({seats}), got {len(listed)}")
    from .bots import _NativeBot, as_bot

    out = []
    for bot in listed:
        bot = as_bot(bot)  # checks spec texts and refuses what is no bot
        out.append(bot.spec if isinstance(bot, _NativeBot) else bot)
    return out


def seat_seed(game_seed: int, seat: int) -> int:
    """The seed of seat ``seat``'s bot stream in game ``game_seed`` (docs/bots.md §7)."""
    from .reference._rng import SplitMix64

    seeds = SplitMix64(game_seed ^ _core.BOT_SEED_XOR)
    for _ in range(seat):
        seeds.next()
    return seeds.next()


def _simulate_in_python(
    game: Any,
    games: Any,
    seed: int,
    seats: list[Any],
    progress: Callable[[int, int], object] | None,
    aggregate: bool,
) -> dict[str, Any]:
    """``simulate`` with a Python bot in some seat: the same games, played in this thread."""
    import numpy as np

    from .bots import as_bot

    count = exact_int(games)
    if count is None or not 0 <= count <= 2**32:
        raise InvalidOptionError(f"games must be an int in 0..2**32, got {shown(games)}")
    if progress is not None and not callable(progress):
        raise InvalidOptionError(f"progress must be callable as progress(done, total), got {shown(progress)}")
    n = game.num_players
    returns = np.zeros((count, n))
    scores = np.zeros((count, n), dtype=np.int32)
    deals = np.zeros(count, dtype=np.int32)
    decisions = np.zeros(count, dtype=np.int64)
    finished = np.zeros(count, dtype=bool)
    for i in range(count):
        game_seed = (seed + i) % 2**64
        players = [as_bot(b, seat_seed(game_seed, p)) if isinstance(b, str) else b for p, b in enumerate(seats)]
        state = game.new_state(seed=game_seed)
        while not state.is_terminal():
            p = state.current_player()
            state.apply(players[p].act(state.for_seat(p)))
        returns[i] = state.returns()
        scores[i] = state.scores()
        deals[i] = state.deals()
        decisions[i] = len(state.history())
        finished[i] = not state.is_truncated()
        if progress is not None:
            progress(i + 1, count)
    if not aggregate:
        return {"returns": returns, "scores": scores, "deals": deals, "decisions": decisions, "finished": finished}
    return {
        "games": count,
        "returns_sum": returns.sum(axis=0),
        "scores_sum": scores.astype(np.int64).sum(axis=0),
        "wins": (returns > 0).sum(axis=0).astype(np.uint64),
        "losses": (returns < 0).sum(axis=0).astype(np.uint64),
        "draws": int((finished & (returns == 0).all(axis=1)).sum()),
        "unfinished": int((~finished).sum()),
        "deals_sum": int(deals.sum()),
        "decisions_sum": int(decisions.sum()),
    }
