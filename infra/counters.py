"""Counters shared by every API process (the request rates per client address): Litestar's store on Redis."""

from __future__ import annotations

from litestar.stores.base import Store
from litestar.stores.redis import RedisStore
from redis.asyncio import Redis


def redis_counters(redis: Redis, namespace: str) -> Store:
    """A store of counters under ``namespace`` on ``redis`` (the runtime closes the client, not the store)."""
    return RedisStore(redis, namespace=namespace, handle_client_shutdown=False)
