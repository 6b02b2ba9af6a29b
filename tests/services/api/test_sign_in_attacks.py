"""Attacks on signing in (issue #24, items 3, 4 and 5), each written as the attacker would try it, over the real app,
PostgreSQL and Redis: reading the development mailbox of a production server, a hostile page's form signing a
visitor into the attacker's account (login CSRF), a planted session id, a CSRF token carried to another session,
and an old link still working after a newer one was used."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator

import httpx
import msgspec
import pytest
from litestar import Litestar

from infra.config import Settings
from services.api import create_app
from services.cli import parser
from services.gameplay.bootstrap import Runtime

from .table import asgi_client
from .test_players import csrf, mailed_token, redeem, sign_in

EVIL = "https://evil.example"


@pytest.fixture
async def attacker(app: Litestar) -> AsyncIterator[httpx.AsyncClient]:
    async with asgi_client(app) as c:
        yield c


async def link_token(client: httpx.AsyncClient, runtime: Runtime, email: str) -> str:
    page = {"X-CSRFToken": client.cookies["csrftoken"]} if "csrftoken" in client.cookies else {}
    assert (await client.post("/api/auth/link", json={"email": email}, headers=page)).status_code == 202
    return await mailed_token(runtime, email)


def plant(client: httpx.AsyncClient, name: str, value: str) -> None:
    """Set a cookie in the client's jar as the server's own would be (replacing it)."""
    for cookie in list(client.cookies.jar):
        if cookie.name == name:
            client.cookies.jar.clear(cookie.domain, cookie.path, cookie.name)
    client.cookies.set(name, value, domain="testserver.local")


async def session_row(runtime: Runtime, session_id: str) -> bool:
    async with runtime.pool.acquire() as conn:
        return bool(await conn.fetchval("SELECT count(*) FROM web_sessions WHERE key = $1", session_id))


# -- 3: the development mailbox exists only when asked for --------------------------------------------------------


async def test_without_the_switch_there_is_no_mailbox_and_no_link_is_sent(
    settings: Settings, runtime: Runtime, caplog: pytest.LogCaptureFixture
) -> None:
    production = msgspec.structs.replace(settings, dev_mailbox=False)
    with caplog.at_level(logging.WARNING):
        app = create_app(production, runtime)
    assert any("no SMTP_URL and no development mailbox" in r.getMessage() for r in caplog.records)
    async with asgi_client(app) as client:
        for path in ("/dev/mail", "/api/dev/mail"):
            assert (await client.get(path)).status_code == 404, path
        refused = await client.post("/api/auth/link", json={"email": "no-mailbox@example.org"})
        assert refused.status_code == 403
        assert refused.json()["code"] == "mail/not_configured" and "SMTP_URL" in refused.json()["message"]
    async with runtime.pool.acquire() as conn:  # nothing issued, nothing kept
        assert await conn.fetchval("SELECT count(*) FROM sign_in_links WHERE email = 'no-mailbox@example.org'") == 0
        assert await conn.fetchval("SELECT count(*) FROM dev_mail WHERE recipient = 'no-mailbox@example.org'") == 0


def test_serve_and_run_take_the_dev_mailbox_switch() -> None:
    for command in ("serve", "run"):
        assert parser().parse_args([command, "--dev-mailbox"]).dev_mailbox is True
        assert parser().parse_args([command]).dev_mailbox is False


# -- 4: login CSRF ------------------------------------------------------------------------------------------------


async def test_a_hostile_form_cannot_sign_a_visitor_into_the_attackers_account(
    client: httpx.AsyncClient, attacker: httpx.AsyncClient, runtime: Runtime
) -> None:
    token = await link_token(attacker, runtime, "mallory@example.org")
    # <form enctype=text/plain method=post action=.../api/auth/session><input name='{"token":"x' value='","token":"T"}'>
    body = '{"token":"x=","token":"' + token + '"}'
    headers = {"Content-Type": "text/plain", "Origin": EVIL}
    fresh = await client.post("/api/auth/session", content=body, headers=headers)
    assert (fresh.status_code, fresh.json()["code"]) == (403, "auth/csrf")
    assert "set-cookie" not in fresh.headers
    await client.get("/api/auth/csrf")  # the visitor has been here before: a pre-session and its csrftoken cookie
    planted = await client.post("/api/auth/session", content=body, headers=headers)
    assert planted.status_code == 403
    assert (await client.get("/api/me")).status_code == 401
    assert (await redeem(attacker, token)).status_code == 200, "the link is still unspent"


async def test_sign_in_is_json_only_from_this_origin_with_no_key_twice(
    client: httpx.AsyncClient, runtime: Runtime
) -> None:
    token = await link_token(client, runtime, "strict@example.org")
    csrf_token = (await client.get("/api/auth/csrf")).json()["csrf_token"]
    header = {"X-CSRFToken": csrf_token}
    as_text = await client.post("/api/auth/session", content=msgspec.json.encode({"token": token}),
                                headers={**header, "Content-Type": "text/plain"})
    assert (as_text.status_code, as_text.json()["code"]) == (415, "request/unsupported_media_type")
    twice = await client.post("/api/auth/session", content=f'{{"token":"x","token":"{token}"}}',
                              headers={**header, "Content-Type": "application/json"})
    assert (twice.status_code, twice.json()["code"]) == (400, "request/duplicate_key")
    elsewhere = await client.post("/api/auth/session", json={"token": token}, headers={**header, "Origin": EVIL})
    assert (elsewhere.status_code, elsewhere.json()["code"]) == (403, "auth/origin")
    no_token = await client.post("/api/auth/session", json={"token": token})
    assert (no_token.status_code, no_token.json()["code"]) == (403, "auth/csrf")
    assert (await client.get("/api/me")).status_code == 401
    ours = await client.post("/api/auth/session", json={"token": token},
                             headers={**header, "Origin": "http://testserver"})
    assert ours.status_code == 200, ours.text


async def test_a_link_is_asked_for_as_json_from_this_origin(client: httpx.AsyncClient) -> None:
    form = await client.post("/api/auth/link", data={"email": "form@example.org"})
    assert (form.status_code, form.json()["code"]) == (415, "request/unsupported_media_type")
    hostile = await client.post("/api/auth/link", json={"email": "x@example.org"}, headers={"Origin": EVIL})
    assert (hostile.status_code, hostile.json()["code"]) == (403, "auth/origin")


# -- 5: session fixation, bound CSRF tokens, spent links -----------------------------------------------------------


async def test_a_planted_session_id_never_becomes_the_victims_session(
    client: httpx.AsyncClient, attacker: httpx.AsyncClient, runtime: Runtime
) -> None:
    planted_csrf = (await attacker.get("/api/auth/csrf")).json()["csrf_token"]
    planted = attacker.cookies["session"]
    plant(client, "session", planted)  # set from a sibling subdomain, or on a shared computer
    plant(client, "csrftoken", planted_csrf)
    token = await link_token(client, runtime, "victim@example.org")
    signed = await client.post("/api/auth/session", json={"token": token}, headers={"X-CSRFToken": planted_csrf})
    assert signed.status_code == 200, signed.text
    assert client.cookies["session"] != planted
    assert client.cookies["csrftoken"] != planted_csrf
    assert not await session_row(runtime, planted), "the planted id is dead server-side"
    assert (await attacker.get("/api/me")).status_code == 401
    assert (await client.get("/api/me")).json()["email"] == "victim@example.org"


async def test_a_pre_session_is_kept_a_day_and_a_signed_in_one_a_month(
    client: httpx.AsyncClient, attacker: httpx.AsyncClient, runtime: Runtime
) -> None:
    await attacker.get("/api/auth/csrf")  # anyone may start pre-sessions: they must not pile up for a month
    await sign_in(client, runtime, "expiry@example.org")
    assert 0 < await days_left(runtime, attacker.cookies["session"]) <= 1
    assert await days_left(runtime, client.cookies["session"]) > 29


async def days_left(runtime: Runtime, session_id: str) -> float:
    async with runtime.pool.acquire() as conn:
        return float(await conn.fetchval(
            "SELECT extract(epoch FROM expires_at - now()) / 86400 FROM web_sessions WHERE key = $1", session_id))


async def test_an_unknown_session_id_is_never_stored(client: httpx.AsyncClient, runtime: Runtime) -> None:
    chosen = "ab" * 32
    plant(client, "session", chosen)
    assert (await client.get("/api/auth/csrf")).status_code == 200
    assert client.cookies["session"] != chosen
    assert not await session_row(runtime, chosen)


async def test_signing_in_and_out_each_give_a_new_id_and_kill_the_old(
    client: httpx.AsyncClient, attacker: httpx.AsyncClient, runtime: Runtime
) -> None:
    await client.get("/api/auth/csrf")
    pre = client.cookies["session"]
    await sign_in(client, runtime, "rotate@example.org")
    signed = client.cookies["session"]
    assert signed != pre and not await session_row(runtime, pre)
    assert await session_row(runtime, signed)
    bound = csrf(client)
    assert (await client.delete("/api/auth/session", headers=bound)).status_code == 204
    assert not await session_row(runtime, signed)
    plant(attacker, "session", signed)  # whoever copied the signed-in cookie
    assert (await attacker.get("/api/me")).status_code == 401


async def test_a_csrf_token_of_one_session_is_refused_in_another(
    client: httpx.AsyncClient, attacker: httpx.AsyncClient, runtime: Runtime
) -> None:
    await sign_in(client, runtime, "alice@example.org")
    await sign_in(attacker, runtime, "bob@example.org")
    alices = client.cookies["csrftoken"]
    plant(attacker, "csrftoken", alices)  # a valid, server-signed token: only not this session's
    refused = await attacker.patch("/api/me", json={"name": "Pwned"}, headers={"X-CSRFToken": alices})
    assert (refused.status_code, refused.json()["code"]) == (403, "auth/csrf")
    assert (await client.patch("/api/me", json={"name": "Alice"}, headers=csrf(client))).status_code == 200


async def test_a_refused_sign_in_sets_no_cookie(client: httpx.AsyncClient, runtime: Runtime) -> None:
    refused = await client.post("/api/auth/session", json={"token": "not-a-link"})
    assert refused.status_code == 403 and "set-cookie" not in refused.headers
    await client.get("/api/auth/csrf")
    pre = client.cookies["session"]
    unknown = await redeem(client, "not-a-link")
    assert unknown.status_code == 401
    assert client.cookies["session"] == pre, "no new session from a refused sign-in"
    assert all("csrftoken" not in c for c in unknown.headers.get_list("set-cookie"))
    assert (await client.get("/api/me")).status_code == 401


async def test_a_used_link_spends_the_older_ones(client: httpx.AsyncClient, attacker: httpx.AsyncClient,
                                                 runtime: Runtime) -> None:
    older = await link_token(client, runtime, "twice@example.org")
    newer = await link_token(client, runtime, "twice@example.org")
    assert older != newer
    assert (await redeem(client, newer)).status_code == 200
    stale = await redeem(attacker, older)
    assert (stale.status_code, stale.json()["code"]) == (410, "auth/link_used")
    assert (await attacker.get("/api/me")).status_code == 401
