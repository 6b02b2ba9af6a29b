"""Players who are people (issue #12): passwordless sign-in, sessions with CSRF, claiming seats, invites, and
"My games" — over the real app on in-memory twins, with the sign-in mail read from the development mailbox."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Any

import httpx
import msgspec
import pytest
from litestar import Litestar

from domain.games import GAMES
from infra.channels.devmail import DevMailbox
from infra.config import Settings
from services.api import create_app
from services.gameplay.audit_verify import verify
from services.gameplay.bootstrap import Runtime

from .table import Table, asgi_client, bearer


async def sign_in(client: httpx.AsyncClient, runtime: Runtime, email: str, next_path: str = "/") -> dict[str, Any]:
    """Ask for a link, read it from the mailbox as a person would, and sign in with it as the page does: with the
    CSRF token of the browser's pre-session (``GET /api/auth/csrf``)."""
    page = {"X-CSRFToken": client.cookies["csrftoken"]} if "csrftoken" in client.cookies else {}
    asked = await client.post("/api/auth/link", json={"email": email, "next": next_path}, headers=page)
    assert asked.status_code == 202, asked.text
    token = await mailed_token(runtime, email)
    signed = await redeem(client, token)
    assert signed.status_code == 200, signed.text
    return signed.json()  # type: ignore[no-any-return]


async def redeem(client: httpx.AsyncClient, token: str) -> httpx.Response:
    """Sign in with a link's token as the page does: a pre-session's CSRF token first, then the token as JSON."""
    csrf_token = (await client.get("/api/auth/csrf")).json()["csrf_token"]
    return await client.post("/api/auth/session", json={"token": token}, headers={"X-CSRFToken": csrf_token})


async def mailed_token(runtime: Runtime, email: str) -> str:
    assert isinstance(runtime.mail, DevMailbox)
    mail = next(m for m in await runtime.mail.recent() if m.recipient == email)
    assert "Sign in to Magnate Server" in mail.subject
    found = re.search(r"/signin#token=([A-Za-z0-9_-]+)", mail.text_body)
    assert found, mail.text_body
    return found.group(1)


def csrf(client: httpx.AsyncClient) -> dict[str, str]:
    return {"X-CSRFToken": client.cookies["csrftoken"]}


@pytest.fixture
async def other(app: Litestar) -> AsyncIterator[httpx.AsyncClient]:
    """A second browser (its own cookies)."""
    async with asgi_client(app) as c:
        yield c


@pytest.fixture
async def third(app: Litestar) -> AsyncIterator[httpx.AsyncClient]:
    async with asgi_client(app) as c:
        yield c


async def test_a_mailed_link_signs_in_once_and_the_session_knows_the_player(
    client: httpx.AsyncClient, runtime: Runtime
) -> None:
    assert (await client.get("/api/me")).json()["code"] == "auth/signed_out"
    await client.post("/api/auth/link", json={"email": "Ada@Example.com", "next": "/play/abc"})
    token = await mailed_token(runtime, "ada@example.com")
    signed = await redeem(client, token)
    assert signed.status_code == 200
    assert signed.json()["email"] == "ada@example.com" and signed.json()["next"] == "/play/abc"
    cookie = signed.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=lax" in cookie
    me = await client.get("/api/me")
    assert me.status_code == 200 and me.json()["name"] == "ada"

    replayed = await client.post("/api/auth/session", json={"token": token}, headers=csrf(client))
    assert (replayed.status_code, replayed.json()["code"]) == (410, "auth/link_used")
    unknown = await client.post("/api/auth/session", json={"token": "not-a-link"}, headers=csrf(client))
    assert (unknown.status_code, unknown.json()["code"]) == (401, "auth/link_invalid")


@pytest.mark.parametrize("email", ["no-at-sign", "two@@example.com", "a@b", "x" * 250 + "@example.com", "a b@c.de"])
async def test_invalid_emails_are_refused_with_a_code(client: httpx.AsyncClient, email: str) -> None:
    response = await client.post("/api/auth/link", json={"email": email})
    assert response.status_code in (400, 422)
    assert response.json()["code"] in ("request/invalid", "request/invalid_email")


async def test_next_must_stay_on_this_server(client: httpx.AsyncClient) -> None:
    for target in ("//evil.example/", "https://evil.example/", "javascript:alert(1)"):
        response = await client.post("/api/auth/link", json={"email": "a@example.com", "next": target})
        assert response.status_code == 400, target


async def test_cookie_signed_writes_need_the_csrf_header(client: httpx.AsyncClient, runtime: Runtime) -> None:
    await sign_in(client, runtime, "csrf@example.com")
    refused = await client.patch("/api/me", json={"name": "Mallory"})
    assert (refused.status_code, refused.json()["code"]) == (403, "auth/csrf")
    renamed = await client.patch("/api/me", json={"name": "Grace"}, headers=csrf(client))
    assert renamed.status_code == 200 and renamed.json()["name"] == "Grace"


async def test_signing_out_ends_the_session(client: httpx.AsyncClient, runtime: Runtime) -> None:
    await sign_in(client, runtime, "out@example.com")
    assert (await client.delete("/api/auth/session", headers=csrf(client))).status_code == 204
    assert (await client.get("/api/me")).status_code == 401


async def test_a_claimed_seat_is_the_players_on_every_device_and_its_invite_is_dead(
    client: httpx.AsyncClient, other: httpx.AsyncClient, third: httpx.AsyncClient, runtime: Runtime,
    table: Table,
) -> None:
    game = await table.create(humans=2)
    assert game.created["host_seat"] == 0
    await sign_in(other, runtime, "bea@example.com")
    invite = game.tokens[1]
    claimed = await other.post(f"/api/games/{game.id}/claim", headers={**bearer(invite), **csrf(other)})
    assert claimed.status_code == 200, claimed.text
    assert claimed.json()["seat"] == 1
    again = await other.post(f"/api/games/{game.id}/claim", headers={**bearer(invite), **csrf(other)})
    assert again.status_code == 200 and again.json()["version"] == claimed.json()["version"]

    log = (await client.get(f"/api/games/{game.id}/events")).json()["events"]
    assert [e["type"] for e in log].count("table.seat_claimed") == 1
    players = (await client.get(f"/api/games/{game.id}")).json()["players"]
    assert [p["claimed"] for p in players] == [False, True]

    # the invite no longer opens the seat, for anybody
    stranger = await third.get(f"/api/games/{game.id}/me", headers=bearer(invite))
    assert (stranger.status_code, stranger.json()["code"]) == (403, "seat/claimed")
    await sign_in(third, runtime, "eve@example.com")
    taken = await third.post(f"/api/games/{game.id}/claim", headers={**bearer(invite), **csrf(third)})
    assert (taken.status_code, taken.json()["code"]) == (403, "seat/claimed")

    # the player's session opens the seat on a second device
    async with asgi_client(other._transport.app) as second:  # type: ignore[attr-defined]
        await sign_in(second, runtime, "bea@example.com")
        me = await second.get(f"/api/games/{game.id}/me")
        assert me.status_code == 200 and me.json()["seat"] == 1
        mine = (await second.get("/api/me/games")).json()
        assert [(g["game_id"], g["seat"]) for g in mine["games"]] == [(game.id, 1)]


async def test_one_player_holds_one_seat_of_a_game(client: httpx.AsyncClient, runtime: Runtime, table: Table) -> None:
    game = await table.create(humans=3)
    await sign_in(client, runtime, "greedy@example.com")
    first = await client.post(f"/api/games/{game.id}/claim", headers={**bearer(game.tokens[1]), **csrf(client)})
    assert first.status_code == 200
    second = await client.post(f"/api/games/{game.id}/claim", headers={**bearer(game.tokens[2]), **csrf(client)})
    assert (second.status_code, second.json()["code"]) == (409, "seat/already_seated")


async def test_claiming_needs_a_session(client: httpx.AsyncClient, table: Table) -> None:
    game = await table.create(humans=2)
    response = await client.post(f"/api/games/{game.id}/claim", headers=bearer(game.tokens[1]))
    assert (response.status_code, response.json()["code"]) == (401, "auth/signed_out")


async def test_the_host_revokes_and_reissues_an_unclaimed_invite(
    client: httpx.AsyncClient, other: httpx.AsyncClient, runtime: Runtime, table: Table
) -> None:
    game = await table.create(humans=3)
    host, old = game.tokens[0], game.tokens[1]
    assert (await client.get(f"/api/games/{game.id}/me", headers=bearer(old))).status_code == 200
    not_host = await client.delete(f"/api/games/{game.id}/seats/1/invite", headers=bearer(game.tokens[2]))
    assert (not_host.status_code, not_host.json()["code"]) == (403, "seat/not_host")

    assert (await client.delete(f"/api/games/{game.id}/seats/1/invite", headers=bearer(host))).status_code == 204
    assert (await client.get(f"/api/games/{game.id}/me", headers=bearer(old))).status_code == 401
    issued = await client.post(f"/api/games/{game.id}/seats/1/invite", headers=bearer(host))
    assert issued.status_code == 201
    new = issued.json()["token"]
    assert issued.json()["invite_url"].endswith(f"/play/{game.id}#token={new}")
    assert (await client.get(f"/api/games/{game.id}/me", headers=bearer(new))).json()["seat"] == 1

    await sign_in(other, runtime, "late-claimer@example.com")
    assert (await other.post(f"/api/games/{game.id}/claim", headers={**bearer(new), **csrf(other)})).status_code == 200
    frozen = await client.post(f"/api/games/{game.id}/seats/1/invite", headers=bearer(host))
    assert (frozen.status_code, frozen.json()["code"]) == (403, "seat/claimed")


async def test_my_games_put_the_games_waiting_for_me_first(
    other: httpx.AsyncClient, runtime: Runtime, table: Table
) -> None:
    await sign_in(other, runtime, "many@example.com")
    games = [await table.create(humans=2) for _ in range(3)]
    waiting = await table.seat_on_turn(games[1])  # the worker's part done: a seat of games[1] must act now
    idle = []
    for game in (games[0], games[2]):
        on_turn = (await table.read(game))["on_turn"]
        idle.append(next(s for s in (0, 1) if s not in on_turn))
    for game, seat in zip(games, (idle[0], waiting, idle[1]), strict=True):
        claimed = await other.post(f"/api/games/{game.id}/claim", headers={**bearer(game.tokens[seat]),
                                                                             **csrf(other)})
        assert claimed.status_code == 200
    mine = (await other.get("/api/me/games")).json()
    assert {g["game_id"] for g in mine["games"]} == {g.id for g in games}
    turns = [g["your_turn"] for g in mine["games"]]
    assert turns == sorted(turns, reverse=True), "your-turn games come first"
    assert mine["waiting"] == sum(turns) == 1
    assert mine["games"][0]["game_id"] == games[1].id


async def test_a_game_with_a_claimed_seat_plays_to_the_end_and_verifies(
    other: httpx.AsyncClient, runtime: Runtime, table: Table
) -> None:
    """The claim is a command of the log like any other: the export of the finished game verifies, claim included."""
    game = await table.create(seats=[{"kind": "human"}, {"kind": "ai"}], difficulty="digital_assistant")
    await sign_in(other, runtime, "auditor@example.com")
    assert (await other.post(f"/api/games/{game.id}/claim",
                             headers={**bearer(game.tokens[0]), **csrf(other)})).status_code == 200
    moves = 0
    while (await table.run_system_jobs(game))["status"] == "running":
        me = (await other.get(f"/api/games/{game.id}/me")).json()  # the session plays the seat
        body = {"command_id": f"m{moves}", "command": me["legal"][0]["command"], "expected_version": me["version"]}
        played = await other.post(f"/api/games/{game.id}/commands", json=body, headers=csrf(other))
        assert played.status_code == 200, played.text
        moves += 1
    exported = await other.get(f"/api/games/{game.id}/export")
    verdict = verify(exported.content.splitlines(), GAMES)
    assert verdict.ok, verdict
    assert b"table.claim_seat" in exported.content


async def test_a_seat_of_a_finished_game_cannot_be_claimed(
    other: httpx.AsyncClient, runtime: Runtime, table: Table
) -> None:
    game = await table.create(seats=[{"kind": "human"}, {"kind": "ai"}], difficulty="digital_assistant")
    while (await table.run_system_jobs(game))["status"] == "running":
        await table.play_suggested(game)
    await sign_in(other, runtime, "too-late@example.com")
    late = await other.post(f"/api/games/{game.id}/claim", headers={**bearer(game.tokens[0]), **csrf(other)})
    assert (late.status_code, late.json()["code"]) == (422, "rule/game_over")
    assert (await other.get("/api/me/games")).json()["games"] == []


async def test_behind_an_https_public_url_the_session_cookie_is_secure(settings: Settings, runtime: Runtime) -> None:
    app = create_app(msgspec.structs.replace(settings, public_url="https://magnate.example"), runtime)
    transport = httpx.ASGITransport(app=app)  # type: ignore[arg-type]
    async with httpx.AsyncClient(transport=transport, base_url="https://magnate.example") as client:
        await client.post("/api/auth/link", json={"email": "tls@example.com"})
        token = await mailed_token(runtime, "tls@example.com")
        signed = await redeem(client, token)
        assert signed.status_code == 200
        assert "secure" in signed.headers["set-cookie"].lower()
