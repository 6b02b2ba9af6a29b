"""Server-Sent Events: the game page's one stream, carrying everything the page shows as it changes.

For each new version of the game the stream sends the messages of :mod:`..page_stream` (``history``, ``state``,
then ``events``), the chat's new lines (``chat``, when asked for with ``?chat=``), and a signed-in player's games
and notices (``games``, ``notices``: what "My games"' stream sends); the ``events`` message of each version and each
chat line carry the stream's place as their ``id`` (:func:`position_of`: the version, and the chat's last line), so
a reconnecting EventSource (``Last-Event-ID``) resumes the game and the chat where it was, and a page never asks
again after being told.

On connect the stream sends what came after ``Last-Event-ID`` or ``?after=`` (and ``?chat=``); then the messages
of each version announced on Redis. An announcement names a version: when this process already holds the game at
that version (it appended it, or another stream or a command read it), the events come from memory; otherwise the
stream reads the store, which also brings anything a lost or merged announcement missed.

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

import contextlib
import logging
import time
import uuid
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from functools import partial
from typing import Annotated, Any

import msgspec
from litestar import Controller, Request, Response, get, post
from litestar.datastructures import Cookie
from litestar.di import Provide
from litestar.middleware.rate_limit import get_remote_address
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import FromPath, FromQuery, HeaderParameter, QueryParameter
from litestar.response import ServerSentEvent, ServerSentEventMessage
from redis.exceptions import RedisError

from domain.kernel import Viewer
from infra.accounts import Player
from infra.errors import InfraError, SeatTaken
from infra.notify import QUIET, Subscriber
from services.gameplay.accounts import Accounts
from services.gameplay.chat import MUTES, Chat
from services.notifications.service import Notifications

from ..auth import SECURITY, bearer_token, provide_seat, provide_stream_seat, seat_of, session_seat
from ..chat_schemas import ChatOut
from ..deps import (
    AccountsDep,
    ChatDep,
    GameplayDep,
    MyGamesDep,
    NewsDep,
    NotificationsDep,
    OptionalSeatDep,
    SeatDep,
    SettingsDep,
    StoriesDep,
    TablesDep,
)
from ..errors import ApiError, documented
from ..held_stream import KEEP_ALIVE_S, RETRY_MS, HeldStream, Merged
from ..language import CatalogsDep, LanguageDep
from ..limits import StreamSlots
from ..my_feed import feed
from ..page_stream import SharedPages, Sources, notices_message
from ..pages import public_url, viewer_of
from ..players import OptionalPlayerDep, provide_optional_player, session_player_id
from ..schemas import VERSION_MAX
from ..seat_access import SEAT_COOKIE

SEQ_MAX = 2**31 - 1

log = logging.getLogger(__name__)

__all__ = ["KEEP_ALIVE_S", "RECHECK_S", "RETRY_MS", "Hearing", "HeldStream", "SharedPages", "StreamController",
           "Viewing", "messages", "parse_position", "position_of"]

RECHECK_S = 30.0
"""However quiet the subscription says the game was, a stream reads the store after this long without a read: an
announcement lost between a commit and its publish (a worker killed, Redis away at that moment) then delays a page
by at most this, instead of leaving it waiting for a move it already missed (a game must never stall)."""


Raw = tuple[bytes, str]
"""A message encoded without its ``id``, and its event name."""


class _Sent(ServerSentEventMessage):
    """A message built once (:class:`..page_stream.Part`), sent as it is or with this stream's ``id`` put before it."""

    def __init__(self, raw: Raw, position: str | None = None) -> None:
        super().__init__(data=None, event=raw[1], id=position)
        self._encoded = raw[0] if position is None else f"id: {position}\r\n".encode() + raw[0]

    def encode(self) -> bytes:
        return self._encoded


def _raw(event: str, body: Any) -> Raw:
    return f"event: {event}\r\ndata: {msgspec.json.encode(body).decode()}\r\n\r\n".encode(), event


def position_of(version: int, chat: int) -> str:
    """A stream's place, its messages' ``id``: the game's version and the chat's last line (``12``, ``12.3``): both
    only grow, so the id orders every message of the stream, and a reconnecting EventSource resumes both."""
    return str(version) if chat == 0 else f"{version}.{chat}"


def parse_position(text: str) -> tuple[int, int]:
    version, _, chat = text.partition(".")
    return int(version), int(chat or 0)


@dataclass
class Viewing:
    """Who a stream is for: the viewer class its messages are built for, its language, and (for presence, chat
    and notices) the seat and the signed-in player."""

    viewer: Viewer
    language: str
    player: Player | None = None


@dataclass
class Hearing:
    """What a stream hears besides its game: the chat (``chat``), and a signed-in player's games and notices
    (``player``: "My games"' own messages, :func:`..my_feed.feed`; ``notifications``: the notices again when a stream
    resumes)."""

    chat: Chat | None = None
    player: Callable[[], AsyncIterator[ServerSentEventMessage]] | None = None
    notifications: Notifications | None = None


class _Place:
    """A stream's place (the version and the chat line it reached) and how it answers what it hears."""

    def __init__(self, sources: Sources, game_id: str, after: int, chat_after: int, viewing: Viewing,
                 hearing: Hearing, pages: SharedPages) -> None:
        self.sources, self.game_id, self.viewing, self.hearing, self.pages = sources, game_id, viewing, hearing, pages
        self.after, self.chat_after = after, chat_after
        self.seat = viewing.viewer if isinstance(viewing.viewer, int) else None
        self.read_at = time.monotonic()

    def sources_heard(self, notifier: Subscriber) -> dict[str, AsyncIterator[Any]]:
        heard: dict[str, AsyncIterator[Any]] = {"game": notifier.listen(self.game_id, timeout_s=KEEP_ALIVE_S)}
        if self.hearing.chat is not None:
            heard["chat"] = self.hearing.chat.listen(self.game_id, KEEP_ALIVE_S)
        if self.viewing.player is not None and self.hearing.player is not None:
            heard["player"] = self.hearing.player()
        return heard

    async def heard(self, source: str, tick: Any) -> list[ServerSentEventMessage] | None:
        """What to send for what was heard (None: a keep-alive)."""
        if source == "chat":
            return await self.chat(tick)
        if source == "player":  # the player's games or notices, as they are; not its hello nor its keep-alives
            return [] if tick.comment is not None else [tick]
        if tick is QUIET and time.monotonic() - self.read_at < RECHECK_S:  # silence, and nothing was announced
            return None
        announced = None if tick is QUIET else tick
        if announced is None:
            self.read_at = time.monotonic()
        sent = await self.game(announced)
        return None if not sent and announced is None else sent

    def position(self) -> str:
        return position_of(self.after, self.chat_after)

    async def game(self, announced: int | None) -> list[ServerSentEventMessage]:
        built = await self.pages.new_messages(self.sources, self.game_id, self.after, self.viewing.viewer,
                                              self.viewing.language, announced)
        if built is None:
            return []
        self.after = built.version
        return _stamped([(p.encoded, p.event) for p in built.parts], self.position())

    async def chat(self, tick: tuple[str, bytes] | None) -> list[ServerSentEventMessage]:
        if self.hearing.chat is None:
            return []
        whole = tick is not None and tick[1] == MUTES.encode()
        view = await self.hearing.chat.read(self.game_id, 0 if whole else self.chat_after, self.seat)
        if view.lines:
            self.chat_after = max(self.chat_after, view.lines[-1].seq)
        if whole:
            return [_Sent(_raw("mutes", ChatOut(self.game_id, view.lines, view.muted, view.host_seat)),
                          self.position())]
        return [_Sent(_raw("chat", line), position_of(self.after, line.seq)) for line in view.lines]

    async def notices(self) -> list[ServerSentEventMessage]:
        player, notifications = self.viewing.player, self.hearing.notifications
        if player is None or notifications is None:
            return []
        told = await notices_message(notifications, player, self.viewing.language)
        return [ServerSentEventMessage(data=told.data, event=told.event, id=self.position())]


class _Presence:
    """Keeps a seat's presence while its stream is open: email and push wait (a signed-in player's: the player's
    feed keeps it)."""

    def __init__(self, presence: Accounts | None, game_id: str, place: _Place) -> None:
        connection = uuid.uuid4().hex
        self.presence = presence
        self.seat = None if place.seat is None else (game_id, place.seat, connection)
        self.refreshed = 0.0

    async def here(self, every_s: float = 0.0) -> None:
        if self.presence is None or time.monotonic() - self.refreshed < every_s:
            return
        self.refreshed = time.monotonic()
        if self.seat is not None:
            await self.presence.seat_here(*self.seat)

    async def gone(self) -> None:
        if self.presence is None:
            return
        if self.seat is not None:
            await self.presence.seat_gone(*self.seat)


async def messages(
    sources: Sources, notifier: Subscriber, game_id: str, after: int, viewing: Viewing,
    presence: Accounts | None = None, pages: SharedPages | None = None, *, hearing: Hearing | None = None,
    chat_after: int = 0, resumed: bool = False,
) -> AsyncIterator[ServerSentEventMessage]:
    """The stream's messages; ends (and the browser reconnects) if the store or Redis fails. A seat's stream keeps
    the seat present, a signed-in player's the player (``presence``). ``hearing``: the chat's lines (``chat``, and
    ``mutes`` with the whole chat when the host mutes or unmutes a seat) and the player's notices (``notices``: the
    body of ``GET /api/me/notices`` whenever one arrives, and on a ``resumed`` connection) come on it too."""
    yield ServerSentEventMessage(data=None, comment="connected", retry=RETRY_MS)
    place = _Place(sources, game_id, after, chat_after, viewing, hearing or Hearing(), pages or SharedPages())
    merged = Merged(place.sources_heard(notifier))  # before the first read: nothing falls between
    sources.gameplay.queries.follow(game_id)
    present = _Presence(presence, game_id, place)
    try:
        await present.here()
        for message in [*await place.game(None), *await place.chat(None)]:
            yield message  # a catch-up can be long: its list is not kept while the stream waits
        if resumed:
            for message in await place.notices():
                yield message
        while True:
            source, tick = await merged.next()
            await present.here(KEEP_ALIVE_S)
            sent = await place.heard(source, tick)
            if sent is None:  # silence
                yield ServerSentEventMessage(data=None, comment="keep-alive")
                continue
            for message in sent:
                yield message
            del sent
    except (InfraError, RedisError, StopAsyncIteration) as exc:
        log.warning("event stream of game %s ended: %r", game_id, exc)
    finally:
        sources.gameplay.queries.unfollow(game_id)
        await merged.aclose()  # first: leaving the subscriptions never waits, even when cancelled
        await present.gone()


def _stamped(sent: list[Raw], position: str) -> list[ServerSentEventMessage]:
    """A version's messages; the last one (``events``) carries the stream's place (``id``): all of them arrived."""
    return [_Sent(raw, position if i == len(sent) - 1 else None) for i, raw in enumerate(sent)]


Position = Annotated[str | None, HeaderParameter(
    name="Last-Event-ID", pattern=r"^[0-9]{1,10}(\.[0-9]{1,10})?$", required=False,
    description="Sent by a reconnecting EventSource (the last message's `id`: the version, and `.` the chat's last "
                "line when there is one): wins over `after` and `chat`.")]


"""The cookie that lets a guest's EventSource (which sends no header) open the stream as its seat: the seat's token,
set by ``POST .../stream/seat`` with the token as a bearer, HttpOnly and only sent to this game's stream, so the
token is never in a URL the server or a proxy logs."""


async def provide_page_seat(request: Request[Any, Any, Any], game_id: FromPath[str], gameplay: GameplayDep,
                            token: FromQuery[str | None] = None) -> int | None:
    """The stream's seat: a bearer token or ``?token=`` (a wrong one refused), else the seat kept for this browser
    (:data:`SEAT_COOKIE`; one given up, revoked or claimed since is not used), else the session's, else none."""
    if bearer_token(request) or token:
        return await provide_stream_seat(request, game_id, gameplay, token)
    kept = request.cookies.get(SEAT_COOKIE)
    if kept:
        with contextlib.suppress(ApiError, SeatTaken):
            return await seat_of(gameplay, game_id, kept)
    return await session_seat(request, gameplay, game_id)


PUSH_HEADER = "x-magnate-push"
"""Set by nginx with nchan on every request it passes to the API (``infra/nchan/nginx.conf.template``): the page was
served through it, so its stream may be nchan's (the same origin)."""


BACK_MAX_S = 600
"""The most a page may ask nchan to send again (its channels keep messages for 10 minutes)."""


def push_prefix(game_id: str) -> str:
    """Where nchan's subscriber locations of a game are (``infra/nchan/nginx.conf.template``)."""
    return f"/push/games/{game_id}/"


class StreamAddressOut(msgspec.Struct, frozen=True):
    kind: str
    """``python`` (the API's stream: ``?after=``, ``?chat=`` and its ids resume it) or ``nchan``."""
    url: str
    """The path to open (same origin as the page)."""
    renew_s: int = 0
    """``nchan``: after how many seconds the page ends its subscription and opens the next one, resuming after the
    last message it saw (``?last_event_id=``): each subscription marks the seat present for a while; nginx ends none
    itself (``MAGNATE_NCHAN_SUBSCRIPTION_S``). 0: the stream is held for as long as the page is open."""


class StreamController(Controller):
    path = "/api/games/{game_id:str}/stream"
    tags = ("games",)

    @get("/", summary="Server-Sent Events: everything a game page shows, as it changes",
         dependencies={"seat": Provide(provide_page_seat), "player": Provide(provide_optional_player)},
         security=[{}, *SECURITY], media_type="text/event-stream", responses=documented(
             400, 401, 404, s429="Too many requests, or too many open streams, from this client address "
                                 "(rate/limited); Retry-After says when to come back"))
    async def stream(
        self,
        request: Request[Any, Any, Any],
        game_id: FromPath[str],
        seat: OptionalSeatDep,
        player: OptionalPlayerDep,
        gameplay: GameplayDep,
        news: NewsDep,
        accounts: AccountsDep,
        stories: StoriesDep,
        catalogs: CatalogsDep,
        language: LanguageDep,
        tables: TablesDep,
        chat: ChatDep,
        mine: MyGamesDep,
        notifications: NotificationsDep,
        settings: SettingsDep,
        after: Annotated[int, QueryParameter(ge=0, le=VERSION_MAX, description="Send what came after this version "
                                                                               "first.")] = 0,
        chat_after: Annotated[int | None, QueryParameter(
            name="chat", ge=0, le=SEQ_MAX, required=False,
            description="Carry the chat too, from the line after this one (a page that shows no chat leaves it out: "
                        "its stream then holds no connection for the chat).")] = None,
        last_event_id: Position = None,
    ) -> ServerSentEvent:
        """Everything the game page shows, as named messages: for each new version ``events`` (the events the
        caller may see), ``history`` (the new lines of the story, in the caller's language) and ``state`` (the
        public game and, for a seat, its own view and legal commands), the last one with ``id`` = the stream's place;
        ``chat`` for each new line of the chat, ``mutes`` (the whole chat) when the host mutes or unmutes a seat;
        and, for a signed-in player, ``notices`` (the body of ``GET /api/me/notices``) when one arrives. The
        token (header, or ``?token=`` for EventSource) or the session picks the seat; a wrong token is refused.
        A client address may hold a limited number of streams open at once (per API process): one more is a 429."""
        await gameplay.loader.game_type(game_id)  # 404 now rather than a broken stream
        slots: StreamSlots = request.app.state.stream_slots
        client = get_remote_address(request)
        slots.admit(client)
        told = partial(feed, mine, accounts, player, public_url(settings), (notifications, language)) \
            if player is not None else None
        hearing = Hearing(chat if chat_after is not None else None, told, notifications)
        if last_event_id:
            after, chat_at = parse_position(last_event_id)
            chat_after = chat_at if chat_after is not None else None
        viewing = Viewing(viewer_of(seat), language, player)
        events = messages(Sources(gameplay, stories, catalogs, tables), news, game_id, after, viewing, accounts,
                          request.app.state.stream_pages, hearing=hearing, chat_after=chat_after or 0,
                          resumed=bool(last_event_id))
        return ServerSentEvent(HeldStream(slots, client, events))

    @post("/seat", status_code=204, summary="Open this game's stream as the caller's seat in this browser",
          dependencies={"seat": Provide(provide_seat)}, security=SECURITY,
          responses={**documented(400, 401, 403, 404), 204: ResponseSpec(None, description="The cookie is set")})
    async def keep_seat(self, request: Request[Any, Any, Any], game_id: FromPath[str], seat: SeatDep,
                        settings: SettingsDep) -> Response[None]:
        """An EventSource sends no ``Authorization`` header: with the seat's token as a bearer, this sets a cookie
        (HttpOnly, SameSite=Strict, sent only to this game's stream, and with ``MAGNATE_PUSH=nchan`` to its push
        location ``/push/games/<id>/``) that opens the stream as that seat; with the session (a signed-in player's
        own seat) it clears that cookie, the session being enough."""
        path = request.url.path.removesuffix("/seat")
        token = bearer_token(request)
        secure = settings.secure_cookies or (settings.public_url or "").lower().startswith("https://")
        paths = [path, *([push_prefix(game_id)] if settings.push == "nchan" else [])]  # nchan's location too
        cookies = [Cookie(key=SEAT_COOKIE, value=token or "", path=at, httponly=True, samesite="strict",
                          secure=secure, max_age=None if token else 0) for at in paths]
        return Response(None, status_code=204, cookies=cookies)

    @get("/address", summary="Where this page's one stream is: the API's, or the push server's",
         dependencies={"seat": Provide(provide_page_seat)}, security=[{}, *SECURITY],
         responses=documented(400, 401, 404))
    async def address(
        self, request: Request[Any, Any, Any], game_id: FromPath[str], seat: OptionalSeatDep, gameplay: GameplayDep,
        language: LanguageDep, settings: SettingsDep,
        back: Annotated[int, QueryParameter(ge=0, le=BACK_MAX_S, description=(
            "How many seconds ago the page began reading the game: nchan's channel sends it again what was "
            "published since (the page drops what it holds by the versions), so nothing falls between its reads "
            "and its subscription."))] = 0,
    ) -> StreamAddressOut:
        """The address of the caller's stream of this game (its seat: the seat cookie, the session, or none): the
        API's own (``GET .../stream``, ``python``) or, when the site is served through nginx with nchan
        (``MAGNATE_PUSH=nchan``, the request came through it), the channel of the caller's viewer class in its
        language (``nchan``; with a signed-in player's own channel beside it, their games and notices), from the
        messages published in the last ``back`` seconds (``?last_event_id=``: nchan's message ids begin with their
        time), renewed by the page every ``renew_s`` seconds."""
        await gameplay.loader.game_type(game_id)  # 404 for a game that does not exist
        if settings.push != "nchan" or request.headers.get(PUSH_HEADER) != "nchan":
            return StreamAddressOut("python", f"/api/games/{game_id}/stream")
        viewer = f"seat/{seat}" if seat is not None else "public"
        player_id = session_player_id(request)
        mine = f"/player/{player_id}" if player_id else ""  # a signed-in player's games and notices beside it
        since = f"?last_event_id={gameplay.now_ms() // 1000 - back}:0" if back else ""
        return StreamAddressOut("nchan", f"{push_prefix(game_id)}{viewer}/{language}{mine}{since}",
                                settings.nchan_subscription_s)
