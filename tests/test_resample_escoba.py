"""Escoba resampling (docs/escoba_engine.md §12), on both engines: a resample reads nothing hidden,
keeps what the seat has seen (the inferences of docs/escoba_engine.md §12 included), is uniform over
the consistent placements, replays to the same view from its rebuilt deal, and is byte-identical
on the native and the reference engine."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from typing import Any

import pytest

from resample_support.escoba import rebuild_deal
from resample_support.proofs import replayed, resampled_alike
from stats import chi_square_p
from tapete._options import spec
from tapete.cards import card_id, card_str
from tapete.registry import GAMES

INFO = GAMES["escoba"]
ENGINES = [INFO.native, INFO.reference]
PRESETS = list(spec("escoba").presets)
CLAIM, NO_KNOCK = 163, 218


def ids(cards: str) -> list[int]:
    return [card_id(c) for c in cards.split()]


def hand(state: Any, seat: int) -> list[int]:
    return json.loads(state.to_json())["hands"][seat]


def random_position(game: Any, seed: int, steps: int) -> Any:
    s = game.new_state(seed)
    rnd = random.Random(seed)
    for _ in range(steps):
        if s.is_terminal():
            break
        s.apply(rnd.choice(s.legal_actions()))
    return s


# -- (1) reads nothing hidden: paired states ----------------------------------------------------


def paired(engine: Any, options: dict[str, Any], hands: list[list[str]], moves: list[str], seed: int, **kw: Any) -> Any:
    s = engine(**options).setup(hands=hands, seed=seed, **kw)
    for m in moves:
        s.apply(m)
    return s


@pytest.mark.parametrize("engine", ENGINES)
def test_hidden_cards_and_rng_are_not_read(engine: Any) -> None:
    """Two scopa positions seat 0 cannot tell apart (seat 1's other cards and the stock differ,
    and the RNG): the same resample for every seed."""
    kw = {"table": ["4c", "6s"], "dealer": 1, "to_move": 0}
    a = paired(engine, {"variant": "scopa"}, [["7d", "3c", "Kh"], ["2s", "5h", "Jc"]], ["3c", "2s"], 1, **kw)
    b = paired(engine, {"variant": "scopa"}, [["7d", "3c", "Kh"], ["2s", "Qh", "Jd"]], ["3c", "2s"], 2, **kw)
    assert a.to_json() != b.to_json() and a.view(0) == b.view(0)
    for seed in range(20):
        assert a.resample(0, seed).to_json() == b.resample(0, seed).to_json()


@pytest.mark.parametrize("engine", ENGINES)
def test_a_face_down_claim_is_not_read(engine: Any) -> None:
    """docs/rules/escoba.md §2.19: seat 1 claims 5h in one position, Qh in the other, and seat 0
    trusts; seat 0 sees "claim ??" in both, and the resamples are the same."""
    kw = {"table": ["4c", "6s"], "dealer": 1, "to_move": 0}
    o = {"variant": "fidasse"}
    a = paired(engine, o, [["7d", "3c", "Kh"], ["2s", "5h", "Jc"]], ["3c", "claim 5h", "trust"], 1, **kw)
    b = paired(engine, o, [["7d", "3c", "Kh"], ["2s", "Qh", "Jc"]], ["3c", "claim Qh", "trust"], 1, **kw)
    assert a.view(0) == b.view(0) and a.view(0)["history"] == ["3c", "claim ??", "trust"]
    assert a.view(1)["history"] == ["3c", "claim 5h", "trust"]
    for seed in range(20):
        ra = a.resample(0, seed)
        assert ra.to_json() == b.resample(0, seed).to_json()
        d = json.loads(ra.to_json())
        # the claim entry names the card now face down in seat 1's pile
        (claimed,) = d["claimed"][1]
        assert d["history"][1] == CLAIM + claimed and claimed in d["piles"][1]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_declined_knock_is_not_read(engine: Any) -> None:
    """docs/rules/escoba.md §2.7: seat 1's A-2-3 may knock (cirulla, worth 6) and it declines; the
    other hand has nothing to declare. Seat 0's view and resamples are the same."""
    kw = {"table": ["Qc", "Jd"], "dealer": 1, "to_move": 0}
    o = {"variant": "cirulla"}
    a = paired(engine, o, [["7d", "6c", "Kh"], ["Ac", "2c", "3s"]], ["Kh", "no knock", "3s"], 1, **kw)
    b = paired(engine, o, [["7d", "6c", "Kh"], ["Kc", "Qh", "3s"]], ["Kh", "3s"], 1, **kw)
    assert NO_KNOCK in a.history() and a.view(0) == b.view(0)
    assert a.view(1)["history"] == ["Kh", "3s"]  # no seat sees a declined knock
    for seed in range(20):
        ra = a.resample(0, seed)
        assert ra.to_json() == b.resample(0, seed).to_json()


# -- what the rules reveal ------------------------------------------------------------------------


def deck_for(engine: Any, options: dict[str, Any], seed: int, hands: list[list[str]]) -> tuple[Any, list[int]]:
    """A new match whose first deal gives the seats in turn order (from the dealer's left) the
    ``hands`` listed, the rest of the pack after them ascending; and the turn order."""
    game = engine(**options)
    probe = game.new_state(seed, deck=_pack40())
    n = game.num_players
    dealer = json.loads(probe.to_json())["dealer"]
    order = [(dealer + k) % n for k in range(1, n + 1)]
    given = [ids(" ".join(h)) for h in hands]
    rest = [c for c in _pack40() if c not in sum(given, [])]
    deck = []
    for k in range(len(given[0])):
        deck += [h[k] for h in given]
    return game.new_state(seed, deck=deck + rest), order


def _pack40() -> list[int]:
    return [13 * s + r for s in range(4) for r in (0, 1, 2, 3, 4, 5, 6, 10, 11, 12)]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_trail_under_any_card_reveals_no_capturing_card(engine: Any) -> None:
    """docs/escoba_engine.md §3 (``any_card``, the non_prendere preset, docs/rules/escoba.md §2.12):
    the first seat trails Kc on the empty table; the second seat then trails a card too, which is
    legal only if no card of its hand captures Kc, i.e. it holds no King. Over 2,000 resamples for
    the fourth seat, the second seat never holds a King, while the third seat does at times."""
    hands = [
        ["Kc", "Ac", "2c", "3c", "4c", "5c", "6c", "7c", "Jc", "Qc"],
        ["Ad", "2d", "3d", "4d", "5d", "6d", "7d", "Jd", "Qd", "Ah"],
        ["Kd", "Kh", "2h", "3h", "4h", "5h", "6h", "7h", "Jh", "Qh"],
        ["Ks", "As", "2s", "3s", "4s", "5s", "6s", "7s", "Js", "Qs"],
    ]
    s, order = deck_for(engine, {"variant": "non_prendere"}, 3, hands)
    s.apply("Kc")
    s.apply("5d")
    assert sorted(s.view(order[3])["table"]) == ["5d", "Kc"]
    kings = {card_id("Kd"), card_id("Kh")}
    third = 0
    for seed in range(2000):
        r = s.resample(order[3], seed)
        assert not kings & set(hand(r, order[1]))
        third += bool(kings & set(hand(r, order[2])))
    assert third > 0


@pytest.mark.parametrize("engine", ENGINES)
def test_an_ace_first_reveals_a_hand_of_aces(engine: Any) -> None:
    """docs/escoba_engine.md §3 (``forbid_ace_first_play``): an Ace may open the deal only from a
    hand of Aces, so after Ac first, the first seat's two other cards are Aces (of Ad, Ah and As,
    hidden from seat order[1]), each pair as likely: chi-square over 3,000 resamples."""
    hands = [["Ac", "Ad", "Ah"], ["2c", "3c", "4c"]]
    s, order = deck_for(engine, {"variant": "scopa", "forbid_ace_first_play": True}, 5, hands)
    s.apply("Ac")
    counts: Counter[tuple[int, ...]] = Counter()
    for seed in range(3000):
        h = tuple(hand(s.resample(order[1], seed), order[0]))
        assert all(c % 13 == 0 for c in h)
        counts[h] += 1
    assert len(counts) == 3 and chi_square_p(list(counts.values())) > 0.001


@pytest.mark.parametrize("engine", ENGINES)
def test_shown_hands_stay(engine: Any) -> None:
    """A knocked hand is shown (docs/rules/escoba.md §2.7): it is the same in every resample."""
    kw = {"table": ["Qc", "Jd"], "dealer": 1, "to_move": 0}
    s = paired(engine, {"variant": "cirulla"}, [["7d", "6c", "Kh"], ["Ac", "2c", "3s"]], ["Kh", "knock"], 1, **kw)
    assert s.view(0)["shown"][1] == ["Ac", "2c", "3s"]
    for seed in range(200):
        assert hand(s.resample(0, seed), 1) == ids("Ac 2c 3s")


@pytest.mark.parametrize("engine", ENGINES)
def test_last_hand_open_hides_nothing(engine: Any) -> None:
    """bazzica (docs/rules/escoba.md §2.23): in the last hand every hand is shown, so a resample
    changes nothing but the RNG."""
    g = engine(variant="bazzica")
    for seed in range(10):
        s = g.new_state(seed)
        rnd = random.Random(seed)
        while not s.is_terminal() and json.loads(s.to_json())["stock"]:
            s.apply(rnd.choice(s.legal_actions()))
        if s.is_terminal():
            continue
        d = json.loads(s.to_json())
        r = json.loads(s.resample(0, seed).to_json())
        assert r["hands"] == d["hands"] and r["rng"] != d["rng"]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_napoli_hand_holds_ace_two_three(engine: Any) -> None:
    """docs/rules/escoba.md §2.8: the first seat declared napoli (A, 2, 3 of one suit) and played
    2c, so its other two cards are Ac and 3c in every resample for the other seat."""
    hands = [["Ac", "2c", "3c"], ["5d", "6d", "Kh"]]
    s, order = deck_for(engine, {"variant": "tuzzulicchio"}, 2, hands)
    p, other = order[1], order[0]
    assert s.view(p)["declarations"] == [{"seat": other, "declaration": "napoli", "points": 7}]
    s.apply("2c")
    for seed in range(100):
        assert hand(s.resample(p, seed), other) == ids("Ac 3c")


@pytest.mark.parametrize("engine", ENGINES)
def test_double_pack_keeps_the_copies(engine: Any) -> None:
    """docs/escoba_engine.md §1a: the hidden cards are the same multiset after a resample."""
    g = engine(variant="maresciallo_80")
    s = random_position(g, 4, 9)
    d = json.loads(s.to_json())

    def hidden(doc: dict[str, Any], p: int) -> Counter[int]:
        return Counter(c for seat, h in enumerate(doc["hands"]) if seat != p for c in h) + Counter(doc["stock"])

    for seed in range(50):
        r = json.loads(s.resample(2, seed).to_json())
        assert hidden(r, 2) == hidden(d, 2) and r["hands"][2] == d["hands"][2]


# -- (3) uniform ----------------------------------------------------------------------------------


def test_uniform_over_hand_and_stock() -> None:
    """Seat 1 holds 2 cards and the stock 2 (the rest are in the piles): the 4 cards hidden from
    seat 0 have C(4,2) hands for seat 1 times 2 stock orders = 12 placements, enumerated here; each
    as likely over 20,000 resamples, on both engines (the same draws)."""
    hidden = ids("5h Jc 2s Qd")
    rest = [c for c in _pack40() if c not in hidden + ids("7d 3c 4c 6s")]
    placements = []
    for opp in itertools.combinations(sorted(hidden), 2):
        for stock in itertools.permutations([c for c in hidden if c not in opp]):
            placements.append((tuple(opp), tuple(stock)))
    assert len(placements) == 12
    index = {x: i for i, x in enumerate(placements)}
    for engine in ENGINES:
        s = engine(variant="scopa").setup(
            hands=[["7d", "3c"], ["5h", "Jc"]],
            table=["4c", "6s"],
            stock=["2s", "Qd"],
            piles=[[card_str(c) for c in rest], []],
            dealer=1,
            to_move=0,
        )
        counts = [0] * 12
        for seed in range(20_000):
            d = json.loads(s.resample(0, seed).to_json())
            counts[index[(tuple(d["hands"][1]), tuple(d["stock"]))]] += 1
        assert chi_square_p(counts) > 0.001


def test_uniform_over_the_claimed_card() -> None:
    """docs/rules/escoba.md §2.19: seat 1's trusted claim may be any card hidden from seat 0 (its
    hand's, the stock's, the claim's own): each as likely over 20,000 resamples."""
    s = INFO.native(variant="fidasse").setup(
        hands=[["7d", "3c", "Kh"], ["2s", "5h", "Jc"]], table=["4c", "6s"], dealer=1, to_move=0
    )
    for m in ("3c", "claim 5h", "trust"):
        s.apply(m)
    d = json.loads(s.to_json())
    hidden = sorted(d["hands"][1] + d["stock"] + d["claimed"][1])
    counts = Counter({c: 0 for c in hidden})
    for seed in range(20_000):
        (c,) = json.loads(s.resample(0, seed).to_json())["claimed"][1]
        counts[c] += 1
    assert set(counts) == set(hidden) and chi_square_p(list(counts.values())) > 0.001


# -- (2) consistent with the past, (4) both engines alike, round trips ---------------------------


@pytest.mark.parametrize("variant", PRESETS)
def test_resamples_replay_and_match_the_reference(variant: str) -> None:
    """For random positions of every preset and every seat: the native and reference resamples
    are byte-identical, read back from their JSON, keep the seat's view, and their deal, rebuilt
    from the drawn cards, replays to that view (docs/escoba_engine.md §12)."""
    native, ref = INFO.native(variant=variant), INFO.reference(variant=variant)
    for seed in range(6):
        s = random_position(native, seed, random.Random(seed).randrange(1, 90))
        t = ref.state_from_json(s.to_json())
        for p in range(native.num_players):
            r = resampled_alike(native, s, t, p, 1000 + seed)
            rebuilt = rebuild_deal(r)
            if rebuilt is None:
                continue
            assert replayed(rebuilt).view(p) == r.view(p)


def test_a_finished_match_only_draws_the_rng() -> None:
    for engine in ENGINES:
        s = random_position(engine(variant="rubamazzo"), 1, 400)
        assert s.is_terminal()
        d, r = json.loads(s.to_json()), json.loads(s.resample(0, 3).to_json())
        assert r["rng"] != d["rng"] and {**r, "rng": d["rng"]} == d
