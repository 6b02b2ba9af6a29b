"""Ratings in the browser (issue #29): Ada, signed in, creates a rated listed game from the lobby; Bea finds it under
"Open games" marked rated with the host's rating, and joins it; both concede, the computer plays the seats out, the
worker settles the ratings, and Bea reads hers on her settings page."""

from __future__ import annotations

import re
import time
import uuid

import httpx
from playwright.sync_api import Page, expect

from tests.live import Services

from .conftest import Pages
from .test_tables import sign_in_by_mail


def resign(page: Page, url: str, game_id: str) -> None:
    csrf = {"X-CSRFToken": page.request.get(f"{url}/api/auth/csrf").json()["csrf_token"]}
    done = page.request.post(f"{url}/api/games/{game_id}/commands", headers=csrf,
                             data={"command_id": uuid.uuid4().hex, "command": {"type": "table.resign"}})
    assert done.status == 200, done.text()


def test_a_rated_game_from_the_lobby_to_the_players_ratings(web: Services, pages: Pages) -> None:
    ada, bea = pages.open(), pages.open()
    sign_in_by_mail(ada, web.url, "ada-rated@example.com")
    ada.goto(f"{web.url}/")
    ada.wait_for_selector("#seat-count option", state="attached")
    ada.get_by_label("Number of seats").select_option("2")
    for i in (1, 2):
        ada.get_by_label(f"Seat {i} is played by").select_option("human")
    ada.get_by_label("List this game publicly so others can join").check()
    ada.get_by_label(re.compile("^Rated: ")).check()
    ada.get_by_role("button", name="Create game").click()
    expect(ada.locator("#created")).to_be_visible()
    href = ada.locator("#created a[href*='/play/']").first.get_attribute("href") or ""
    game_id = href.split("/play/")[1].split("#")[0]

    sign_in_by_mail(bea, web.url, "bea-rated@example.com")
    bea.goto(f"{web.url}/")
    listed = bea.locator(f"#open-games-list li[data-game='{game_id}']")
    expect(listed.locator(".rated-table")).to_have_text(re.compile("Rated game · the host has no rating yet"))
    listed.get_by_role("button", name=re.compile("^Join")).click()
    expect(bea).to_have_url(re.compile(f"/play/{game_id}$"))

    resign(ada, web.url, game_id)
    resign(bea, web.url, game_id)
    bea_id = bea.request.get(f"{web.url}/api/me").json()["player_id"]
    deadline = time.monotonic() + 90
    while not httpx.get(f"{web.url}/api/players/{bea_id}/ratings").json()["ratings"]:
        assert time.monotonic() < deadline, "the worker did not settle the rated game"
        time.sleep(0.5)
    bea.goto(f"{web.url}/settings")
    mine = bea.locator("#my-ratings li.my-rating[data-game-type='magnate']")
    expect(mine).to_contain_text(re.compile(r"\d[\d,]* after 1 rated game$"))

    # the leaderboard page lists both players as the API ranks them, each name leading to the player's page
    board = httpx.get(f"{web.url}/api/ratings/magnate/leaderboard").json()
    assert {r["player_id"] for r in board["rows"]} >= {bea_id}
    bea.goto(f"{web.url}/")
    bea.get_by_role("link", name="Leaderboard").click()
    expect(bea).to_have_url(re.compile("/leaderboard/magnate$"))
    rows = bea.locator("#board-table tr.board-row")
    expect(rows).to_have_count(len(board["rows"]))
    for i, row in enumerate(board["rows"]):
        shown = rows.nth(i)
        expect(shown).to_have_attribute("data-player", row["player_id"])
        expect(shown.locator(".rating")).to_have_text(f"{row['rating']:,}")
    mine = next(r for r in board["rows"] if r["player_id"] == bea_id)
    bea.locator(f"#board-table tr[data-player='{bea_id}'] a").click()
    expect(bea).to_have_url(re.compile(f"/players/{bea_id}$"))
    expect(bea.locator("#player-title")).to_have_text(mine["name"])
    expect(bea.locator("#player-ratings li[data-game-type='magnate'] .rating")).to_have_text(f"{mine['rating']:,}")
    bea.goto(f"{web.url}/players/no-such-player")
    expect(bea.locator("#player [role=alert]")).to_be_visible()
    expect(bea.locator("#player-title")).to_have_text("No such player")
