"""arq settings of the worker, built from :class:`infra.config.Settings` by :func:`worker_settings`.

Why each setting is what it is:

* ``functions`` — one job per system command kind of every game (:func:`jobs.system_kinds`), named
  after the kind (``"magnate.roll_dice"``), because the gameplay service enqueues ``Job.kind`` as the
  function name. Arguments are primitives only: ``(game_id, version)``.
* ``job_serializer`` / ``job_deserializer`` — msgpack through msgspec, on the pool *and* the worker;
  arq's default is pickle, which would let whoever can write to Redis run code in the worker.
* Job ids are deterministic, ``{game_id}:{version}:{kind}`` (see :mod:`infra.queue`): the service
  after an append and the reconciler may both enqueue the same due job, and arq refuses a second job
  with an id that is queued or running, so it is queued once.
* **A job may run twice** anyway (arq delivers at least once: a worker killed mid-job, a timeout, a
  retry). That is safe because the job re-checks the stream: if the game is no longer at
  ``version`` or no longer waits for ``kind``, it does nothing, and the append carries the expected
  version plus a command id derived from ``(version, kind)``, so two racing runs append once.
* ``keep_result = 0`` — nobody reads job results (the event log is the result), and a kept result
  would also block re-enqueueing the same job id until it expired.
* ``poll_delay`` = ``worker_poll_delay_s`` (0.05 s) instead of arq's 0.5 s — system jobs are short
  (one fold and one append, a few milliseconds) and a player waits on each die roll, so the latency
  between enqueue and pick-up dominates; polling a sorted set 20 times a second is cheap.
* ``max_jobs`` = ``worker_max_jobs`` (64) — jobs are I/O-bound and belong to independent games, so
  one process runs many at once; the database pool (``db_pool_size``) is the real limit.
* ``job_timeout`` = ``worker_job_timeout_s`` (60 s) — far above any real job (an AI turn included),
  short enough that a hung job is cancelled and retried rather than holding its slot.
* ``max_tries`` = :data:`jobs.MAX_TRIES` — a job retries (``Retry`` with back-off) only while the
  stores are unavailable; after that it is dropped and the reconciler re-enqueues it later.
* ``on_startup`` builds the runtime (pools, the gameplay service) and runs the reconciler once, so
  jobs lost with a Redis queue (or never enqueued because a process died right after an append) are
  re-enqueued as soon as a worker starts; ``on_shutdown`` closes the pools.
* ``cron_jobs`` — the reconciler again every ``reconcile_every_s`` seconds (``unique``, so with many
  workers it runs once per tick), which bounds how long a lost job stays lost.
"""

from __future__ import annotations

import logging
from typing import Any

import msgspec
from arq.cron import CronJob, cron
from arq.worker import Function, func

from infra.config import Settings
from infra.errors import StoreUnavailable
from infra.queue import redis_settings
from services.gameplay.bootstrap import GAMES, Runtime, build

from . import jobs

log = logging.getLogger("magnate.worker")


async def startup(ctx: dict[str, Any]) -> None:
    settings: Settings = ctx["settings"]
    runtime = await build(settings)
    ctx["runtime"] = runtime
    ctx["gameplay"] = runtime.gameplay
    count = await jobs.reconcile(ctx)
    log.info("worker ready on queue %r (%d due job(s) re-enqueued)", settings.queue_name, count)


async def shutdown(ctx: dict[str, Any]) -> None:
    runtime: Runtime | None = ctx.pop("runtime", None)
    ctx.pop("gameplay", None)
    if runtime is not None:
        await runtime.close()


def reconcile_schedule(every_s: int) -> tuple[set[int] | None, set[int]]:
    """arq cron ``(minute, second)`` sets for "every ``every_s`` seconds": seconds of every minute below
    a minute, else whole minutes (a period that does not divide 60 restarts at each full minute/hour)."""
    every_s = max(1, every_s)
    if every_s < 60:
        return None, set(range(0, 60, every_s))
    return set(range(0, 60, min(59, every_s // 60))), {0}


def functions() -> list[Function]:
    return [func(jobs.system_job(kind), name=kind, max_tries=jobs.MAX_TRIES) for kind in jobs.system_kinds(GAMES)]


def cron_jobs(settings: Settings) -> list[CronJob]:
    minute, second = reconcile_schedule(settings.reconcile_every_s)
    return [cron(jobs.reconcile, name="magnate.reconcile", minute=minute, second=second, unique=True,
                 max_tries=1, keep_result=0)]


def worker_settings(settings: Settings) -> dict[str, Any]:
    """Keyword arguments for ``arq.worker.Worker`` / ``run_worker`` (see the module docstring)."""
    if not settings.redis_url:
        raise StoreUnavailable("REDIS_URL must be set for a worker (or use `magnate run` for an embedded one)")
    return {
        "functions": functions(),
        "cron_jobs": cron_jobs(settings),
        "redis_settings": redis_settings(settings.redis_url),
        "queue_name": settings.queue_name,
        "job_serializer": msgspec.msgpack.encode,
        "job_deserializer": msgspec.msgpack.decode,
        "keep_result": 0,
        "max_jobs": settings.worker_max_jobs,
        "poll_delay": settings.worker_poll_delay_s,
        "job_timeout": settings.worker_job_timeout_s,
        "max_tries": jobs.MAX_TRIES,
        "on_startup": startup,
        "on_shutdown": shutdown,
        "ctx": {"settings": settings},
    }
