"""Planned moves in the browser (issue #29): Ada, signed in at her seat of a Magnate game, plans "pass on every
auction" in the page's Plans panel and closes the page; Bob's bid (sent through the API) brings the auction to her,
and the server passes for her while no page of hers is open: her move, marked planned. She reopens the page: the
history says "(planned)" and the plan is still there for the next rounds. Bob's page never shows it."""

from __future__ import annotations

import time
import uuid

import httpx
from playwright.sync_api import expect

from tests.live import Services

from .conftest import Pages, screenshot
from .test_notes import claim
from .test_tables import sign_in_by_mail


def test_the_server_passes_for_ada_while_her_page_is_closed(web: Services, pages: Pages) -> None:
    created = httpx.post(f"{web.url}/api/games", json={"game": "magnate", "names": ["Ada", "Bob"], "options": {
        "seats": [{"kind": "human"}, {"kind": "human"}]}}).json()
    game_id, tokens = created["game_id"], {s["seat"]: s["token"] for s in created["seats"]}
    bob = httpx.get(f"{web.url}/api/games/{game_id}").json()["on_turn"][0]
    ada = 1 - bob  # Ada waits while Bob opens the auction
    page = pages.open()
    sign_in_by_mail(page, web.url, "ada-plans@example.com")
    claim(page, web.url, game_id, tokens[ada])
    page.goto(f"{web.url}/play/{game_id}")
    expect(page.locator("body")).to_have_attribute("data-auth", "session")
    offer = page.locator("#plans form[data-kind='magnate.pass_auctions']")
    offer.get_by_label("in every round, not only the next auction").check()
    offer.get_by_role("button", name="Plan it").click()
    expect(page.locator("#plans-status")).to_have_text("Planned.")
    expect(page.locator("#plans-list li")).to_have_text("Pass in every auction for turn order Clear")
    screenshot(page, "plans", full_page=True)
    page.close()

    bid = httpx.post(f"{web.url}/api/games/{game_id}/commands", headers={"Authorization": f"Bearer {tokens[bob]}"},
                     json={"command_id": uuid.uuid4().hex, "command": {"type": "magnate.place_bid", "amount": 100}})
    assert bid.status_code == 200, bid.text
    deadline = time.monotonic() + 15
    planned: list[dict[str, object]] = []
    while not planned and time.monotonic() < deadline:
        events = httpx.get(f"{web.url}/api/games/{game_id}/events").json()["events"]
        planned = [e for e in events if str(e["command_id"]).startswith("plan:")]
        time.sleep(0.2)
    assert planned, "the server did not pass for Ada"
    assert planned[0]["type"] == "magnate.bid_passed" and planned[0]["actor"] == f"seat:{ada}"

    again = pages.open()
    again.context.add_cookies(page.context.cookies())  # the same browser profile as before: signed in
    again.goto(f"{web.url}/play/{game_id}")
    expect(again.locator(f"#history-list li[data-version='{planned[0]['version']}']").first).to_contain_text(
        "(planned)")
    expect(again.locator("#plans-list li")).to_have_text("Pass in every auction for turn order Clear")
    watcher = pages.open()
    watcher.goto(f"{web.url}/play/{game_id}#token={tokens[bob]}")
    expect(watcher.locator("#plans-none")).to_be_visible()  # Bob's own panel: no plans of his
    assert "Pass in every auction" not in watcher.content()
