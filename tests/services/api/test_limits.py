"""Limits per client address: game creations, commands and other requests per minute (counted in Redis, so
shared by every API process: tests/integration/api/test_limits.py; here on the twins), open event streams (per
process); a 429 with ``Retry-After`` beyond each, and none at all on a sandbox server."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any, cast

import httpx
import msgspec
import pytest
from litestar import Litestar

from infra.config import Settings
from services.api import create_app
from services.gameplay.bootstrap import Runtime

from .app_fixtures import serve
from .sse import EventStream
from .table import Table, bearer, game_body


def limited(settings: Settings, **limits: int) -> Settings:
    """A production server (no sandbox) with these limits; the others off."""
    off = {"rate_create_per_min": 0, "rate_commands_per_min": 0, "rate_reads_per_min": 0,
           "max_streams_per_client": 0}
    return msgspec.structs.replace(settings, sandbox=False, **(off | limits))


def client_at(app: Litestar, address: str) -> httpx.AsyncClient:
    """An in-process client whose requests come from ``address``."""
    transport = httpx.ASGITransport(app=cast(Any, app), client=(address, 40000))
    return httpx.AsyncClient(transport=transport, base_url="http://testserver")


def assert_limited(response: httpx.Response) -> None:
    assert response.status_code == 429, response.text
    body = response.json()
    assert set(body) == {"code", "message", "details"}
    assert body["code"] == "rate/limited"
    retry = int(response.headers["Retry-After"])
    assert 1 <= retry <= 60
    assert body["details"]["retry_after_s"] == retry


TWO_SEATS = game_body([{}, {}])


async def test_game_creation_is_limited_per_client_address(settings: Settings, runtime: Runtime) -> None:
    app = create_app(limited(settings, rate_create_per_min=3), runtime)
    async with client_at(app, "10.0.0.1") as one, client_at(app, "10.0.0.2") as two:
        for _ in range(3):
            assert (await one.post("/api/games", json=TWO_SEATS)).status_code == 201
        assert_limited(await one.post("/api/games", json=TWO_SEATS))
        assert (await two.post("/api/games", json=TWO_SEATS)).status_code == 201  # another client
        assert (await one.get("/api/catalog/magnate")).status_code == 200  # reads have their own rate


async def test_commands_are_limited_per_client_address(settings: Settings, runtime: Runtime) -> None:
    app = create_app(limited(settings, rate_commands_per_min=2), runtime)
    async with client_at(app, "10.0.0.4") as client:
        table = Table(client, runtime)
        game = await table.create()
        seat = await table.seat_on_turn(game)
        for _ in range(2):  # refused or not, a command counts
            assert (await table.submit(game, 1 - seat, {"type": "magnate.pass_bid"})).status_code == 422
        assert_limited(await table.submit(game, seat, {"type": "magnate.pass_bid"}))
        assert (await table.read(game))["version"] == game.created["version"]
        assert (await client.post("/api/games", json=TWO_SEATS)).status_code == 201


async def test_other_requests_are_limited_per_client_address(settings: Settings, runtime: Runtime) -> None:
    app = create_app(limited(settings, rate_reads_per_min=3), runtime)
    async with client_at(app, "10.0.0.5") as client:
        game = (await client.post("/api/games", json=TWO_SEATS)).json()
        for path in ("", "/events", "/history"):
            assert (await client.get(f"/api/games/{game['game_id']}{path}")).status_code == 200
        assert_limited(await client.get(f"/api/games/{game['game_id']}/state"))
        assert_limited(await client.get("/api/catalog/magnate"))
        me = await client.get(f"/api/games/{game['game_id']}/me", headers=bearer(game["seats"][0]["token"]))
        assert_limited(me)
        # not the API: the health check, the page and its files, the schema
        for path in ("/health", "/", "/schema/openapi.json"):
            assert (await client.get(path)).status_code == 200, path


async def test_a_sandbox_lifts_every_limit(settings: Settings, runtime: Runtime) -> None:
    sandbox = msgspec.structs.replace(limited(settings, rate_create_per_min=1, rate_commands_per_min=1,
                                              rate_reads_per_min=1, max_streams_per_client=1), sandbox=True)
    app = create_app(sandbox, runtime)
    async with client_at(app, "10.0.0.6") as client:
        table = Table(client, runtime)
        games = [await table.create() for _ in range(3)]
        for game in games:
            seat = await table.seat_on_turn(game)
            for _ in range(2):
                await table.submit(game, 1 - seat, {"type": "magnate.pass_bid"})
            assert (await table.read(game))["version"] >= 1
    async with serve(app) as url, open_streams(url, games[0].id, 3) as streams:
        assert len(streams) == 3


async def test_the_defaults_are_the_documented_ones() -> None:
    defaults = Settings()
    assert (defaults.rate_create_per_min, defaults.rate_commands_per_min, defaults.rate_reads_per_min) == (20, 600,
                                                                                                           1200)
    assert defaults.max_streams_per_client == 50 and defaults.max_body_bytes == 64 * 1024


# -- open event streams ----------------------------------------------------------------------------------


@asynccontextmanager
async def open_streams(url: str, game_id: str, count: int) -> AsyncIterator[list[EventStream]]:
    """``count`` event streams held open (each has sent its first message)."""
    async with AsyncExitStack() as stack:
        http = await stack.enter_async_context(httpx.AsyncClient(base_url=url, timeout=10))
        streams = []
        for _ in range(count):
            response = await stack.enter_async_context(http.stream("GET", f"/api/games/{game_id}/stream"))
            stream = EventStream(response)
            assert (await stream.message()).comments == ["connected"]
            streams.append(stream)
        yield streams


async def test_open_streams_are_capped_per_client_address(settings: Settings, runtime: Runtime) -> None:
    app = create_app(limited(settings, max_streams_per_client=2), runtime)
    async with client_at(app, "10.0.0.7") as client:
        game_id = (await client.post("/api/games", json=TWO_SEATS)).json()["game_id"]
    async with serve(app) as url, httpx.AsyncClient(base_url=url, timeout=10) as http:
        async with open_streams(url, game_id, 2):
            assert_limited(await http.get(f"/api/games/{game_id}/stream"))
        async with open_streams(url, game_id, 2) as again:  # closed streams give their slots back
            assert len(again) == 2
            assert_limited(await http.get(f"/api/games/{game_id}/stream"))


@pytest.mark.parametrize("limit", ["rate_create_per_min", "rate_commands_per_min", "rate_reads_per_min",
                                   "max_streams_per_client", "max_body_bytes"])
def test_each_limit_is_set_from_the_environment(limit: str) -> None:
    from infra.config import _ENV, load

    assert load({_ENV[limit]: "7"}).__getattribute__(limit) == 7
