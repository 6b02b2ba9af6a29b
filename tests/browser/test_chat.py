"""The game page's chat (issue #13): two seats chat live, and HTML or script in a line is shown as its characters
and runs nothing."""

from __future__ import annotations

import httpx
from playwright.sync_api import expect

from tests.live import Services

from .conftest import Pages


def test_two_seats_chat_live_and_html_shows_literally(web: Services, pages: Pages) -> None:
    created = httpx.post(f"{web.url}/api/games", json={
        "game": "magnate", "names": ["Ada", "Bob"], "options": {"seats": [{"kind": "human"}, {"kind": "human"}]}})
    assert created.status_code == 201, created.text
    game = created.json()
    tokens = {s["seat"]: s["token"] for s in game["seats"]}
    ada, bob = pages.open(), pages.open()
    for page in (ada, bob):
        page.on("dialog", lambda dialog: (_ for _ in ()).throw(AssertionError(f"a dialog opened: {dialog.message}")))
    ada.goto(f"{web.url}/play/{game['game_id']}#token={tokens[0]}")
    bob.goto(f"{web.url}/play/{game['game_id']}#token={tokens[1]}")
    for page in (ada, bob):
        page.wait_for_selector("body[data-version]")
        expect(page.get_by_label("Message")).to_be_visible()

    ada.get_by_label("Message").fill("good luck, Bob")
    ada.get_by_role("button", name="Send").click()
    expect(bob.locator("#chat-list li").first).to_have_text("Ada: good luck, Bob")  # live, no reload

    hostile = '<script>window.__ran = 1</script><img src=x onerror="window.__ran = 2">'
    bob.get_by_label("Message").fill(hostile)
    bob.get_by_role("button", name="Send").click()
    for page in (ada, bob):
        expect(page.locator("#chat-list li .chat-text").nth(1)).to_have_text(hostile)
        assert page.locator("#chat-list script, #chat-list img").count() == 0
        assert page.evaluate("window.__ran === undefined")
    assert ada.locator("#chat-list").get_attribute("aria-live") == "polite"
    # Ada hosts: she may mute Bob; Bob's next line is refused in words
    ada.get_by_role("button", name="Mute Bob").first.click()
    bob.get_by_label("Message").fill("still here?")
    bob.get_by_role("button", name="Send").click()
    expect(bob.locator("#chat-error")).to_have_text("The host muted your chat.")
