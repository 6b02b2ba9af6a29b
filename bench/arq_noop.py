"""The arq baseline: what arq itself does on this machine with the worker's own settings and a job that does
nothing, so the service's system-job throughput can be read as a fraction of it.

    python -m bench.arq_noop worker QUEUE      # one worker process (the benchmark starts them)
    python -m bench.arq_noop backlog           # the claim under a sustained backlog (stock arq and ours)

:func:`worker_settings` takes the service worker's settings (:func:`services.ai_worker.settings.worker_settings`:
msgpack serializer, ``keep_result=0``, ``poll_delay``, ``max_jobs``, ``job_timeout``, ``max_tries``) and
replaces only the functions (one no-op), the cron job and the start-up/shut-down hooks (no database). The
process logs at INFO like ``magnate worker``, since arq logs every job and that is part of its cost.

:func:`drain_rate` enqueues N jobs due at one future instant and times how long the workers take to finish
them all (jobs/s: arq's ceiling here); :func:`latency` enqueues one job at a time and times enqueue →
finished (arq's own latency, mostly the poll delay).

:func:`backlog` measures the claim under a sustained backlog, in a Redis server of its own (it writes tens of
thousands of keys): one worker drains no-op jobs from a queue topped up to 10,000 and to 40,000 due jobs, in
alternating windows, once with stock arq's defaults (:data:`STOCK`: ``arq.worker.Worker`` given only the
function, the queue, the serializer and the Redis pool) and once with the service's settings (:data:`SERVICE`:
50 ms poll, 64 slots, a poll reads at most 64 due ids, the lease hooks). Each configuration runs in a process
of its own (:func:`_backlog_process`), which reports jobs/s per window, the most tasks the worker held, and its
CPU and the Redis server's per job.
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
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import msgspec
import psutil  # type: ignore[import-untyped]
from arq.connections import ArqRedis
from arq.constants import in_progress_key_prefix, job_key_prefix
from arq.jobs import serialize_job
from arq.worker import Worker, func, run_worker

from infra.config import Settings
from infra.queue import arq_pool, deserialize, serialize
from services.ai_worker.settings import worker_settings as service_worker_settings

from .common import REDIS_URL, ROOT, median, own_redis, percentile

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


# --- the claim under a sustained backlog ---------------------------------------------------------------

STOCK, SERVICE = "stock", "service"
"""The two worker configurations: stock arq's defaults (``poll_delay`` 0.5 s, ``max_jobs`` 10, ``queue_read_limit``
max(5 × ``max_jobs``, 100) = 100, results kept an hour, a health beat an hour) and the service's settings."""
BACKLOGS = (10_000, 40_000)
WARM_UP_S = 0.5
SAMPLE_EVERY_S = 0.005


class BacklogWindow(msgspec.Struct, frozen=True):
    """One window of one worker draining a queue that held ``queued`` due jobs when the worker started."""

    config: str
    queued: int
    jobs_s: float
    left: int
    """Due jobs still queued when the window closed."""
    most_tasks: int
    """The most entries in the worker's task table (running or finished and not yet forgotten), sampled every
    5 ms."""
    most_running: int
    worker_cpu_s: float
    redis_cpu_s: float
    jobs: int
    max_jobs: int
    """The worker's settings, as it holds them."""
    queue_read_limit: int
    poll_delay_s: float


@dataclass(frozen=True, slots=True)
class Backlog:
    config: str
    queued: int
    runs: tuple[float, ...]
    """jobs/s of each window."""
    least_left: int
    most_tasks: int
    most_running: int
    worker_cpu_ms_per_job: float
    redis_cpu_ms_per_job: float
    max_jobs: int
    """The worker's slots, the due ids one poll reads, its poll delay."""
    queue_read_limit: int
    poll_delay_s: float

    @property
    def jobs_s(self) -> float:
        return median(self.runs)


def _options(config: str, pool: ArqRedis, queue_name: str) -> dict[str, Any]:
    if config == STOCK:  # nothing but what a job needs to be found and decoded
        options: dict[str, Any] = {"functions": [func(noop, name=NOOP)], "queue_name": queue_name,
                                   "job_serializer": serialize, "job_deserializer": deserialize}
    else:  # the service worker's, leases included (see worker_settings)
        options = worker_settings("redis://unused", queue_name)
    return {**options, "redis_pool": pool, "handle_signals": False}


async def _top_up(pool: ArqRedis, queue_name: str, depth: int) -> None:
    """Enqueue due no-op jobs (as ``enqueue_job`` would, in pipelines) until ``queue_name`` holds ``depth``."""
    missing = depth - await pool.zcard(queue_name)
    prefix = uuid.uuid4().hex[:8]
    now_ms = int(time.time() * 1000)
    data = serialize_job(NOOP, (), {}, None, now_ms, serializer=serialize)
    for start in range(0, max(0, missing), 5000):
        async with pool.pipeline(transaction=False) as pipe:
            for i in range(start, min(missing, start + 5000)):
                pipe.psetex(f"{job_key_prefix}{prefix}:{i}", 3_600_000, data)
                pipe.zadd(queue_name, {f"{prefix}:{i}": now_ms})
            await pipe.execute()


async def _release_claims(pool: ArqRedis) -> None:
    """Delete every in-progress key (this Redis is ours): a job claimed by the worker just stopped, but never
    run, would otherwise block the head of the queue for the next window."""
    keys = [k async for k in pool.scan_iter(f"{in_progress_key_prefix}*", count=1000)]
    if keys:
        await pool.delete(*keys)


def _process_cpu(process: psutil.Process) -> float:
    try:
        t = process.cpu_times()
        return float(t.user + t.system)
    except psutil.Error:
        return 0.0


async def _window(config: str, pool: ArqRedis, queue_name: str, depth: int, window_s: float,
                  redis: psutil.Process) -> BacklogWindow:
    await _top_up(pool, queue_name, depth)
    worker = Worker(**_options(config, pool, queue_name))
    running = asyncio.create_task(worker.async_run())
    try:
        await asyncio.sleep(WARM_UP_S)
        most_tasks = most_running = 0
        done_before, cpu_before, redis_before = worker.jobs_complete, time.process_time(), _process_cpu(redis)
        began = time.monotonic()
        while time.monotonic() - began < window_s:
            most_tasks = max(most_tasks, len(worker.tasks))
            most_running = max(most_running, sum(not t.done() for t in worker.tasks.values()))
            await asyncio.sleep(SAMPLE_EVERY_S)
        elapsed = time.monotonic() - began
        jobs = worker.jobs_complete - done_before
        cpu, redis_cpu = time.process_time() - cpu_before, _process_cpu(redis) - redis_before
    finally:
        running.cancel()
        await asyncio.gather(running, return_exceptions=True)
        await asyncio.gather(*worker.tasks.values(), return_exceptions=True)
    left = await pool.zcard(queue_name)
    await _release_claims(pool)
    return BacklogWindow(config, depth, jobs / elapsed, left, most_tasks, most_running, cpu, redis_cpu, jobs,
                         worker.max_jobs, worker.queue_read_limit, worker.poll_delay_s)


async def _backlog_process(config: str, redis_url: str, redis_pid: int, depths: Sequence[int], rounds: int,
                           window_s: float) -> list[BacklogWindow]:
    """In the worker's process: ``rounds`` windows per depth, the depths alternating (a change in the machine's
    load weighs on each alike), each on its own queue topped up to its depth before its window."""
    pool = await arq_pool(redis_url, "unused")
    redis = psutil.Process(redis_pid)
    try:
        return [await _window(config, pool, f"backlog:{config}:{depth}", depth, window_s, redis)
                for _ in range(rounds) for depth in depths]
    finally:
        await pool.aclose()


async def backlog(depths: Sequence[int] = BACKLOGS, rounds: int = 3, window_s: float = 3.0) -> list[Backlog]:
    """Stock arq and the service's settings, one worker each (in a process of its own, as ``magnate worker``
    runs: uvloop, INFO logging), against a Redis server of the benchmark's own; results per configuration and
    depth. A window is a whole number of stock arq's 0.5 s polls, so its bursts do not alias."""
    found: list[Backlog] = []
    with own_redis() as server:
        for config in (STOCK, SERVICE):
            process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bench.arq_noop", "backlog-worker", config, server.url, str(server.pid),
                ",".join(map(str, depths)), str(rounds), str(window_s), cwd=ROOT, stdout=asyncio.subprocess.PIPE)
            out, _ = await process.communicate()
            if process.returncode:
                raise RuntimeError(f"the {config} backlog worker exited with code {process.returncode}")
            windows = msgspec.json.decode(out, type=list[BacklogWindow])
            for depth in depths:
                mine = [w for w in windows if w.queued == depth]
                jobs = sum(w.jobs for w in mine) or 1
                found.append(Backlog(
                    config, depth, tuple(w.jobs_s for w in mine), min(w.left for w in mine),
                    max(w.most_tasks for w in mine), max(w.most_running for w in mine),
                    sum(w.worker_cpu_s for w in mine) * 1000 / jobs, sum(w.redis_cpu_s for w in mine) * 1000 / jobs,
                    mine[0].max_jobs, mine[0].queue_read_limit, mine[0].poll_delay_s))
            client = await arq_pool(server.url, "unused")
            try:
                await client.flushall()  # the next configuration starts from an empty server
            finally:
                await client.aclose()
    return found


def _new_loop() -> asyncio.AbstractEventLoop:
    """uvloop when it is installed, as ``magnate worker`` runs."""
    try:
        import uvloop  # noqa: PLC0415
    except ImportError:
        return asyncio.new_event_loop()
    return uvloop.new_event_loop()


LOG_FORMAT = "%(asctime)s %(levelname)-7s %(name)s: %(message)s"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) == 2 and args[0] == "worker":
        # exactly as `magnate worker` runs: INFO logging, uvloop when installed
        logging.basicConfig(level=logging.INFO, format=LOG_FORMAT)
        asyncio.set_event_loop(_new_loop())
        run_worker(worker_settings(REDIS_URL, args[1]))
        return 0
    if len(args) == 7 and args[0] == "backlog-worker":
        config, url, pid, depths, rounds, window_s = args[1:]
        # as `magnate worker` runs (INFO logging: arq logs every job, part of its cost; uvloop), the log lines
        # written but not kept; stdout carries the result
        with open(os.devnull, "w", encoding="utf-8") as devnull, asyncio.Runner(loop_factory=_new_loop) as runner:
            logging.basicConfig(level=logging.INFO, stream=devnull, format=LOG_FORMAT)
            windows = runner.run(_backlog_process(config, url, int(pid), [int(d) for d in depths.split(",")],
                                                  int(rounds), float(window_s)))
        sys.stdout.buffer.write(msgspec.json.encode(windows))
        return 0
    if args and args[0] == "backlog":
        for b in asyncio.run(backlog()):
            print(f"{b.config} at {b.queued:,} queued: {b.jobs_s:.0f} jobs/s "
                  f"({' / '.join(f'{x:.0f}' for x in b.runs)}), at most {b.most_tasks} tasks held "
                  f"({b.most_running} running), worker {b.worker_cpu_ms_per_job:.2f} ms and Redis "
                  f"{b.redis_cpu_ms_per_job:.2f} ms CPU per job, {b.least_left:,} left at the least")
        return 0
    workers = int(args[0]) if args else 1
    result = asyncio.run(measure(REDIS_URL, workers))
    print(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
