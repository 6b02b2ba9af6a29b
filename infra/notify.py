"""Telling listeners (the SSE streams of every API process) that a game has a new version.

The port (:class:`Notifier`, :class:`Subscriber`) and its Redis implementation: a channel per game, on which every
append's new version is published; the event streams of one process listen through one shared subscription
(:mod:`infra.fanout`).

Also the :class:`Broadcast` port, short messages on named channels that any process's pages may hear (a chat's new
line, a player's "your games changed"): :class:`RedisBroadcast` and its twin :class:`InMemoryBroadcast`, held to one
contract (tests/integration/test_broadcast.py)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, AsyncIterator
from typing import Protocol, runtime_checkable

from redis.asyncio import Redis
from redis.asyncio.client import PubSub
from redis.exceptions import RedisError

from infra.errors import StoreUnavailable

from .fanout import QUIET, Fanout, Heard, Waiter
from .news import news_message

__all__ = ["QUIET", "STREAMS_CLIENT", "Broadcast", "Heard", "InMemoryBroadcast", "Notifier", "RecordingNotifier",
           "RedisBroadcast", "RedisNotifier", "Subscriber", "channel", "listen_channels", "player_channel"]

STREAMS_CLIENT = "magnate-streams"
"""The name (``CLIENT SETNAME``) of a process's one connection for its event streams (see :mod:`infra.fanout`)."""


def channel(game_id: str) -> str:
    return f"magnate:game:{game_id}"


@runtime_checkable
class Notifier(Protocol):
    """Tells every listener that a game has a new version."""

    async def published(self, game_id: str, version: int) -> None: ...


class Subscriber(Protocol):
    """Hears the versions announced for a game (what an event stream waits on)."""

    def listen(self, game_id: str, timeout_s: float) -> AsyncIterator[Heard]:
        """Yields each announced version; None when the caller should re-read the store (after ``timeout_s`` of
        silence, or when announcements may have been missed); :data:`QUIET` after ``timeout_s`` of silence during
        which nothing can have been missed (a keep-alive tick, no read needed). An implementation may yield
        only versions and None. If the iterator has an ``aclose`` method, the caller calls it when done."""
        ...


class RedisNotifier:
    """Publishes on a Redis channel per game; listeners re-read the store, so a lost message only delays. With
    ``news`` (the deployment's news channel, :mod:`infra.news`) the game is named there too, in the same round trip.

    The listeners of one process share one subscription (:class:`infra.fanout.Fanout`, started by the first
    listener, on a connection named ``client_name``); :meth:`aclose` closes it."""

    def __init__(self, redis: Redis, client_name: str = STREAMS_CLIENT, news: str | None = None) -> None:
        self._redis = redis
        self.client_name = client_name
        self.news = news
        self._fanout: Fanout | None = None

    async def published(self, game_id: str, version: int) -> None:
        try:
            if self.news is None:
                await self._redis.publish(channel(game_id), str(version))
                return
            async with self._redis.pipeline(transaction=False) as pipe:
                pipe.publish(channel(game_id), str(version))
                pipe.publish(self.news, news_message(game_id, version))
                await pipe.execute()
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(f"Redis is unavailable: {exc}") from exc

    def listen(self, game_id: str, timeout_s: float) -> Waiter:
        """See :class:`Subscriber`: registered at once (so a read made after this call misses nothing), left by
        the waiter's ``aclose``."""
        if self._fanout is None or self._fanout.failed:
            self._fanout = Fanout(self._redis, self.client_name)
        return self._fanout.listen(channel(game_id), timeout_s)

    def watched(self) -> int:
        """Games this process's event streams watch (one subscription each, on the one connection)."""
        return 0 if self._fanout is None else self._fanout.channels()

    async def aclose(self) -> None:
        fanout, self._fanout = self._fanout, None
        if fanout is not None:
            await fanout.aclose()


_closing: set[asyncio.Task[None]] = set()


def player_channel(player_id: str) -> str:
    """Where the notification projector tells a player's pages that they have something new."""
    return f"magnate:player:{player_id}"


async def listen_channels(
    redis: Redis, names: list[str], timeout_s: float
) -> AsyncGenerator[tuple[str, bytes] | None, None]:
    """Yields (channel, data) for each message on any of ``names``, or None after ``timeout_s`` of silence."""
    pubsub = redis.pubsub()
    try:
        await pubsub.subscribe(*names)
        while True:
            message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=timeout_s)
            if message is None:
                yield None
            else:
                name = message["channel"]
                yield (name.decode() if isinstance(name, bytes) else str(name)), bytes(message["data"])
    finally:
        # A listener is usually cancelled (its client hung up). Under anyio, as in Litestar's streams, every await
        # after a cancellation is cancelled again, which would leave the connection checked out of the pool
        # forever; so the clean-up runs as a task of its own, kept until it is done.
        closing = asyncio.create_task(_close(pubsub, *names))
        _closing.add(closing)
        closing.add_done_callback(_closing.discard)
        await asyncio.shield(closing)


async def _close(pubsub: PubSub, *names: str) -> None:
    try:
        await pubsub.unsubscribe(*names)
    finally:
        await pubsub.aclose()  # type: ignore[no-untyped-call]


class RecordingNotifier:
    def __init__(self) -> None:
        self.published_versions: list[tuple[str, int]] = []

    async def published(self, game_id: str, version: int) -> None:
        self.published_versions.append((game_id, version))


Message = tuple[str, bytes] | None
"""What a listener hears: (channel, data), or None after a silence."""


@runtime_checkable
class Broadcast(Protocol):
    """Short messages on named channels, heard by whoever listens at that moment (nothing is kept)."""

    async def publish(self, name: str, data: str) -> None:
        """Send ``data`` on channel ``name`` (StoreUnavailable if it cannot be sent)."""
        ...

    def listen(self, names: list[str], timeout_s: float) -> AsyncGenerator[Message, None]:
        """Yields (channel, data) for each message on any of ``names`` from the first ``anext`` on, or None after
        ``timeout_s`` of silence. The caller closes it (``aclose``) when done."""
        ...


class RedisBroadcast:
    """:class:`Broadcast` over Redis pub/sub."""

    def __init__(self, redis: Redis) -> None:
        self._redis = redis

    async def publish(self, name: str, data: str) -> None:
        try:
            await self._redis.publish(name, data)
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(f"Redis is unavailable: {exc}") from exc

    def listen(self, names: list[str], timeout_s: float) -> AsyncGenerator[Message, None]:
        return listen_channels(self._redis, names, timeout_s)


class InMemoryBroadcast:
    """:class:`Broadcast` within one process (service-layer tests, a runtime of twins)."""

    def __init__(self) -> None:
        self._listeners: dict[str, set[asyncio.Queue[tuple[str, bytes]]]] = {}

    async def publish(self, name: str, data: str) -> None:
        for queue in list(self._listeners.get(name, ())):
            queue.put_nowait((name, data.encode()))

    async def listen(self, names: list[str], timeout_s: float) -> AsyncGenerator[Message, None]:
        queue: asyncio.Queue[tuple[str, bytes]] = asyncio.Queue()
        for name in names:
            self._listeners.setdefault(name, set()).add(queue)
        try:
            while True:
                try:
                    yield await asyncio.wait_for(queue.get(), timeout_s)
                except TimeoutError:
                    yield None
        finally:
            for name in names:
                self._listeners.get(name, set()).discard(queue)
