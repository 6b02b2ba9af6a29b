"""Attacks on signing in (issue #24, items 3 and 5) whose proof is what PostgreSQL keeps: no link nor mail without the
development mailbox, and a planted, unknown or old session id never stored or kept alive in ``web_sessions`` (the
other attacks: tests/services/api/test_sign_in_attacks.py, on twins)."""

from __future__ import annotations

import logging

import httpx
import msgspec
import pytest

from infra.config import Settings
from services.api import create_app
from services.gameplay.bootstrap import Runtime
from tests.services.api.table import asgi_client
from tests.services.api.test_players import csrf, sign_in
from tests.services.api.test_sign_in_attacks import link_token, plant


async def session_row(runtime: Runtime, session_id: str) -> bool:
    async with runtime.pool.acquire() as conn:
        return bool(await conn.fetchval("SELECT count(*) FROM web_sessions WHERE key = $1", session_id))


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
