"""``magnate worker``: stock arq workers that outlive Redis outages.

arq's ``Worker`` leaves its run loop on the first Redis error of a poll, and a worker that exits stays dead
(under ``magnate run`` a child's exit used to stop everything). :func:`serve` builds the runtime (the
database pool, the gameplay service) once and runs one arq ``Worker`` after another on it: when Redis goes
away the current one is closed and, after an exponential back-off (redis-py's ``ExponentialBackoff``), a new
one connects, reconciles (re-enqueues every due job and every running clock's timers, in case Redis lost them:
what fell due during the outage runs then) and polls again. That holds however long Redis is away: connecting
fails fast (arq's own retries are turned off: ``arq_pool(conn_retries=0)``, whose failure is ``StoreUnavailable``
whatever the driver raised) and is tried again after the back-off, the outage logged when it begins, at each
failed attempt and when it ends. An arq run that fails for any other reason is logged and replaced too: the
worker exits only when told to (SIGTERM, SIGINT). Meanwhile
:mod:`.upkeep` renews the leases of running jobs, runs the notification projector on the appends' news
(:mod:`services.notifications.projector`) and reconciles periodically (due jobs, due deliveries, lagging notices).

With ``MAGNATE_WORKER_METRICS_PORT`` set, the worker serves its Prometheus metrics (its jobs, its appends, its
deliveries, its process's CPU and memory) on ``http://HOST:port/metrics`` from the start, stores or not
(:func:`infra.metrics.serve_worker`); a port it cannot take is logged, and the worker runs on without it.

The job claim is arq's own (its poll loop, unchanged): an earlier version replaced arq's private
``_poll_iteration`` with a batch claim, which tied the service to arq's internals and degraded under a long
backlog; docs/ARCHITECTURE.md has the measurements behind going back.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import time

from arq.connections import ArqRedis
from arq.worker import Worker
from redis.backoff import ExponentialBackoff
from redis.exceptions import RedisError

from infra import metrics
from infra.config import Settings
from infra.errors import StoreUnavailable
from infra.logs import get_logger
from infra.queue import arq_pool
from services.gameplay.bootstrap import Runtime, build
from services.notifications.projector import keep_projecting
from services.notifications.service import Notifications

from . import upkeep
from .leases import Leases
from .planning import keep_planning
from .settings import worker_settings

log = get_logger("magnate.worker")

BACKOFF = ExponentialBackoff(cap=5.0, base=0.5)
"""Waits between reconnection attempts (``compute(n - 1)`` before the n-th): 0.25 s, 0.5 s, 1 s ... at most 5 s,
however long the outage: an attempt costs one refused connection, and the work that fell due waits for the next."""
HEALTHY_AFTER_S = 30.0
"""A worker that ran this long counts as healthy: the next outage starts the back-off from the beginning."""
_OUTAGE = (RedisError, OSError, StoreUnavailable)


async def serve(settings: Settings) -> None:
    """Run workers until SIGTERM or SIGINT, reconnecting to Redis (and PostgreSQL at start-up) as needed, however
    long either is away."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    expose_metrics(settings)
    runtime = await _until_built(settings, stop)
    if runtime is None:
        return
    leases = Leases()
    notifications = runtime.notifications  # built once with the runtime; closed with it
    tasks: set[asyncio.Task[None]] = set()
    claim_ms = (settings.worker_job_timeout_s + 10) * 1000  # arq's in-progress key: the job timeout + 10 s
    upkeep.start(tasks, upkeep.keep_leases(leases, runtime.job_claims, claim_ms),
                 upkeep.reconcile_periodically(runtime.gameplay, notifications, runtime.periods,
                                               settings.reconcile_every_s, runtime.planning),
                 keep_projecting(notifications.projector, runtime.news),
                 keep_planning(runtime.planning, runtime.news))
    outage = Outage()
    try:
        while not stop.is_set():
            started = time.monotonic()
            if await _run_one(settings, runtime, leases, notifications, stop, outage):
                return
            if time.monotonic() - started > HEALTHY_AFTER_S:
                outage.failures = 0
            await _pause(stop, outage.next_wait())
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await runtime.close()


class Outage:
    """How long Redis has been away (for the log) and how long to wait before the next attempt."""

    def __init__(self) -> None:
        self.since: float | None = None
        self.failures = 0

    def began(self, reason: BaseException, connected: bool) -> None:
        if self.since is None:
            self.since = time.monotonic()
            log.warning("redis lost; the worker waits and reconnects" if connected else "redis unreachable; waiting",
                        error=str(reason))

    def still(self, reason: BaseException) -> None:
        """A failed attempt to reconnect (each one logged, with the back-off before the next)."""
        assert self.since is not None
        log.warning("redis still unreachable", error=str(reason), attempt=self.failures + 1,
                    away_s=round(time.monotonic() - self.since, 1),
                    retry_in_s=round(BACKOFF.compute(self.failures - 1), 2))

    def ended(self) -> None:
        if self.since is not None:
            log.info("redis is back; the worker reconnected", away_s=round(time.monotonic() - self.since, 1))
        self.since = None

    def next_wait(self) -> float:
        wait = BACKOFF.compute(self.failures - 1)
        self.failures += 1
        return wait


def expose_metrics(settings: Settings) -> None:
    """Serve this worker's metrics on ``MAGNATE_WORKER_METRICS_PORT``, if set (a port taken is only logged)."""
    port = settings.worker_metrics_port
    if port is None:
        return
    try:
        metrics.serve_worker(port, settings.host)
    except OSError as exc:
        log.warning("cannot serve metrics; running without", host=settings.host, port=port, error=str(exc))
        return
    log.info("serving metrics", url=f"http://{settings.host}:{port}/metrics")


async def _run_one(settings: Settings, runtime: Runtime, leases: Leases, notifications: Notifications,
                   stop: asyncio.Event, outage: Outage) -> bool:
    """One arq worker until it is told to stop (True) or it ends otherwise (False: Redis lost or unreachable, or
    another failure, logged; the caller waits and runs another)."""
    try:
        # No retries of arq's own: the caller's back-off spaces the attempts, however long the outage.
        pool: ArqRedis = await arq_pool(settings.redis_url or "", settings.queue_name, conn_retries=0)
    except StoreUnavailable as exc:
        if outage.since is None:
            outage.began(exc, connected=False)
        else:
            outage.still(exc)
        return False
    outage.ended()
    worker = Worker(**worker_settings(settings, runtime, leases, notifications), redis_pool=pool,
                    handle_signals=False)
    running = asyncio.create_task(worker.async_run())
    stopping = asyncio.create_task(stop.wait())
    try:
        await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopping.cancel()
    failure = running.exception() if running.done() and not running.cancelled() else None
    if isinstance(failure, _OUTAGE):
        outage.began(failure, connected=True)
    elif failure is not None:  # not an outage: a bug, or a store error nobody mapped; never a reason to die
        log.error("the arq worker failed; starting another", exc_info=failure)
    await _close(worker, running, pool)
    return stop.is_set()


async def _close(worker: Worker, running: asyncio.Task[None], pool: ArqRedis) -> None:
    """Stop the worker: running jobs are cancelled (arq runs them again; a job that runs twice appends once)."""
    with contextlib.suppress(asyncio.CancelledError, *_OUTAGE):
        await worker.close()  # cancels the jobs and the run loop, then closes the pool
    running.cancel()
    with contextlib.suppress(asyncio.CancelledError, *_OUTAGE):
        await running
    with contextlib.suppress(*_OUTAGE):
        await pool.aclose()


async def _until_built(settings: Settings, stop: asyncio.Event) -> Runtime | None:
    """The runtime, once PostgreSQL and Redis answer (None if told to stop first)."""
    failures = 0
    while not stop.is_set():
        try:
            return await build(settings)
        except StoreUnavailable as exc:
            delay = BACKOFF.compute(failures)
            failures += 1
            log.warning("cannot start; retrying", error=str(exc), retry_in_s=round(delay, 2))
            await _pause(stop, delay)
    return None


async def _pause(stop: asyncio.Event, seconds: float) -> None:
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), seconds)
