"""The rough edges a new player hits in the first ten minutes (issue #26): a game against the computer alone opens on
its page when created, with no invite links; the seat's own clock is in the page's header, on desktop and phone;
``/schema`` renders with nothing but the server reachable; the web app manifest and its icons load and every page
links them; a vacation is ended early from the settings; Master of Economy's demand marker waits on its start
box between trade phases."""

from __future__ import annotations

import re
import struct
import uuid

import httpx
import pytest
from playwright.sync_api import Page, Route, ViewportSize, expect

from tests.live import Services

from .conftest import DESKTOP, PHONE, Pages
from .test_clocks import create, seat_row, token_of
from .test_tables import sign_in_by_mail

pytestmark = [pytest.mark.integration, pytest.mark.browser]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_game_against_the_computer_alone_opens_on_its_page(
    web: Services, pages: Pages, viewport: ViewportSize
) -> None:
    page = pages.open(viewport)
    page.goto(f"{web.url}/?game=decktet")
    expect(page.get_by_label("Seat 2 is played by")).to_have_value("ai")
    page.get_by_label("Seat 1 player name").fill("Ada")
    page.get_by_role("button", name="Create game").click()
    page.wait_for_selector("body[data-version]")
    assert re.search(r"/play/[0-9a-f]+#token=", page.url), page.url
    expect(page.locator("#game-title")).to_contain_text("Ada")
    expect(page.locator("#invites")).to_be_hidden()  # no person's seat is free: nothing to hand out


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_header_shows_the_seats_own_clock(web: Services, pages: Pages, viewport: ViewportSize) -> None:
    created = create(web.url, ["Ada", "Bob"], {"clock": {"kind": "per_move", "seconds": 3600}})
    page = pages.open(viewport)
    page.goto(f"{web.url}/play/{created['game_id']}#token={token_of(created, 0)}")
    page.wait_for_selector("body[data-version]")
    mine = page.locator("header #my-clock")
    expect(mine).to_have_text(re.compile(r"^(59:\d\d|1 h 00 min) left$"))
    box = mine.bounding_box()
    assert box is not None and box["y"] + box["height"] <= viewport["height"], "the clock is below the fold"
    expect(seat_row(page, 0).locator(".clock")).to_have_text(re.compile(r"left$"))  # and still in "The table"
    watcher = pages.open(viewport)
    watcher.goto(f"{web.url}/play/{created['game_id']}")
    watcher.wait_for_selector("body[data-version]")
    expect(watcher.locator("header #my-clock")).to_be_hidden()  # a spectator has no clock of their own


def test_the_schema_renders_with_nothing_but_the_server_reachable(web: Services, pages: Pages) -> None:
    page = pages.open()
    elsewhere: list[str] = []

    def only_the_server(route: Route) -> None:
        if route.request.url.startswith(web.url):
            route.continue_()
        else:
            elsewhere.append(route.request.url)
            route.abort()

    page.route("**/*", only_the_server)
    page.goto(f"{web.url}/schema")
    expect(page.locator("h1").first).to_contain_text("Magnate Server", timeout=30_000)
    expect(page.get_by_text("/api/games/{game_id}/commands").first).to_be_attached()
    assert not [url for url in elsewhere if url.endswith((".js", ".css"))], elsewhere


def test_the_manifest_and_its_icons_load_and_every_page_links_them(web: Services, pages: Pages) -> None:
    page = pages.open(PHONE)
    for path in ("/", "/signin", "/settings", f"/play/{uuid.uuid4().hex}"):
        page.goto(f"{web.url}{path}")
        expect(page.locator("link[rel='manifest']")).to_have_attribute("href", "/manifest.webmanifest")
    answer = page.request.get(f"{web.url}/manifest.webmanifest")
    assert answer.ok and answer.headers["content-type"].startswith("application/manifest+json")
    manifest = answer.json()
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    sizes = {(icon["sizes"], icon.get("purpose", "any")) for icon in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in manifest["icons"]:
        png = page.request.get(f"{web.url}{icon['src']}")
        assert png.ok and png.headers["content-type"] == "image/png", icon
        body = png.body()
        assert body[:8] == b"\x89PNG\r\n\x1a\n"
        width, height = struct.unpack(">II", body[16:24])
        assert f"{width}x{height}" == icon["sizes"]
    registered = page.evaluate("navigator.serviceWorker.register('/sw.js').then(() => true, () => false)")
    assert registered, "the push service worker does not register"

def test_a_vacation_is_ended_early_from_the_settings(web: Services, pages: Pages) -> None:
    page: Page = pages.open()
    sign_in_by_mail(page, web.url, f"back-{uuid.uuid4().hex[:6]}@example.com")
    page.goto(f"{web.url}/settings")
    facts = page.locator("#vacation-facts")
    expect(facts).to_contain_text("days a year")
    page.get_by_label("Go on vacation for (days)").fill("3")
    page.get_by_role("button", name="Go on vacation").click()
    expect(page.locator("#vacation-away")).to_contain_text("You are on vacation until")
    page.get_by_role("button", name="End my vacation now").click()
    expect(page.locator("#vacation-status")).to_contain_text("Welcome back")
    expect(page.locator("#vacation-away")).to_be_hidden()
    expect(page.get_by_role("button", name="Go on vacation")).to_be_enabled()


def test_master_of_economys_market_shows_the_demand_marker_on_its_start_box(web: Services, pages: Pages) -> None:
    created = httpx.post(f"{web.url}/api/games", headers={"Idempotency-Key": uuid.uuid4().hex}, json={
        "game": "master_of_economy", "options": {"players": 3, "seats": [
            {"kind": "human"}, {"kind": "ai", "level": "basic"}, {"kind": "ai", "level": "basic"}]}})
    assert created.status_code == 201, created.text
    page = pages.open()
    page.goto(f"{web.url}/play/{created.json()['game_id']}")
    page.wait_for_selector("body[data-version]")
    # no trade phase yet: the marker waits on the board's start box (7 for materials, from the data), not at 0
    expect(page.locator("#market .market-row[data-commodity='materials'] h3")).to_contain_text("demand 7")
