"""Can this process reach its stores right now? One answer per store, within a bound (the health check's)."""

from __future__ import annotations

import asyncio

import asyncpg
from redis.asyncio import Redis
from redis.exceptions import RedisError

PING_TIMEOUT_S = 2.0


async def database_ok(pool: asyncpg.Pool) -> bool:
    try:
        async with asyncio.timeout(PING_TIMEOUT_S):
            return bool(await pool.fetchval("SELECT 1") == 1)
    except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError):
        return False


async def redis_ok(redis: Redis) -> bool:
    try:
        async with asyncio.timeout(PING_TIMEOUT_S):
            return bool(await redis.ping())
    except (OSError, TimeoutError, RedisError):
        return False


async def in_process_ok() -> bool:
    """The probe of a store that lives in this process (a twin): it always answers."""
    return True
