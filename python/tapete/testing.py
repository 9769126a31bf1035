"""Differential testing: step two engines of one game in lockstep and report where they differ.

``compare_engines(game_a, game_b, games=N, seed=S)`` deals the same seeds in both engines, picks
the same actions (from ``choices`` or a seeded stream), and at every step compares the fields of
the API: legal actions, action strings, the player to move, views and observations of every seat,
the public view, every seat object's history, legal actions and action strings, scores, returns,
terminality, canonical JSON, and the error raised by a bad action. It returns the
first :class:`Divergence`, or ``None`` when the engines agree. Users run it on their own engines:
anything with the tapete game API works.

The hypothesis strategies at the end draw option sets and seeds for the differential tests.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from .reference.escoba import VARIANTS as ESCOBA_PRESETS

__all__ = [
    "Divergence",
    "compare_engines",
    "assert_engines_agree",
    "escoba_options",
    "escoba_player_counts",
    "seeds",
]


@dataclass(frozen=True)
class Divergence:
    """Where two engines first disagree."""

    game: int
    step: int
    field: str
    a: Any
    b: Any
    actions: tuple[int, ...]

    def __str__(self) -> str:
        return (
            f"engines diverge in game {self.game} at step {self.step} on {self.field}:\n"
            f"  a: {self.a!r}\n  b: {self.b!r}\n  actions so far: {list(self.actions)}"
        )


def _error_of(call: Callable[[], Any]) -> str | None:
    try:
        call()
    except Exception as error:  # the type is what is compared
        return type(error).__name__
    return None


def _fields(state: Any, seats: int) -> Iterator[tuple[str, Any]]:
    yield "current_player", state.current_player()
    yield "is_terminal", state.is_terminal()
    yield "is_truncated", state.is_truncated()
    legal = list(state.legal_actions())
    yield "legal_actions", legal
    yield "legal_mask", [int(i) for i in np.flatnonzero(state.legal_mask())]
    yield "action_strings", [state.action_to_string(a) for a in legal]
    yield "scores", list(state.scores())
    yield "returns", [float(r) for r in state.returns()]
    yield "history", list(state.history())
    yield "to_json", state.to_json()
    yield "public_view", state.public_view()
    for seat in range(seats):
        yield f"view({seat})", state.view(seat)
        yield f"observation({seat})", np.asarray(state.observation(seat)).tolist()
        own = state.for_seat(seat)
        yield f"for_seat({seat}).history", own.history()
        yield f"for_seat({seat}).legal_actions", own.legal_actions()
        yield f"for_seat({seat}).action_strings", [own.action_to_string(a) for a in legal]


def _compare_state(a: Any, b: Any, seats: int) -> tuple[str, Any, Any] | None:
    for (name, value_a), (_, value_b) in zip(_fields(a, seats), _fields(b, seats)):
        if value_a != value_b:
            return name, value_a, value_b
    return None


def _bad_inputs(legal_actions: Iterable[int], num_actions: int) -> Iterable[tuple[str, Callable[[Any], Any]]]:
    legal = set(legal_actions)
    illegal = next((a for a in range(num_actions) if a not in legal), None)
    if illegal is not None:
        yield f"apply({illegal}) (illegal)", lambda s: s.apply(illegal)
    yield f"apply({num_actions}) (out of range)", lambda s: s.apply(num_actions)
    yield "apply('no such move')", lambda s: s.apply("no such move")
    yield "view(-1)", lambda s: s.view(-1)


def _check_bad_inputs(a: Any, b: Any, legal: Iterable[int], num_actions: int) -> tuple[str, Any, Any] | None:
    """Each bad input must fail alike on both engines and change nothing: the first difference
    as (what, a's, b's), or None. The states are compared once after all the inputs (a change is
    caught all the same, and the JSON of a large state is the dearest part of a step)."""
    before_a, before_b = a.to_json(), b.to_json()
    labels = []
    for label, call in _bad_inputs(legal, num_actions):
        labels.append(label)
        error_a, error_b = _error_of(partial(call, a)), _error_of(partial(call, b))
        if error_a != error_b:
            return f"error of {label}", error_a, error_b
    after_a, after_b = a.to_json(), b.to_json()
    if after_a != before_a:
        return f"state of a changed by one of {labels}", before_a, after_a
    if after_b != before_b:
        return f"state of b changed by one of {labels}", before_b, after_b
    return None


def compare_engines(
    game_a: Any,
    game_b: Any,
    games: int = 10,
    seed: int = 0,
    choices: Sequence[int] | None = None,
    max_steps: int = 100_000,
    check_errors: bool = True,
) -> Divergence | None:
    """Step ``game_a`` and ``game_b`` in lockstep over ``games`` seeds; the first divergence or None.

    At each step the action is ``legal[choice % len(legal)]``, the choice taken from ``choices``
    in turn (cycled) or, without it, from ``random.Random(seed)``.
    """
    if game_a.num_players != game_b.num_players:
        return Divergence(-1, 0, "num_players", game_a.num_players, game_b.num_players, ())
    for name in ("num_distinct_actions", "observation_shape", "options"):
        value_a, value_b = getattr(game_a, name), getattr(game_b, name)
        if tuple(value_a) != tuple(value_b) if name == "observation_shape" else value_a != value_b:
            return Divergence(-1, 0, name, value_a, value_b, ())
    seats, num_actions = game_a.num_players, game_a.num_distinct_actions
    stream = random.Random(seed)
    position = 0
    for game_index in range(games):
        a, b = game_a.new_state(seed=seed + game_index), game_b.new_state(seed=seed + game_index)
        actions: list[int] = []
        for step in range(max_steps + 1):
            diff = _compare_state(a, b, seats)
            if diff:
                return Divergence(game_index, step, diff[0], diff[1], diff[2], tuple(actions))
            legal = a.legal_actions()
            bad = _check_bad_inputs(a, b, legal, num_actions) if check_errors else None
            if bad:
                return Divergence(game_index, step, bad[0], bad[1], bad[2], tuple(actions))
            if a.is_terminal():
                break
            if choices:
                choice = choices[position % len(choices)]
                position += 1
            else:
                choice = stream.randrange(1 << 30)
            action = legal[choice % len(legal)]
            actions.append(action)
            a.apply(action)
            b.apply(action)
        else:
            return Divergence(game_index, max_steps, "not terminal after max_steps", None, None, tuple(actions))
    return None


def assert_engines_agree(game_a: Any, game_b: Any, **kwargs: Any) -> None:
    """``compare_engines`` that raises ``AssertionError`` with the divergence."""
    divergence = compare_engines(game_a, game_b, **kwargs)
    if divergence is not None:
        raise AssertionError(str(divergence))


# ---------------------------------------------------------------------------------------------
# hypothesis strategies (imported lazily so that tapete does not depend on hypothesis)


def seeds() -> Any:
    """Seeds for ``new_state``: any u64, with small ones favoured."""
    from hypothesis import strategies as st

    return st.one_of(st.integers(0, 1000), st.integers(0, 2**64 - 1))


_ESCOBA_PLAYERS = {
    "scopone_9": (4,),
    "scopone_10": (4,),
    "scopone_romano": (4,),
    "assi_non_prendere": (4,),
    "non_prendere": (4, 6),
    "scopone_romano_contrario": (4, 5),
    "cirulla": (2, 3, 4),
    "bazzica": (2,),
    "granja": (2, 4),
    "cicera": (4,),
    "maresciallo_80": (4,),
}


#: Presets with ``steal`` (rubamazzo, docs/rules/escoba.md §2.21): their overrides avoid the options steal refuses.
_STEAL_PRESETS = ("rubamazzo", "rubamazzo_somma")


def escoba_player_counts(variant: str) -> tuple[int, ...]:
    """The player counts an Escoba preset allows, its default first (docs/escoba_engine.md §2)."""
    return _ESCOBA_PLAYERS.get(variant, (2, 3, 4, 6))


def escoba_options(variant: str | None = None) -> Any:
    """Option sets for ``Escoba``: a preset, a player count, and a few overrides of in-scope options."""
    from hypothesis import strategies as st

    @st.composite
    def build(draw: Any) -> dict[str, Any]:
        preset = variant or draw(st.sampled_from(ESCOBA_PRESETS))
        options: dict[str, Any] = {"variant": preset}
        options["players"] = draw(st.sampled_from(escoba_player_counts(preset)))
        if options["players"] == 4 and draw(st.booleans()):
            options["partnership"] = "none"
        overrides = {
            "capture_obligation": st.sampled_from(["played_card", "any_card", "optional", "played_card_numerals"]),
            "match_priority": st.booleans(),
            "fewest_cards": st.sampled_from(["none", "all", "simple_only", "sum15_only"]),
            "scopa_on_last_play": st.booleans(),
            "last_capturer_takes_rest": st.booleans(),
            "primiera_mode": st.sampled_from(["standard", "veneto", "milan", "three_sevens", "none"]),
            "primiera_requires_all_suits": st.booleans(),
            "napola": st.booleans(),
            "re_bello": st.booleans(),
            "settanta_bonus": st.booleans(),
            "category_tie_policy": st.sampled_from(["nobody", "all_tied"]),
            "win_check": st.sampled_from(["highest_unique", "count_out"]),
            "win_margin": st.sampled_from([None, 2]),
            "target_mode": st.sampled_from(["win", "lose"]),
            "game": st.sampled_from(["match", "single_deal"]),
            "first_dealer": st.sampled_from(["random", "deal_until_Kd"]),
            "initial_table_bonus": st.sampled_from(["none", "sum15_30"]),
            "escoba_de_mano_to": st.sampled_from(["dealer", "eldest"]),
            "escoba_de_mano_30": st.sampled_from(["total", "partition"]),
            "ace_takes_all": st.booleans(),
            "ace_blocked_by_table_ace": st.booleans(),
            "ace_on_empty_table": st.sampled_from(["self_capture", "trail"]),
            "napola_all_coins_wins": st.booleans(),
            "capture_kinds": st.lists(
                st.sampled_from(["match", "sum", "sum15", "sum11", "diff"]), min_size=1, max_size=4, unique=True
            ),
            "match_priority_kinds": st.lists(
                st.sampled_from(["sum", "sum15", "sum11", "diff"]), max_size=2, unique=True
            ),
            "forbid_ace_first_play": st.booleans(),
            "void_deal_min_kings": st.sampled_from([None, 2, 3]),
            "void_deal_min_aces": st.sampled_from([None, 2, 3]),
            "special_cards": st.dictionaries(
                st.sampled_from(["Kd", "Jd", "Qd", "7h", "Ac"]), st.integers(0, 3), max_size=2
            ),
            "coin_card_points": st.integers(0, 2),
            "all_sevens_bonus": st.integers(0, 3),
            "all_oros_bonus": st.integers(0, 3),
            "scopa_value": st.integers(0, 2),
            "partnership": st.sampled_from(["auto", "none"]),
            "value_modulus": st.sampled_from([None, 7]),
            "scoring": st.sampled_from(["standard", "frac"]),
            "frac_counts_scope": st.booleans(),
            "frac_single_deal": st.booleans(),
            "tuzzoli_hybrids": st.booleans(),
            "initial_table_le9": st.sampled_from([None, 1, 3]),
            "piccola": st.booleans(),
            "piccola_max": st.integers(5, 7),
            "grande": st.integers(0, 5),
            "grande_extends": st.booleans(),
            "matta": st.sampled_from([None, "7h", "Ac", "Kd"]),
            "knocks": st.dictionaries(st.sampled_from(["cirulla", "decino"]), st.integers(1, 10), max_size=2),
            "knocks_cumulative": st.booleans(),
            "last_hand_open": st.booleans(),
            "maresciallo_penalty": st.booleans(),
            "maresciallo_sweep": st.sampled_from(["replace", "total"]),
            "polacca": st.booleans(),
            "polacca_card": st.sampled_from(["Jd", "Qd"]),
            "saponaro": st.booleans(),
            "saponaro_card": st.sampled_from(["Js", "Qs"]),
            "builds": st.booleans(),
            "build_only_if_no_capture": st.booleans(),
            "elimination_deal": st.sampled_from(["table", "no_table"]),
            "fidasse": st.booleans(),
        }
        if preset in _STEAL_PRESETS:
            # options that cannot combine with steal (docs/escoba_engine.md §2) give way to the pile options
            for name in ("value_modulus", "fewest_cards", "ace_takes_all", "initial_table_bonus", "matta"):
                del overrides[name]
            overrides["capture_kinds"] = st.lists(st.sampled_from(["match", "sum"]), max_size=2, unique=True)
            for name in ("table_match_first", "steal_and_table", "ace_steals_all", "pile_in_sums"):
                overrides[name] = st.booleans()
        if preset == "cicera":
            # court_capture=same_rank refuses the options that count a court's value, and the
            # 52-card pack refuses builds and claims (docs/escoba_engine.md §2)
            for name in ("initial_table_bonus", "matta", "knocks", "builds", "fidasse"):
                del overrides[name]
            overrides.update(
                court_capture=st.sampled_from(["same_rank", "value"]),
                cicera_deal=st.sampled_from(["12+4", "13+0"]),
                swords=st.integers(0, 2),
                sword_napula=st.booleans(),
                all_swords_wins=st.booleans(),
                cards_tie_points=st.sampled_from([None, 0, 1]),
                special_cards=st.dictionaries(
                    st.sampled_from(["2s", "Td", "Jc", "8h", "Kd"]), st.integers(0, 2), max_size=2
                ),
            )
        if preset == "maresciallo_80":
            # the double pack refuses every option its multiset search and scoring do not cover
            # (docs/escoba_engine.md §1a): only these overrides apply
            kept = (
                "match_priority",
                "scopa_on_last_play",
                "last_capturer_takes_rest",
                "primiera_requires_all_suits",
                "napola",
                "category_tie_policy",
                "win_check",
                "win_margin",
                "target_mode",
                "game",
                "first_dealer",
                "ace_takes_all",
                "ace_blocked_by_table_ace",
                "ace_on_empty_table",
                "match_priority_kinds",
                "scopa_value",
                "partnership",
                "maresciallo_penalty",
                "maresciallo_sweep",
                "polacca",
                "polacca_card",
                "saponaro",
                "saponaro_card",
            )
            overrides = {name: overrides[name] for name in kept}
            overrides.update(
                capture_obligation=st.sampled_from(["played_card", "optional"]),
                primiera_mode=st.sampled_from(["standard", "veneto", "none"]),
                capture_kinds=st.lists(st.sampled_from(["match", "sum"]), min_size=1, max_size=2, unique=True),
            )
        chosen = draw(st.lists(st.sampled_from(sorted(overrides)), max_size=5, unique=True))
        for name in chosen:
            options[name] = draw(overrides[name])
        if options.get("knocks"):
            # knocks declare 3-card hands: only where the preset deals them
            from .reference.escoba import resolve_options

            base = {k: v for k, v in options.items() if k in ("variant", "players")}
            resolved = resolve_options(**base)
            if (
                resolved["cards_per_hand"] != 3
                or "cards_per_hand" in options
                or "eliminate" in (resolved["target_mode"], options.get("target_mode"))
            ):
                del options["knocks"]
        if options.get("fidasse") or preset == "fidasse":
            # fidasse refuses the options that would show a face-down claim (docs/escoba_engine.md §4b)
            from .reference.escoba import resolve_options

            clashing = ("steal", "knocks", "last_hand_open", "maresciallo_penalty")
            preset_opts = resolve_options(variant=preset, players=options["players"])
            if preset != "fidasse" and any(preset_opts[name] for name in clashing):
                del options["fidasse"]
            else:
                for name in clashing:
                    options.pop(name, None)
        if options.get("builds") or preset == "granja":
            # builds add plain values and refuse the matta, steal and fidasse (docs/escoba_engine.md §2)
            from .reference.escoba import resolve_options

            clashing = ("value_modulus", "matta", "steal", "fidasse")
            preset_opts = resolve_options(variant=preset, players=options["players"])
            if preset != "granja" and any(preset_opts[name] not in (None, False) for name in clashing):
                del options["builds"]
            else:
                for name in clashing:
                    options.pop(name, None)
        options["max_deals"] = draw(st.sampled_from([1, 2, 4]))
        return options

    return build()


def mosca_options(players: int | None = None) -> Any:
    """Option sets for ``Mosca``: a player count (3..6 unless given), a few overrides of the rule
    options and a short match (1 or 2 deals) so that a differential example stays quick."""
    from hypothesis import strategies as st

    @st.composite
    def build(draw: Any) -> dict[str, Any]:
        n = players if players is not None else draw(st.integers(3, 6))
        options: dict[str, Any] = {"players": n}
        overrides = {
            "first_dealer": st.sampled_from(["random", *range(n)]),
            "deck": st.sampled_from(["auto", *[d for d in (32, 36, 40, 44, 48, 52) if d >= 5 * n + 1]]),
            "ace_rank": st.sampled_from(["between_jack_and_ten", "high", "low"]),
            "initial_chips": st.sampled_from([100, 0, 3, 10]),
            "bankruptcy": st.sampled_from(["allow_negative", "eliminate_at_zero"]),
            "ante": st.sampled_from(["dealer_pays_N", "each_player_pays_1", "dealer_pays_5"]),
            "deal_packets": st.sampled_from(["2_then_3", "3_then_2", "1_at_a_time"]),
            "dealer_may_take_turnup": st.booleans(),
            "exchange_limit": st.sampled_from(["talon", "max_3", "reshuffle_discards_when_empty"]),
            "mosca_after_exchange": st.booleans(),
            "mosca_tie": st.sampled_from(["split", "eldest_wins"]),
            "mosca_bonus": st.sampled_from(["none", "each_other_player_pays_penalty"]),
            "lone_player": st.sampled_from(["wins_pot", "pot_carries", "must_play_tricks"]),
            "must_head": st.booleans(),
            "must_trump": st.booleans(),
            "must_overtrump": st.booleans(),
            "must_undertrump": st.booleans(),
            "no_trick_penalty": st.sampled_from([2, 0, 5, "pot"]),
            "penalty_timing": st.sampled_from(["before_award", "next_pot"]),
            "pot_award": st.sampled_from(["most_tricks", "per_trick"]),
            "trick_tie": st.sampled_from(["carry_over", "split_equally"]),
            "leftover_pot": st.sampled_from(["ignored", "split_equally_among_all"]),
        }
        chosen = draw(st.lists(st.sampled_from(sorted(overrides)), max_size=6, unique=True))
        for name in chosen:
            options[name] = draw(overrides[name])
        options["match_deals"] = draw(st.integers(1, 2))
        return options

    return build()


# ---------------------------------------------------------------------------------------------
# Burako


def burako_options(players: int | None = None, single_hand: bool = True, max_turns: tuple[int, int] = (1, 16)) -> Any:
    """Option sets for ``Burako``: a player count, single hands bounded by a small ``max_turns``
    (so that a random hand stays short), and a few overrides of the rule options of docs/rules/burako.md §10."""
    from hypothesis import strategies as st

    @st.composite
    def build(draw: Any) -> dict[str, Any]:
        options: dict[str, Any] = {"players": players or draw(st.sampled_from([2, 4]))}
        overrides = {
            "first_mano": st.sampled_from(["random", 0, 1]),
            "two_player_hand": st.sampled_from([12, 15, 22]),
            "muerto_size": st.sampled_from([11, "hand_size"]),
            "twos_wild": st.booleans(),
            "two_value": st.sampled_from(["always_20", "natural_5_wild_20"]),
            "joker_value": st.sampled_from([50, 30]),
            "max_wilds_per_meld": st.sampled_from([1, 2, "fewer_than_naturals", "unlimited"]),
            "pierna_of_twos": st.sampled_from(["forbidden", "allowed_as_naturals"]),
            "ace_position": st.sampled_from(["low_or_high", "high_only", "low_only"]),
            "ace_to_ace_run": st.sampled_from(["allowed", "forbidden"]),
            "run_wrap": st.booleans(),
            "canasta_min": st.integers(3, 8),
            "close_requirement": st.sampled_from(["any_canasta", "pure_canasta"]),
            "close_mode": st.sampled_from(["meld_or_discard", "discard_required", "meld_required"]),
            "first_player_redraw": st.booleans(),
            "pozo_take_requirement": st.sampled_from(["none", "must_use_top_tile_now"]),
            "single_tile_pozo_rediscard": st.sampled_from(["allowed", "forbidden"]),
            "pozo_visibility": st.sampled_from(["all_tiles", "top_only"]),
            "no_canasta_melds_negative": st.booleans(),
            "indirect_muerto_unplayed": st.sampled_from(["counts_as_taken", "counts_as_not_taken"]),
            "stock_exhausted": st.sampled_from(["end_hand_after_turn", "muerto_becomes_stock"]),
            "max_cancels_per_turn": st.integers(1, 5),
            "next_mano": st.sampled_from(["rotate", "loser_starts"]),
        }
        chosen = draw(st.lists(st.sampled_from(sorted(overrides)), max_size=6, unique=True))
        for name in chosen:
            options[name] = draw(overrides[name])
        if single_hand:
            options["match"] = "single_hand"
        else:
            options["max_hands"] = draw(st.integers(1, 3))
            options["target"] = draw(st.sampled_from([300, 1000, 3000]))
        options["max_turns"] = draw(st.integers(*max_turns))
        return options

    return build()


def compare_positions(
    a: Any,
    b: Any,
    choices: Sequence[int],
    max_steps: int = 100_000,
    check_errors: bool = True,
    prefer: Callable[[list[int]], list[int]] | None = None,
) -> Divergence | None:
    """Step two given states (e.g. the same ``setup`` in two engines) in lockstep, choosing
    ``legal[choice % len(legal)]`` with ``choices`` cycled; the first divergence or None.

    ``prefer(legal)`` may name a subset of the legal actions to favour: when it is non-empty, three
    choices in four pick from it (to steer random play towards rare events)."""
    seats, num_actions = len(a.scores()), len(a.legal_mask())
    actions: list[int] = []
    for step in range(max_steps + 1):
        diff = _compare_state(a, b, seats)
        if diff:
            return Divergence(0, step, diff[0], diff[1], diff[2], tuple(actions))
        legal = a.legal_actions()
        bad = _check_bad_inputs(a, b, legal, num_actions) if check_errors else None
        if bad:
            return Divergence(0, step, bad[0], bad[1], bad[2], tuple(actions))
        if a.is_terminal():
            return None
        choice = choices[step % len(choices)]
        favoured = prefer(legal) if prefer is not None else []
        pool = favoured if favoured and choice % 4 else legal
        action = pool[(choice // 4) % len(pool)]
        actions.append(action)
        a.apply(action)
        b.apply(action)
    return Divergence(0, max_steps, "not terminal after max_steps", None, None, tuple(actions))


# musta_maija -----------------------------------------------------------------------------------

from .reference.musta_maija import VARIANTS as MUSTA_MAIJA_PRESETS  # noqa: E402

__all__ += ["musta_maija_options", "MUSTA_MAIJA_PRESETS"]


def musta_maija_options(players: int | None = None, variant: str | None = None, max_attacks: Any = None) -> Any:
    """Option sets for ``MustaMaija``: a preset, a player count (2..6), and a few overrides.

    ``max_attacks`` (a strategy or a value) bounds the hand; by default a cap from 1 to 1000, small
    ones favoured, so that most examples are short and some reach the natural end.
    """
    from hypothesis import strategies as st

    @st.composite
    def build(draw: Any) -> dict[str, Any]:
        options: dict[str, Any] = {"variant": variant or draw(st.sampled_from(MUSTA_MAIJA_PRESETS))}
        n = players if players is not None else draw(st.integers(2, 6))
        options["players"] = n
        overrides = {
            "first_dealer": st.sampled_from(["random", *range(n)]),
            "hand_size": st.integers(1, min(8, 51 // n)),
            "trump_reveal": st.sampled_from(["at_deal", "after_first_lead"]),
            "spades_can_be_trump": st.booleans(),
            "spade_reinsert": st.sampled_from(["middle", "random_position"]),
            "attack_limit": st.sampled_from(["defender_hand_size", "unlimited", "defender_hand_size_max_5"]),
            "beat_optional": st.booleans(),
            "draw_order": st.sampled_from(["attacker_then_defender", "defender_then_attacker"]),
            "next_dealer": st.sampled_from(["loser", "rotate_left"]),
            "match": st.sampled_from(["single_hand", "fixed_hands", "first_to_losses"]),
            "match_hands": st.integers(1, 2),
            "match_losses": st.integers(1, 2),
        }
        chosen = draw(st.lists(st.sampled_from(sorted(overrides)), max_size=6, unique=True))
        for name in chosen:
            options[name] = draw(overrides[name])
        if max_attacks is None:
            options["max_attacks"] = draw(st.sampled_from([1, 2, 3, 5, 8, 12, 20, 1000]))
        elif isinstance(max_attacks, st.SearchStrategy):
            options["max_attacks"] = draw(max_attacks)
        else:
            options["max_attacks"] = max_attacks
        return options

    return build()
