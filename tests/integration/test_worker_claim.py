"""The worker's one-round-trip claim keeps arq's guarantees: of workers racing for a job one runs it; a job
already running elsewhere, finished, or deferred into the future is not started."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from arq.connections import ArqRedis
from arq.constants import in_progress_key_prefix
from arq.utils import timestamp_ms
from arq.worker import func

from infra.queue import ArqJobQueue, Job, arq_pool, deserialize, serialize
from services.ai_worker.worker import MagnateWorker

pytestmark = [
    pytest.mark.integration,
    pytest.mark.filterwarnings("ignore:Call to deprecated close:DeprecationWarning"),
]


@pytest.fixture
async def pool(redis_url: str, queue_name: str) -> AsyncIterator[ArqRedis]:
    pool = await arq_pool(redis_url, queue_name)
    try:
        yield pool
    finally:
        await pool.aclose()


def worker(pool: ArqRedis, queue_name: str, ran: list[tuple[str, int]]) -> MagnateWorker:
    async def kind(ctx: dict[str, Any], game_id: str, version: int) -> None:
        await asyncio.sleep(0.05)  # long enough for a rival to try the same job meanwhile
        ran.append((game_id, version))

    return MagnateWorker(functions=[func(kind, name="kind")], redis_pool=pool, queue_name=queue_name,
                         job_serializer=serialize, job_deserializer=deserialize, keep_result=0,
                         handle_signals=False, burst=True, poll_delay=0)


async def finish(*workers: MagnateWorker) -> None:
    for w in workers:
        await asyncio.gather(*w.tasks.values())


async def test_of_workers_racing_for_a_job_exactly_one_runs_it(pool: ArqRedis, queue_name: str) -> None:
    ran: list[tuple[str, int]] = []
    job = Job(queue_name, 3, "kind")  # the game id is the queue's: arq's job keys outlive the queue
    assert await ArqJobQueue(pool).enqueue(job)
    rivals = [worker(pool, queue_name, ran) for _ in range(4)]
    await asyncio.gather(*(w.start_jobs([job.job_id.encode()]) for w in rivals))
    await finish(*rivals)
    assert ran == [(queue_name, 3)]
    assert await pool.zcard(queue_name) == 0  # finished: gone from the queue
    # a job that finished is not run again by a worker that read its id before it was removed
    late = worker(pool, queue_name, ran)
    await late.start_jobs([job.job_id.encode()])
    await finish(late)
    assert ran == [(queue_name, 3)]


async def test_a_job_running_elsewhere_or_not_yet_due_is_not_started(pool: ArqRedis, queue_name: str) -> None:
    ran: list[tuple[str, int]] = []
    busy, later = Job(queue_name, 1, "kind"), Job(queue_name, 2, "kind")
    assert await ArqJobQueue(pool).enqueue(busy)
    await pool.psetex(in_progress_key_prefix + busy.job_id, 60_000, b"1")  # another worker holds it
    assert await ArqJobQueue(pool).enqueue(later)
    await pool.zadd(queue_name, {later.job_id: timestamp_ms() + 60_000})  # deferred a minute
    w = worker(pool, queue_name, ran)
    await w.start_jobs([busy.job_id.encode(), later.job_id.encode()])
    await finish(w)
    assert ran == []
    assert w.job_counter == 0  # both slots given back
    assert await pool.zcard(queue_name) == 2
