"""Secrecy of ``tapete serve`` (docs/server.md "Secrecy"), generic over every game and every message.

Two tables play the same public game from two states that differ only in cards hidden from seat p
(two of them swapped, found by asking the engine which swaps leave p's view unchanged). Every message to
seat p (first sync, updates, errors, the end of the game), every spectator frame, the lobby
listing, the public table view, the replay and the server's log lines must then be byte-identical
on both tables, the table id aside, for as long as p's view is. Once the rules show p a difference
(or the two games part), each message must be exactly its projection: the engine's view(p), p's
legal actions and public fields, nothing more.
"""

from __future__ import annotations

import json
import logging
import random

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

import tapete  # noqa: E402
from tapete.server.app import create_app  # noqa: E402
from tapete.server.protocol import PRIVATE_KEYS, public_view  # noqa: E402
from tapete.server.storage import open_storage  # noqa: E402

SEAT_KEYS = {"type", "table", "game", "seats", "moves", "to_move", "terminal", "returns", "seat", "view", "legal"}


def int_slots(doc, path=()):
    """Every (list path, index) of the state JSON that holds an int: cards, tiles, and anything else."""
    if isinstance(doc, dict):
        for key, value in doc.items():
            yield from int_slots(value, (*path, key))
    elif isinstance(doc, list):
        for i, value in enumerate(doc):
            if isinstance(value, int) and not isinstance(value, bool):
                yield path, i
            else:
                yield from int_slots(value, (*path, i))


def at(doc, path):
    for key in path:
        doc = doc[key]
    return doc


def swapped(doc, one, two):
    """``doc`` with two list entries swapped (a list that was ascending is sorted again)."""
    new = json.loads(json.dumps(doc))
    (pa, ia), (pb, ib) = one, two
    la, lb = at(new, pa), at(new, pb)
    sorted_a, sorted_b = la == sorted(la), lb == sorted(lb)
    la[ia], lb[ib] = lb[ib], la[ia]
    if sorted_a:
        la.sort()
    if sorted_b:
        lb.sort()
    return new


CONFIGS = [
    "escoba(players=2)",
    "escoba(variant=escoba,players=4)",
    "escoba(variant=fidasse,players=2)",
    "mosca(players=3)",
    "musta_maija(players=3)",
    "burako(match=single_hand)",
]
CASES = [(g, seat) for g in CONFIGS for seat in range(tapete.load(g).num_players)]


def test_every_game_is_covered():
    assert {tapete.load(g).name for g in CONFIGS} == set(tapete.registry.GAMES) == set(PRIVATE_KEYS)


def paired_states(game, seat: int, rng: random.Random):
    """Two states equal to seat ``seat`` and different in what another seat sees: two entries of
    the state JSON swapped, kept when the engine takes the result and ``view(seat)`` is unchanged
    (the engine's own no-leak tests hold the views to that)."""
    from tapete.errors import TapeteError

    for _ in range(200):
        state = game.new_state(seed=rng.randrange(2**64))
        for _ in range(rng.randrange(0, 40)):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        doc = json.loads(state.to_json())
        slots = list(int_slots(doc))
        for _ in range(300):
            one, two = rng.sample(slots, 2)
            new = swapped(doc, one, two)
            if new == doc:
                continue
            try:
                other = game.state_from_json(json.dumps(new, sort_keys=True, separators=(",", ":")))
            except TapeteError:
                continue
            if other.to_json() == state.to_json() or other.view(seat) != state.view(seat):
                continue
            # the same moves open to the seat to move, so that the pair plays on together
            if other.legal_actions() != state.legal_actions():
                continue
            if any(other.view(s) != state.view(s) for s in range(game.num_players)):
                return state, other
    raise AssertionError("no paired states found")


class Side:
    """One table of the pair, with a socket per seat and one spectator."""

    def __init__(self, client, game_text: str, start, players: int):
        server = client.app.state.server
        self.server = server
        self.id, tokens = client.portal.call(server.create, game_text, ["human"] * players, False, start.to_json())
        self.seats = [client.websocket_connect(f"/ws/{self.id}?token={tokens[str(s)]}") for s in range(players)]
        self.spectator = client.websocket_connect(f"/ws/{self.id}")
        for ws in [*self.seats, self.spectator]:
            ws.__enter__()
        self.tokens = tokens

    @property
    def state(self):
        return self.server.tables[self.id].state

    def norm(self, text: str) -> str:
        return text.replace(self.id, "<table>")

    def read(self, ws) -> str:
        return self.norm(ws.receive_text())

    def frames(self) -> list[str]:
        """One frame from every socket (after a move every socket gets one)."""
        return [self.read(ws) for ws in [*self.seats, self.spectator]]

    def close(self):
        for ws in [*self.seats, self.spectator]:
            ws.close()
            ws.__exit__(None, None, None)


def legal_of(state, seat):
    if state.is_terminal() or state.current_player() != seat:
        return []
    return [[a, state.action_to_string(a)] for a in state.legal_actions()]


def check_projection(frame: str, side: Side, seat: int | None) -> None:
    """A frame that may differ between the tables holds exactly the engine's view and public fields."""
    message = json.loads(frame)
    state = side.state
    assert set(message) == SEAT_KEYS
    assert message["terminal"] == state.is_terminal()
    assert message["to_move"] == (-1 if state.is_terminal() else state.current_player())
    assert message["returns"] == (state.returns() if state.is_terminal() else None)
    if seat is None:
        assert message["view"] == json.loads(json.dumps(public_view(side.game_name, state, len(side.seats))))
        assert message["legal"] == []
    else:
        assert message["view"] == json.loads(json.dumps(state.view(seat)))
        assert message["legal"] == legal_of(state, seat)


@pytest.mark.parametrize("game_text,seat", CASES, ids=[f"{g}-seat{s}" for g, s in CASES])
def test_messages_to_a_seat_do_not_depend_on_what_it_cannot_see(tmp_path, caplog, game_text, seat):
    caplog.set_level(logging.INFO)
    game = tapete.load(game_text)
    players = game.num_players
    rng = random.Random(f"server-secrecy/{game_text}/{seat}")
    start_a, start_b = paired_states(game, seat, rng)
    with TestClient(create_app(open_storage(str(tmp_path / "db.sqlite3")))) as client:
        a = Side(client, game_text, start_a, players)
        b = Side(client, game_text, start_b, players)
        a.game_name = b.game_name = game.name
        try:
            paired_logs = play_pair(client, a, b, game, seat, rng, caplog)
        finally:
            a.close()
            b.close()
    # logs: the same lines for both tables while paired, and never a token, a seed or a state
    lines_a = [a.norm(line) for line in paired_logs.splitlines() if a.id in line]
    lines_b = [b.norm(line) for line in paired_logs.splitlines() if b.id in line]
    assert [line.split(" ", 3)[-1] for line in lines_a] == [line.split(" ", 3)[-1] for line in lines_b]
    assert lines_a
    for token in [*a.tokens.values(), *b.tokens.values()]:
        assert token not in caplog.text
    for secret in (start_a.to_json(), start_b.to_json(), '"rng"', '"seed"'):
        assert secret not in caplog.text


def play_pair(client, a: Side, b: Side, game, seat: int, rng: random.Random, caplog) -> str:
    """Play the pair to the end, checking every message; the log text of the paired part."""
    players = game.num_players
    paired_logs = ""
    if True:
        paired = True
        paired_steps = 0
        # first sync, to every socket
        first_a, first_b = a.frames(), b.frames()
        assert first_a[seat] == first_b[seat] and first_a[-1] == first_b[-1]
        # the lobby and the public table view
        listing = {t["table"]: t for t in client.get("/api/tables").json()["tables"]}
        assert a.norm(json.dumps(listing[a.id])) == b.norm(json.dumps(listing[b.id]))
        assert a.norm(client.get(f"/api/tables/{a.id}").text) == b.norm(client.get(f"/api/tables/{b.id}").text)
        for step in range(3000):
            sa, sb = a.state, b.state
            if sa.is_terminal() and sb.is_terminal():
                break
            # errors: an illegal id, bad notation, and a move out of turn, all from seat p
            if step % 7 == 0:
                probes = [{"type": "move", "action": 10**6}, {"type": "move", "action": "zz top"}]
                if paired:
                    for probe in probes:
                        a.seats[seat].send_json(probe)
                        b.seats[seat].send_json(probe)
                        assert a.read(a.seats[seat]) == b.read(b.seats[seat])
            # the next move: one both tables allow while they are paired, else each its own
            common = sorted(set(sa.legal_actions()) & set(sb.legal_actions())) if paired else []
            if paired and common and sa.current_player() == sb.current_player():
                moves = {"a": rng.choice(common)}
                moves["b"] = moves["a"]
            else:
                paired = False
                moves = {
                    "a": None if sa.is_terminal() else rng.choice(sa.legal_actions()),
                    "b": None if sb.is_terminal() else rng.choice(sb.legal_actions()),
                }
            frames = {}
            for name, side, state in (("a", a, sa), ("b", b, sb)):
                if moves[name] is None:
                    continue
                side.seats[state.current_player()].send_json({"type": "move", "action": moves[name]})
                frames[name] = side.frames()
            if paired and a.state.view(seat) == b.state.view(seat):
                paired_steps += 1
                assert frames["a"][seat] == frames["b"][seat], f"step {step}: seat {seat}'s update differs"
                assert frames["a"][-1] == frames["b"][-1], f"step {step}: the spectator's update differs"
                if step % 7 == 0:
                    listing = {t["table"]: t for t in client.get("/api/tables").json()["tables"]}
                    assert a.norm(json.dumps(listing[a.id])) == b.norm(json.dumps(listing[b.id]))
                    assert a.norm(client.get(f"/api/tables/{a.id}").text) == b.norm(
                        client.get(f"/api/tables/{b.id}").text
                    )
                paired_logs = caplog.text
            else:
                paired = False
                for name, side in (("a", a), ("b", b)):
                    if name in frames:
                        check_projection(frames[name][seat], side, seat)
                        check_projection(frames[name][-1], side, None)
        assert paired_steps > 0
        assert a.state.is_terminal() and b.state.is_terminal()
        # the end of the game: the last frame is the projection of the final state (checked above),
        # and the replays agree for as long as the games did
        replay_a = client.get(f"/api/tables/{a.id}/replay").json()
        replay_b = client.get(f"/api/tables/{b.id}/replay").json()
        for n in range(paired_steps + 1):
            assert json.dumps(replay_a["steps"][n]) == json.dumps(replay_b["steps"][n]), f"replay step {n}"
        for side, replay in ((a, replay_a), (b, replay_b)):
            assert set(replay) == {"table", "game", "seats", "moves", "returns", "steps"}
            assert replay["steps"][-1]["view"] == json.loads(json.dumps(public_view(game.name, side.state, players)))
    return paired_logs


@pytest.mark.parametrize("game_text", CONFIGS)
def test_the_public_view_hides_every_seats_private_cards(game_text):
    """The spectator's view is equal for states that differ in any seat's hidden cards, and holds
    no private key of the game."""
    game = tapete.load(game_text)
    rng = random.Random(f"public/{game_text}")
    checked = 0
    for seat in range(game.num_players):
        for _ in range(4):
            a, b = paired_states(game, seat, rng)
            view_a = public_view(game.name, a, game.num_players)
            assert view_a == public_view(game.name, b, game.num_players)
            for key, stand_in in PRIVATE_KEYS[game.name].items():
                if key in view_a:
                    assert view_a[key] == stand_in
            checked += 1
    assert checked


def strings(value) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(strings(v) for v in value)) if value else set()
    return set()


@pytest.mark.parametrize("game_text", CONFIGS)
def test_the_public_view_shows_only_what_every_seat_sees(game_text):
    """Every card (any text) in the public view is in every seat's view, private keys aside: a
    spectator never learns what some seat cannot see (fidasse claims, Burako's drawn tile...)."""
    game = tapete.load(game_text)
    rng = random.Random(f"public-subset/{game_text}")
    private = PRIVATE_KEYS[game.name]
    masked = 0
    for _ in range(6):
        state = game.new_state(seed=rng.randrange(2**64))
        while not state.is_terminal():
            views = [{k: v for k, v in state.view(s).items() if k not in private} for s in range(game.num_players)]
            seen_by_all = set.intersection(*(strings(v) for v in views))
            public = public_view(game.name, state, game.num_players)
            assert {t for t in strings(public) if "??" not in t} <= seen_by_all
            masked += any(strings(v) - seen_by_all for v in views)
            state.apply(rng.choice(state.legal_actions()))
    if game.options.get("fidasse"):
        assert masked > 0  # the claims were there to hide
