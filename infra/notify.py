"""Telling listeners (the SSE streams of every API process) that a game has a new version."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, AsyncIterator
from typing import Protocol, runtime_checkable

from redis.asyncio import Redis
from redis.asyncio.client import PubSub
from redis.exceptions import RedisError

from infra.errors import StoreUnavailable


def channel(game_id: str) -> str:
    return f"magnate:game:{game_id}"


@runtime_checkable
class Notifier(Protocol):
    """Tells every listener that a game has a new version."""

    async def published(self, game_id: str, version: int) -> None: ...


class Subscriber(Protocol):
    """Hears the versions announced for a game (what an event stream waits on)."""

    def listen(self, game_id: str, timeout_s: float) -> AsyncIterator[int | None]:
        """Yields each announced version, or None after ``timeout_s`` of silence (a keep-alive tick)."""
        ...


class RedisNotifier:
    """Publishes on a Redis channel per game; listeners re-read the store, so a lost message only delays."""

    def __init__(self, redis: Redis) -> None:
        self._redis = redis

    async def published(self, game_id: str, version: int) -> None:
        try:
            await self._redis.publish(channel(game_id), str(version))
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(f"Redis is unavailable: {exc}") from exc

    async def listen(self, game_id: str, timeout_s: float) -> AsyncIterator[int | None]:
        """Yields each announced version, or None after ``timeout_s`` of silence (a keep-alive tick)."""
        heard = listen_channels(self._redis, [channel(game_id)], timeout_s)
        try:
            async for message in heard:
                yield None if message is None else int(message[1])
        finally:
            await heard.aclose()


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
