"""tapete.arena: duplicate deals, seatings, teams, the statistics' inputs, SPRT stops, record
and the command line (docs/arena.md)."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

import tapete
from tapete.arena import read_record, replay, sides_of
from tapete.arena import record as record_module
from tapete.cli import main
from tapete.errors import InvalidOptionError


def dealt_hand(seat: Any) -> str:
    view = seat.view()
    return json.dumps(sorted(map(str, view["rack"] if "rack" in view else view["hand"])))  # Burako: racks


class HandSpy:
    """Plays a legal action picked by its decision count and notes, at its first decision in each seat of each game,
    the hand that seat holds then: the hand it was dealt."""

    def __init__(self, name: str, seen: dict[tuple[str, int], list[str]]) -> None:
        self.name, self.seen = name, seen
        # seat -> the seat's history length at its last decision in a first deal, None in a later deal
        self.last: dict[int, int | None] = {}
        self.decisions = 0

    def act(self, seat: Any) -> int:
        p = seat.seat
        # a game starts in its first deal, with a shorter record than the last (games run one after
        # another); the record's length is read only there, where it is short
        moves = len(seat.history()) if seat.deals() == 1 else None
        last = self.last.get(p, None)
        if moves is not None and (p not in self.last or last is None or moves < last):
            self.seen.setdefault((self.name, p), []).append(dealt_hand(seat))
        self.last[p] = moves
        self.decisions += 1
        legal = seat.legal_actions()
        return int(legal[(self.decisions * 2654435761 >> 7) % len(legal)])  # varied, so that every game ends


def test_sides_follow_the_games_teams() -> None:
    # docs/escoba_engine.md: partnership=auto with 4 or 6 players is seat mod 2; else one per seat
    assert sides_of(tapete.Escoba(players=4)) == [0, 1, 0, 1]
    assert sides_of(tapete.Escoba(players=6)) == [0, 1, 0, 1, 0, 1]
    assert sides_of(tapete.Escoba(players=3)) == [0, 1, 2]
    assert sides_of(tapete.Escoba(players=4, partnership="none")) == [0, 1, 2, 3]
    # docs/burako_engine.md §1: team(seat) = seat mod 2
    assert sides_of(tapete.Burako(players=4)) == [0, 1, 0, 1]
    assert sides_of(tapete.Burako(players=2)) == [0, 1]
    assert sides_of(tapete.Mosca()) == [0, 1, 2, 3]


@pytest.mark.parametrize(
    ("game", "bots", "lineups"),
    [
        # two sides: both seatings
        (tapete.Escoba(), ["a", "b"], [(0, 1), (1, 0)]),
        # three sides: all 3! permutations
        (tapete.Escoba(players=3), ["a", "b", "c"], [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]),
        # four sides: the four cyclic rotations
        (tapete.Mosca(), ["a", "b", "c", "d"], [(0, 1, 2, 3), (1, 2, 3, 0), (2, 3, 0, 1), (3, 0, 1, 2)]),
        # two bots over four sides take turns; rotations repeat, each seating played once
        (tapete.Mosca(), ["a", "b"], [(0, 1, 0, 1), (1, 0, 1, 0)]),
        # three bots, two sides: every pair meets, both ways
        (tapete.Escoba(), ["a", "b", "c"], [(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)]),
    ],
)
def test_seatings_of_a_deal(game: Any, bots: list[str], lineups: list[tuple[int, ...]]) -> None:
    result = tapete.arena(game, dict.fromkeys(bots, "random"), games=1, seed=0)
    assert [tuple(x) for x in result.lineups.tolist()] == lineups
    assert result.games == len(lineups)  # one game rounds up to a whole deal group


@pytest.mark.parametrize(
    ("game", "names"),
    [
        (tapete.Escoba(), "ab"),
        (tapete.Escoba(players=3), "abc"),
        (tapete.Escoba(players=4), "ab"),  # two teams
        (tapete.Mosca(), "abcd"),
        (tapete.Burako(), "ab"),  # two teams
    ],
)
def test_same_cards_reach_each_bot_from_each_seat(game: Any, names: str) -> None:
    seen: dict[tuple[str, int], list[str]] = {}
    deals = 3
    size = tapete.arena(game, dict.fromkeys(names, "random"), games=1).games
    result = tapete.arena(game, {n: HandSpy(n, seen) for n in names}, games=deals * size, seed=11)
    assert result.groups == deals
    # the hands each seat is dealt in the arena's deals, from the deal seeds themselves
    dealt = {
        p: sorted(dealt_hand(game.new_state(seed=int(s)).for_seat(p)) for s in result.deal_seeds)
        for p in range(game.num_players)
    }
    assert all(len(set(hands)) == deals for hands in dealt.values())  # the deals differ
    # each seating puts a bot on one side: over a deal's seatings it holds each side equally often
    times = size // (max(sides_of(game)) + 1)
    for name in names:
        for p in range(game.num_players):
            # every bot held seat p's cards of every deal
            assert sorted(seen[(name, p)]) == sorted(dealt[p] * times), (name, p)


def test_teams_keep_partners_together() -> None:
    result = tapete.arena(tapete.Escoba(players=4), {"h": "heuristic", "r": "random"}, games=20, seed=2)
    assert result.sides == [0, 1, 0, 1]
    # partners' returns are their side's
    assert np.array_equal(result.returns[:, :, 0], result.returns[:, :, 2])
    assert np.array_equal(result.returns[:, :, 1], result.returns[:, :, 3])


def test_results_are_simulate_on_each_seating() -> None:
    game = tapete.Escoba()
    result = tapete.arena(game, {"h": "heuristic", "r": "random"}, games=40, seed=5, batch=7)
    for j, (a, b) in enumerate(result.lineups.tolist()):
        specs = [["heuristic", "random"][a], ["heuristic", "random"][b]]
        direct = tapete.simulate(game, 20, 5, bots=specs)
        assert np.array_equal(result.returns[:, j, :], direct["returns"])
        assert np.array_equal(result.scores[:, j, :], direct["scores"])


def test_per_bot_figures_from_the_games() -> None:
    result = tapete.arena(tapete.Escoba(), {"h": "heuristic", "r": "random"}, games=200, seed=9)
    r = result.returns
    # lineup 0 seats h at 0, lineup 1 seats h at 1: h's return per group is the mean of the two
    h = (r[:, 0, 0] + r[:, 1, 1]) / 2
    assert result.mean_return[0][0] == pytest.approx(h.mean())
    sd = h.std(ddof=1) / np.sqrt(len(h))
    assert result.mean_return[0][1] < h.mean() < result.mean_return[0][2]
    assert result.mean_return[0][2] - result.mean_return[0][1] == pytest.approx(2 * 1.96 * sd, rel=0.05)
    wins = ((r[:, 0, 0] > 0).astype(float) + (r[:, 1, 1] > 0)) / 2
    assert result.win_rate[0][0] == pytest.approx(wins.mean())
    # two sides: rank 1 for the better return, 2 for the worse, 1.5 each on a tie
    rank = (
        np.where(r[:, 0, 0] > r[:, 0, 1], 1, np.where(r[:, 0, 0] == r[:, 0, 1], 1.5, 2))
        + np.where(r[:, 1, 1] > r[:, 1, 0], 1, np.where(r[:, 1, 1] == r[:, 1, 0], 1.5, 2))
    ) / 2
    assert result.rank[0][0] == pytest.approx(rank.mean())
    pts = (result.scores[:, 0, 0] + result.scores[:, 1, 1]) / 2
    assert result.points[0] == pytest.approx(pts.mean())
    # the pairs: h's points out of 2 over the two games of each deal
    pair = np.where(r[:, 0, 0] > r[:, 0, 1], 1, np.where(r[:, 0, 0] == r[:, 0, 1], 0.5, 0)) + np.where(
        r[:, 1, 1] > r[:, 1, 0], 1, np.where(r[:, 1, 1] == r[:, 1, 0], 0.5, 0)
    )
    counts = [int((pair == v).sum()) for v in (0, 0.5, 1, 1.5, 2)]
    assert result.elo["pentanomial"] == counts
    assert result.elo["elo"] > 0  # heuristic beats random at Scopa


def test_more_than_two_sides_get_bradley_terry() -> None:
    result = tapete.arena(tapete.Mosca(), {"h": "heuristic", "r": "random"}, games=40, seed=1, bootstrap=20)
    assert result.elo["kind"] == "bradley_terry"
    ratings = np.array(result.elo["ratings"])
    assert ratings.shape == (2, 3)
    assert ratings[0, 0] > ratings[1, 0]


def test_sprt_stops_at_a_batch_edge() -> None:
    bots = {"h": "heuristic", "r": "random"}
    result = tapete.arena(tapete.Escoba(), bots, games=100_000, seed=0, sprt=(0, 10, 0.05, 0.05), batch=100)
    assert result.sprt is not None
    assert result.sprt["status"] == "H1"
    assert result.games % 100 == 0 and result.games < 100_000
    assert result.sprt["llr"] >= result.sprt["bounds"][1]
    # one batch fewer had not decided
    shorter = tapete.arena(tapete.Escoba(), bots, games=result.games - 100, seed=0, sprt=(0, 10), batch=100)
    assert shorter.games == result.games - 100
    assert shorter.sprt is not None and shorter.sprt["status"] == ""


def test_sprt_needs_two_bots_and_two_sides() -> None:
    with pytest.raises(InvalidOptionError, match="two sides"):
        tapete.arena(tapete.Mosca(), {"h": "heuristic", "r": "random"}, games=10, sprt=(0, 5))
    with pytest.raises(InvalidOptionError, match="two bots"):
        tapete.arena(tapete.Escoba(), {"a": "random", "b": "random", "c": "random"}, games=10, sprt=(0, 5))
    with pytest.raises(InvalidOptionError):
        tapete.arena(tapete.Escoba(), {"a": "random", "b": "random"}, games=10, sprt=(5, 0))


@pytest.mark.parametrize(
    "kwargs",
    [
        {"bots": {"a": "random"}},
        {"bots": {"a": "random", "b": "nonsense"}},
        {"games": -1},
        {"batch": 0},
        {"backend": "cluster"},
        {"game": "not-a-game"},
    ],
)
def test_bad_input_is_refused(kwargs: dict[str, Any]) -> None:
    args: dict[str, Any] = {"game": tapete.Escoba(), "bots": {"a": "random", "b": "heuristic"}, "games": 2}
    args.update(kwargs)
    with pytest.raises(tapete.TapeteError):
        tapete.arena(**args)


@pytest.mark.parametrize("pyarrow", [True, False])
def test_record_replays_exactly(tmp_path: Any, monkeypatch: Any, pyarrow: bool) -> None:
    if pyarrow:
        pytest.importorskip("pyarrow")
    else:
        monkeypatch.setattr(record_module, "_has_pyarrow", lambda: False)
    game = tapete.Escoba(players=4)
    bots = {"h": "heuristic", "i": "ismcts:20"}
    recorded = tapete.arena(game, bots, games=12, seed=4, batch=4, record=str(tmp_path / "rec"))
    plain = tapete.arena(game, bots, games=12, seed=4, batch=4)
    assert np.array_equal(recorded.returns, plain.returns)
    rows = list(read_record(tmp_path / "rec"))
    assert len(rows) == recorded.games
    suffixes = {p.suffix for p in (tmp_path / "rec").iterdir()}
    assert suffixes == ({".parquet"} if pyarrow else {".ndjson"})
    for row in rows:
        g, j = row["group"], row["seating"]
        assert row["deal_seed"] == int(recorded.deal_seeds[g])
        assert row["bots"] == [["h", "i"][recorded.lineups[j][s]] for s in recorded.sides]
        state = replay(row, game)
        assert state.is_terminal()
        assert list(state.returns()) == row["returns"] == list(recorded.returns[g, j])
    # a directory holding parts is not written again
    with pytest.raises(InvalidOptionError, match="empty directory"):
        tapete.arena(game, bots, games=2, seed=4, record=str(tmp_path / "rec"))


def test_json_and_summary() -> None:
    result = tapete.arena(tapete.Escoba(), {"h": "heuristic", "r": "random"}, games=20, seed=1, sprt=(0, 10))
    data = json.loads(result.to_json())
    assert data["games"] == 20 and [b["name"] for b in data["bots"]] == ["h", "r"]
    assert data["sprt"]["bounds"] == pytest.approx([np.log(0.05 / 0.95), np.log(0.95 / 0.05)])
    text = result.summary()
    assert "heuristic" not in text.splitlines()[0] and "h " in text and "SPRT" in text


def test_command_line(tmp_path: Any, capsys: Any) -> None:
    out = tmp_path / "arena.json"
    assert main(["arena", "escoba", "--bots", "heuristic,random", "--games", "40", "--quiet", "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert [b["name"] for b in data["bots"]] == ["heuristic", "random"] and data["games"] == 40
    assert "heuristic" in capsys.readouterr().out
    # ismcts options continue their spec; a repeated spec is numbered
    assert (
        main(["arena", "escoba", "--bots", "ismcts:iterations=5,c=1.0,random,random", "--games", "2", "--quiet"]) == 0
    )
    assert "random#2" in capsys.readouterr().out
    assert main(["arena", "mosca", "--bots", "heuristic,random", "--games", "4", "--sprt", "0,5", "--quiet"]) == 2
    assert "two sides" in capsys.readouterr().err
    assert main(["arena", "escoba", "--bots", "heuristic", "--games", "4", "--quiet"]) == 2


def test_ray_backend_without_ray_says_how_to_get_it() -> None:
    try:
        import ray  # noqa: F401
    except ImportError:
        pass
    else:
        pytest.skip("ray is installed: tests/test_arena_ray.py runs the backend")
    with pytest.raises(InvalidOptionError, match="tapete\\[ray\\]"):
        tapete.arena(tapete.Escoba(), {"a": "random", "b": "heuristic"}, games=2, backend="ray")
