"""Takebacks in the browser (issue #29), one server, two browsers: Ada bids and asks to take it back; Bob, in his
own browser, sees the request and accepts it, and Ada is on turn again with no bid on the board; once the service
has drawn chance after Ada's move (dice, a card), her request is refused in words."""

from __future__ import annotations

import re
import time
import uuid
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.live import Services

from .conftest import Pages, screenshot
from .test_clocks import ADA_FIRST, token_of

pytestmark = [pytest.mark.integration, pytest.mark.browser]

MY_TURN = re.compile(r"\bmy-turn\b")
RANDOM = ("magnate.dice_rolled", "magnate.risk_card_drawn", "magnate.new_tenants_arrived",
          "magnate.for_sale_marker_drawn")


def submit(client: httpx.Client, game_id: str, token: str, command: dict[str, Any]) -> httpx.Response:
    return client.post(f"/api/games/{game_id}/commands", headers={"Authorization": f"Bearer {token}"},
                       json={"command_id": uuid.uuid4().hex, "command": command})


def drawn_after_ada(client: httpx.Client, game_id: str) -> bool:
    """Whether the service drew chance after Ada's last move (and the game still runs)."""
    events = client.get(f"/api/games/{game_id}/events").json()["events"]
    ada = [e["version"] for e in events if e["actor"] == "seat:0"]
    return bool(ada) and any(e["actor"] == "system" and e["type"] in RANDOM and e["version"] > ada[-1]
                             for e in events)


def play_until_drawn(client: httpx.Client, game_id: str, tokens: dict[int, str], limit_s: float = 20) -> None:
    """Both seats play their first legal move through the API until the service drew chance after Ada's move."""
    end = time.monotonic() + limit_s
    while time.monotonic() < end:
        if drawn_after_ada(client, game_id):
            return
        game = client.get(f"/api/games/{game_id}").json()
        assert not game["outcome"], "the game ended first"
        for seat in game["on_turn"]:
            me = client.get(f"/api/games/{game_id}/me", headers={"Authorization": f"Bearer {tokens[seat]}"}).json()
            if me["legal"]:
                submit(client, game_id, tokens[seat], me["legal"][0]["command"])
        if not game["on_turn"]:
            time.sleep(0.05)  # the worker's system job (dice, the market) is under way
    raise AssertionError("no chance was drawn in time")


def open_seat(pages: Pages, url: str, game_id: str, token: str) -> Page:
    page = pages.open()
    page.goto(f"{url}/play/{game_id}#token={token}")
    page.wait_for_selector("body[data-version]")
    return page


def test_a_bid_is_taken_back_with_the_others_consent_and_refused_once_chance_was_drawn(
        web: Services, pages: Pages) -> None:
    body = {"game": "magnate", "seed": ADA_FIRST, "options": {"seats": [{"kind": "human"}] * 2},
            "names": ["Ada", "Bob"]}
    created = httpx.post(f"{web.url}/api/games", json=body).json()
    game_id = created["game_id"]
    tokens = {0: token_of(created, 0), 1: token_of(created, 1)}
    ada, bob = open_seat(pages, web.url, game_id, tokens[0]), open_seat(pages, web.url, game_id, tokens[1])
    expect(ada.locator("body")).to_have_class(MY_TURN)
    with httpx.Client(base_url=web.url, timeout=10) as client:
        assert submit(client, game_id, tokens[0], {"type": "magnate.place_bid", "amount": 300}).status_code == 200
        expect(ada.locator("body")).not_to_have_class(MY_TURN)  # Bob's turn now
        ada.click("#takeback-ask")
        expect(ada.locator("#takeback-waiting")).to_be_visible()
        expect(bob.locator("#takeback-asked")).to_contain_text(re.compile(r"^Ada .* asks to take back their last move"))
        screenshot(bob, "takeback-asked")
        bob.click("#takeback-accept")
        expect(ada.locator("#takeback-said")).to_have_text("Your move was taken back.")
        expect(ada.locator("body")).to_have_class(MY_TURN)  # the board is as before the bid
        expect(bob.locator("#takeback-asked")).to_have_count(0)
        expect(ada.locator("#latest")).to_contain_text("taken back")
        for page in (ada, bob):  # the bid's line, already on both pages, is marked without a reload
            bid = page.locator("#history-list li[data-event='magnate.bid_placed']").last
            expect(bid).to_have_class(re.compile(r"\btaken-back\b"))
            expect(bid).to_contain_text("(taken back)")
        assert client.get(f"/api/games/{game_id}").json()["view"]["auction"]["high_bid"] == 0
        play_until_drawn(client, game_id, tokens)
    ada.click("#takeback-ask")
    expect(ada.locator("#takeback-said")).to_contain_text("cannot be taken back")
    expect(bob.locator("#takeback-asked")).to_have_count(0)
    screenshot(ada, "takeback-refused")
