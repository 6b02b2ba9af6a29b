"""The public table in the browser (issue #13): Ada lists her game publicly from the lobby; Bea, signed in, finds it
under "Open games", joins it with one click and plays the free seat from her account."""

from __future__ import annotations

import re

import httpx
from playwright.sync_api import Page, expect

from tests.live import Services

from .conftest import Pages


def sign_in_by_mail(page: Page, url: str, email: str) -> None:
    """Sign the page's browser in: ask for a link, read it from the development mailbox, redeem it."""
    assert page.request.post(f"{url}/api/auth/link", data={"email": email}).status == 202
    mails = httpx.get(f"{url}/api/dev/mail").json()["mails"]
    body = next(m["text_body"] for m in mails if m["recipient"] == email)
    found = re.search(r"/signin#token=([A-Za-z0-9_-]+)", body)
    assert found, body
    csrf = page.request.get(f"{url}/api/auth/csrf").json()["csrf_token"]  # the pre-session's, as the page does
    signed = page.request.post(f"{url}/api/auth/session", data={"token": found.group(1)},
                               headers={"X-CSRFToken": csrf})
    assert signed.status == 200, signed.text()


def test_bea_joins_adas_listed_game_from_the_lobby(web: Services, pages: Pages) -> None:
    ada, bea = pages.open(), pages.open()
    ada.goto(f"{web.url}/")
    ada.wait_for_selector("#seat-count option", state="attached")
    ada.get_by_label("Number of seats").select_option("2")
    for i in (1, 2):
        ada.get_by_label(f"Seat {i} is played by").select_option("human")
    ada.get_by_label("Seat 1 player name").fill("Ada")
    ada.get_by_label("List this game publicly so others can join").check()
    ada.get_by_role("button", name="Create game").click()
    expect(ada.locator("#created")).to_be_visible()
    href = ada.locator("#invite-list a.button-link").first.get_attribute("href") or ""
    game_id = href.split("/play/")[1].split("#")[0]

    bea.goto(f"{web.url}/")  # signed out: the game is open, and joining asks her to sign in
    listed = bea.locator(f"#open-games-list li[data-game='{game_id}']")
    expect(listed).to_contain_text("Ada")
    expect(listed.get_by_role("link", name="Sign in to join")).to_be_visible()
    sign_in_by_mail(bea, web.url, "bea-joins@example.com")
    bea.reload()
    listed = bea.locator(f"#open-games-list li[data-game='{game_id}']")
    expect(listed).to_contain_text("1 of 2 seats free")
    listed.get_by_role("button", name=re.compile("^Join")).click()
    expect(bea).to_have_url(re.compile(f"/play/{game_id}$"))
    expect(bea.locator("body")).to_have_attribute("data-auth", "session")
    expect(bea.locator("#game-title")).not_to_contain_text("watching")
    game = httpx.get(f"{web.url}/api/games/{game_id}").json()
    assert [p["claimed"] for p in game["players"]] == [False, True]
    bea.goto(f"{web.url}/")  # a full game is no longer open, and is still there to watch
    expect(bea.locator(f"#live-games-list li[data-game='{game_id}']")).to_be_visible()
    assert bea.locator(f"#open-games-list li[data-game='{game_id}']").count() == 0


def test_a_guests_seat_cannot_be_joined_away_until_the_guest_gives_it_up(web: Services, pages: Pages) -> None:
    """Cal plays seat 2 of Ada's listed game by its invite link: Bea, signed in, cannot join it away; once Cal gives
    it up on the page, his link is dead and Bea joins it (issue #24)."""
    created = httpx.post(f"{web.url}/api/games", json={
        "game": "magnate", "listed": True, "names": ["Ada", "Cal"],
        "options": {"seats": [{"kind": "human"}, {"kind": "human"}]}}).json()
    game_id, link = created["game_id"], created["seats"][1]["invite_url"]
    cal, bea = pages.open(), pages.open()
    cal.goto(link)
    expect(cal.locator("body")).to_have_attribute("data-auth", "token")
    release = cal.get_by_role("button", name="Give up this seat")
    expect(release).to_be_visible()

    sign_in_by_mail(bea, web.url, "bea-cannot-take@example.com")
    csrf = {"X-CSRFToken": bea.request.get(f"{web.url}/api/auth/csrf").json()["csrf_token"]}
    refused = bea.request.post(f"{web.url}/api/games/{game_id}/join", headers=csrf)
    assert (refused.status, refused.json()["code"]) == (409, "seat/in_use")

    release.click()
    expect(cal.locator("#game-title")).to_contain_text("watching")
    token = link.split("#token=")[1]
    dead = httpx.get(f"{web.url}/api/games/{game_id}/me", headers={"Authorization": f"Bearer {token}"})
    assert dead.status_code == 401
    joined = bea.request.post(f"{web.url}/api/games/{game_id}/join", headers=csrf)
    assert joined.status == 200 and joined.json()["seat"] == 1, joined.text()
