"""The browser table in a real Chromium (Debian's package, driven by Playwright's Python API):
two seats play a whole deal of Escoba by clicking, the page of every game is photographed at
desktop and phone width, and a page rides out a server killed and restarted mid-game.

Screenshots go to $TAPETE_ARTIFACTS (default target/screenshots)."""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")

import tapete  # noqa: E402
from server_process import ROOT, ServerProcess  # noqa: E402

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium (Debian package 'chromium')")
ARTIFACTS = Path(os.environ.get("TAPETE_ARTIFACTS", ROOT / "target" / "screenshots"))


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield browser
        browser.close()


@pytest.fixture
def server(tmp_path):
    process = ServerProcess(str(tmp_path / "tables.sqlite3"), None, "--bot-delay", "0").start()
    yield process
    process.kill()


def engine_state(db: str, table: str):
    connection = sqlite3.connect(db)
    game, state = connection.execute("SELECT game, state FROM tables WHERE id = ?", (table,)).fetchone()
    connection.close()
    return tapete.load(game).state_from_json(state)


def moves_of(page) -> int:
    return int(page.evaluate("document.body.dataset.moves || -1"))


def click_a_move(page, which: int = 0) -> None:
    """Click one of the legal moves shown, and wait for the table to move on."""
    before = moves_of(page)
    buttons = page.locator("#legal button")
    buttons.nth(which % buttons.count()).click()
    page.wait_for_function(f"Number(document.body.dataset.moves) > {before}", timeout=10_000)


def test_two_seats_play_a_whole_deal_by_clicking(browser, server):
    made = server.post("/api/tables", {"game": "escoba(players=2)", "seats": ["human", "human"]})
    table = made["table"]
    pages = []
    for seat in ("0", "1"):
        context = browser.new_context(viewport={"width": 900, "height": 900})
        page = context.new_page()
        page.goto(f"{server.url}/table/{table}#token={made['tokens'][seat]}")
        page.wait_for_function("document.body.dataset.moves !== undefined")
        pages.append(page)
    clicks = 0
    while True:
        state = engine_state(server.db, table)
        if state.is_terminal() or state.view(0)["deal"] > 1:
            break
        mover = pages[state.current_player()]
        mover.wait_for_function(f"Number(document.body.dataset.moves) === {len(state.history())} || true")
        mover.wait_for_selector("#legal button", timeout=10_000)
        click_a_move(mover, clicks)
        clicks += 1
        assert clicks < 500
    for seat, page in enumerate(pages):
        page.wait_for_function(f"Number(document.body.dataset.moves) === {moves_of(pages[0])}")
        shown = page.locator("#scores").get_attribute("data-scores")
        assert [int(x) for x in shown.strip("[]").split(",")] == state.view(seat)["scores"]
    assert sum(state.view(0)["scores"]) > 0  # a whole deal scores points
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    pages[0].screenshot(path=str(ARTIFACTS / "escoba-after-a-deal.png"), full_page=True)


@pytest.mark.parametrize(
    "game",
    ["escoba(variant=escoba,players=4)", "mosca(players=4)", "musta_maija(players=3)", "burako(match=single_hand)"],
)
def test_every_games_table_renders_and_plays(browser, server, game):
    players = tapete.load(game).num_players
    made = server.post("/api/tables", {"game": game, "seats": ["human"] + ["bot:random"] * (players - 1)})
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    name = game.split("(")[0]
    for width, height, label in ((1000, 900, "desktop"), (390, 844, "phone")):
        context = browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        page.goto(f"{server.url}/table/{made['table']}#token={made['tokens']['0']}")
        for i in range(8 if label == "desktop" else 2):
            page.wait_for_selector("#legal button", timeout=10_000)
            state = engine_state(server.db, made["table"])
            if state.is_terminal():
                break
            click_a_move(page, i)
        page.wait_for_selector("#legal button", timeout=10_000)
        # what the page shows is the engine's view of seat 0
        state = engine_state(server.db, made["table"])
        hand = state.view(0).get("rack") if name == "burako" else state.view(0)["hand"]
        shown = page.locator(".hand > [data-card]").evaluate_all("nodes => nodes.map(n => n.dataset.card)")
        assert shown == hand
        page.screenshot(path=str(ARTIFACTS / f"{name}-{label}.png"), full_page=True)
        if label == "phone":  # nothing wider than the phone's screen
            assert page.evaluate("document.documentElement.scrollWidth") <= width
        context.close()


def test_a_page_rides_out_a_server_killed_and_restarted(browser, server):
    made = server.post("/api/tables", {"game": "mosca(players=3)", "seats": ["human", "bot:random", "bot:random"]})
    page = browser.new_page()
    page.goto(f"{server.url}/table/{made['table']}#token={made['tokens']['0']}")
    for i in range(3):
        page.wait_for_selector("#legal button", timeout=10_000)
        click_a_move(page, i)
    page.wait_for_selector("#legal button", timeout=10_000)
    before = moves_of(page)
    server.kill()
    server.start()
    # the page reconnects by itself with the seat token kept in the browser, and is sent its seat again
    page.wait_for_function("Number(document.body.dataset.synced) === 2", timeout=15_000)
    page.wait_for_selector("#legal button", timeout=10_000)
    assert moves_of(page) == before == len(engine_state(server.db, made["table"]).history())
    click_a_move(page)
