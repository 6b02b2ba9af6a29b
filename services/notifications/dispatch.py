"""Handing deliveries to the workers (an arq job per delivery, its id the delivery's) and telling a player's live
pages that they have something new (``magnate:player:<player_id>``, which "My games" listens on).

Both happen after the transaction that wrote the deliveries has committed, and both may be lost (Redis away, a
kill right after the commit): the rows are the truth, and :mod:`.sweep` enqueues any due delivery again. arq
refuses a job whose id is queued or running, so the projector, a retry and the sweep never queue one twice.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import UTC, datetime

from arq.connections import ArqRedis
from redis.asyncio import Redis
from redis.exceptions import RedisError

from infra.notify import player_channel

DELIVER = "notify.deliver"
"""The arq function that delivers one delivery (``services.ai_worker`` registers it)."""

log = logging.getLogger("magnate.notify")


async def enqueue(arq: ArqRedis, due: Iterable[tuple[str, datetime]]) -> int:
    """Queue ``(delivery_id, due_at)`` jobs (deferred until due); returns how many were new. A Redis failure is
    logged, not raised: the sweep queues them later."""
    now = datetime.now(UTC)
    queued = 0
    try:
        for delivery_id, due_at in due:
            job = await arq.enqueue_job(DELIVER, delivery_id, _job_id=delivery_id,
                                        _defer_until=due_at if due_at > now else None)
            queued += job is not None
    except (RedisError, OSError) as exc:
        log.warning("could not queue deliveries (%s); the sweep will", exc)
    return queued


async def announce(redis: Redis, player_ids: Iterable[str], what: str = "notice") -> None:
    """Tell each player's live pages (a lost message only delays the page to its next refresh)."""
    ids = sorted(set(player_ids))
    if not ids:
        return
    try:
        async with redis.pipeline(transaction=False) as pipe:
            for player_id in ids:
                pipe.publish(player_channel(player_id), what)
            await pipe.execute()
    except (RedisError, OSError) as exc:
        log.warning("could not announce notices to %d player(s): %s", len(ids), exc)
