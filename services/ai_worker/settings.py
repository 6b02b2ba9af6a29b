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
* ``queue_read_limit`` = ``max_jobs`` — the due ids one poll reads (arq's default is five times
  ``max_jobs``): a poll then starts at most a full set of slots, so finished tasks are forgotten and the
  health beat recorded after every ``max_jobs`` jobs, however long the backlog.
* ``job_timeout`` = ``worker_job_timeout_s`` (60 s) — far above any real job (an AI turn included),
  short enough that a hung job is cancelled and retried rather than holding its slot.
* ``max_tries`` = :data:`jobs.MAX_TRIES` — a job retries (``Retry`` with back-off) only while the
  stores are unavailable; after that it is dropped and the reconciler re-enqueues it later.
* ``on_startup`` runs the reconciler once, so jobs lost with a Redis queue (or never enqueued because a
  process died right after an append) are re-enqueued as soon as a worker (re)starts; it builds the runtime
  (pools, the gameplay service) only for a worker run on its own (tests, benchmarks): ``magnate worker``
  builds it once and keeps it across reconnections to Redis (:mod:`.worker`).
* ``on_job_start`` / ``after_job_end`` — :class:`.leases.Leases`: a started job's claim is a lease of a few
  seconds that the living worker renews, so a job whose worker was killed starts again within seconds.
* ``health_check_interval`` = ``worker_health_check_s`` (10 s; arq's default is an hour) — the
  ``<queue>:health-check`` key says when each worker last polled and what it has done.
* ``notify.deliver`` (:func:`jobs.deliver_notification`) delivers one notification; its job id is the delivery's
  id, and ``ctx["notifications"]`` is the notifications service (:mod:`services.notifications.service`), the one
  the runtime built.
* ``table.deadline`` / ``table.remind`` (:mod:`services.gameplay.clocks`): a seat's timeout and the reminder
  before it, deferred to their moments; ids ``{game_id}:{deadline}:{kind}:{seat}``, one per clock run.
* Every function is wrapped by :func:`.measure.measured`: each run counts in ``magnate_jobs_total`` by kind and
  outcome and writes one structured log line with its game (arq's own per-job lines are turned down).
* No arq cron jobs: the periodic reconciler runs beside the worker (:mod:`.upkeep`), so an idle worker
  writes nothing to its log (a cron job logs its start and end at INFO on every run).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

import msgspec
from arq.worker import Function, func

from domain.kernel import GameModule
from infra.config import Settings
from infra.errors import StoreUnavailable
from infra.queue import redis_settings
from services.gameplay.bootstrap import Runtime, build
from services.gameplay.clocks import DEADLINE, REMIND
from services.gameplay.plans import PLANNED_MOVE
from services.gameplay.registry import games_of
from services.notifications.dispatch import DELIVER
from services.notifications.service import Notifications

from . import jobs
from .leases import Leases
from .measure import measured
from .planning import planned_move_job

log = logging.getLogger("magnate.worker")


async def startup(ctx: dict[str, Any]) -> None:
    settings: Settings = ctx["settings"]
    if "runtime" not in ctx:  # a worker run on its own: its runtime lives as long as it does
        runtime = await build(settings)
        ctx["runtime"], ctx["gameplay"], ctx["owns_runtime"] = runtime, runtime.gameplay, True
    if "notifications" not in ctx:  # the runtime's: built once with it, closed with it
        ctx["notifications"] = ctx["runtime"].notifications
    count = await jobs.reconcile(ctx)
    log.info("worker ready on queue %r (%d due job(s) re-enqueued)", settings.queue_name, count)


async def shutdown(ctx: dict[str, Any]) -> None:
    if ctx.pop("owns_runtime", False):
        runtime: Runtime = ctx.pop("runtime")
        ctx.pop("gameplay", None)
        ctx.pop("notifications", None)  # the runtime's, closed with it
        await runtime.close()


def functions(games: Mapping[str, GameModule[Any]]) -> list[Function]:
    """Every job the worker runs (a system job per system command kind of ``games``), each counted and logged by
    :func:`.measure.measured`."""
    return [*(func(measured(kind, jobs.system_job(kind)), name=kind, max_tries=jobs.MAX_TRIES)
              for kind in jobs.system_kinds(games)),
            func(measured(DELIVER, jobs.deliver_notification), name=DELIVER, max_tries=jobs.DELIVER_MAX_TRIES),
            func(measured(DEADLINE, jobs.deadline_job), name=DEADLINE, max_tries=jobs.DELIVER_MAX_TRIES),
            func(measured(REMIND, jobs.reminder_job), name=REMIND, max_tries=jobs.MAX_TRIES),
            func(measured(PLANNED_MOVE, planned_move_job), name=PLANNED_MOVE, max_tries=jobs.MAX_TRIES)]


def worker_settings(
    settings: Settings, runtime: Runtime | None = None, leases: Leases | None = None,
    notifications: Notifications | None = None,
) -> dict[str, Any]:
    """Keyword arguments for ``arq.worker.Worker`` (see the module docstring). With ``runtime`` (and
    ``notifications``) the worker uses them (and leaves them open); without, it builds its own at start-up and
    closes them at shutdown."""
    if not settings.redis_url:
        raise StoreUnavailable("REDIS_URL must be set for a worker (or use `magnate run` for an embedded one)")
    leases = leases or Leases()
    ctx: dict[str, Any] = {"settings": settings}
    if runtime is not None:
        ctx.update(runtime=runtime, gameplay=runtime.gameplay)
    if notifications is not None:
        ctx["notifications"] = notifications
    return {
        "functions": functions(games_of(settings)),
        "redis_settings": redis_settings(settings.redis_url),
        "queue_name": settings.queue_name,
        "job_serializer": msgspec.msgpack.encode,
        "job_deserializer": msgspec.msgpack.decode,
        "keep_result": 0,
        "max_jobs": settings.worker_max_jobs,
        "queue_read_limit": settings.worker_max_jobs,
        "poll_delay": settings.worker_poll_delay_s,
        "job_timeout": settings.worker_job_timeout_s,
        "max_tries": jobs.MAX_TRIES,
        "health_check_interval": settings.worker_health_check_s,
        "on_startup": startup,
        "on_shutdown": shutdown,
        "on_job_start": leases.on_job_start,
        "after_job_end": leases.after_job_end,
        "ctx": ctx,
    }
