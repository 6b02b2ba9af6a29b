"""The lobby's one stream (``GET /api/tables/stream``): the games listed to join and to watch, and, for a signed-in
player, their own games and notices (what ``GET /api/me/stream`` sends), so the lobby holds one connection and asks
nothing again after being told.

The lists change with every move of every listed game, so they are not followed game by game: each API process
reads them at most once per :data:`LOBBY_EVERY_S` (:class:`LobbyBoard`), whatever the number of lobbies open, and a
stream sends them again only when they changed.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator
from typing import Any

import msgspec
from litestar import Controller, Request, get
from litestar.di import Provide
from litestar.middleware.rate_limit import get_remote_address
from litestar.response import ServerSentEvent, ServerSentEventMessage
from redis.exceptions import RedisError

from infra.errors import InfraError
from services.gameplay.inflight import InFlight
from services.gameplay.tables import Tables

from ..deps import AccountsDep, MyGamesDep, NotificationsDep, SettingsDep, TablesDep
from ..errors import documented
from ..held_stream import KEEP_ALIVE_S, RETRY_MS, HeldStream, Merged
from ..language import LanguageDep
from ..limits import StreamSlots
from ..my_feed import feed
from ..pages import public_url
from ..players import OptionalPlayerDep, provide_optional_player
from ..table_lists import open_tables, watched_tables
from ..table_schemas import TablesOut

log = logging.getLogger(__name__)

LOBBY_EVERY_S = 5.0
"""How often an API process reads the lobby's lists while a lobby is open."""
OPEN_MAX = 50
"""Games to join sent at most (``GET /api/tables/open``'s default)."""
WATCH_PAGE = 10
"""Games to watch sent (the first page; the page asks for more with ``GET /api/tables/live``)."""


class LobbyOut(msgspec.Struct, frozen=True):
    open: TablesOut
    """Games to join (``GET /api/tables/open``)."""
    live: TablesOut
    """The first page of games to watch (``GET /api/tables/live?limit=10``)."""


class LobbyBoard:
    """The lobby's lists as last read, read again at most once per :data:`LOBBY_EVERY_S` per process."""

    def __init__(self, every_s: float | None = None) -> None:
        self._every_s = every_s
        self._read_at = float("-inf")
        self._made: bytes | None = None
        self._making: InFlight[str, bytes] = InFlight()

    @property
    def every_s(self) -> float:
        return LOBBY_EVERY_S if self._every_s is None else self._every_s

    async def current(self, tables: Tables, base: str, *, fresh: bool = False) -> bytes:
        """The lists, read again if the last read is older than :attr:`every_s` (``fresh``: older than a tenth of
        it, for a lobby that just opened, as its first read used to be)."""
        age = self.every_s / 10 if fresh else self.every_s
        if self._made is not None and time.monotonic() - self._read_at < age:
            return self._made
        made, _ = await self._making.run("lobby", lambda: self._read(tables, base))
        return made

    async def _read(self, tables: Tables, base: str) -> bytes:
        lists = LobbyOut(await open_tables(tables, base, OPEN_MAX), await watched_tables(tables, base, WATCH_PAGE, 0))
        self._made, self._read_at = msgspec.json.encode(lists), time.monotonic()
        return self._made


async def lists(board: LobbyBoard, tables: Tables, base: str) -> AsyncIterator[ServerSentEventMessage]:
    """``tables`` (:class:`LobbyOut`) now and whenever the lists change; a keep-alive comment in long silences."""
    sent, said = None, time.monotonic()
    while True:
        now = await board.current(tables, base, fresh=sent is None)
        if now != sent:
            sent, said = now, time.monotonic()
            yield ServerSentEventMessage(data=now.decode(), event="tables")
        elif time.monotonic() - said >= KEEP_ALIVE_S:
            said = time.monotonic()
            yield ServerSentEventMessage(data=None, comment="keep-alive")
        await asyncio.sleep(board.every_s)


async def lobby_messages(sources: dict[str, AsyncIterator[ServerSentEventMessage]]
                         ) -> AsyncIterator[ServerSentEventMessage]:
    """The messages of every source as they come; ends (and the browser reconnects) when one ends or fails."""
    yield ServerSentEventMessage(data=None, comment="connected", retry=RETRY_MS)
    merged = Merged(dict(sources))
    try:
        while True:
            _, message = await merged.next()
            yield message
    except (InfraError, RedisError, StopAsyncIteration) as exc:
        log.warning("a lobby stream ended: %r", exc)
    finally:
        await merged.aclose()


class LobbyController(Controller):
    path = "/api/tables"
    tags = ("tables",)

    @get("/stream", summary="The lobby, live (Server-Sent Events)", media_type="text/event-stream",
         dependencies={"player": Provide(provide_optional_player)},
         responses=documented(s429="Too many open streams from this client address (rate/limited)"))
    async def stream(self, request: Request[Any, Any, Any], player: OptionalPlayerDep, tables: TablesDep,
                     settings: SettingsDep, mine: MyGamesDep, accounts: AccountsDep, notifications: NotificationsDep,
                     language: LanguageDep) -> ServerSentEvent:
        """``event: tables`` (``{"open", "live"}``: the bodies of ``GET /api/tables/open`` and of the first page of
        ``GET /api/tables/live?limit=10``) on connect and whenever they change; for a signed-in player also
        ``games`` and ``notices``, as ``GET /api/me/stream`` sends them."""
        slots: StreamSlots = request.app.state.stream_slots
        client = get_remote_address(request)
        slots.admit(client)
        base = public_url(settings)
        sources = {"tables": lists(request.app.state.lobby_board, tables, base)}
        if player is not None:
            sources["mine"] = feed(mine, accounts, player, base, (notifications, language))
        return ServerSentEvent(HeldStream(slots, client, lobby_messages(sources)))
