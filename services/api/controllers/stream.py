"""Server-Sent Events: one message per new version of a game.

On connect the stream sends every event after ``Last-Event-ID`` (the header a browser's EventSource
sends when it reconnects) or ``?after=``; then, for each version announced on Redis, one ``events``
message whose ``id`` is the version and whose data is ``{"version", "events"}``. An announcement names
a version: when this process already holds the game at that version (it appended it, or another stream
or a command read it), the events come from memory; otherwise the stream reads the store, which also
brings anything a lost or merged announcement missed.

The streams of one API process share one Redis subscription (:mod:`infra.fanout`). A stream registers with
it before its first read, and re-reads the store when the subscription is confirmed (first made, or re-made
after Redis came back), so nothing announced between the first read and the subscription is missed. A
keep-alive re-reads only when the subscription did not hold throughout the silence.

A client address may hold at most ``max_streams_per_client`` streams open in one API process
(:class:`..limits.StreamSlots`); one more is a 429 with ``Retry-After``.

The streams of a game wake together at each announcement, most of them one version behind it with the same viewer
(the public, a seat's two tabs): :class:`SharedPages` makes each such message once — the events read, redacted for
the viewer and encoded — and hands the same bytes to every stream that asks for it (at 10,000 streams over 100
games, a hundred streams share each message).
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import AsyncIterator
from functools import partial
from typing import Annotated, Any, Protocol, runtime_checkable

import msgspec
from cachetools import LRUCache
from litestar import Controller, Request, get
from litestar.di import Provide
from litestar.middleware.rate_limit import get_remote_address
from litestar.params import FromPath, HeaderParameter, QueryParameter
from litestar.response import ServerSentEvent, ServerSentEventMessage
from redis.exceptions import RedisError

from domain.kernel import Viewer
from infra.errors import InfraError
from infra.notify import QUIET, Subscriber
from services.gameplay import Gameplay
from services.gameplay.accounts import Accounts
from services.gameplay.inflight import InFlight

from ..auth import SECURITY, provide_stream_seat
from ..deps import AccountsDep, GameplayDep, NewsDep, OptionalSeatDep
from ..errors import documented
from ..held_stream import KEEP_ALIVE_S, RETRY_MS, HeldStream
from ..limits import StreamSlots
from ..pages import events_page, viewer_of
from ..schemas import VERSION_MAX

log = logging.getLogger(__name__)

__all__ = ["KEEP_ALIVE_S", "RECHECK_S", "RETRY_MS", "HeldStream", "SharedPages", "StreamController", "messages"]

RECHECK_S = 30.0
"""However quiet the subscription says the game was, a stream reads the store after this long without a read: an
announcement lost between a commit and its publish (a worker killed, Redis away at that moment) then delays a page
by at most this, instead of leaving it waiting for a move it already missed (a game must never stall)."""


@runtime_checkable
class _Closing(Protocol):
    async def aclose(self) -> None: ...


class _Encoded(ServerSentEventMessage):
    """An ``events`` message encoded once, whichever stream sends it (Litestar encodes each message it is given)."""

    def __init__(self, data: str, version: int) -> None:
        super().__init__(data=data, event="events", id=version)
        self._encoded = super().encode()

    def encode(self) -> bytes:
        return self._encoded


Found = tuple[int, ServerSentEventMessage]
"""The version a message brings a stream to, and the message."""


class SharedPages:
    """The last messages made for announcements, by (game, version the stream had, viewer, version announced): a
    message for an announcement holds every event up to at least the announced version, so any stream at that
    version, with that viewer, can send it as it is."""

    KEPT = 4096

    def __init__(self) -> None:
        self._made: LRUCache[tuple[str, int, Viewer, int], Found | None] = LRUCache(maxsize=self.KEPT)
        self._making: InFlight[tuple[str, int, Viewer, int], Found | None] = InFlight()
        """Messages being made: the streams that wake together wait for the first one's (its read, its redaction)."""

    async def new_events(
        self, gameplay: Gameplay, game_id: str, after: int, viewer: Viewer, announced: int | None = None
    ) -> Found | None:
        """The events after ``after`` that ``viewer`` may see, as one message (id = the version they bring the game
        to), if any. ``announced``: the version an announcement named (None: re-read the store, never shared)."""
        if announced is None:
            return await _message(gameplay, game_id, after, viewer, None)
        if announced <= after:
            return None  # already sent (the announcement of a version this stream has passed)
        key = (game_id, after, viewer, announced)
        if key in self._made:
            return self._made[key]
        found, _ = await self._making.run(key, partial(_message, gameplay, game_id, after, viewer, announced))
        self._made[key] = found
        return found


async def _message(gameplay: Gameplay, game_id: str, after: int, viewer: Viewer, announced: int | None
                   ) -> Found | None:
    page = await events_page(gameplay.queries, game_id, after, viewer, announced)
    if not page.events:
        return None
    return page.version, _Encoded(msgspec.json.encode(page).decode(), page.version)


async def messages(
    gameplay: Gameplay, notifier: Subscriber, game_id: str, after: int, viewer: Viewer,
    presence: Accounts | None = None, pages: SharedPages | None = None,
) -> AsyncIterator[ServerSentEventMessage]:
    """The stream's messages; ends (and the browser reconnects) if the store or Redis fails. A seat's stream keeps
    the seat present (``presence``: email and push wait while it is open)."""
    yield ServerSentEventMessage(data=None, comment="connected", retry=RETRY_MS)
    pages = pages or SharedPages()
    ticks = notifier.listen(game_id, timeout_s=KEEP_ALIVE_S)  # before the first read: nothing falls between
    gameplay.queries.follow(game_id)
    here = None if presence is None or not isinstance(viewer, int) else (game_id, viewer, uuid.uuid4().hex)
    try:
        refreshed = read_at = time.monotonic()
        if here is not None and presence is not None:
            await presence.seat_here(*here)
        found = await pages.new_events(gameplay, game_id, after, viewer)
        if found is not None:
            after = found[0]
            yield found[1]
            found = None  # a catch-up can be long: not kept while the stream waits
        async for tick in ticks:
            if here is not None and presence is not None and time.monotonic() - refreshed >= KEEP_ALIVE_S:
                await presence.seat_here(*here)
                refreshed = time.monotonic()
            if tick is QUIET and time.monotonic() - read_at < RECHECK_S:  # silence, and nothing was announced
                yield ServerSentEventMessage(data=None, comment="keep-alive")
                continue
            announced = None if tick is QUIET else tick
            if announced is None:
                read_at = time.monotonic()
            found = await pages.new_events(gameplay, game_id, after, viewer, announced)
            if found is not None:
                after = found[0]
                yield found[1]
                found = None
            elif announced is None:
                yield ServerSentEventMessage(data=None, comment="keep-alive")
    except (InfraError, RedisError) as exc:
        log.warning("event stream of game %s ended: %s", game_id, exc)
    finally:
        gameplay.queries.unfollow(game_id)
        if isinstance(ticks, _Closing):  # first: leaving the subscription never waits, even when cancelled
            await ticks.aclose()
        if here is not None and presence is not None:
            await presence.seat_gone(*here)


class StreamController(Controller):
    path = "/api/games/{game_id:str}/stream"
    tags = ("games",)

    @get("/", summary="Server-Sent Events: one message per new version",
         dependencies={"seat": Provide(provide_stream_seat)}, security=[{}, *SECURITY],
         media_type="text/event-stream", responses=documented(
             400, 401, 404, s429="Too many requests, or too many open streams, from this client address "
                                 "(rate/limited); Retry-After says when to come back"))
    async def stream(
        self,
        request: Request[Any, Any, Any],
        game_id: FromPath[str],
        seat: OptionalSeatDep,
        gameplay: GameplayDep,
        news: NewsDep,
        accounts: AccountsDep,
        after: Annotated[int, QueryParameter(ge=0, le=VERSION_MAX, description="Send the events after this first.")
                         ] = 0,
        last_event_id: Annotated[int, HeaderParameter(name="Last-Event-ID", ge=0, le=VERSION_MAX, required=False,
                                                      description="Sent by a reconnecting EventSource: wins over "
                                                                  "`after`.")] = 0,
    ) -> ServerSentEvent:
        """The token (header, or ``?token=`` for EventSource) is optional: the log carries no secrets,
        but a wrong token is refused (``seat`` is resolved only for that). ``Last-Event-ID`` wins over
        ``after``; both default to 0. A client address may hold a limited number of streams open at once
        (per API process): one more is a 429."""
        await gameplay.loader.game_type(game_id)  # 404 now rather than a broken stream
        slots: StreamSlots = request.app.state.stream_slots
        client = get_remote_address(request)
        slots.admit(client)
        start = last_event_id or after  # an EventSource sends the last id it saw, a version >= 1
        events = messages(gameplay, news, game_id, start, viewer_of(seat), accounts,
                          request.app.state.stream_pages)
        return ServerSentEvent(HeldStream(slots, client, events))
