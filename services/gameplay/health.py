"""The operator's questions: can this process reach PostgreSQL and Redis, and how deep is the job queue?"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from infra.queue import QueueDepth


class Health:
    def __init__(self, database_ok: Callable[[], Awaitable[bool]], redis_ok: Callable[[], Awaitable[bool]],
                 queue_depth: Callable[[], Awaitable[QueueDepth]]) -> None:
        self._database_ok, self._redis_ok, self._queue_depth = database_ok, redis_ok, queue_depth

    async def reachable(self) -> tuple[bool, bool]:
        """(PostgreSQL answers, Redis answers), asked at once, each within its bound."""
        database, redis = await asyncio.gather(self._database_ok(), self._redis_ok())
        return database, redis

    async def queue_depth(self) -> QueueDepth:
        """The job queue now (StoreUnavailable when Redis does not answer)."""
        return await self._queue_depth()
