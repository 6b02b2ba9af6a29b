"""Hostile bodies and stores that are away: a 4xx or a 503 with a retry hint, never a 500.

- JSON nested deeper than the decoder goes is a 400 (request/malformed), on every endpoint with a body.
- A body over ``max_body_bytes`` is a 413 (request/too_large), announced or streamed.
- ``StoreUnavailable`` is a 503 with ``Retry-After`` and ``details.retry_after_s``; so is a raw Redis, OS or
  asyncpg connection error that slips through to the API (a safety net, logged).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import asyncpg
import msgspec
import pytest
from httpx import AsyncClient
from redis.exceptions import ConnectionError as RedisConnectionError

from infra.config import Settings
from infra.errors import StoreUnavailable
from services.api import create_app
from services.gameplay.bootstrap import Runtime

from .table import Table, asgi_client, bearer

JSON = {"Content-Type": "application/json"}
DEEP = 10_000
"""Far deeper than the decoder's recursion limit, and still a small body (10 KB)."""


def assert_error(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    assert set(body) == {"code", "message", "details"}
    assert body["code"] == code and body["message"]
    return body


@pytest.mark.parametrize("body", [
    b'{"options":' + b"[" * DEEP,
    b'{"options": {"seats":' + b"[" * DEEP + b"]" * DEEP + b"}}",
    b'{"names": [' + b'{"a":' * DEEP + b"1" + b"}" * DEEP + b"]}",
], ids=["unclosed", "closed", "objects"])
async def test_deeply_nested_json_creating_a_game_is_a_400(client: AsyncClient, body: bytes) -> None:
    assert_error(await client.post("/api/games", content=body, headers=JSON), 400, "request/malformed")


@pytest.mark.parametrize(("body", "code"), [
    (b'{"command_id": "deep", "command": ' + b"[" * DEEP, "request/malformed"),
    (b'{"command_id": "deep", "command": ' + b"[" * DEEP + b"]" * DEEP + b"}", "request/malformed"),
    (b'{"command_id": "deep", "command": {"type": "magnate.pass_bid", "x": ' + b"[" * DEEP + b"]" * DEEP + b"}}",
     "request/malformed"),
    (b"[" * DEEP, "request/invalid"),  # not an object: refused before it is read any deeper
], ids=["unclosed", "closed", "inside-the-command", "the-envelope"])
async def test_deeply_nested_json_in_a_command_is_a_400_and_changes_nothing(
    table: Table, body: bytes, code: str
) -> None:
    game = await table.create()
    seat = await table.seat_on_turn(game)
    log = await table.log(game)
    response = await table.client.post(f"/api/games/{game.id}/commands", content=body,
                                       headers={**JSON, **bearer(game.tokens[seat])})
    assert_error(response, 400, code)
    assert await table.log(game) == log


async def test_the_hundred_thousand_brackets_of_the_report_are_refused_with_our_error(client: AsyncClient) -> None:
    response = await client.post("/api/games", content=b'{"options": {"seats":' + b"[" * 100_000, headers=JSON)
    assert response.status_code in {400, 413}, response.text
    assert set(response.json()) == {"code", "message", "details"}


async def test_a_body_over_the_limit_is_a_413(client: AsyncClient, settings: Settings, table: Table) -> None:
    name = "x" * 40
    big = msgspec.json.encode({"options": {"seats": [{}, {}]},
                               "names": [name] * (settings.max_body_bytes // len(name) + 1)})
    assert len(big) > settings.max_body_bytes
    body = assert_error(await client.post("/api/games", content=big, headers=JSON), 413, "request/too_large")
    assert body["details"] == {"max_bytes": settings.max_body_bytes}

    game = await table.create()
    command = {"command_id": "big", "command": {"type": "magnate.choose_tenants", "tenants": ["h"] * 20_000}}
    response = await client.post(f"/api/games/{game.id}/commands", content=msgspec.json.encode(command),
                                 headers={**JSON, **bearer(game.tokens[0])})
    assert_error(response, 413, "request/too_large")


async def test_a_streamed_body_without_a_length_is_cut_at_the_limit(client: AsyncClient, settings: Settings) -> None:
    async def chunks() -> AsyncIterator[bytes]:
        yield b'{"options": {"seats": [{}, {}], "difficulty": "'
        for _ in range(settings.max_body_bytes // 1024 + 1):
            yield b"a" * 1024
        yield b'"}'

    response = await client.post("/api/games", content=chunks(), headers=JSON)
    assert_error(response, 413, "request/too_large")


async def test_a_body_just_under_the_limit_is_read(settings: Settings, runtime: Runtime) -> None:
    app = create_app(msgspec.structs.replace(settings, max_body_bytes=100), runtime)
    async with asgi_client(app) as client:
        fits = await client.post("/api/games", content=b'{"options": {"seats": [{}, {}]}}'.ljust(100), headers=JSON)
        over = await client.post("/api/games", content=b'{"options": {"seats": [{}, {}]}}'.ljust(101), headers=JSON)
    assert fits.status_code == 201, fits.text
    assert_error(over, 413, "request/too_large")


# -- stores that are away ------------------------------------------------------------------------------


def assert_unavailable(response: Any) -> None:
    body = assert_error(response, 503, "infra/unavailable")
    assert int(response.headers["Retry-After"]) >= 1
    assert body["details"]["retry_after_s"] == int(response.headers["Retry-After"])


def _raising(exc: BaseException) -> Callable[..., Any]:
    async def fail(*_: Any, **__: Any) -> Any:
        raise exc

    return fail


@pytest.mark.parametrize("exc", [
    StoreUnavailable("PostgreSQL is unavailable: connection refused"),
    RedisConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused."),
    ConnectionResetError(104, "Connection reset by peer"),
    OSError(113, "No route to host"),
    TimeoutError(),
    asyncpg.ConnectionDoesNotExistError("connection was closed in the middle of operation"),
    asyncpg.CannotConnectNowError("the database system is starting up"),
    asyncpg.TooManyConnectionsError("sorry, too many clients already"),
], ids=lambda e: type(e).__name__)
async def test_a_store_away_is_a_503_on_reads_and_commands(
    table: Table, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, exc: BaseException
) -> None:
    game = await table.create()
    seat = await table.seat_on_turn(game)
    loader = table.runtime.gameplay.loader
    monkeypatch.setattr(loader, "load", _raising(exc))
    monkeypatch.setattr(loader, "game_type", _raising(exc))
    assert_unavailable(await table.client.get(f"/api/games/{game.id}"))
    assert_unavailable(await table.submit(game, seat, {"type": "magnate.pass_bid"}))
    assert "store unavailable" in caplog.text
    assert "Traceback" not in caplog.text


@pytest.mark.parametrize("exc", [KeyError("a bug"), FileNotFoundError(2, "No such file or directory"),
                                 PermissionError(13, "Permission denied")], ids=lambda e: type(e).__name__)
async def test_a_bug_is_still_a_500(table: Table, monkeypatch: pytest.MonkeyPatch, exc: BaseException) -> None:
    """A missing file is an OSError but no outage: a 503 would tell clients to retry a bug for ever (the fuzzer
    found one such: an options' dataset that made the rules read a missing file)."""
    game = await table.create()
    monkeypatch.setattr(table.runtime.gameplay.loader, "load", _raising(exc))
    assert_error(await table.client.get(f"/api/games/{game.id}"), 500, "internal/error")
