"""The publisher of the game pages' messages to nchan (``MAGNATE_PUSH=nchan``; docs/SCALING.md, "A push server").

One small process per deployment (``python -m services.pusher``, started by the supervisor beside nginx): it hears
every append on the deployment's news channel (``<game_id> <version>``, :mod:`infra.news`) and every chat
announcement (:func:`infra.chat.base.chat_channel`), and publishes what the game page's one stream would send
(:mod:`services.api.page_stream`) to nchan's channels (:mod:`infra.nchan.publisher`), one per (game, viewer class,
language): for each new version one ``version`` message holding ``history`` (the story's new lines, in the
channel's language), ``state`` (the public game and the seat's own view and legal commands) and ``events`` (the
events as that viewer may see them), the API's stream's three messages in one
(:meth:`..api.page_stream.Built.as_one`: in nchan's Redis mode each message costs a script run in Redis per channel,
and nchan's publishing took three quarters of Redis's time in the capacity run); for the chat ``chat`` (each new
line: a muted seat's only on the host's channels) and ``mutes`` (the whole chat); and to each signed-in player's own
channel their games and notices (:mod:`services.pusher_players`). A version is read once for every viewer class
(:func:`..api.page_stream.read_page_moment`), each viewer class's messages built once, only the story's lines once
per language, and sent once per channel, whatever the number of pages, API processes or nginx boxes.

Why a channel per language rather than words rendered by the page: the story's lines are told by each game's
catalogs on the server (the page carries only the shell's words), and a service speaks a handful of languages, so a
version costs a few renderings of its new lines, never one per page.

Why a process of its own rather than a hunk in the append path: appends happen in the API processes (the players'
commands) and in the workers (the computer's turns, the timers), several of each; the news channel already names
every one of them, so one listener publishes each version exactly once without touching the append, and its cost
(the reads, the redactions, the POSTs) is kept off the processes that answer players. A pusher that restarts
publishes a game's whole log once in its first message (it no longer knows what it sent); a page drops what it
already holds by the versions. A lost announcement (the news is pub/sub) is caught up by the next one of the
game, which carries every event since the last published message, and on each (re)subscription every game it
knows is checked against the store.
"""

from __future__ import annotations

import asyncio
import logging
import signal
from collections import defaultdict
from collections.abc import Mapping, Sequence

import msgspec
from cachetools import LRUCache
from redis.asyncio import Redis
from redis.exceptions import RedisError

from domain.kernel import PUBLIC, Seat, Viewer
from infra.chat.base import chat_channel
from infra.config import Settings, load
from infra.errors import InfraError
from infra.nchan.publisher import MANY, NchanPush, Push, public_channel, seat_channel
from infra.news import news_channel
from infra.notify import player_channel
from services.api.chat_schemas import ChatOut
from services.api.page_stream import Sources, messages_of, read_page_moment
from services.api.pages import public_url
from services.gameplay.bootstrap import build
from services.gameplay.chat import MUTES, Chat
from services.gameplay.story import Stories
from services.language.catalogs import catalogs_for
from services.pusher_players import PlayerFeeds

log = logging.getLogger("magnate.pusher")

KEPT_GAMES = 100_000
"""Games whose last published version the pusher remembers (the least recently moved are forgotten)."""
CHATS = chat_channel("*")
"""Every game's chat announcements (a pattern subscription)."""
PLAYERS = player_channel("*")
"""Every player's announcements (a notice, their games changed)."""


def pusher_name(queue_name: str) -> str:
    """The Redis client name of a deployment's pusher (its news subscription: the supervisor waits for it)."""
    return f"magnate-pusher:{queue_name}"


def channel_of(game_id: str, viewer: Viewer, language: str) -> str:
    return public_channel(game_id, language) if viewer == PUBLIC else seat_channel(game_id, int(viewer), language)


class Pusher:
    """Publishes each new version of a game once per viewer class and language, and each chat line; games are
    handled concurrently, one game's versions in order (a version announced while the game's last one is being
    published joins the next message), its chat likewise."""

    def __init__(self, sources: Sources, push: Push, chat: Chat | None = None, feeds: PlayerFeeds | None = None
                 ) -> None:
        self.sources = sources
        self.feeds = feeds
        self.gameplay = sources.gameplay
        self.push = push
        self.chat = chat
        self.languages = tuple(sources.catalogs.languages)
        self.published: LRUCache[str, int] = LRUCache(maxsize=KEPT_GAMES)
        self.chatted: LRUCache[str, int] = LRUCache(maxsize=KEPT_GAMES)
        self._seats: LRUCache[str, tuple[int, ...]] = LRUCache(maxsize=KEPT_GAMES)
        self._wanted: dict[str, int] = {}
        self._told: dict[str, tuple[int, bool]] = {}
        self._running: dict[str, asyncio.Task[None]] = {}

    def announced(self, game_id: str, version: int) -> None:
        self._wanted[game_id] = max(self._wanted.get(game_id, 0), version)
        self._start(game_id)

    def chatted_in(self, game_id: str, said: str) -> None:
        """A chat announcement: a new line's number, or :data:`MUTES` (the host muted or unmuted a seat)."""
        if self.chat is None or not (said.isdigit() or said == MUTES):
            return
        line, mutes = self._told.get(game_id, (0, False))
        self._told[game_id] = (max(line, int(said)) if said.isdigit() else line, mutes or said == MUTES)
        self._start(game_id)

    def _start(self, game_id: str) -> None:
        if game_id not in self._running:
            self._running[game_id] = asyncio.create_task(self._drain(game_id))

    async def idle(self) -> None:
        """Wait until every announced version is published (or failed)."""
        while self._running:
            await asyncio.gather(*self._running.values(), return_exceptions=True)
        if self.feeds is not None:
            await self.feeds.idle()

    async def catch_up(self) -> None:
        """Announcements may have been missed (the subscription was re-made): check every game known."""
        for game_id in list(self.published):
            try:
                head = await self.gameplay.queries.head(game_id)
            except InfraError:
                continue
            self.announced(game_id, head.version)

    async def _drain(self, game_id: str) -> None:
        try:
            while game_id in self._wanted or game_id in self._told:
                version = self._wanted.pop(game_id, None)
                told = self._told.pop(game_id, None)
                try:
                    if version is not None:
                        await self.publish(game_id, version)
                    if told is not None:
                        await self.publish_chat(game_id, *told)
                except (InfraError, RedisError) as exc:
                    log.warning("push of game %s (version %s, chat %s) failed: %s", game_id, version, told, exc)
        finally:
            del self._running[game_id]

    async def _viewers(self, game_id: str) -> Sequence[Viewer]:
        seats = self._seats.get(game_id)
        if seats is None:  # a game's seats are fixed when it is created
            seats = self._seats[game_id] = tuple(s.seat for s in await self.gameplay.queries.seats(game_id))
        return [PUBLIC, *(Seat(seat) for seat in seats)]

    async def _send(self, plan: Mapping[str, Sequence[tuple[str, str]]]) -> None:
        """Each channel's messages in order (a page takes a version's messages as one when its events arrive), the
        same bytes posted once to every channel that gets them at that place (the languages of a viewer class share
        its state and events, the seats most of the chat)."""
        for place in range(max((len(parts) for parts in plan.values()), default=0)):
            alike: dict[tuple[str, str], list[str]] = defaultdict(list)
            for channel, parts in plan.items():
                if place < len(parts):
                    alike[parts[place]].append(channel)
            await asyncio.gather(*(self.push.publish_to(channels[at:at + MANY], data, event)
                                   for (event, data), channels in alike.items()
                                   for at in range(0, len(channels), MANY)))

    async def publish(self, game_id: str, version: int) -> None:
        """Each viewer class's messages (:func:`..api.page_stream.messages_of`, all from one
        :func:`..api.page_stream.read_page_moment`, whose seats also name the players whose games changed) from the
        last published version (the whole log for a game this pusher has not published yet) to every language's
        channel; the version is recorded only when every channel took its messages (a failure is sent again with the
        next one)."""
        after = self.published.get(game_id, 0)
        if version <= after:
            return
        plan: dict[str, list[tuple[str, str]]] = {}
        reached = after
        viewers = await self._viewers(game_id)
        read = await read_page_moment(self.sources, game_id, after, version, viewers)  # one read for every viewer
        for viewer in viewers:
            built = await messages_of(self.sources, read, viewer, self.languages)
            for language, messages in (built or {}).items():
                reached = max(reached, messages.version)
                plan[channel_of(game_id, viewer, language)] = [messages.as_one()]
        await self._send(plan)
        self.published[game_id] = reached
        if self.feeds is not None:  # the seated players' games changed
            self.feeds.moved([s.player_id for s in read.moment.seats if s.player_id])

    async def publish_chat(self, game_id: str, line: int, mutes: bool) -> None:
        """The chat's new lines (after the last published, or after the one before the announced line for a game
        this pusher has not published yet) as ``chat`` messages, or the whole chat as ``mutes``: a muted seat's
        lines only to the host's channels, as the Python stream sends them."""
        assert self.chat is not None
        after = self.chatted.get(game_id, max(0, line - 1))
        if not mutes and line <= after:
            return
        viewers = await self._viewers(game_id)
        host = await self.gameplay.queries.host_seat(game_id)
        views = {seat: await self.chat.read(game_id, 0 if mutes else after, seat) for seat in {None, host}}
        plan: dict[str, list[tuple[str, str]]] = {}
        for viewer in viewers:
            seat = host if viewer != PUBLIC and int(viewer) == host else None
            view = views[seat]
            parts = ([("mutes", msgspec.json.encode(ChatOut(game_id, view.lines, view.muted, host)).decode())]
                     if mutes else [("chat", msgspec.json.encode(item).decode()) for item in view.lines
                                    if item.seq > after])
            plan.update({channel_of(game_id, viewer, language): parts for language in self.languages})
        await self._send(plan)
        seen = [item.seq for view in views.values() for item in view.lines]
        self.chatted[game_id] = max([after, line, *seen])


async def listen(redis: Redis, channel: str, pusher: Pusher, stop: asyncio.Event) -> None:
    """Hear the news and the chats until ``stop``; a (re)subscription is followed by a catch-up."""
    chats, players = CHATS.removesuffix("*"), PLAYERS.removesuffix("*")
    while not stop.is_set():
        pubsub = redis.pubsub()
        try:
            await pubsub.psubscribe(CHATS, *([PLAYERS] if pusher.feeds is not None else []))
            await pubsub.subscribe(channel)
            while not stop.is_set():
                message = await pubsub.get_message(timeout=1.0)
                if message is None:
                    continue
                if message["type"] == "subscribe":
                    await pusher.catch_up()
                elif message["type"] in ("message", "pmessage"):
                    data, named = message["data"], message["channel"]
                    text = data.decode() if isinstance(data, bytes) else str(data)
                    name = named.decode() if isinstance(named, bytes) else str(named)
                    if name.startswith(chats):
                        pusher.chatted_in(name.removeprefix(chats), text)
                        continue
                    if name.startswith(players) and pusher.feeds is not None:
                        pusher.feeds.told(name.removeprefix(players), text)
                        continue
                    game_id, _, version = text.rpartition(" ")
                    if game_id and version.isdigit():
                        pusher.announced(game_id, int(version))
        except (RedisError, OSError) as exc:
            log.warning("the news subscription failed (%s); subscribing again", exc)
            await asyncio.sleep(1.0)
        finally:
            await pubsub.aclose()  # type: ignore[no-untyped-call]


async def serve(settings: Settings) -> None:
    if not settings.redis_url or not settings.nchan_publish_url:
        raise SystemExit("the pusher needs REDIS_URL, DATABASE_URL and MAGNATE_NCHAN_PUBLISH_URL")
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    name = pusher_name(settings.queue_name)  # every connection's, the news subscription's too
    url = settings.redis_url
    redis = (Redis(unix_socket_path=url.removeprefix("unix://"), client_name=name) if url.startswith("unix://")
             else Redis.from_url(url, client_name=name))
    push = NchanPush(settings.nchan_publish_url)
    runtime = None
    try:
        runtime = await build(settings, run_migrations=False)
        catalogs = catalogs_for(settings.games, settings.languages, settings.pseudo_locale)
        feeds = PlayerFeeds(runtime.my_games, runtime.notifications, push, catalogs.languages, public_url(settings))
        pusher = Pusher(Sources(runtime.gameplay, Stories(), catalogs, runtime.tables), push, runtime.chat, feeds)
        await listen(redis, news_channel(settings.queue_name), pusher, stop)
        await pusher.idle()
    finally:
        if runtime is not None:
            await runtime.close()
        await push.aclose()
        await redis.aclose()


def main() -> None:
    from services.api.collector import FreezingCollector  # noqa: PLC0415 (only when run as the process)
    from services.supervisor import die_with_parent  # noqa: PLC0415 (the supervisor's module, only when run)

    die_with_parent()
    FreezingCollector().start()  # as the API's: a full collection would hold every push behind it
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    asyncio.run(serve(load()))


if __name__ == "__main__":
    main()
