"""What a worker process does beside running jobs: renew the leases of its running jobs, (one worker of all, per
period) re-enqueue every due job the games say is waiting and every notification delivery that is due or was
abandoned by a killed worker, and project the notices of the watched games.

Both survive a Redis or database outage: a failed round is logged once and tried again next period. The
reconciler is a plain periodic task rather than an arq cron job so that an idle worker logs nothing (arq logs
every job's start and end at INFO); it takes a Redis lock (``SET NX PX``) for each period so that, with many
workers, one of them runs it.
"""

from __future__ import annotations

import asyncio
import logging
import random
from typing import Any

from arq.utils import timestamp_ms
from redis.asyncio import Redis
from redis.exceptions import RedisError

from infra.errors import StoreUnavailable
from infra.notifications import STORE_FAILURES
from services.gameplay.handler import Gameplay
from services.notifications.service import Notifications

from .leases import RENEW_EVERY_S, Leases

log = logging.getLogger("magnate.worker")

SWEEP_FAILURES: tuple[type[BaseException], ...] = (RedisError, *STORE_FAILURES)
"""A sweep skipped: Redis or the database away (tried again next period)."""


async def keep_leases(
    leases: Leases, redis: Redis, queue_name: str, claim_ms: int, every_s: float = RENEW_EVERY_S
) -> None:
    """Every ``every_s`` until cancelled: renew the running jobs' leases, and release the orphaned claims of workers
    that died between claiming a job and starting it (``claim_ms``: how long arq's own claim lasts)."""
    failing = False
    while True:
        await asyncio.sleep(every_s)
        try:
            await leases.renew(redis)
            released = await leases.sweep(redis, queue_name, claim_ms, timestamp_ms())
            if released:
                log.info("released %d job claim(s) of a worker that died before starting them", released)
        except (RedisError, OSError) as exc:
            if not failing:
                log.warning("cannot renew job leases (Redis: %s); retrying every %.0f s", exc, every_s)
            failing = True
        else:
            failing = False


async def reconcile_periodically(gameplay: Gameplay, redis: Redis, queue_name: str, every_s: float) -> None:
    """Every ``every_s`` (with jitter), if no other worker has this period, re-enqueue every due job."""
    lock = f"{queue_name}:reconciler"
    while True:
        await asyncio.sleep(every_s * random.uniform(0.9, 1.1))  # spreading the workers, not a secret
        try:
            if not await redis.set(lock, "1", nx=True, px=int(every_s * 900)):
                continue  # another worker reconciles this period
            count = await gameplay.reconcile()
        except (RedisError, OSError, StoreUnavailable) as exc:
            log.warning("reconciler skipped: %s", exc)
            continue
        if count:
            log.info("reconciler re-enqueued %d due job(s)", count)


async def sweep_periodically(notifications: Notifications, queue_name: str, every_s: float) -> None:
    """Every ``every_s`` (with jitter), if no other worker has this period, queue again every notification
    delivery that is due or whose lease expired (:mod:`services.notifications.sweep`)."""
    lock = f"{queue_name}:notify-sweep"
    while True:
        await asyncio.sleep(every_s * random.uniform(0.9, 1.1))  # spreading the workers, not a secret
        try:
            if not await notifications.take_period(lock, int(every_s * 900)):
                continue
            count = await notifications.sweep()
        except SWEEP_FAILURES as exc:
            log.warning("delivery sweep skipped: %s", exc)
            continue
        if count:
            log.info("delivery sweep queued %d delivery job(s) again", count)


def start(tasks: set[asyncio.Task[Any]], *coroutines: Any) -> None:
    """Run each coroutine as a task kept in ``tasks`` (so it is not garbage-collected while it runs)."""
    for coroutine in coroutines:
        task = asyncio.create_task(coroutine)
        tasks.add(task)
        task.add_done_callback(tasks.discard)
