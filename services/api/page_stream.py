"""The messages of a game page's one stream, built once per (game, version, viewer class, language).

A new version of a game reaches a page as three named Server-Sent Events, in this order, so the page never reads a
route again after being told:

- ``history``: ``{"version", "lines"}``, the new lines of the story in the stream's language, each with its phrase
  (``GET /history``' body);
- ``state``: ``{"game", "me"}``, the public game (``GET /api/games/{id}``' body: status, whose turn, the table's
  clocks, the outcome) and, for a seat, its own view and legal commands (``GET /me``' body; null for the public);
- ``events``: ``{"version", "events"}``, the new events as the viewer may see them (``GET /events``' body), last.

On a push server's channel the three travel as one ``version`` message (:meth:`Built.as_one`).

:func:`build_messages` makes them for one viewer class (the public, or one seat: its hand, its sealed choices, its
legal commands) and one language, already encoded and without an ``id``: every stream of that viewer class and
language sends the same bytes (:class:`SharedPages`), and a push server can publish them as they are. The stream
(:mod:`.controllers.stream`) adds its ``id`` to the ``events`` message, the last of the version's, so an id means
"everything up to here arrived".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import msgspec
from cachetools import TTLCache
from litestar.response import ServerSentEventMessage

from domain.kernel import PUBLIC, Seat, Viewer, tag_of
from infra.accounts import Player
from services.gameplay import Gameplay
from services.gameplay.inflight import InFlight
from services.gameplay.moment import Moment, read_moment
from services.gameplay.story import NoNarrator, Stories
from services.gameplay.tables import Tables
from services.language.catalogs import Catalogs
from services.notifications.service import Notifications

from .clock_schemas import table_state
from .notification_schemas import NoticeOut, NoticesOut, out
from .pages import page_of
from .schemas import GameOut, HistoryOut, MeOut, PlayerOut

__all__ = ["Built", "PageMoment", "Part", "SharedPages", "Sources", "build_messages",
           "messages_of", "notices_message", "notices_messages", "page_state", "read_page_moment"]


class Part(msgspec.Struct, frozen=True):
    """One named message: its SSE ``event``, its JSON ``data``, and both encoded as an SSE message without ``id``."""

    event: str
    data: str
    encoded: bytes


def part(event: str, body: Any) -> Part:
    data = msgspec.json.encode(body).decode()
    return Part(event, data, f"event: {event}\r\ndata: {data}\r\n\r\n".encode())


class Built(msgspec.Struct, frozen=True):
    """The messages that bring a viewer's page from one version to ``version``."""

    version: int
    parts: tuple[Part, ...]

    def as_one(self) -> tuple[str, str]:
        """The parts as one ``version`` message, ``{"history": ..., "state": ..., "events": ...}`` (history absent
        for a game with no story): what a push server's channel carries, since each message there costs a publish
        per channel (in nchan's Redis mode, a script run in Redis each), three times fewer than one per part. The
        page takes it as its three messages in order."""
        return "version", "{" + ",".join(f'"{p.event}":{p.data}' for p in self.parts) + "}"


@dataclass(frozen=True)
class Sources:
    """What the messages are read from (the application services a controller is given)."""

    gameplay: Gameplay
    stories: Stories
    catalogs: Catalogs
    tables: Tables


class PageState(msgspec.Struct, frozen=True):
    game: GameOut
    me: MeOut | None


@dataclass(frozen=True)
class PageMoment:
    """A game read once at one version (:class:`~services.gameplay.moment.Moment`) with what every viewer's
    ``state`` shares: its table, its players, its clocks and the public game."""

    moment: Moment
    players: tuple[PlayerOut, ...]
    clocks: Any
    public: GameOut
    views: dict[Viewer, msgspec.Struct]
    """The views made so far: the public's and those of the seats read for (made together,
    :meth:`~domain.kernel.GameModule.view_each`), then any other seat's when first asked (:meth:`view_of`)."""

    def view_of(self, seat: Seat) -> msgspec.Struct:
        """``seat``'s view at this version, made once."""
        seen = self.views.get(seat)
        if seen is None:
            loaded = self.moment.loaded
            seen = self.views[seat] = self.moment.module.view(loaded.state, seat, False)
        return seen


async def read_page_moment(sources: Sources, game_id: str, after: int, announced: int | None = None,
                           viewers: Sequence[Viewer] = ()) -> PageMoment:
    """The one read every viewer class's messages of a version are made from (:func:`messages_of`); the views of
    the public and of the seats among ``viewers`` are made with it (those that will be asked: a page's stream asks
    for its own seat alone, the push server for every seat), any other seat's when asked."""
    gameplay = sources.gameplay
    moment = await read_moment(gameplay.queries, game_id, after, announced)
    loaded, game = moment.loaded, moment.module
    due = game.pending(loaded.state)
    table = await sources.tables.table_of(game_id)
    players = tuple(PlayerOut(s.seat, s.kind, s.name, s.payload, s.player_id is not None) for s in moment.seats)
    seats = len(game.seats(loaded.state))
    clocks = table_state(loaded.state, seats, gameplay.now_ms())
    made: list[Viewer] = [PUBLIC, *(v for v in viewers if isinstance(v, int) and 0 <= v < seats)]
    views = dict(zip(made, game.view_each(loaded.state, made, False), strict=True))
    public = GameOut(
        game_id=game_id, game_type=loaded.game_type, version=loaded.version,
        status="finished" if due.finished else "running", on_turn=tuple(int(s) for s in due.seats),
        system_job=tag_of(due.system) if due.system is not None else None,
        view=views[PUBLIC], players=players, title=game.title,
        outcome=game.outcome(loaded.state), host_seat=table.host_seat,
        rematch_id=table.rematch_id if due.finished else None, table=clocks)
    return PageMoment(moment, players, clocks, public, views)


def page_state(read: PageMoment, viewer: Viewer) -> PageState:
    """What a page shows of the game now: the public game, and a seat's own view and legal commands."""
    if not isinstance(viewer, int):
        return PageState(read.public, None)
    loaded, game, seat = read.moment.loaded, read.moment.module, Seat(viewer)
    me = MeOut(int(viewer), loaded.version, read.view_of(seat), tuple(game.legal_commands(loaded.state, seat)),
               read.players, read.clocks)
    return PageState(read.public, me)


async def build_messages(sources: Sources, game_id: str, after: int, viewer: Viewer, language: str,
                         announced: int | None = None) -> Built | None:
    """The messages that bring ``viewer``'s page (in ``language``) from version ``after`` to the game's current
    version, or None when there is nothing new. ``announced``: the version an announcement named (the events up to
    it may come from memory; None reads the store)."""
    read = await read_page_moment(sources, game_id, after, announced, (viewer,))
    built = await messages_of(sources, read, viewer, (language,))
    return None if built is None else built[language]


async def messages_of(sources: Sources, read: PageMoment, viewer: Viewer, languages: tuple[str, ...]
                      ) -> dict[str, Built] | None:
    """``viewer``'s messages in each of ``languages`` from one read: the events redacted and the state and the
    events encoded once for the viewer, only the story's lines once per language."""
    moment = read.moment
    page = page_of(moment.visible(sources.gameplay.queries, viewer))
    if not page.events:
        return None
    told: dict[str, Part] = {}
    try:
        version, lines = await sources.stories.told_in_each(sources.gameplay.queries, moment.game_id, moment.after,
                                                            viewer, sources.catalogs, languages, moment)
        told = {language: part("history", HistoryOut(version, tuple(lines[language]))) for language in languages}
    except NoNarrator:
        pass  # a game told by no narrator has no history panel
    rest = (part("state", page_state(read, viewer)),
            part("events", page))  # last: its id says the whole version arrived
    return {language: Built(page.version, (told[language], *rest) if language in told else rest)
            for language in languages}


class SharedPages:
    """The last messages made for announcements, by (game, version the stream had, viewer, language, version
    announced): a message for an announcement holds every event up to at least the announced version, so any stream
    at that version, with that viewer and language, can send it as it is. The game is read once for every viewer
    class and language of an announcement (:func:`read_page_moment`). Both are kept for ``kept_s`` seconds (the
    streams woken by one announcement ask within it), at most ``size`` of each."""

    def __init__(self, kept_s: float = 30.0, size: int = 4096) -> None:
        self._made: TTLCache[tuple[str, int, Viewer, str, int], Built | None] = TTLCache(size, kept_s)
        self._making: InFlight[tuple[str, int, Viewer, str, int], Built | None] = InFlight()
        """Messages being made: the streams that wake together wait for the first one's (its read, its redaction)."""
        self._read: TTLCache[tuple[str, int, int], PageMoment] = TTLCache(size, kept_s)
        self._reading: InFlight[tuple[str, int, int], PageMoment] = InFlight()

    async def new_messages(self, sources: Sources, game_id: str, after: int, viewer: Viewer, language: str,
                           announced: int | None = None) -> Built | None:
        """:func:`build_messages`, shared when an announcement named the version (None: re-read, never shared)."""
        if announced is None:
            return await build_messages(sources, game_id, after, viewer, language, None)
        if announced <= after:
            return None  # already sent (the announcement of a version this stream has passed)
        key = (game_id, after, viewer, language, announced)
        if key in self._made:
            return self._made[key]
        built, _ = await self._making.run(key, partial(self._build, sources, game_id, after, viewer, language,
                                                       announced))
        self._made[key] = built
        return built

    async def _build(self, sources: Sources, game_id: str, after: int, viewer: Viewer, language: str,
                     announced: int) -> Built | None:
        key = (game_id, after, announced)
        read = self._read.get(key)
        if read is None:
            read, _ = await self._reading.run(key, partial(read_page_moment, sources, game_id, after, announced,
                                                           (viewer,)))
            self._read[key] = read
        built = await messages_of(sources, read, viewer, (language,))
        return None if built is None else built[language]


async def notices_message(notifications: Notifications, player: Player, language: str) -> ServerSentEventMessage:
    """``notices``: the body of ``GET /api/me/notices``, so a page shows them without asking."""
    return (await notices_messages(notifications, player, (language,)))[language]


async def notices_messages(notifications: Notifications, player: Player, languages: Sequence[str]
                           ) -> dict[str, ServerSentEventMessage]:
    """:func:`notices_message` in each of ``languages``, the notices and the unread count read once."""
    listed = await notifications.notices_in(player.player_id, languages)
    unread = await notifications.unread(player.player_id)
    return {language: ServerSentEventMessage(data=msgspec.json.encode(NoticesOut(unread, out(
        listed[language], tuple[NoticeOut, ...]))).decode(), event="notices") for language in languages}
