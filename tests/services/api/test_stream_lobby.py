"""The lobby's one stream: the games listed to join and to watch, now and when they change (read at most once per
period by an API process, whatever the number of lobbies open)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from services.api.controllers import lobby as lobby_module
from services.api.controllers.lobby import LobbyBoard

from .sse import EventStream
from .table import Table, game_body


async def _listed(table: Table, name: str) -> str:
    body = {**game_body([{"kind": "human", "name": name}, {"kind": "human"}]), "listed": True}
    created = await table.client.post("/api/games", json=body)
    assert created.status_code == 201, created.text
    game_id: str = created.json()["game_id"]
    return game_id


async def _tables(stream: EventStream) -> dict[str, Any]:
    while (message := await stream.message()).event != "tables":
        pass
    return message.json()


async def test_the_lobby_stream_sends_the_lists_and_again_when_a_game_is_listed(
    live_url: str, table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lobby_module, "LOBBY_EVERY_S", 0.2)
    first = await _listed(table, "Ada")
    async with httpx.AsyncClient(base_url=live_url, timeout=10) as http, http.stream(
        "GET", "/api/tables/stream"
    ) as response:
        stream = EventStream(response)
        lists = await _tables(stream)
        assert first in [g["game_id"] for g in lists["open"]["games"]]
        assert first in [g["game_id"] for g in lists["live"]["games"]]
        assert lists["open"] == (await http.get("/api/tables/open")).json()
        second = await _listed(table, "Bea")
        while second not in [g["game_id"] for g in (await _tables(stream))["open"]["games"]]:
            pass


async def test_lobbies_share_one_read_per_period(table: Table) -> None:
    board, reads = LobbyBoard(every_s=60), []
    tables = table.runtime.tables
    real = tables.open_tables

    async def counted(limit: int) -> Any:
        reads.append(limit)
        return await real(limit)

    tables.open_tables = counted  # type: ignore[method-assign]
    try:
        made = {await board.current(tables, "http://x") for _ in range(20)}
    finally:
        tables.open_tables = real  # type: ignore[method-assign]
    assert len(made) == 1 and len(reads) == 1
