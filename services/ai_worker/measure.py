"""Every job run, counted and logged in one place: :func:`measured` wraps each arq job function at registration
(:func:`.settings.functions`).

A run's outcome is what became of it:

* ``ok`` — it did its work (the function returned anything but False);
* ``stale`` — nothing left to do (it returned False: a duplicate, a job the game moved past, a reminder already
  sent);
* ``retried`` — it raised arq's ``Retry`` (the stores are away, a delivery backs off, a timer came early): arq runs
  it again later;
* ``failed`` — it raised anything else, or said it gave up (``ctx[OUTCOME] = FAILED``, when its return value
  must stay False for arq);
* ``cancelled`` — the worker stopped, or the job timed out: arq runs it again.

Each run counts in ``magnate_jobs_total{kind, outcome}`` and ``magnate_job_run_seconds``; a run that ends the job
(ok, stale, failed) also observes ``magnate_job_latency_seconds``: from its due moment (arq's ``score``) to now.
Each run writes one log line, ``job run``, with the job's kind, id, try, outcome and times, and whatever the job
bound (its game and version): arq's own two lines per job are turned down (``infra.logs.QUIET``). The job runs in a
task of its own, so its logging context is its own.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, cast

from arq.typing import WorkerCoroutine
from arq.utils import timestamp_ms
from arq.worker import Retry
from structlog.contextvars import bind_contextvars, clear_contextvars

from infra import metrics
from infra.logs import get_logger

log = get_logger("magnate.worker")

OK = "ok"
STALE = "stale"
RETRIED = "retried"
FAILED = "failed"
CANCELLED = "cancelled"
ENDED = frozenset({OK, STALE, FAILED})
"""Outcomes after which arq forgets the job: their latency is due -> done."""
OUTCOME = "outcome"
"""The ``ctx`` key a job sets when its return value cannot say how it ended (it gave up, returning False)."""


def measured(kind: str, job: WorkerCoroutine) -> WorkerCoroutine:
    """``job`` counted, timed and logged under ``kind`` (the name arq runs it by)."""

    async def run(ctx: dict[str, Any], *args: Any, **kwargs: Any) -> Any:
        clear_contextvars()
        bind_contextvars(job=kind, job_id=ctx.get("job_id"), job_try=ctx.get("job_try"))
        started = time.perf_counter()
        outcome = FAILED
        try:
            result = await job(ctx, *args, **kwargs)
        except Retry:
            outcome = RETRIED
            raise
        except asyncio.CancelledError:
            outcome = CANCELLED
            raise
        else:
            outcome = ctx.get(OUTCOME) or (STALE if result is False else OK)
            return result
        finally:
            _record(kind, outcome, ctx.get("score"), time.perf_counter() - started)

    run.__name__ = run.__qualname__ = getattr(job, "__name__", kind)
    run.__doc__ = job.__doc__
    return cast(WorkerCoroutine, run)


def _record(kind: str, outcome: str, due_ms: Any, run_s: float) -> None:
    metrics.JOBS.labels(kind, outcome).inc()
    metrics.JOB_RUN_SECONDS.labels(kind).observe(run_s)
    fields: dict[str, Any] = {"outcome": outcome, "run_s": round(run_s, 4)}
    if outcome in ENDED and isinstance(due_ms, int):
        latency_s = max(0.0, (timestamp_ms() - due_ms) / 1000)
        metrics.JOB_LATENCY.labels(kind).observe(latency_s)
        fields["latency_s"] = round(latency_s, 4)
    if outcome == FAILED:
        log.warning("job run", **fields)
    else:
        log.info("job run", **fields)
