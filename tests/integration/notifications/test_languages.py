"""The recipient's language (issue #27): a player chooses a language for their account (``PUT /api/me/language``),
and from then on every notice reaches them in it: the "your turn" mail (subject, plain text and HTML), the notices
the page lists, the push payload and the webhook's text. A visitor's API errors speak the browser's language. Over
the real app, PostgreSQL, Redis, an SMTP server (aiosmtpd) and an HTTP receiver on loopback."""

from __future__ import annotations

import base64
import json
import os
import re

import http_ece
import httpx
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from bench.receivers import MailInbox, WebhookReceiver
from services.gameplay.bootstrap import Runtime
from services.notifications.context import Notifications
from tests.services.api import app_fixtures

from .test_delivery import add_webhook, deliver_all, waiting_for

app = app_fixtures.app  # the real app over this module's runtime (fixtures, found by name)
client = app_fixtures.client

pytestmark = [pytest.mark.integration,
              pytest.mark.filterwarnings("ignore:Call to deprecated close:DeprecationWarning")]

ENGLISH_SENTENCES = ("Your turn", "Open the game", "You get this mail", "Change what you are told",
                     "Stop these mails", "Magnate Server and asked")
"""The English words of a "your turn" mail (the game's title is a name: the same in every language)."""


def csrf(client: httpx.AsyncClient) -> dict[str, str]:
    return {"X-CSRFToken": client.cookies["csrftoken"]}


async def signed_in(client: httpx.AsyncClient, inbox: MailInbox, email: str, language: str) -> str:
    """Sign in as a person does (the link read from the mail the SMTP server received), then choose ``language``
    in the account; returns the player's id."""
    token = (await client.get("/api/auth/csrf")).json()["csrf_token"]
    asked = await client.post("/api/auth/link", json={"email": email}, headers={"X-CSRFToken": token})
    assert asked.status_code == 202, asked.text
    mail = next(m for m in reversed(inbox.mails) if m["To"] == email)
    found = re.search(r"/signin#token=([A-Za-z0-9_-]+)", mail_parts(mail)[1])
    assert found
    token = (await client.get("/api/auth/csrf")).json()["csrf_token"]
    signed = await client.post("/api/auth/session", json={"token": found.group(1)}, headers={"X-CSRFToken": token})
    assert signed.status_code == 200, signed.text
    chosen = await client.put("/api/me/language", json={"language": language}, headers=csrf(client))
    assert chosen.status_code == 204, chosen.text
    me = (await client.get("/api/me")).json()
    assert me["language"] == language
    player_id: str = me["player_id"]
    return player_id


def mail_parts(mail: object) -> tuple[str, str, str]:
    subject = mail["Subject"]  # type: ignore[index]
    text = mail.get_body(("plain",)).get_content()  # type: ignore[attr-defined]
    page = mail.get_body(("html",)).get_content()  # type: ignore[attr-defined]
    return str(subject), str(text), str(page)


async def test_a_player_who_chose_german_gets_the_german_your_turn_mail(
        client: httpx.AsyncClient, runtime: Runtime, notifications: Notifications,
        inbox: tuple[MailInbox, str]) -> None:
    bea = await signed_in(client, inbox[0], "bea-de@example.com", "de")
    game_id, _ = await waiting_for(runtime, notifications, bea)
    signed_in_mails = len(inbox[0].mails)

    await deliver_all(runtime, notifications, bea)

    [mail] = inbox[0].mails[signed_in_mails:]
    subject, text, page = mail_parts(mail)
    assert subject == "Du bist am Zug in Magnate: The First City"
    assert f"Zum Spiel: http://magnate.test/play/{game_id}" in text
    assert "Du bekommst diese Mail, weil du Magnate: The First City auf Magnate Server spielst" in text
    assert "Diese Mails abbestellen: http://magnate.test/unsubscribe?token=" in text
    assert "Magnate: The First City öffnen" in page and "Ändern, worüber du benachrichtigt wirst" in page
    for english in ENGLISH_SENTENCES:
        assert english not in text and english not in page and english not in subject, english
    # kept in no language: the phrase, with its English text beside it for the logs
    row = await runtime.pool.fetchrow("SELECT text, phrase FROM notices WHERE player_id = $1", bea)
    assert row is not None and row["text"] == "Your turn in Magnate: The First City"
    assert json.loads(row["phrase"])["key"] == "Your turn in {game}"


def push_keys() -> tuple[ec.EllipticCurvePrivateKey, str, bytes, str]:
    private = ec.generate_private_key(ec.SECP256R1())
    public = private.public_key().public_bytes(serialization.Encoding.X962,
                                               serialization.PublicFormat.UncompressedPoint)
    auth = os.urandom(16)
    return (private, base64.urlsafe_b64encode(public).rstrip(b"=").decode(), auth,
            base64.urlsafe_b64encode(auth).rstrip(b"=").decode())


async def test_a_russian_player_reads_russian_notices_pushes_and_webhook_texts(
        client: httpx.AsyncClient, runtime: Runtime, notifications: Notifications, inbox: tuple[MailInbox, str],
        hooks: WebhookReceiver) -> None:
    ivan = await signed_in(client, inbox[0], "ivan-ru@example.com", "ru")
    await runtime.pool.execute("INSERT INTO notification_settings (player_id, email_mode) VALUES ($1, 'off')"
                               " ON CONFLICT (player_id) DO UPDATE SET email_mode = 'off'", ivan)
    await add_webhook(runtime, ivan, hooks.url + "/hook")
    private, p256dh, auth, auth_text = push_keys()
    await runtime.pool.execute("INSERT INTO push_subscriptions (endpoint_id, player_id, endpoint, p256dh, auth)"
                               " VALUES ('ivan-phone', $1, $2, $3, $4)", ivan, hooks.url + "/push", p256dh,
                               auth_text)
    game_id, _ = await waiting_for(runtime, notifications, ivan)

    await deliver_all(runtime, notifications, ivan)

    listed = (await client.get("/api/me/notices", headers={"Accept-Language": "en"})).json()["notices"]
    assert [n["text"] for n in listed] == ["Ваш ход в Magnate: The First City"]  # the account's choice wins
    hook = next(json.loads(body) for headers, body in hooks.seen.values() if "webhook-id" in headers)
    assert hook["data"]["text"] == "Ваш ход в Magnate: The First City"
    pushed = hooks.seen[""][1]  # the push service's request (no webhook-id)
    shown = json.loads(http_ece.decrypt(pushed, private_key=private, auth_secret=auth, version="aes128gcm"))
    assert shown["body"] == "Ваш ход в Magnate: The First City" and shown["url"].endswith(f"/play/{game_id}")


async def test_choosing_a_language_needs_the_csrf_token_a_session_and_a_language_spoken(
        client: httpx.AsyncClient, runtime: Runtime, inbox: tuple[MailInbox, str]) -> None:
    assert (await client.put("/api/me/language", json={"language": "de"})).json()["code"] == "auth/signed_out"
    player = await signed_in(client, inbox[0], "mallory-target@example.com", "ru")

    forged = await client.put("/api/me/language", json={"language": "de"})  # the session cookie, no X-CSRFToken
    assert (forged.status_code, forged.json()["code"]) == (403, "auth/csrf")
    unknown = await client.put("/api/me/language", json={"language": "fr"}, headers=csrf(client))
    assert (unknown.status_code, unknown.json()["code"]) == (400, "language/unknown")
    assert unknown.json()["message"].startswith("сервис не говорит на этом языке")  # said in the account's language
    assert await runtime.pool.fetchval("SELECT language FROM players WHERE player_id = $1", player) == "ru"


async def test_a_new_visitor_s_api_errors_speak_the_browser_s_language_with_the_same_code(
        client: httpx.AsyncClient) -> None:
    for language, signed_out, nowhere in (
            ("ru", "сначала войдите (POST /api/auth/link присылает ссылку для входа)", "по этому адресу ничего нет"),
            ("de", "melde dich zuerst an (POST /api/auth/link schickt einen Anmeldelink)",
             "unter dieser Adresse gibt es nichts"),
            ("en", "sign in first (POST /api/auth/link sends a sign-in link)", "there is nothing at this address")):
        headers = {"Accept-Language": f"{language};q=0.9, fr;q=0.8"}
        me = await client.get("/api/me", headers=headers)
        assert (me.status_code, me.json()["code"], me.json()["message"]) == (401, "auth/signed_out", signed_out)
        missing = await client.get("/api/no/such/route", headers=headers)
        assert (missing.status_code, missing.json()["code"], missing.json()["message"]) == (
            404, "route/not_found", nowhere)
