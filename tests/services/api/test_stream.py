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

from .sse import EventStream, Message
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


def _at_any_time(body: dict[str, Any]) -> dict[str, Any]:
    """A body without the server's clock reading (``table.now``)."""
    return {**body, "table": {k: v for k, v in body["table"].items() if k != "now"}}


async def _until(stream: EventStream, event: str) -> tuple[dict[str, Any], list[Message]]:
    """Every message up to the next ``event`` one; its data."""
    seen: list[Message] = []
    while True:
        message = await stream.message()
        seen.append(message)
        if message.event == event:
            return message.json(), seen


async def test_a_version_brings_its_history_and_the_seats_view_and_a_reconnect_resumes_game_and_chat(
    live_url: str, table: Table
) -> None:
    """One stream carries what the page shows: the new history lines in the reader's language, the public game and
    the seat's own view and legal commands, its events, the chat's lines (asked for with ``chat``); its ids order them
    all, and a stream opened again with the last id sends exactly what came after (a move and a chat line said while
    it was away)."""
    game = await table.create()
    mover = await table.seat_on_turn(game)
    watcher = 1 - mover
    start = (await table.read(game))["version"]
    headers = {**bearer(game.tokens[watcher]), "Accept-Language": "de"}
    async with httpx.AsyncClient(base_url=live_url, timeout=10, headers=headers) as http:
        async with http.stream("GET", f"/api/games/{game.id}/stream", params={"after": start, "chat": 0}
                               ) as response:
            stream = EventStream(response)
            await stream.message()
            version = (await table.submit(game, mover, {"type": "magnate.pass_bid"})).json()["version"]
            events, seen = await _until(stream, "events")
            assert [m.event for m in seen] == ["history", "state", "events"]
            assert [m.id for m in seen] == [None, None, str(version)]  # the id says the whole version arrived
            history, state = seen[0].json(), seen[1].json()
            assert history == (await http.get(f"/api/games/{game.id}/history", params={"after": start})).json()
            assert any("passt" in line["text"] for line in history["lines"])  # German, as the reader asked
            assert _at_any_time(state["me"]) == _at_any_time(await table.me(game, watcher)) and state["me"]["legal"]
            assert _at_any_time(state["game"]) == _at_any_time(await table.read(game))
            assert events["version"] == version
            posted = await http.post(f"/api/games/{game.id}/chat", json={"text": "hallo"})
            assert posted.status_code == 201, posted.text
            line, seen = await _until(stream, "chat")
            assert line["text"] == "hallo" and seen[-1].id == f"{version}.{line['seq']}"
            last = seen[-1].id
        # away: the other seat moves, and says something
        moved = (await table.submit(game, watcher, {"type": "magnate.pass_bid"})).json()["version"]
        answer = await table.client.post(f"/api/games/{game.id}/chat", json={"text": "back?"},
                                         headers=bearer(game.tokens[mover]))
        assert answer.status_code == 201, answer.text
        async with http.stream("GET", f"/api/games/{game.id}/stream", params={"after": 0, "chat": 0},
                               headers={"Last-Event-ID": str(last)}) as response:
            stream = EventStream(response)
            events, seen = await _until(stream, "events")
            assert [e["version"] for e in events["events"]] == list(range(version + 1, moved + 1))
            line, more = await _until(stream, "chat")
            assert line["text"] == "back?" and more[-1].id == f"{moved}.{line['seq']}"
        for wrong in ("x", "1.2.3", "-1"):
            refused = await http.get(f"/api/games/{game.id}/stream", headers={"Last-Event-ID": wrong})
            assert refused.status_code == 400


async def test_a_guest_seat_opens_its_stream_by_a_cookie_never_a_token_in_the_url(live_url: str, table: Table
                                                                                   ) -> None:
    game = await table.create()
    seat = 0
    async with httpx.AsyncClient(base_url=live_url, timeout=10) as http:
        kept = await http.post(f"/api/games/{game.id}/stream/seat", headers=bearer(game.tokens[seat]))
        assert kept.status_code == 204
        cookie = kept.headers["set-cookie"].lower()
        assert "httponly" in cookie and "samesite=strict" in cookie and f"path=/api/games/{game.id}/stream" in cookie
        async with http.stream("GET", f"/api/games/{game.id}/stream") as response:
            state, _ = await _until(EventStream(response), "state")
        assert state["me"] is not None and state["me"]["seat"] == seat
        refused = await http.post(f"/api/games/{game.id}/stream/seat", headers=bearer("nope"))
        assert refused.status_code == 401
    async with httpx.AsyncClient(base_url=live_url, timeout=10) as http, http.stream(
        "GET", f"/api/games/{game.id}/stream"
    ) as response:  # another browser: the public's stream
        state, _ = await _until(EventStream(response), "state")
    assert state["me"] is None
