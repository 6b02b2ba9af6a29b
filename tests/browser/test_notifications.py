"""Players who are people, told when a game waits for them: two players in two browser contexts over the real API
server and worker (its own database and queue), a real SMTP server, a real webhook receiver and a real push
service on loopback.

Bob signs in through the page with the link the SMTP server received, claims his invite's seat, adds a webhook on
the settings page (its secret shown once) and a push subscription as his device would. While his tab is open, Ada's
move tells him in the page and by webhook, but sends no mail. Then he closes the tab; Ada moves; he gets exactly
one mail, one signed webhook and one push whose payload his keys decrypt. Signed in on a second browser he sees
the same "My games"; a third browser opening his claimed invite link is refused in words. The host revokes and
reissues a free seat's link."""

from __future__ import annotations

import base64
import json
import os
import re
import time
import uuid
from collections.abc import Iterator
from typing import Any

import http_ece
import pytest
import redis
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from playwright.sync_api import Page, ViewportSize, expect
from standardwebhooks import Webhook

from tests.conftest import drop_queue, own_database
from tests.live import Services

from .conftest import Pages, screenshot
from .receivers import Receivers, receivers, wait_for
from .test_play_by_web import create_from_lobby, form, send

pytestmark = [pytest.mark.integration, pytest.mark.browser]

BOB = "bob@example.com"
README_SIZE: ViewportSize = {"width": 1280, "height": 800}
"""The screenshots the README shows (docs/images/signin.png, settings.png are copies of them)."""


# -- the service, its own database and queue, the receivers ----------------------------------------------------


@pytest.fixture(scope="module")
def own_dsn(pg_dsn: str) -> Iterator[str]:
    """A migrated database of this module's own: the worker's projector watches every game of its database."""
    with own_database("magnate_notify_web") as dsn:
        yield dsn


@pytest.fixture(scope="module")
def inboxes() -> Iterator[Receivers]:
    with receivers() as running:
        yield running


@pytest.fixture(scope="module")
def told(own_dsn: str, redis_url: str, inboxes: Receivers) -> Iterator[Services]:
    """The API server and a worker that mail through the SMTP server, poll for new events every 0.2 s and may call
    loopback webhooks and push services."""
    queue = f"magnate:test:notify-web:{uuid.uuid4().hex[:10]}"
    env = {"SMTP_URL": inboxes.smtp_url, "MAGNATE_PRESENCE_S": "20",
           "MAGNATE_ALLOW_PRIVATE_WEBHOOKS": "1", "MAGNATE_SECRET_KEY": "browser-test-secret"}
    running = Services.start(own_dsn, redis_url, queue, workers=1, env=env)
    try:
        yield running
    finally:
        running.stop()
        drop_queue(redis_url, queue)


# -- driving the pages -------------------------------------------------------------------------------------------


def sign_in(page: Page, url: str, inboxes: Receivers, email: str) -> None:
    """Sign in through the page: ask for a link (on the sign-in page this page shows, or on /signin), open the
    mail's link, press the button. The page then goes where it was going."""
    if "/signin" not in page.url:
        page.goto(f"{url}/signin")
    before = len(inboxes.mails_to(email, "Sign in"))
    page.get_by_label("Email address").fill(email)
    page.get_by_role("button", name="Email me a sign-in link").click()
    expect(page.locator("#link-sent")).to_contain_text(f"Check your mail: we sent a sign-in link to {email}")
    link = inboxes.sign_in_link(email, after=before)
    assert link.startswith(f"{url}/signin#token=")
    page.goto(link)
    expect(page.locator("#redeem")).to_be_visible()
    assert "token=" not in page.url, "the sign-in token stays in the address bar"
    page.get_by_role("button", name="Sign in with this link").click()
    expect(page.locator("#account")).to_have_attribute("data-state", "signed-in")


def on_turn(page: Page) -> bool:
    return page.locator("body.my-turn").count() == 1


def bid(page: Page) -> None:
    """Place the suggested bid (this seat is on turn)."""
    page.wait_for_selector("body.my-turn #actions form[data-action='bid']")
    send(page, form(page, "bid").get_by_role("button", name="Place bid"))


def present(client: redis.Redis, game_id: str, seat: int, player_id: str) -> bool:
    now = time.time()
    keys = [f"magnate:presence:seat:{game_id}:{seat}", f"magnate:presence:player:{player_id}"]
    return any(int(client.zcount(key, now, "+inf")) > 0 for key in keys)


def deliveries(page: Page, url: str) -> list[dict[str, Any]]:
    answer = page.request.get(f"{url}/api/me/deliveries")
    assert answer.ok, answer.text()
    rows: list[dict[str, Any]] = answer.json()["deliveries"]
    return rows


def your_turn_notices(page: Page, url: str, game_id: str) -> list[dict[str, Any]]:
    answer = page.request.get(f"{url}/api/me/notices")
    assert answer.ok, answer.text()
    return [n for n in answer.json()["notices"] if n["game_id"] == game_id and n["kind"] == "your_turn"]


def notice_mails(inboxes: Receivers) -> list[Any]:
    return [m for m in inboxes.mails_to(BOB) if "Sign in" not in str(m["Subject"])]


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


# -- the test of the issue ---------------------------------------------------------------------------------------


def test_bob_away_is_told_once_by_mail_webhook_and_push_and_his_seat_is_his(
    told: Services, inboxes: Receivers, pages: Pages, redis_url: str
) -> None:
    url = told.url
    ada = pages.open()
    create_from_lobby(ada, url, [("human", "Ada"), ("human", "Bob")])
    bob_invite = ada.get_by_label("Invite link for seat 2").input_value()
    kept = ada.evaluate("JSON.parse(localStorage.getItem('seats.v2'))")
    assert [s["seat"] for s in kept] == [0], "the creator's browser keeps another person's seat"
    ada.get_by_role("link", name="Play seat 1").click()
    ada.wait_for_selector("body[data-version]")
    game_id = ada.url.split("/play/")[1].split("#")[0]

    # Bob opens his invite as a guest, signs in from it, and claims the seat.
    bob = pages.open()
    bob.goto(bob_invite)
    bob.wait_for_selector("body[data-version]")
    bob.get_by_role("link", name="Sign in to keep this seat").click()
    bob.wait_for_url(re.compile(r"/signin\?next="))
    sign_in(bob, url, inboxes, BOB)
    bob.wait_for_url(f"{url}/play/{game_id}")
    bob.get_by_role("button", name="Claim this seat for bob").click()
    bob.wait_for_selector("body[data-auth='session']")
    expect(bob.locator("#game-title")).to_contain_text("bob")  # his account's name, now the seat's (issue #26)
    assert bob.evaluate("localStorage.getItem('seats.v2')") in (None, "[]"), "the claimed seat's token is kept"
    player_id = bob.evaluate("fetch('/api/me').then((r) => r.json()).then((me) => me.player_id)")

    # His settings: told only when it is his turn; a webhook (its secret shown once) and a push device.
    settings = bob.context.new_page()
    settings.goto(f"{url}/settings")
    for kind in ("Someone outbid you", "The market ran", "A game ended", "A deadline is near",
                 "Someone asks to take back a move", "Your takeback was accepted or refused"):
        settings.get_by_label(kind).uncheck()
    settings.get_by_role("button", name="Save settings").click()
    expect(settings.locator("#settings-status")).to_have_text("Saved.")
    settings.get_by_label("Webhook URL").fill(f"{inboxes.hooks.url}/bob")
    settings.get_by_label("Message shape").select_option("json")
    settings.get_by_role("button", name="Add webhook").click()
    secret = settings.get_by_label("Signing secret").input_value()
    assert secret.startswith("whsec_")
    expect(settings.locator("#webhooks-table")).to_contain_text(f"{inboxes.hooks.url}/bob")
    device_key, device_auth = ec.generate_private_key(ec.SECP256R1()), os.urandom(16)
    subscription = {"endpoint": f"{inboxes.push.url}/push/bob-phone", "keys": {
        "p256dh": b64url(device_key.public_key().public_bytes(serialization.Encoding.X962,
                                                              serialization.PublicFormat.UncompressedPoint)),
        "auth": b64url(device_auth)}}
    settings.evaluate("(s) => import('/static/shell/api.js').then(({ api }) => api.subscribePush(s))", subscription)
    settings.close()

    # With his tab open: Ada's move tells him in the page (listed, but no unread badge for the game on his screen,
    # issue #26) and by webhook, and no mail is sent.
    if on_turn(bob):
        bid(bob)
    bid(ada)
    bob.wait_for_selector("body.my-turn")
    wait_for(lambda: your_turn_notices(bob, url, game_id), "the notice of Bob's turn")
    expect(bob.locator("#unread-count")).to_be_hidden()
    bob.get_by_role("button", name=re.compile("^Notices, 0 unread")).click()
    expect(bob.locator("#notices-list li.read").first).to_be_visible()
    screenshot(bob, "20-notices-in-the-page")
    wait_for(lambda: len(inboxes.hooks.by_id) == 1, "the webhook while Bob's tab is open")
    mail_log = wait_for(lambda: [d for d in deliveries(bob, url) if d["channel"] == "email"
                                 and d["status"] not in ("pending", "sending")], "the mail's delivery decided")
    assert [d["status"] for d in mail_log] == ["skipped"], mail_log
    assert not notice_mails(inboxes) and not inboxes.push.received, "told by mail or push while his tab is open"

    # Bob moves, and closes the tab: he is away at once.
    bid(bob)
    bob.close()
    client = redis.Redis.from_url(redis_url)
    try:
        wait_for(lambda: not present(client, game_id, 1, player_id), "Bob's presence to end with his tab")
    finally:
        client.close()

    # Ada moves: exactly one mail, one more signed webhook, one push.
    bid(ada)
    mail = wait_for(lambda: notice_mails(inboxes), "the notice mail")[0]
    wait_for(lambda: len(inboxes.hooks.by_id) == 2, "the second webhook")
    wait_for(lambda: inboxes.push.received, "the push")
    time.sleep(1.5)  # anything sent twice would have arrived by now
    assert len(notice_mails(inboxes)) == 1 and inboxes.mail.repeats == 0
    assert len(inboxes.hooks.by_id) == 2 and inboxes.hooks.repeats == 0
    assert len(inboxes.push.received) == 1

    game_link = f"{url}/play/{game_id}"
    text = mail.get_body(preferencelist=("plain",))
    assert text is not None and game_link in text.get_content()
    assert mail["List-Unsubscribe"] and mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    for headers, body in inboxes.hooks.seen.values():
        signed = Webhook(secret).verify(body, headers)  # raises if the signature is not the secret's
        assert signed["data"]["game_id"] == game_id and signed["data"]["url"] == f"{url}/play/{game_id}"
    pushed = inboxes.push.received[0]
    assert pushed.path == "/push/bob-phone" and pushed.headers["authorization"].startswith("vapid t=")
    payload = json.loads(http_ece.decrypt(pushed.body, private_key=device_key, auth_secret=device_auth,
                                          version="aes128gcm"))
    assert payload["url"] == game_link and payload["body"] == str(mail["Subject"])

    # Signed in on a second browser, Bob sees the same "My games", his turn first, and the title counts it.
    second = pages.open()
    sign_in(second, url, inboxes, BOB)
    second.wait_for_url(f"{url}/")
    mine = second.locator("#my-games-list li.game")
    expect(mine).to_have_count(1)
    expect(mine).to_have_attribute("data-game", game_id)
    expect(mine).to_contain_text("— your turn")
    expect(second).to_have_title(re.compile(r"^\(1\) "))
    screenshot(second, "21-my-games-signed-in")
    first = pages.contexts[1].new_page()
    first.goto(f"{url}/")
    expect(first.locator("#my-games-list li.game")).to_have_count(1)
    assert first.locator("#my-games-list").inner_text() == second.locator("#my-games-list").inner_text()

    # His settings page shows what was sent: the mail, the push and the webhooks, and the mail held back.
    second.set_viewport_size(README_SIZE)
    second.goto(f"{url}/settings")
    log = second.locator("#delivery-rows")
    expect(log.locator("tr[data-channel='email'][data-status='sent']")).to_have_count(1)
    expect(log.locator("tr[data-channel='email'][data-status='skipped']")).to_have_count(1)
    expect(log.locator("tr[data-channel='push'][data-status='sent']")).to_have_count(1)
    expect(log.locator("tr[data-channel='webhook'][data-status='sent']")).to_have_count(2)
    expect(second.get_by_label("One email for each notice")).to_be_checked()
    expect(second.get_by_label("Someone outbid you")).not_to_be_checked()
    screenshot(second, "22-settings", full_page=True)

    # A third browser opening Bob's claimed invite link is refused in words, and only watches.
    third = pages.open()
    third.goto(bob_invite)
    third.wait_for_selector("body[data-version]")
    expect(third.locator("#load-error")).to_contain_text("This seat belongs to another player")
    expect(third.locator("#load-error")).to_contain_text("Ask the game's host for a new invite")
    expect(third.locator("#game-title")).to_contain_text("watching")
    expect(third.locator("#actions form")).to_have_count(0)


def test_a_signed_in_players_name_is_on_the_board_and_the_game_on_screen_has_no_badge(
    told: Services, inboxes: Receivers, pages: Pages
) -> None:
    url = told.url
    dee = pages.open()
    sign_in(dee, url, inboxes, "dee.rivers@example.com")
    create_from_lobby(dee, url, [("human", ""), ("human", "Ada")])  # her seat is claimed for her account at once
    invite = dee.get_by_label("Invite link for seat 2").input_value()
    dee.get_by_role("link", name="Play seat 1").click()
    dee.wait_for_selector("body[data-version]")
    game_id = dee.url.split("/play/")[1].split("#")[0]
    expect(dee.locator("#game-title")).to_contain_text("dee.rivers")  # her name, not "Player 1"

    ada = pages.open()
    ada.goto(invite)
    ada.wait_for_selector("body[data-version]")
    expect(ada.locator("main")).to_contain_text("dee.rivers")  # the board names her to the others
    assert "dee.rivers@example.com" not in ada.content()

    if on_turn(dee):
        bid(dee)
    bid(ada)
    dee.wait_for_selector("body.my-turn")
    [notice] = wait_for(lambda: your_turn_notices(dee, url, game_id), "the notice of Dee's turn")
    assert notice["read"], "the turn she is making on screen is no unread notice"
    expect(dee.locator("#notices-button")).to_have_attribute("aria-label", "Notices, 0 unread")
    expect(dee.locator("#unread-count")).to_be_hidden()


def test_the_host_revokes_and_reissues_a_free_seats_link(told: Services, pages: Pages) -> None:
    ada = pages.open()
    create_from_lobby(ada, told.url, [("human", "Ada"), ("human", "Cy")])
    old = ada.get_by_label("Invite link for seat 2").input_value()
    ada.get_by_role("button", name="Revoke link for seat 2").click()
    expect(ada.locator("#invite-list li[data-seat='1'] .invite-status")).to_contain_text("no longer opens the seat")

    cy = pages.open()
    cy.goto(old)
    cy.wait_for_selector("body[data-version]")
    expect(cy.locator("#load-error")).to_contain_text("the host may have revoked it")
    expect(cy.locator("#game-title")).to_contain_text("watching")

    # From the game page, the host issues a new link; it opens the seat.
    ada.get_by_role("link", name="Play seat 1").click()
    ada.wait_for_selector("body[data-version]")
    invites = ada.locator("#invites")
    expect(invites).to_be_visible()
    invites.get_by_role("button", name="New link for seat 2").click()
    expect(invites.get_by_label("Invite link for seat 2")).to_have_value(re.compile(r"/play/.+#token="))
    new = invites.get_by_label("Invite link for seat 2").input_value()
    assert new != old
    fresh = pages.open()
    fresh.goto(new)
    fresh.wait_for_selector("body[data-version]")
    expect(fresh.locator("#game-title")).to_contain_text("Cy")
    expect(fresh.locator("#load-error")).to_be_hidden()


def test_the_settings_page_keeps_the_choices_and_says_what_went_wrong(
    told: Services, inboxes: Receivers, pages: Pages
) -> None:
    page = pages.open(README_SIZE)
    page.goto(f"{told.url}/settings")
    expect(page.locator("#signed-out")).to_contain_text("Sign in first")
    page.get_by_role("link", name="Sign in", exact=True).first.click()
    page.wait_for_url(re.compile(r"/signin\?next="))
    page.get_by_label("Email address").fill("carol@")
    page.get_by_role("button", name="Email me a sign-in link").click()
    expect(page.locator("#link-error")).to_have_text("Enter your email address (like name@example.com).")
    page.get_by_label("Email address").fill("carol@example.com")
    page.get_by_role("button", name="Email me a sign-in link").click()
    expect(page.locator("#link-sent")).to_be_visible()
    screenshot(page, "23-signin")
    link = inboxes.sign_in_link("carol@example.com")
    page.goto(link)
    page.get_by_role("button", name="Sign in with this link").click()
    page.wait_for_url(f"{told.url}/settings")
    expect(page.locator("#signed-in-as")).to_contain_text("carol")

    # A used link is refused in words, with a way to get another.
    replay = pages.open()
    replay.goto(link)
    replay.get_by_role("button", name="Sign in with this link").click()
    expect(replay.locator("#redeem-status")).to_have_text(
        "This sign-in link was used already: each link works once. Ask for a new one below.")
    expect(replay.get_by_label("Email address")).to_be_visible()

    # The name, a digest once a day, no market notices: kept.
    page.get_by_label("Your name (the other players see it)").fill("Carol")
    page.get_by_role("button", name="Save name").click()
    expect(page.locator("#name-status")).to_have_text("Saved.")
    expect(page.get_by_label("Digest period")).to_be_disabled()
    page.get_by_label("A digest: at most one email per period").check()
    page.get_by_label("Digest period").select_option(label="once a day")
    page.get_by_label("The market ran").uncheck()
    page.get_by_role("button", name="Save settings").click()
    expect(page.locator("#settings-status")).to_have_text("Saved.")

    # Webhooks: an address the server must not call is refused in words; a good one shows its secret once.
    page.get_by_label("Webhook URL").fill("ftp://hooks.example.com/x")
    page.get_by_role("button", name="Add webhook").click()
    expect(page.locator("#webhook-status")).to_contain_text("http")
    expect(page.locator("#webhook-status")).to_have_class(re.compile("error"))
    page.get_by_label("Webhook URL").fill(f"{inboxes.hooks.url}/carol")
    page.get_by_label("Message shape").select_option(label="Discord")
    page.get_by_role("button", name="Add webhook").click()
    expect(page.get_by_label("Signing secret")).to_have_value(re.compile("^whsec_"))
    expect(page.locator("#webhook-rows tr")).to_have_count(1)
    expect(page.locator("#webhook-rows tr")).to_contain_text("Discord")

    # Push on this device: headless Chromium has no push service, and the page says so without breaking.
    page.get_by_role("button", name="Enable push on this device").click()
    expect(page.locator("#push-status")).to_have_text(re.compile(r"Push is on for this device|could not subscribe"))
    # Chromium itself logs why it refused (a console error of the browser's, not of the page's code)
    pages.errors[:] = [e for e in pages.errors if "does not support the Push API" not in e]
    sw = page.request.get(f"{told.url}/sw.js")
    assert sw.ok and sw.headers["service-worker-allowed"] == "/" and "javascript" in sw.headers["content-type"]
    assert page.evaluate("navigator.serviceWorker.getRegistration('/').then((r) => Boolean(r && r.active))")

    page.reload()
    expect(page.get_by_label("Your name (the other players see it)")).to_have_value("Carol")
    expect(page.get_by_label("A digest: at most one email per period")).to_be_checked()
    expect(page.get_by_label("Digest period")).to_have_value("24")
    expect(page.get_by_label("The market ran")).not_to_be_checked()
    expect(page.get_by_label("It is your turn")).to_be_checked()
    expect(page.locator("#webhook-rows tr")).to_have_count(1)
    page.locator("#webhook-rows").get_by_role("button", name=re.compile("^Remove webhook")).click()
    expect(page.locator("#webhooks-empty")).to_be_visible()

    # Signed in, the creator's own seat goes to her account at once: "My games" lists it live, no token is kept.
    create_from_lobby(page, told.url, [("human", "Carol"), ("ai", "")])
    page.wait_for_selector("body[data-auth='session']")
    expect(page.locator("#game-title")).to_contain_text("Carol")
    assert page.evaluate("localStorage.getItem('seats.v2')") in (None, "[]")
    page.goto(f"{told.url}/")
    expect(page.locator("#my-games-list li.game")).to_have_count(1)
    expect(page.locator("#my-games-list li.game")).not_to_have_class(re.compile("guest-seat"))
    page.locator("#my-games-list li.game a").first.click()
    page.wait_for_selector("body[data-auth='session']")

    # Signing out ends the session: the settings page asks to sign in again.
    page.get_by_role("button", name="Sign out").click()
    page.wait_for_url(f"{told.url}/")
    expect(page.locator("#sign-in-link")).to_be_visible()
    page.goto(f"{told.url}/settings")
    expect(page.locator("#signed-out")).to_be_visible()
