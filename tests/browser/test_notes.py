"""Private notes in the browser (issue #29): Ada, signed in at her seat, writes a note on the game page and finds it
after a reload; Bea's page at the other seat, and the game's export, hold nothing of it. Then Ada downloads her data
and deletes her account from the settings page."""

from __future__ import annotations

import httpx
from playwright.sync_api import Page, expect

from tests.live import Services

from .conftest import Pages
from .test_tables import sign_in_by_mail

NOTE = "Bea hoards coal: outbid her on the harbour plot"


def claim(page: Page, url: str, game_id: str, token: str) -> None:
    csrf = {"X-CSRFToken": page.request.get(f"{url}/api/auth/csrf").json()["csrf_token"]}
    claimed = page.request.post(f"{url}/api/games/{game_id}/claim",
                                headers={**csrf, "Authorization": f"Bearer {token}"})
    assert claimed.status == 200, claimed.text()


def test_a_note_is_seen_by_its_author_alone(web: Services, pages: Pages) -> None:
    created = httpx.post(f"{web.url}/api/games", json={"game": "magnate", "names": ["Ada", "Bea"], "options": {
        "seats": [{"kind": "human"}, {"kind": "human"}]}}).json()
    game_id, tokens = created["game_id"], [s["token"] for s in created["seats"]]
    ada, bea = pages.open(), pages.open()
    for page, email, token in ((ada, "ada-notes@example.com", tokens[0]), (bea, "bea-notes@example.com", tokens[1])):
        sign_in_by_mail(page, web.url, email)
        claim(page, web.url, game_id, token)

    ada.goto(f"{web.url}/play/{game_id}")
    expect(ada.locator("body")).to_have_attribute("data-auth", "session")
    notes = ada.get_by_label("Your notes on this game")
    expect(notes).to_have_value("")
    notes.fill(NOTE)
    ada.get_by_role("button", name="Save notes").click()
    expect(ada.locator("#notes-status")).to_have_text("Saved.")
    ada.reload()
    expect(ada.get_by_label("Your notes on this game")).to_have_value(NOTE)

    bea.goto(f"{web.url}/play/{game_id}")
    expect(bea.locator("body")).to_have_attribute("data-auth", "session")
    expect(bea.get_by_label("Your notes on this game")).to_have_value("")  # her own, empty
    assert NOTE not in bea.content()
    watcher = pages.open()
    watcher.goto(f"{web.url}/play/{game_id}")
    expect(watcher.locator("#game-title")).to_contain_text("watching")
    assert watcher.locator("#notes").count() == 0 and NOTE not in watcher.content()
    exported = httpx.get(f"{web.url}/api/games/{game_id}/export")
    assert exported.status_code == 200 and NOTE not in exported.text

    ada.goto(f"{web.url}/settings")
    download = ada.get_by_role("link", name="Download my data")
    expect(download).to_have_attribute("href", "/api/me/export")
    mine = ada.request.get(f"{web.url}{download.get_attribute('href')}").json()
    assert [n["text"] for n in mine["notes"]] == [NOTE]
    ada.get_by_label("Type your email address to confirm").fill("someone-else@example.com")
    ada.get_by_role("button", name="Delete my account").click()
    expect(ada.locator("#erase-status")).to_have_class("form-status error")
    ada.get_by_label("Type your email address to confirm").fill("ada-notes@example.com")
    ada.get_by_role("button", name="Delete my account").click()
    ada.wait_for_url(f"{web.url}/")
    assert ada.request.get(f"{web.url}/api/me").status == 401
    game = httpx.get(f"{web.url}/api/games/{game_id}").json()
    assert [p["claimed"] for p in game["players"]] == [False, True]
