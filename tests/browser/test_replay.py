"""The game page's replay (issue #29): a finished game of each of the three games, played to its end by a
random bot against the weakest computer, is scrubbed in the page — by the range, by the step buttons (a
version, a round), by the keyboard and by a link with ``?v=N`` — and at each version what the game's own bundle
draws (each seat's money or tokens, the round, corporations' points...) matches ``GET /state?at=N`` (the auditor's
view: a finished game is open to everyone), and the history shows its lines up to that version. A running game's
replay shows only what its viewer may see: another person's money stays hidden at every version."""

from __future__ import annotations

import asyncio
import hashlib
import re
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from domain.kernel import Seat, tag_of
from infra.config import Settings
from infra.errors import ConcurrencyConflict
from services.gameplay import Gameplay
from services.gameplay.bootstrap import build
from tests.conftest import drop_queue
from tests.live import Services

from .conftest import PHONE, Pages, screenshot

pytestmark = [pytest.mark.integration, pytest.mark.browser]

GAMES = ("magnate", "decktet", "master_of_economy")


async def _finish(gameplay: Gameplay, name: str) -> str:
    """A game of ``name`` (a bot in the person's seat, the weakest computer in the other) played to its end
    in-process, in the database the server uses, system jobs run as a worker would: much faster than through the
    service, and the page cannot tell."""
    game = gameplay.module(name)
    assert game.sim_options is not None
    options = game.sim_options(("human", "ai"), game.ai_levels[0], frozenset())
    created = await gameplay.create_game(name, options, ["Ada", ""], hashlib.sha256(name.encode()).digest()[:8])
    bot = game.bots["random"](7)
    for n in range(5000):
        loaded = await gameplay.load(created.game_id)
        due = game.pending(loaded.state)
        if due.finished:
            return created.game_id
        try:
            if due.system is not None:
                await gameplay.run_system(created.game_id, loaded.version, tag_of(due.system))
            else:
                seat = due.seats[0]
                await gameplay.submit(created.game_id, int(seat), f"bot-{n}", bot(loaded.state, Seat(seat)),
                                      loaded.version)
        except ConcurrencyConflict:
            continue  # the server's worker ran a job of this game first
    raise AssertionError(f"the {name} game did not finish")


async def _finished_games(pg_dsn: str, redis_url: str) -> dict[str, str]:
    queue = f"magnate:test:replay:{uuid.uuid4().hex[:10]}"
    runtime = await build(Settings(database_url=pg_dsn, redis_url=redis_url, queue_name=queue, sandbox=True),
                          run_migrations=False)
    try:
        return {name: await _finish(runtime.gameplay, name) for name in GAMES}
    finally:
        await runtime.close()
        drop_queue(redis_url, queue)


@pytest.fixture(scope="module")
def finished(web: Services, pg_dsn: str, redis_url: str) -> dict[str, str]:
    """One finished game of each game, by type."""
    with ThreadPoolExecutor(1) as thread:  # Playwright's sync API runs an event loop in this thread
        return thread.submit(asyncio.run, _finished_games(pg_dsn, redis_url)).result()


def digits(text: str) -> str:
    return re.sub(r"[^\d-]", "", text)


def state_at(web: Services, game_id: str, version: int, **params: str) -> dict[str, Any]:
    answer = httpx.get(f"{web.url}/api/games/{game_id}/state", params={"at": version, **params})
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    assert body["version"] == version
    return body


def magnate_facts(page: Page, view: dict[str, Any]) -> None:
    body = page.locator("body")
    expect(body).to_have_attribute("data-round", str(view["round"]))
    expect(body).to_have_attribute("data-phase", view["phase"])
    for s in view["seats"]:
        row = page.locator(f"#company-table tr[data-seat='{s['seat']}']")
        assert digits(row.locator(".cash").inner_text()) == str(s["cash"])
        assert row.locator(".plots").inner_text().strip() == (" ".join(s["plots"]) if s["plots"] else "—")


def decktet_facts(page: Page, view: dict[str, Any]) -> None:
    body = page.locator("body")
    expect(body).to_have_attribute("data-turn", str(view["turn"]))
    expect(body).to_have_attribute("data-phase", view["phase"])
    for s in view["seats"]:
        player = page.locator(f".players li.player[data-seat='{s['seat']}']")
        counts = [int(digits(c)) for c in player.locator(".supply .count").all_inner_texts()]
        assert counts == s["supply"]
        assert digits(player.locator(".hand-size").inner_text()) == str(s["hand_size"])
    assert digits(page.locator("#discard-pile").inner_text()) == str(len(view["discard"]))


def master_of_economy_facts(page: Page, view: dict[str, Any]) -> None:
    body = page.locator("body")
    expect(body).to_have_attribute("data-stage", str(view["stage"]))
    expect(body).to_have_attribute("data-phase", str(view["phase"]))
    for p in view["players"]:
        cash = page.locator(f"#players-list li[data-seat='{p['seat']}'] .cash").inner_text()
        assert digits(cash) == str(p["cash"])
    for c in view["corps"]:
        corp = page.locator(f"#corps [data-corp='{c['key']}']")
        assert digits(corp.locator("dd[data-stat='points']").inner_text()) == str(c["points"])
        assert digits(corp.locator("dd[data-stat='cash']").inner_text()) == str(c["cash"])


FACTS: dict[str, Callable[[Page, dict[str, Any]], None]] = {
    "magnate": magnate_facts, "decktet": decktet_facts, "master_of_economy": master_of_economy_facts}


def shows(page: Page, web: Services, game: str, game_id: str, version: int, lines: list[dict[str, Any]]) -> None:
    """The page shows ``version``: the board matches the API's state there, the URL names it, and the history
    runs to it with its last line marked."""
    expect(page.locator("body")).to_have_attribute("data-replay", str(version))
    assert f"v={version}" in page.url
    FACTS[game](page, state_at(web, game_id, version, viewer="auditor")["view"])
    told = [line["version"] for line in lines if line["version"] <= version]
    history = page.locator("#history-list")
    expect(history.locator("li:not([hidden])")).to_have_count(len(told))
    marked = history.locator("li.replay-at")
    if told:
        expect(marked.first).to_have_attribute("data-version", str(told[-1]))
    else:
        expect(marked).to_have_count(0)


@pytest.mark.parametrize("game", GAMES)
def test_a_finished_game_is_scrubbed_and_each_version_drawn_as_the_api_gives_it(
    web: Services, pages: Pages, finished: dict[str, str], game: str
) -> None:
    game_id = finished[game]
    head = httpx.get(f"{web.url}/api/games/{game_id}").json()["version"]
    lines = httpx.get(f"{web.url}/api/games/{game_id}/history").json()["lines"]
    entry = next(g for g in httpx.get(f"{web.url}/api/catalog").json() if g["game"] == game)
    rounds = sorted({line["version"] for line in lines if line["event"] in entry["round_events"]})
    assert len(rounds) >= 2, f"{game}: rounds begin at {rounds}"
    page = pages.open()
    page.goto(f"{web.url}/play/{game_id}")
    expect(page.locator("#final")).to_be_visible()
    page.locator("#replay-open").click()
    shows(page, web, game, game_id, head, lines)
    expect(page.locator("#final")).to_be_hidden()  # the standings of now are not the past's

    middle = head // 2  # by the range
    page.locator("#replay-range").fill(str(middle))
    shows(page, web, game, game_id, middle, lines)
    page.locator("#replay-prev").click()  # by the buttons: a version, a round, the ends
    shows(page, web, game, game_id, middle - 1, lines)
    page.locator("#replay-next").click()
    page.locator("#replay-next").click()
    shows(page, web, game, game_id, middle + 1, lines)
    after = next(r for r in rounds if r > middle + 1)
    page.locator("#replay-next-round").click()
    shows(page, web, game, game_id, after, lines)
    page.locator("#replay-prev-round").click()
    shows(page, web, game, game_id, max([r for r in rounds if r < after], default=1), lines)
    page.locator("#replay-last").click()
    shows(page, web, game, game_id, head, lines)
    expect(page.locator("#replay-next")).to_be_disabled()
    page.locator("#replay-range").press("Home")  # by the keyboard
    shows(page, web, game, game_id, 1, lines)
    page.locator("#replay-range").press("End")
    shows(page, web, game, game_id, head, lines)
    page.locator("#replay-range").press("ArrowLeft")
    shows(page, web, game, game_id, head - 1, lines)
    page.locator("#replay-range").press("Shift+ArrowLeft")
    shows(page, web, game, game_id, max(r for r in rounds if r < head - 1), lines)
    page.locator("#replay-first").click()
    shows(page, web, game, game_id, 1, lines)
    screenshot(page, f"replay-{game}")

    linked = rounds[1] + 2  # by a link
    page.goto(f"{web.url}/play/{game_id}?v={linked}")
    shows(page, web, game, game_id, linked, lines)
    assert page.locator("#replay-link").get_attribute("href") == f"{web.url}/play/{game_id}?v={linked}"

    page.locator("#replay-live").click()  # back to the game as it is
    expect(page.locator("body")).not_to_have_attribute("data-replay", re.compile(".*"))
    assert "v=" not in page.url
    expect(page.locator("#final")).to_be_visible()
    expect(page.locator("#history-list li:not([hidden])")).to_have_count(len(lines))


def test_a_running_games_replay_shows_only_what_its_seat_may_see(web: Services, pages: Pages) -> None:
    body = {"game": "magnate", "options": {"seats": [{"kind": "human"}, {"kind": "human"}]}, "names": ["Ada", "Bo"]}
    created = httpx.post(f"{web.url}/api/games", json=body)
    assert created.status_code == 201, created.text
    game_id = created.json()["game_id"]
    token = next(s["token"] for s in created.json()["seats"] if s["seat"] == 0)
    version = httpx.get(f"{web.url}/api/games/{game_id}").json()["version"]
    page = pages.open()
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/state?" in r.url else None)
    page.goto(f"{web.url}/play/{game_id}?v={version}#token={token}")
    expect(page.locator("body")).to_have_attribute("data-replay", str(version))
    mine = page.locator("#company-table tr[data-seat='0'] .cash")
    expect(mine).not_to_have_text("hidden")
    expect(page.locator("#company-table tr[data-seat='1'] .cash")).to_have_text("hidden")
    assert asked and not [u for u in asked if "auditor" in u], asked  # the seat's own view, never the auditor's
    page.set_viewport_size(PHONE)  # the scrubber fits a phone
    wide = page.evaluate("""(w) => [...document.querySelectorAll('#replay *')]
        .filter((e) => e.getBoundingClientRect().right > w + 1).map((e) => e.id || e.tagName)""", PHONE["width"])
    assert not wide, f"too wide: {wide}"
    screenshot(page, "replay-phone")
    refused = httpx.get(f"{web.url}/api/games/{game_id}/state", params={"at": version, "viewer": "auditor"})
    assert refused.status_code == 403, refused.text
