"""The publisher of the pages' messages to nchan (``MAGNATE_PUSH=nchan``; docs/SCALING.md, "A push server").

One small process per deployment (``python -m services.pusher``, started by the supervisor beside nginx): it hears
every append on the deployment's news channel (``<game_id> <version>``, :mod:`infra.news`), and for each new version
of a game publishes one message per viewer class (the public's, each seat's) to that class's nchan channel
(:mod:`infra.nchan.publisher`): the events since the last message it published for the game, redacted for the
viewer (the body of the Python stream's ``events`` message, ``{"version", "events"}``). Each message is made and
sent once, whatever the number of pages, API processes or nginx boxes.

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
from collections.abc import Sequence

import msgspec
from cachetools import LRUCache
from redis.asyncio import Redis
from redis.exceptions import RedisError

from domain.kernel import PUBLIC, Seat, Viewer
from infra.config import Settings, load
from infra.errors import InfraError
from infra.nchan.publisher import NchanPush, Push, public_channel, seat_channel
from infra.news import news_channel
from services.api.pages import events_page
from services.gameplay import Gameplay
from services.gameplay.bootstrap import reading

log = logging.getLogger("magnate.pusher")

EVENT = "events"
"""The SSE event name of a game's message (as the Python stream's)."""
KEPT_GAMES = 100_000
"""Games whose last published version the pusher remembers (the least recently moved are forgotten)."""


def pusher_name(queue_name: str) -> str:
    """The Redis client name of a deployment's pusher (its news subscription: the supervisor waits for it)."""
    return f"magnate-pusher:{queue_name}"


def channel_of(game_id: str, viewer: Viewer) -> str:
    return public_channel(game_id) if viewer == PUBLIC else seat_channel(game_id, int(viewer))


class Pusher:
    """Publishes each new version of a game once per viewer class; games are handled concurrently, one game's
    versions in order (a version announced while the game's last one is being published joins the next message)."""

    def __init__(self, gameplay: Gameplay, push: Push) -> None:
        self.gameplay = gameplay
        self.push = push
        self.published: LRUCache[str, int] = LRUCache(maxsize=KEPT_GAMES)
        self._seats: LRUCache[str, tuple[int, ...]] = LRUCache(maxsize=KEPT_GAMES)
        self._wanted: dict[str, int] = {}
        self._running: dict[str, asyncio.Task[None]] = {}

    def announced(self, game_id: str, version: int) -> None:
        self._wanted[game_id] = max(self._wanted.get(game_id, 0), version)
        if game_id not in self._running:
            self._running[game_id] = asyncio.create_task(self._drain(game_id))

    async def idle(self) -> None:
        """Wait until every announced version is published (or failed)."""
        while self._running:
            await asyncio.gather(*self._running.values(), return_exceptions=True)

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
            while (version := self._wanted.pop(game_id, None)) is not None:
                try:
                    await self.publish(game_id, version)
                except (InfraError, RedisError) as exc:
                    log.warning("push of game %s version %s failed: %s", game_id, version, exc)
        finally:
            del self._running[game_id]

    async def publish(self, game_id: str, version: int) -> None:
        """One message per viewer class with the events after the last published version (the whole log for a game
        this pusher has not published yet); the version is recorded only when every channel took its message (a
        failure is sent again with the next one)."""
        after = self.published.get(game_id, 0)
        if version <= after:
            return
        queries = self.gameplay.queries
        seats = self._seats.get(game_id)
        if seats is None:  # a game's seats are fixed when it is created
            seats = self._seats[game_id] = tuple(s.seat for s in await queries.seats(game_id))
        viewers: Sequence[Viewer] = [PUBLIC, *(Seat(seat) for seat in seats)]
        pages = [await events_page(queries, game_id, after, viewer, version) for viewer in viewers]
        await asyncio.gather(*(self.push.publish(channel_of(game_id, viewer), msgspec.json.encode(page).decode(),
                                                 EVENT) for viewer, page in zip(viewers, pages, strict=True)
                               if page.events))
        self.published[game_id] = max(after, *(page.version for page in pages))


async def listen(redis: Redis, channel: str, pusher: Pusher, stop: asyncio.Event) -> None:
    """Hear the news until ``stop``; a (re)subscription is followed by a catch-up."""
    while not stop.is_set():
        pubsub = redis.pubsub()
        try:
            await pubsub.subscribe(channel)
            while not stop.is_set():
                message = await pubsub.get_message(timeout=1.0)
                if message is None:
                    continue
                if message["type"] == "subscribe":
                    await pusher.catch_up()
                elif message["type"] == "message":
                    data = message["data"]
                    text = data.decode() if isinstance(data, bytes) else str(data)
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
    try:
        async with reading(settings) as gameplay:
            pusher = Pusher(gameplay, push)
            await listen(redis, news_channel(settings.queue_name), pusher, stop)
            await pusher.idle()
    finally:
        await push.aclose()
        await redis.aclose()


def main() -> None:
    from services.supervisor import die_with_parent  # noqa: PLC0415 (the supervisor's module, only when run)

    die_with_parent()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    asyncio.run(serve(load()))


if __name__ == "__main__":
    main()
