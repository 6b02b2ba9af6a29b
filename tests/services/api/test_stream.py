"""The event stream, over a real connection (uvicorn): catch-up, live versions, auth, clean-up."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from infra.fanout import Fanout
from services.api.controllers import stream as stream_module

from .sse import EventStream
from .table import Table, bearer


async def test_a_new_version_arrives_as_one_message(live_url: str, table: Table) -> None:
    game = await table.create()
    seat = await table.seat_on_turn(game)
    start = (await table.read(game))["version"]
    async with httpx.AsyncClient(base_url=live_url, timeout=10) as http, http.stream(
        "GET", f"/api/games/{game.id}/stream", params={"after": start, "token": game.tokens[seat]}
    ) as response:
        stream = EventStream(response)
        hello = await stream.message()
        assert hello.comments == ["connected"] and hello.retry is not None
        submitted = await table.submit(game, seat, {"type": "magnate.pass_bid"})
        assert submitted.status_code == 200
        version = submitted.json()["version"]
        message = await stream.events()
    assert message.id == str(version)
    assert message.json()["version"] == version
    assert message.json()["events"] == submitted.json()["events"]


async def test_on_connect_the_stream_catches_up_from_the_last_event_id(live_url: str, table: Table) -> None:
    game = await table.create()
    start = game.created["version"]
    await table.play_suggested(game)
    log = await table.log(game)
    async with httpx.AsyncClient(base_url=live_url, timeout=10) as http:
        for params, headers, after in [
            ({}, {}, 0),
            ({"after": 2}, {}, 2),
            ({"after": 0}, {"Last-Event-ID": str(start)}, start),  # the browser's reconnect header wins
        ]:
            async with http.stream("GET", f"/api/games/{game.id}/stream", params=params, headers=headers) as response:
                message = await EventStream(response).events()
            assert message.id == str(log[-1]["version"])
            assert message.json()["events"] == log[after:]


async def test_the_stream_refuses_a_bad_token_and_an_unknown_game(live_url: str, table: Table) -> None:
    game = await table.create()
    async with httpx.AsyncClient(base_url=live_url, timeout=10) as http:
        for request in [
            http.get(f"/api/games/{game.id}/stream", params={"token": "nope"}),
            http.get(f"/api/games/{game.id}/stream", headers=bearer("nope")),
        ]:
            response = await request
            assert response.status_code == 401
            assert response.json()["code"] == "auth/invalid_token"
        response = await http.get("/api/games/unknown/stream")
        assert response.status_code == 404
        assert response.json()["code"] == "game/not_found"


@contextlib.asynccontextmanager
async def _stream(live_url: str, game_id: str, after: int) -> AsyncIterator[EventStream]:
    """The game's stream from version ``after`` (no token: a spectator's), its first message (the hello) read."""
    async with httpx.AsyncClient(base_url=live_url, timeout=10) as http, http.stream(
        "GET", f"/api/games/{game_id}/stream", params={"after": after}
    ) as response:
        stream = EventStream(response)
        await stream.message()
        yield stream


async def test_a_stream_catches_a_move_whose_announcement_was_lost(
    live_url: str, table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A commit whose publish never happened (a worker killed between the two, Redis away at that moment): the
    subscription stays quiet, and the stream still reads the store after ``RECHECK_S`` and sends the move."""
    monkeypatch.setattr(stream_module, "KEEP_ALIVE_S", 0.2)
    monkeypatch.setattr(stream_module, "RECHECK_S", 0.5)
    heard = Fanout._heard

    def deaf(self: Fanout, message: dict[str, Any]) -> None:  # every announcement lost, subscriptions kept
        if message["type"] != "message":
            heard(self, message)

    monkeypatch.setattr(Fanout, "_heard", deaf)
    game = await table.create()
    seat = await table.seat_on_turn(game)
    start = (await table.read(game))["version"]
    async with _stream(live_url, game.id, start) as stream:
        submitted = await table.submit(game, seat, {"type": "magnate.pass_bid"})
        version = submitted.json()["version"]
        async with asyncio.timeout(5):
            assert (await stream.until_version(version))[-1].id == str(version)
