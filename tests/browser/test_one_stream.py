"""One stream per game page (issue #28): the page opens one EventSource, and another seat's move reaches its board,
history, clocks and chat over it, with no read of /me, /history, /chat or /events after the push (resuming after a
dropped connection: tests/services/api/test_stream.py)."""

from __future__ import annotations

import re
import uuid
from typing import Any

import httpx
from playwright.sync_api import Page, Request, expect

from tests.live import Services

from .conftest import Pages

COUNT_STREAMS = """
(() => {
  const Native = window.EventSource;
  window.__streams = [];
  window.EventSource = function (url, init) {
    const source = new Native(url, init);
    window.__streams.push(source);
    return source;
  };
  window.EventSource.prototype = Native.prototype;
  Object.assign(window.EventSource, { CONNECTING: 0, OPEN: 1, CLOSED: 2 });
})();
"""
"""Wraps ``window.EventSource`` before any of the page's modules run: every stream the page opens is kept."""

REREADS = re.compile(r"/api/(games/[^/]+/(me|history|chat|events)|me/(notices|games))(\?|$)")


def _move(url: str, game_id: str, seat: int, token: str) -> int:
    """The seat's first legal command that needs no choice, sent through the API; the new version."""
    me = httpx.get(f"{url}/api/games/{game_id}/me", headers={"Authorization": f"Bearer {token}"}).json()
    command = next(c["command"] for c in me["legal"] if c["command"]["type"] == "magnate.pass_bid")
    sent = httpx.post(f"{url}/api/games/{game_id}/commands", headers={"Authorization": f"Bearer {token}"},
                      json={"command_id": uuid.uuid4().hex, "command": command, "expected_version": me["version"]})
    assert sent.status_code == 200, sent.text
    return int(sent.json()["version"])


def _open(page: Page, url: str, game_id: str, token: str) -> list[str]:
    """The seat's page, loaded; the reads it makes from now on."""
    page.add_init_script(COUNT_STREAMS)
    page.goto(f"{url}/play/{game_id}#token={token}")
    page.wait_for_selector("#connection[data-state='live']")
    reads: list[str] = []

    def read(request: Request) -> None:
        if request.method == "GET" and REREADS.search(request.url):
            reads.append(request.url)

    page.on("request", read)
    return reads


def test_a_move_reaches_the_page_on_its_one_stream_with_no_read(web: Services, pages: Pages) -> None:
    created = httpx.post(f"{web.url}/api/games", json={
        "game": "magnate", "names": ["Ada", "Bob"], "options": {"seats": [{"kind": "human"}, {"kind": "human"}]},
        "table": {"clock": {"kind": "per_move", "seconds": 3600}}})
    assert created.status_code == 201, created.text
    game: dict[str, Any] = created.json()
    game_id, tokens = game["game_id"], {s["seat"]: s["token"] for s in game["seats"]}
    on_turn = httpx.get(f"{web.url}/api/games/{game_id}").json()["on_turn"][0]
    mover, watcher = on_turn, 1 - on_turn
    page = pages.open()
    reads = _open(page, web.url, game_id, tokens[watcher])
    assert page.evaluate("window.__streams.length") == 1
    before = int(page.locator("body").get_attribute("data-version") or 0)
    lines = page.locator("#history-list li").count()
    mover_row = page.locator(f"#table-seats li[data-seat='{mover}'] .clock")
    expect(mover_row).to_have_text(re.compile(r"left$"))  # the mover's clock runs, the watcher's waits

    version = _move(web.url, game_id, mover, tokens[mover])
    page.wait_for_function(f"() => Number(document.body.dataset.version) >= {version}")
    assert version > before
    expect(page.locator("#history-list li")).not_to_have_count(lines)  # the move's line, told
    told = page.locator("#history-list li").last.get_attribute("data-version")
    assert before < int(told or 0) <= version
    expect(mover_row).to_have_text("")  # the clocks changed hands
    expect(page.locator(f"#table-seats li[data-seat='{watcher}'] .clock")).to_have_text(re.compile(r"left$"))
    chat = httpx.post(f"{web.url}/api/games/{game_id}/chat", json={"text": "your move"},
                      headers={"Authorization": f"Bearer {tokens[mover]}"})
    assert chat.status_code == 201, chat.text
    expect(page.locator("#chat-list li .chat-text").last).to_have_text("your move")
    assert page.evaluate("window.__streams.length") == 1
    assert reads == [], f"the page read again after a push: {reads}"


def test_the_lobby_holds_one_stream_and_a_listed_game_arrives_on_it(web: Services, pages: Pages) -> None:
    page = pages.open()
    page.add_init_script(COUNT_STREAMS)
    page.goto(web.url)
    # the lobby's first message arrived: its open games (other modules on this database may have listed some) or none
    # (":visible": when some are listed, the hidden "none" line comes first in the page)
    expect(page.locator("#open-games-empty:visible, #open-games-list li:visible").first).to_be_visible()
    reads: list[str] = []
    page.on("request", lambda r: reads.append(r.url) if r.method == "GET" and "/api/tables/" in r.url
            and not r.url.endswith("/stream") else None)
    created = httpx.post(f"{web.url}/api/games", json={
        "game": "magnate", "names": ["Ada", "Bob"], "listed": True,
        "options": {"seats": [{"kind": "human"}, {"kind": "human"}]}})
    assert created.status_code == 201, created.text
    listed = page.locator(f"#open-games-list li[data-game='{created.json()['game_id']}']")
    expect(listed).to_contain_text("Ada", timeout=15_000)  # within the lobby's period, read by the server
    assert page.evaluate("window.__streams.length") == 1
    assert reads == [], f"the lobby read its lists again: {reads}"
