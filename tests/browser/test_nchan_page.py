"""The game page served through nginx with nchan (``MAGNATE_PUSH=nchan``, docs/SCALING.md; tests/pushing.py): it
learns from the server to open its one stream on nchan's channel of its seat, in its language; the other seat's
moves and chat arrive on it with no read of the API after them, for a game played a few moves through nginx, also
after the page has renewed its subscription (resuming after the last message it saw) a few times; and the other
seat's channel is refused to it."""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, Request, expect

from tests.pushing import Pushing, pushing_deployment

from .conftest import Pages
from .test_one_stream import COUNT_STREAMS

SUBSCRIPTION_S = 3
"""Each page renews its subscription this often here (100 s in production), resuming after the last message it saw:
many times in one game."""
STATES = "window.__states = []; new MutationObserver(() => { const s = document.querySelector('#connection')" \
    "?.dataset.state; if (s && window.__states.at(-1) !== s) window.__states.push(s); })" \
    ".observe(document, { subtree: true, attributes: true, attributeFilter: ['data-state'] });"
"""Records every state the page's connection mark shows."""
READS = re.compile(r"/api/(games/[^/?]+(/(me|history|chat|events|stream/address))?|me/(notices|games))(\?|$)")
"""The page's reads of the game (the game, the seat, the story, the chat, the events, where its stream is)."""


@pytest.fixture(scope="module")
def pushing(pg_dsn: str, redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pushing]:
    with pushing_deployment(pg_dsn, redis_url, tmp_path_factory.mktemp("nginx"), range(18450, 18500),
                            subscription_s=SUBSCRIPTION_S) as deployed:
        yield deployed


def _subscribers(pushing: Pushing) -> int:
    """nchan's count of open subscriptions (its stub status on the publisher's side)."""
    status = httpx.get(pushing.push.nginx.box.publish_url.replace("/publish", "/nchan_status")).text
    return int(re.search(r"subscribers: (\d+)", status)[1])  # type: ignore[index]


def _until_subscribers(pushing: Pushing, count: int) -> None:
    """nchan holds ``count`` subscriptions (a page's renewal may be under way for a moment)."""
    deadline = time.monotonic() + 5
    while (held := _subscribers(pushing)) != count and time.monotonic() < deadline:
        time.sleep(0.2)
    assert held == count


def _move(http: httpx.Client, game_id: str, tokens: dict[int, str]) -> tuple[int, int]:
    """The first legal command of the seat on turn, through nginx: (the seat, the new version)."""
    on_turn = http.get(f"/api/games/{game_id}").json()["on_turn"][0]
    auth = {"Authorization": f"Bearer {tokens[on_turn]}"}
    me = http.get(f"/api/games/{game_id}/me", headers=auth).json()
    sent = http.post(f"/api/games/{game_id}/commands", headers=auth, json={
        "command_id": uuid.uuid4().hex, "command": me["legal"][0]["command"], "expected_version": me["version"]})
    assert sent.status_code == 200, sent.text
    return on_turn, int(sent.json()["version"])


def _open(page: Page, url: str, game_id: str, token: str) -> list[str]:
    """The seat's page through nginx, loaded and live; the reads it makes from now on."""
    page.add_init_script(COUNT_STREAMS)
    page.add_init_script(STATES)
    page.goto(f"{url}/play/{game_id}#token={token}")
    page.wait_for_selector("#connection[data-state='live']")
    reads: list[str] = []

    def read(request: Request) -> None:
        if request.method == "GET" and READS.search(request.url):
            reads.append(request.url)

    page.on("request", read)
    return reads


def test_a_game_plays_through_nginx_with_nchan_each_page_on_its_one_stream_with_no_read(
    pushing: Pushing, pages: Pages
) -> None:
    with httpx.Client(base_url=pushing.url, timeout=10) as http:
        _play(pushing, pages, http)


def _play(pushing: Pushing, pages: Pages, http: httpx.Client) -> None:
    created = http.post("/api/games", json={
        "game": "magnate", "names": ["Ada", "Bob"], "options": {"seats": [{"kind": "human"}, {"kind": "human"}]},
        "table": {"clock": {"kind": "per_move", "seconds": 3600}}})
    assert created.status_code == 201, created.text
    game: dict[str, Any] = created.json()
    game_id, tokens = game["game_id"], {s["seat"]: s["token"] for s in game["seats"]}
    opened = {seat: pages.open() for seat in tokens}
    reads = {seat: _open(page, pushing.url, game_id, tokens[seat]) for seat, page in opened.items()}
    for seat, page in opened.items():
        assert set(page.evaluate("window.__streams.map((s) => new URL(s.url).pathname)")) == {
            f"/push/games/{game_id}/seat/{seat}/en"}  # its seat's channel on nchan, not the API's stream
    _until_subscribers(pushing, 2)

    moved, version = [], 0
    for _ in range(4):  # a few moves, by whichever seat is on turn: both pages follow each by push
        before = version
        seat, version = _move(http, game_id, tokens)
        moved.append(seat)
        for page in opened.values():
            page.wait_for_function(f"() => Number(document.body.dataset.version) >= {version}")
    assert set(moved) == {0, 1}, moved  # both seats moved
    watcher = opened[1 - moved[-1]]
    told = watcher.locator("#history-list li").last.get_attribute("data-version")
    assert before < int(told or 0) <= version  # the last move's line, told on the push
    expect(watcher.locator(f"#table-seats li[data-seat='{1 - moved[-1]}'] .clock")).to_have_text(
        re.compile(r"left$"))  # the clocks changed hands: its own runs now
    chat = http.post(f"/api/games/{game_id}/chat", json={"text": "your move"},
                     headers={"Authorization": f"Bearer {tokens[moved[-1]]}"})
    assert chat.status_code == 201, chat.text
    expect(watcher.locator("#chat-list li .chat-text").last).to_have_text("your move")

    time.sleep(2.5 * SUBSCRIPTION_S)  # each page ends its subscription and opens the next one twice more
    seat, version = _move(http, game_id, tokens)
    for page in opened.values():
        page.wait_for_function(f"() => Number(document.body.dataset.version) >= {version}")  # resumed, nothing lost
        # a subscription the push server ends and the browser renews at once is no break the player is shown
        assert "reconnecting" not in page.evaluate("window.__states"), page.evaluate("window.__states")
    for seat, page in opened.items():
        # a renewal may be under way at this instant (its stream still connecting): wait for it to open
        page.wait_for_function("() => window.__streams[window.__streams.length - 1].readyState === 1")
        streams = page.evaluate("window.__streams.map((s) => s.readyState)")
        assert len(streams) >= 3 and streams[-1] == 1 and set(streams[:-1]) == {2}, streams  # one open at a time
        assert reads[seat] == [], f"seat {seat}'s page read again after a push: {reads[seat]}"
    _until_subscribers(pushing, 2)  # the ended subscriptions are gone
    # the other seat's channel is refused to this page (its own seat cookie, its own session: none)
    other = f"/push/games/{game_id}/seat/{moved[-1]}/en"
    assert watcher.evaluate("(url) => fetch(url).then((r) => r.status)", other) == 403
