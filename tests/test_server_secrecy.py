"""Secrecy of ``tapete serve`` (docs/server.md "Secrecy"), against the real thing: two ``tapete
serve`` processes, started as a user starts them (uvicorn, ``--log-level debug``), each resuming
one table of a pair of states that seat p cannot tell apart (the same ``view(p)``; the second is
the first resampled for p: other hidden cards, RNG and other seats' private action details). The
same client session is played on both, in lockstep: a socket per seat (one of them on the
deprecated ``?token=`` form), a spectator, moves both tables allow, error probes, a reconnect, a
wrong token, the lobby, the public table view.

While p's view is the same on both tables, every frame to p, every spectator frame, the lobby
listing, the table view, the error and reconnect frames, and every line of each process's stdout
and stderr (times, ports, process ids, durations and keepalives masked) must be byte-identical,
the table id aside; once the game is over, so must the replays' steps of that stretch. Frames to
the other seats are held to their projection: exactly the engine's view of that seat. No line
any process wrote, at any level, holds a seat's token.

Pairs per configuration: ``TAPETE_SECRECY_PAIRS`` (default 1, each played deep: from a random
point of a match to its end).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import random
import secrets
import time
import urllib.error
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
ws_client = pytest.importorskip("websockets.sync.client")
from websockets.exceptions import ConnectionClosed  # noqa: E402

import tapete  # noqa: E402
from secrecy_pairs import CONFIGS, SCALE  # noqa: E402
from server_process import masked  # noqa: E402
from tapete.server.storage import TableRecord, open_storage  # noqa: E402

#: Two kinds of pairs: ``resampled`` (other seats' private action details rewritten too: what the
#: full history would give away) and ``swapped`` (two cards hidden from p trade places, the rest
#: as it was: tables that stay alike long, through the hidden actions still to come).
KINDS = ("resampled", "swapped")
CASES = [(text, kind, k) for text in CONFIGS for kind in KINDS for k in range(SCALE)]


def int_slots(doc: Any, path: tuple[Any, ...] = ()) -> Any:
    """Every (list path, index) of a state's JSON that holds an int: cards, tiles, and the rest."""
    if isinstance(doc, dict):
        for key, value in doc.items():
            yield from int_slots(value, (*path, key))
    elif isinstance(doc, list):
        for i, value in enumerate(doc):
            if isinstance(value, int) and not isinstance(value, bool):
                yield path, i
            else:
                yield from int_slots(value, (*path, i))


def swapped(doc: Any, one: Any, two: Any) -> Any:
    """``doc`` with two list entries swapped (a list that was ascending is sorted again)."""
    new = json.loads(json.dumps(doc))
    lists = []
    for path, i in (one, two):
        at = new
        for key in path:
            at = at[key]
        lists.append((at, i, at == sorted(at)))
    (la, ia, sa), (lb, ib, sb) = lists
    la[ia], lb[ib] = lb[ib], la[ia]
    for items, _, was_sorted in lists:
        if was_sorted:
            items.sort()
    return new


def near_the_end(game: Any, rng: random.Random) -> Any:
    """A state of a random match at most 150 moves before its end (and at least 20 where the match
    is longer): deep in it, with its private actions behind it and some still to come."""
    state = game.new_state(seed=rng.randrange(2**64))
    line = [state.clone()]
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
        line.append(state.clone())
    back = rng.randrange(20, 151)
    return line[max(0, len(line) - 1 - back)]


def paired_start(game: Any, kind: str, rng: random.Random) -> tuple[Any, Any, int]:
    """A state near a match's end and a state seat p cannot tell from it, the two differing."""
    from tapete.errors import TapeteError

    while True:
        a = near_the_end(game, rng)
        p = rng.randrange(game.num_players)
        if kind == "resampled":
            b = a.resample(p, rng.randrange(2**64))
            if b.to_json() != a.to_json() and b.legal_actions():
                return a, b, p
            continue
        doc = json.loads(a.to_json())
        slots = list(int_slots(doc))
        for _ in range(300):
            new = swapped(doc, *rng.sample(slots, 2))
            try:
                b = game.state_from_json(json.dumps(new, sort_keys=True, separators=(",", ":")))
            except TapeteError:
                continue
            if b.to_json() == a.to_json() or b.view(p) != a.view(p) or b.legal_actions() != a.legal_actions():
                continue
            if any(b.view(s) != a.view(s) for s in range(game.num_players)):
                return a, b, p


def hidden_actions(state: Any) -> int:
    """The actions of the match whose details no spectator sees (masked, or left out)."""
    public = state.public_view()["history"]
    masked = sum(isinstance(x, str) and "?" in x for x in public)
    return masked + len(state.history()) - len(public)


#: The longest stretch of moves played alike (the frames double with every move).
MOST_ALIKE = 60


def planned(game: Any, kind: str, rng: random.Random, tries: int = 6) -> tuple[Any, Any, int, list[int], int]:
    """The pair to play, among ``tries``: the one whose stretch of moves both tables allow (while
    p's view stays alike) holds the most hidden actions, then the longest. Its moves, and the
    hidden actions made along them."""
    best: tuple[Any, ...] | None = None
    for _ in range(tries):
        a, b, p = paired_start(game, kind, rng)
        x, y, moves = a.clone(), b.clone(), []
        while not x.is_terminal() and len(moves) < MOST_ALIKE:
            common = sorted(set(x.legal_actions()) & set(y.legal_actions()))
            if not common:
                break
            action = rng.choice(common)
            x.apply(action)
            y.apply(action)
            moves.append(action)
            if x.view(p) != y.view(p):
                break
        hidden = hidden_actions(x) - hidden_actions(a)
        score = (hidden > 0, len(moves))
        if best is None or score > best[0]:
            best = (score, a, b, p, moves, hidden)
        if hidden > 0 and len(moves) >= 20:
            break
    assert best is not None
    return best[1], best[2], best[3], best[4], best[5]


class Side:
    """One table of the pair in its own server process, and the client session on it."""

    def __init__(self, serve: Any, name: str, game: Any, start: Any, deprecated: int) -> None:
        self.game, self.state = game, start.clone()
        self.table = f"table{name * 7}"
        n = game.num_players
        self.tokens = [secrets.token_urlsafe(24) for _ in range(n)]
        record = TableRecord(
            id=self.table,
            game=str(game),
            seats=["human"] * n,
            seed=0,
            token_hashes=[hashlib.sha256(t.encode()).hexdigest() for t in self.tokens],
            start=start.to_json(),
            state=start.to_json(),
            taken=[False] * n,
            created=1.0,
        )

        def store(db: str) -> None:
            storage = open_storage(db)
            storage.create_table(record)
            storage.close()

        self.server = serve(name=name, before=store)
        self.deprecated = deprecated
        self.stack = contextlib.ExitStack()
        self.seats: list[Any] = [None] * n
        self.first: list[str] = [""] * n
        for s in range(n):
            self.first[s] = self.connect(s)
        self.spectator = self.open("")
        self.spectator_first = self.read(self.spectator)

    def norm(self, text: str) -> str:
        return text.replace(self.table, "<table>")

    def open(self, query: str) -> Any:
        return self.stack.enter_context(ws_client.connect(f"{self.server.ws}/ws/{self.table}{query}"))

    def read(self, ws: Any) -> str:
        return self.norm(ws.recv(timeout=30))

    def connect(self, seat: int) -> str:
        """Seat ``seat``'s socket: the hello handshake, or the deprecated URL form; its first frame."""
        if seat == self.deprecated:
            self.seats[seat] = self.open(f"?token={self.tokens[seat]}")
            return self.read(self.seats[seat])
        ws = self.seats[seat] = self.open("")
        spectators = self.read(ws)
        ws.send(json.dumps({"type": "hello", "token": self.tokens[seat]}))
        return spectators + "\n" + self.read(ws)

    def reconnect(self, seat: int) -> str:
        self.seats[seat].close()
        return self.connect(seat)

    def wrong_token(self) -> tuple[str, int | None]:
        """A hello with a token of no seat: the error frame, then the close code."""
        with ws_client.connect(f"{self.server.ws}/ws/{self.table}") as ws:
            first = self.read(ws)
            ws.send(json.dumps({"type": "hello", "token": "not-a-token"}))
            error = self.read(ws)
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=30)
        return first + "\n" + error, closed.value.rcvd.code if closed.value.rcvd else None

    def ask(self, ws: Any, message: Any) -> str:
        ws.send(json.dumps(message))
        return self.read(ws)

    def move(self, action: int) -> list[str]:
        """The seat to move plays ``action``; every socket's next frame (seats, then the spectator)."""
        self.seats[self.state.current_player()].send(json.dumps({"type": "move", "action": action}))
        self.state.apply(action)
        return [self.read(ws) for ws in [*self.seats, self.spectator]]

    def lobby(self) -> list[str]:
        listing = [t for t in self.server.get("/api/tables")["tables"] if t["table"] == self.table]
        return [self.norm(json.dumps(listing)), self.norm(self.server.get_text(f"/api/tables/{self.table}"))]

    def replay(self) -> dict[str, Any]:
        for _ in range(50):
            try:
                return self.server.get(f"/api/tables/{self.table}/replay")  # type: ignore[no-any-return]
            except urllib.error.HTTPError:  # the last commit is announced before it is listed as over
                time.sleep(0.1)
        raise AssertionError("no replay")

    def output(self) -> list[str]:
        return masked(self.server.output(), {self.table: "<table>", self.server.db: "<db>"})


def projection(frame: str, side: Side, seat: int | None) -> None:
    """A frame that may differ between the tables: exactly the engine's view (or public view) and
    the legal actions of the seat to move, with the public fields."""
    message = json.loads(frame)
    state = side.state
    view = state.public_view() if seat is None else state.view(seat)
    assert message["view"] == json.loads(json.dumps(view))
    assert message["to_move"] == state.current_player() and message["terminal"] == state.is_terminal()
    legal = [] if seat is None or seat != state.current_player() else state.legal_actions()
    assert [a for a, _ in message["legal"]] == legal


@pytest.mark.parametrize(("text", "kind", "k"), CASES, ids=[f"{t}-{kind}-{k}" for t, kind, k in CASES])
def test_a_seat_and_the_spectators_get_the_same_bytes_from_tables_it_cannot_tell_apart(tapete_serve, text, kind, k):
    game = tapete.load(text)
    n = game.num_players
    rng = random.Random(f"server-secrecy/{text}/{kind}/{k}")
    start_a, start_b, p, plan, hidden = planned(game, kind, rng)
    deprecated = (p + 1) % n  # another seat on the ?token= form: its token is in a request line
    a = Side(tapete_serve, "A", game, start_a, deprecated)
    b = Side(tapete_serve, "B", game, start_b, deprecated)
    try:
        assert a.first[p] == b.first[p] and a.spectator_first == b.spectator_first
        assert "deprecation" in a.first[deprecated]
        assert a.lobby() == b.lobby()
        paired_steps, alike = 0, True
        for action in plan:
            common = sorted(set(a.state.legal_actions()) & set(b.state.legal_actions()))
            if paired_steps % 9 == 0:  # errors, a ping, a reconnect and a wrong token, all alike
                probes: list[Any] = [{"type": "move", "action": 10**6}, {"type": "move", "action": "zz top"}]
                probes += [{"type": "ping"}, {"type": "dance"}, {"type": "hello", "token": a.tokens[p]}]
                if a.state.current_player() != p:
                    probes.append({"type": "move", "action": common[0]})
                for probe in probes:
                    probe_b = probe if probe["type"] != "hello" else {**probe, "token": b.tokens[p]}
                    assert a.ask(a.seats[p], probe) == b.ask(b.seats[p], probe_b), probe
                assert a.ask(a.spectator, {"type": "move", "action": 0}) == b.ask(
                    b.spectator, {"type": "move", "action": 0}
                )
                assert a.reconnect(p) == b.reconnect(p)
                assert a.wrong_token() == b.wrong_token()
                assert a.lobby() == b.lobby()
            frames_a, frames_b = a.move(action), b.move(action)
            if a.state.view(p) != b.state.view(p):
                alike = False
                break
            paired_steps += 1
            assert frames_a[p] == frames_b[p], f"step {paired_steps}: seat {p}'s frame differs"
            assert frames_a[-1] == frames_b[-1], f"step {paired_steps}: the spectator's frame differs"
            for side, frames in ((a, frames_a), (b, frames_b)):
                for seat in range(n):
                    projection(frames[seat], side, seat)
        if alike:
            assert a.lobby() == b.lobby()
        # every line either process wrote while the tables were alike
        assert a.output() == b.output()
        assert paired_steps > 0 or kind == "resampled"  # a resample may tell at the first move
        if kind == "swapped" and any(name in text for name in ("fidasse", "mosca", "burako")):
            assert hidden > 0, "the tables stayed alike through other seats' private actions"
        # the rest of each game, each on its own: every frame the projection of its own state
        for side in (a, b):
            while not side.state.is_terminal():
                frames = side.move(rng.choice(side.state.legal_actions()))
                for seat in range(n):
                    projection(frames[seat], side, seat)
                projection(frames[-1], side, None)
        replay_a, replay_b = a.replay(), b.replay()
        for step in range(paired_steps + 1):
            assert replay_a["steps"][step] == replay_b["steps"][step], f"replay step {step}"
        for side, replay in ((a, replay_a), (b, replay_b)):
            assert replay["steps"][-1]["view"] == json.loads(json.dumps(side.state.public_view()))
    finally:
        for side in (a, b):
            side.stack.close()
            side.server.stop()
    for side in (a, b):
        written = side.server.output()
        assert "Finished server process" in written  # the whole output, shutdown included
        for token in [*a.tokens, *b.tokens]:
            assert token not in written
        for secret in (start_a.to_json(), start_b.to_json(), '"rng"', '"hands"', '"stock"'):
            assert secret not in written
