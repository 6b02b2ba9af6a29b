"""Attacks on signing in (issue #24, items 3, 4 and 5), each written as the attacker would try it, over the real app
on in-memory twins (what the session store keeps is checked in tests/integration/api): reading the development
mailbox of a production server, a hostile page's form signing a visitor into the attacker's account (login CSRF), a
planted session id, a CSRF token carried to another session, and an old link still working after a newer one was
used."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import msgspec
import pytest
from litestar import Litestar

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


# -- 3: the development mailbox exists only when asked for --------------------------------------------------------


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
