"""What a worker process does beside running jobs: renew the leases of its running jobs, project the notices of
the games the news names (:func:`services.notifications.projector.keep_projecting`), and (one worker of all, per
period) reconcile: re-enqueue every due job the games say is waiting, queue again every notification delivery
that is due or was abandoned by a killed worker, and project every watched game whose notices lag behind it.

The reconcile is the one safety net for every announcement lost (Redis away at an append, a process killed between
its commit and its publish, a worker's subscription down): it reads the read model (what is due, which games'
notices lag), never the news. Every loop receives services and ports only (the gameplay and notifications
services, the :class:`~infra.queue.JobClaims` and :class:`~infra.queue.Periods` ports), never a connection.

Every loop survives a Redis or database outage: a failed round is logged and tried again next period. The
reconciler is a plain periodic task rather than an arq cron job so that an idle worker logs nothing (arq logs
every job's start and end at INFO); it takes the period (:meth:`~infra.queue.Periods.take`) so that, with many
workers, one of them runs it.
"""

from __future__ import annotations

import asyncio
import logging
import random
from typing import Any

from redis.exceptions import RedisError

from infra.errors import StoreUnavailable
from infra.notifications import STORE_FAILURES
from infra.queue import JobClaims, Periods
from services.gameplay.handler import Gameplay
from services.gameplay.plans import SeatPlanning
from services.notifications.service import Notifications

from .leases import RENEW_EVERY_S, Leases

log = logging.getLogger("magnate.worker")

RECONCILE = "reconciler"
"""The period's name (one worker of the deployment takes each)."""
FAILURES: tuple[type[BaseException], ...] = (RedisError, OSError, StoreUnavailable, *STORE_FAILURES)
"""A part of a round skipped: Redis or the database away (tried again next period)."""


async def keep_leases(leases: Leases, claims: JobClaims, claim_ms: int, every_s: float = RENEW_EVERY_S) -> None:
    """Every ``every_s`` until cancelled: renew the running jobs' leases, and release the orphaned claims of workers
    that died between claiming a job and starting it (``claim_ms``: how long arq's own claim lasts)."""
    failing = False
    while True:
        await asyncio.sleep(every_s)
        try:
            await leases.renew(claims)
            released = await leases.sweep(claims, claim_ms)
            if released:
                log.info("released %d job claim(s) of a worker that died before starting them", released)
        except (RedisError, OSError) as exc:
            if not failing:
                log.warning("cannot renew job leases (Redis: %s); retrying every %.0f s", exc, every_s)
            failing = True
        else:
            failing = False


async def reconcile_periodically(gameplay: Gameplay, notifications: Notifications, periods: Periods,
                                 every_s: float, planning: SeatPlanning | None = None) -> None:
    """Every ``every_s`` (with jitter), if no other worker has this period, :func:`reconcile`."""
    while True:
        await asyncio.sleep(every_s * random.uniform(0.9, 1.1))  # spreading the workers, not a secret
        try:
            if not await periods.take(RECONCILE, int(every_s * 900)):
                continue  # another worker reconciles this period
        except FAILURES as exc:
            log.warning("reconciler skipped: %s", exc)
            continue
        await reconcile(gameplay, notifications, planning)


async def reconcile(gameplay: Gameplay, notifications: Notifications, planning: SeatPlanning | None = None) -> None:
    """One round: the due jobs, the due or abandoned deliveries, the lagging notices, the games' plans (each part on
    its own: one store away skips only what needs it)."""
    for what, part in (("due job(s) re-enqueued", gameplay.reconcile),
                       ("delivery job(s) queued again", notifications.sweep),
                       ("game(s) whose notices lagged projected", notifications.projector.catch_up),
                       *((("planned move job(s) queued", planning.reconcile),) if planning is not None else ())):
        try:
            count = await part()
        except FAILURES as exc:
            log.warning("reconciler skipped a part (%s): %s", what, exc)
            continue
        if count:
            log.info("reconciler: %d %s", count, what)


def start(tasks: set[asyncio.Task[Any]], *coroutines: Any) -> None:
    """Run each coroutine as a task kept in ``tasks`` (so it is not garbage-collected while it runs)."""
    for coroutine in coroutines:
        task = asyncio.create_task(coroutine)
        tasks.add(task)
        task.add_done_callback(tasks.discard)
