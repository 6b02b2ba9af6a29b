"""The arq baseline: what arq itself does on this machine with the worker's own settings and a job that does
nothing, so the service's system-job throughput can be read as a fraction of it.

    python -m bench.arq_noop worker QUEUE      # one worker process (the benchmark starts them)

:func:`worker_settings` takes the service worker's settings (:func:`services.ai_worker.settings.worker_settings`:
msgpack serializer, ``keep_result=0``, ``poll_delay``, ``max_jobs``, ``job_timeout``, ``max_tries``) and
replaces only the functions (one no-op), the cron job and the start-up/shut-down hooks (no database). The
process logs at INFO like ``magnate worker``, since arq logs every job and that is part of its cost.

:func:`drain_rate` enqueues N jobs due at one future instant and times how long the workers take to finish
them all (jobs/s: arq's ceiling here); :func:`latency` enqueues one job at a time and times enqueue →
finished (arq's own latency, mostly the poll delay).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass
from typing import Any

import psutil  # type: ignore[import-untyped]
from arq.connections import ArqRedis
from arq.constants import job_key_prefix
from arq.jobs import serialize_job
from arq.worker import func, run_worker

from infra.config import Settings
from infra.queue import arq_pool, serialize
from services.ai_worker.settings import worker_settings as service_worker_settings

from .common import REDIS_URL, ROOT, median, percentile

NOOP = "bench.noop"


async def noop(ctx: dict[str, Any], *args: Any) -> None:
    return None


def worker_settings(redis_url: str, queue_name: str) -> dict[str, Any]:
    settings = service_worker_settings(Settings(redis_url=redis_url, queue_name=queue_name))
    settings.update(functions=[func(noop, name=NOOP)], on_startup=None, on_shutdown=None, ctx={})
    return settings


def spawn_workers(redis_url: str, queue_name: str, workers: int) -> list[subprocess.Popen[bytes]]:
    env = {"MAGNATE_BENCH_REDIS_URL": redis_url}
    return [
        subprocess.Popen([sys.executable, "-m", "bench.arq_noop", "worker", queue_name], cwd=ROOT,
                         env={**os.environ, **env}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(workers)
    ]


def _cpu(processes: list[subprocess.Popen[bytes]]) -> float:
    total = 0.0
    for p in processes:
        with contextlib.suppress(psutil.Error):
            times = psutil.Process(p.pid).cpu_times()
            total += times.user + times.system
    return total


def stop(processes: list[subprocess.Popen[bytes]]) -> None:
    for p in processes:
        if p.poll() is None:
            p.terminate()
    for p in processes:
        try:
            p.wait(timeout=20)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


async def _drained(pool: ArqRedis, queue_name: str, timeout_s: float = 120.0) -> float:
    """Wait until the queue is empty (arq removes a job from it when it finishes); returns that moment."""
    deadline = time.monotonic() + timeout_s
    while await pool.zcard(queue_name):
        if time.monotonic() > deadline:
            raise TimeoutError(f"arq queue {queue_name} did not drain within {timeout_s:.0f} s")
        await asyncio.sleep(0.002)
    return time.monotonic()


@dataclass(frozen=True, slots=True)
class ArqBaseline:
    workers: int
    jobs: int
    jobs_s: float
    """No-op jobs per second, all due at once, until the last one finished (median of the repetitions)."""
    runs: tuple[float, ...]
    latency_p50_ms: float
    latency_p99_ms: float
    """One job at a time: enqueue → finished."""
    jobs_per_cpu_s: float
    """No-op jobs per CPU second of the worker processes, over the timed runs: arq's cost per job, whatever
    else the machine was doing."""


async def drain_rate(pool: ArqRedis, queue_name: str, jobs: int) -> float:
    """Write ``jobs`` jobs (as ``enqueue_job`` would, but in one pipeline) due one second from now, then time
    the workers from that instant until the queue is empty."""
    prefix = uuid.uuid4().hex[:8]
    now_ms = int(time.time() * 1000)
    due_ms = now_ms + 1000 + jobs // 5
    data = serialize_job(NOOP, (), {}, None, now_ms, serializer=serialize)
    async with pool.pipeline(transaction=False) as pipe:
        for i in range(jobs):
            pipe.psetex(f"{job_key_prefix}{prefix}:{i}", 3_600_000, data)
            pipe.zadd(queue_name, {f"{prefix}:{i}": due_ms})
        await pipe.execute()
    wait = due_ms / 1000 - time.time()
    if wait < 0:
        raise RuntimeError("enqueueing took longer than planned; raise the deferral")
    await asyncio.sleep(wait)
    began = time.monotonic()
    finished = await _drained(pool, queue_name)
    return jobs / (finished - began)


async def latency(pool: ArqRedis, queue_name: str, samples: int) -> list[float]:
    out = []
    for i in range(samples):
        began = time.monotonic()
        await pool.enqueue_job(NOOP, _job_id=f"lat:{uuid.uuid4().hex[:8]}:{i}")
        out.append(await _drained(pool, queue_name) - began)
    return out


async def measure(redis_url: str, workers: int, jobs: int = 4000, repeats: int = 3,
                  samples: int = 40) -> ArqBaseline:
    queue_name = f"magnate:bench:arq:{uuid.uuid4().hex[:8]}"
    processes = spawn_workers(redis_url, queue_name, workers)
    pool = await arq_pool(redis_url, queue_name)
    try:
        # warm-up: every worker polling (each takes a share of a burst once it is up)
        await asyncio.sleep(1.0)
        await drain_rate(pool, queue_name, 200)
        before = _cpu(processes)
        runs = [await drain_rate(pool, queue_name, jobs) for _ in range(repeats)]
        used = _cpu(processes) - before
        lat = await latency(pool, queue_name, samples)
        return ArqBaseline(workers, jobs, median(runs), tuple(runs), median(lat) * 1000,
                           percentile(lat, 0.99) * 1000, jobs * repeats / used if used else 0.0)
    finally:
        stop(processes)
        keys = [k async for k in pool.scan_iter(f"{queue_name}*")]
        if keys:
            await pool.delete(*keys)
        await pool.aclose()


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) == 2 and args[0] == "worker":
        # exactly as `magnate worker` runs: INFO logging, uvloop when installed
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)-7s %(name)s: %(message)s")
        with contextlib.suppress(ImportError):
            import uvloop  # noqa: PLC0415

            asyncio.set_event_loop(uvloop.new_event_loop())
        run_worker(worker_settings(REDIS_URL, args[1]))
        return 0
    workers = int(args[0]) if args else 1
    result = asyncio.run(measure(REDIS_URL, workers))
    print(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
