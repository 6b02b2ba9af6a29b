"""Telling listeners (the SSE streams of every API process) that a game has a new version."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Protocol, runtime_checkable

from redis.asyncio import Redis


def channel(game_id: str) -> str:
    return f"magnate:game:{game_id}"


@runtime_checkable
class Notifier(Protocol):
    async def published(self, game_id: str, version: int) -> None: ...


class RedisNotifier:
    """Publishes on a Redis channel per game; listeners re-read the store, so a lost message only delays."""

    def __init__(self, redis: Redis) -> None:
        self._redis = redis

    async def published(self, game_id: str, version: int) -> None:
        await self._redis.publish(channel(game_id), str(version))

    async def listen(self, game_id: str, timeout_s: float) -> AsyncIterator[int | None]:
        """Yields each announced version, or None after ``timeout_s`` of silence (a keep-alive tick)."""
        pubsub = self._redis.pubsub()
        await pubsub.subscribe(channel(game_id))
        try:
            while True:
                message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=timeout_s)
                yield int(message["data"]) if message is not None else None
        finally:
            await pubsub.unsubscribe(channel(game_id))
            await pubsub.aclose()


class RecordingNotifier:
    def __init__(self) -> None:
        self.published_versions: list[tuple[str, int]] = []

    async def published(self, game_id: str, version: int) -> None:
        self.published_versions.append((game_id, version))
