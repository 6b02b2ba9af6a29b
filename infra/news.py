"""The deployment's news: one Redis channel on which every append names its game (``<game_id> <version>``), heard
by every worker (the notification projector).

An append's announcement is one round trip (:class:`infra.queue.ArqAnnouncer`, :class:`infra.notify.RedisNotifier`):
the version on the game's own channel (the event streams, :mod:`infra.fanout`) and the game on this one, published
together. :class:`RedisNews` is the listening side, one connection per worker process, which retries forever with
redis-py's back-off and re-subscribes when it reconnects (as the streams' :class:`~infra.fanout.Fanout` does).
Pub/sub keeps nothing: each (re)subscription is yielded as :data:`CATCH_UP` (whatever was announced meanwhile is
lost, so the listener reads the store for everything that lags), and the periodic reconcile reads it anyway, for
an announcement lost by its publisher (Redis away, a process killed between its commit and its publish).
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from typing import Any, Protocol

from redis.asyncio import ConnectionPool, Redis
from redis.asyncio.retry import Retry
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from .fanout import BACKOFF

__all__ = ["CATCH_UP", "News", "RedisNews", "news_channel", "news_message", "parsed"]

CATCH_UP = None
"""What a listener yields when announcements may have been missed (its subscription was (re)made)."""
WAIT_S = 1.0
"""The longest one read of the subscription waits (then it reads again)."""
NEWS_CLIENT = "magnate-news"
GATHER_S = 0.05
"""After the first announcement, how long a listener keeps gathering others before yielding them together: the
projector then reads the store once for every game named meanwhile instead of once per append (a busy box appends
hundreds of times a second), for at most this much more delay on a notice."""


def news_channel(deployment: str) -> str:
    """The channel of a deployment's news (``deployment``: its queue name, shared by its API and workers)."""
    return f"magnate:news:{deployment}"


def news_message(game_id: str, version: int) -> str:
    return f"{game_id} {version}"


def parsed(data: bytes | str) -> str | None:
    """The game a news message names (None: not a news message)."""
    text = data.decode() if isinstance(data, bytes) else data
    game_id, _, version = text.rpartition(" ")
    return game_id if game_id and version.isdigit() else None


class News(Protocol):
    """The games that have moved, as their appends announce them."""

    def listen(self) -> AsyncIterator[set[str] | None]:
        """Yields the games announced since the last yield (several announcements of one game are one), or
        :data:`CATCH_UP` when some may have been missed: first when the subscription is made (before any game),
        then after every reconnection. Raises when the subscription fails for good (the caller listens again)."""
        ...


class RedisNews:
    """:class:`News` on a Redis channel (see the module docstring)."""

    def __init__(self, redis: Redis, channel: str, client_name: str = NEWS_CLIENT, wait_s: float = WAIT_S,
                 gather_s: float = GATHER_S) -> None:
        base = redis.connection_pool
        self._connection_class = base.connection_class
        self._kwargs: dict[str, Any] = {
            **base.connection_kwargs, "client_name": client_name, "retry": Retry(BACKOFF, -1),
            "retry_on_error": [RedisConnectionError, RedisTimeoutError, OSError],
        }
        self.channel = channel
        self._wait_s = wait_s
        self._gather_s = gather_s

    async def listen(self) -> AsyncIterator[set[str] | None]:
        pool = ConnectionPool(connection_class=self._connection_class, max_connections=1, **self._kwargs)
        pubsub = Redis(connection_pool=pool).pubsub()
        try:
            await pubsub.subscribe(self.channel)
            while True:
                message = await pubsub.get_message(timeout=self._wait_s)
                if message is None:
                    continue
                games: set[str] = set()
                catch_up = False
                until = time.monotonic() + self._gather_s
                while message is not None:  # everything heard within the gathering time, at once
                    if message["type"] == "subscribe":  # the first subscription, or again after a reconnection
                        catch_up = True
                    elif message["type"] == "message" and (game_id := parsed(message["data"])) is not None:
                        games.add(game_id)
                    message = await pubsub.get_message(timeout=max(0.0, until - time.monotonic()))
                if catch_up:
                    yield CATCH_UP
                if games:
                    yield games
        finally:
            await pubsub.aclose()  # type: ignore[no-untyped-call]
            await pool.aclose()
