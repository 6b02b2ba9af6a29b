"""Handing deliveries to the workers and telling players' pages (the :class:`Dispatch` port): over arq and Redis
(:class:`RedisDispatch`), or recorded in memory (:class:`RecordingDispatch`, its twin); one contract suite runs
against both (``tests/integration/notifications/test_store_dispatch.py``).

A delivery's job is an arq job whose id is the delivery's, deferred until it is due; arq refuses a job whose id is
queued or running, so the projector, a retry and the sweep never queue one twice. A player's pages listen on
``magnate:player:<player_id>`` ("My games"). Both happen after the transaction that wrote the deliveries has
committed, and both may be lost (Redis away, a kill right after the commit): the rows are the truth, and the sweep
queues every due delivery again. A Redis failure is therefore logged, not raised.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Protocol

from arq.connections import ArqRedis
from redis.asyncio import Redis
from redis.exceptions import RedisError

from infra.notify import player_channel

DELIVER = "notify.deliver"
"""The arq function that delivers one delivery (``services.ai_worker`` registers it)."""

log = logging.getLogger("magnate.notify")


class Dispatch(Protocol):
    async def enqueue(self, due: Iterable[tuple[str, datetime]]) -> int:
        """Queue ``(delivery_id, due_at)`` jobs (deferred until due); returns how many were new (a job whose id
        is queued already is not). Failures are logged, not raised."""

    async def announce(self, player_ids: Iterable[str], what: str = "notice") -> None:
        """Tell each player's live pages (a lost message only delays a page to its next refresh)."""


class RedisDispatch:
    def __init__(self, arq: ArqRedis, redis: Redis) -> None:
        self._arq = arq
        self._redis = redis

    async def enqueue(self, due: Iterable[tuple[str, datetime]]) -> int:
        now = datetime.now(UTC)
        queued = 0
        try:
            for delivery_id, due_at in due:
                job = await self._arq.enqueue_job(DELIVER, delivery_id, _job_id=delivery_id,
                                                  _defer_until=due_at if due_at > now else None)
                queued += job is not None
        except (RedisError, OSError) as exc:
            log.warning("could not queue deliveries (%s); the sweep will", exc)
        return queued

    async def announce(self, player_ids: Iterable[str], what: str = "notice") -> None:
        ids = sorted(set(player_ids))
        if not ids:
            return
        try:
            async with self._redis.pipeline(transaction=False) as pipe:
                for player_id in ids:
                    pipe.publish(player_channel(player_id), what)
                await pipe.execute()
        except (RedisError, OSError) as exc:
            log.warning("could not announce notices to %d player(s): %s", len(ids), exc)


class RecordingDispatch:
    """The twin: keeps the queued jobs (until :meth:`done`) and the announcements."""

    def __init__(self) -> None:
        self.queued: dict[str, datetime] = {}
        """Delivery id → due at, of the jobs queued and not done."""
        self.announced: list[tuple[str, str]] = []
        """(player id, what), in order."""

    async def enqueue(self, due: Iterable[tuple[str, datetime]]) -> int:
        queued = 0
        for delivery_id, due_at in due:
            if delivery_id not in self.queued:
                self.queued[delivery_id] = due_at
                queued += 1
        return queued

    def done(self, delivery_id: str) -> None:
        """The delivery's job has ended (its id may be queued again)."""
        self.queued.pop(delivery_id, None)

    async def announce(self, player_ids: Iterable[str], what: str = "notice") -> None:
        self.announced += [(player_id, what) for player_id in sorted(set(player_ids))]
