"""Who has a live page open: a seat (its game's event stream) or a player ("My games"' stream).

The port is :class:`Presence`'s three methods; :class:`InMemoryPresence` is its twin, held to the same contract
(tests/integration/test_presence.py). Each open stream is a connection id in a Redis sorted set scored by when it
lapses; a stream refreshes its entry at
every keep-alive tick and removes it when the page goes away, so closing a tab makes its seat away at once and a
crashed API process's entries lapse by themselves. Email and push reach only players who are away (lichess's
rule: push only when the player is not looking at the game).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Protocol, runtime_checkable

from redis.asyncio import Redis
from redis.exceptions import RedisError

_removing: set[asyncio.Task[None]] = set()


def seat_key(game_id: str, seat: int) -> str:
    return f"magnate:presence:seat:{game_id}:{seat}"


def player_key(player_id: str) -> str:
    return f"magnate:presence:player:{player_id}"


@runtime_checkable
class PresencePort(Protocol):
    """Live pages by key (:func:`seat_key`, :func:`player_key`)."""

    async def here(self, key: str, connection: str, ttl_s: float | None = None) -> None: ...

    async def gone(self, key: str, connection: str) -> None: ...

    async def present(self, *keys: str) -> bool: ...


KEY_S = 600
"""How long a key outlives its last mark: the marks' own times say who is present, the key's expiry only frees it,
so a page's mark never lapses with a key another page's shorter mark set to expire."""


class Presence:
    """Live pages by seat and by player; ``ttl_s`` is how long an entry lives without a refresh."""

    def __init__(self, redis: Redis, ttl_s: float) -> None:
        self._redis = redis
        self.ttl_s = ttl_s

    async def here(self, key: str, connection: str, ttl_s: float | None = None) -> None:
        """The page ``connection`` is live on ``key`` (:func:`seat_key` or :func:`player_key`) for ``ttl_s`` (None:
        the presence's own; a longer one, at most :data:`KEY_S`, for a page whose holder marks it seldom)."""
        now = time.time()
        lasts = self.ttl_s if ttl_s is None else ttl_s
        async with self._redis.pipeline(transaction=False) as pipe:
            pipe.zadd(key, {connection: now + lasts})
            pipe.zremrangebyscore(key, "-inf", now)
            pipe.expire(key, int(max(lasts, self.ttl_s, KEY_S)) + 1)  # never shorter than a mark of another page
            await pipe.execute()

    async def gone(self, key: str, connection: str) -> None:
        """The page left. Called from a stream's clean-up, which is usually a cancellation (the client hung up): the
        removal runs as a task of its own, shielded, so a second cancellation cannot cut it off; if Redis is away,
        the entry lapses by itself."""

        async def remove() -> None:
            with contextlib.suppress(RedisError, OSError):
                await self._redis.zrem(key, connection)

        task = asyncio.create_task(remove())
        _removing.add(task)
        task.add_done_callback(_removing.discard)
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.shield(task)

    async def present(self, *keys: str) -> bool:
        """Whether any of ``keys`` has a live page now."""
        now = time.time()
        async with self._redis.pipeline(transaction=False) as pipe:
            for key in keys:
                pipe.zcount(key, now, "+inf")
            counts = await pipe.execute()
        return any(int(c) > 0 for c in counts)


class InMemoryPresence:
    """:class:`Presence` within one process (service-layer tests, a runtime of twins); ``clock``: seconds."""

    def __init__(self, ttl_s: float, clock: Callable[[], float] = time.time) -> None:
        self.ttl_s = ttl_s
        self._clock = clock
        self._lapses: dict[str, dict[str, float]] = {}

    async def here(self, key: str, connection: str, ttl_s: float | None = None) -> None:
        self._lapses.setdefault(key, {})[connection] = self._clock() + (self.ttl_s if ttl_s is None else ttl_s)

    async def gone(self, key: str, connection: str) -> None:
        self._lapses.get(key, {}).pop(connection, None)

    async def present(self, *keys: str) -> bool:
        now = self._clock()
        return any(lapse > now for key in keys for lapse in self._lapses.get(key, {}).values())
