"""Liveness and readiness: can this process reach PostgreSQL and Redis right now?"""

from __future__ import annotations

import asyncio

import asyncpg
from litestar import Response, get
from litestar.openapi import ResponseSpec
from redis.asyncio import Redis
from redis.exceptions import RedisError

from ..deps import RuntimeDep
from ..schemas import HealthOut

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


@get("/health", tags=["health"], summary="Liveness and readiness",
     responses={503: ResponseSpec(HealthOut, description="PostgreSQL or Redis is unreachable")})
async def health(runtime: RuntimeDep) -> Response[HealthOut]:
    database, redis = await asyncio.gather(database_ok(runtime.pool), redis_ok(runtime.redis))
    ok = database and redis
    return Response(HealthOut("ok" if ok else "unavailable", database, redis), status_code=200 if ok else 503)
