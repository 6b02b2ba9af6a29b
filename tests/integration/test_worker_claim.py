"""The worker's batch claim keeps arq's guarantees: of workers racing for a job one runs it; a job already
running elsewhere, finished, or deferred into the future is not started; a worker takes no more jobs than it
has free slots, and leaves the rest to the others."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from arq.connections import ArqRedis
from arq.constants import in_progress_key_prefix
from arq.utils import timestamp_ms
from arq.worker import func

from infra.queue import ArqJobQueue, Job, deserialize, serialize
from services.ai_worker.worker import MagnateWorker

pytestmark = [
    pytest.mark.integration,
    pytest.mark.filterwarnings("ignore:Call to deprecated close:DeprecationWarning"),
]



def worker(pool: ArqRedis, queue_name: str, ran: list[tuple[str, int]], max_jobs: int = 10) -> MagnateWorker:
    async def kind(ctx: dict[str, Any], game_id: str, version: int) -> None:
        await asyncio.sleep(0.05)  # long enough for a rival to try the same job meanwhile
        ran.append((game_id, version))

    return MagnateWorker(functions=[func(kind, name="kind")], redis_pool=pool, queue_name=queue_name,
                         job_serializer=serialize, job_deserializer=deserialize, keep_result=0,
                         handle_signals=False, burst=True, poll_delay=0, max_jobs=max_jobs)


async def finish(*workers: MagnateWorker) -> None:
    for w in workers:
        await asyncio.gather(*w.tasks.values())


async def test_of_workers_racing_for_a_job_exactly_one_runs_it(arq_redis: ArqRedis, queue_name: str) -> None:
    ran: list[tuple[str, int]] = []
    job = Job(queue_name, 3, "kind")  # the game id is the queue's: arq's job keys outlive the queue
    assert await ArqJobQueue(arq_redis).enqueue(job)
    rivals = [worker(arq_redis, queue_name, ran) for _ in range(4)]
    await asyncio.gather(*(w._poll_iteration() for w in rivals))
    await finish(*rivals)
    assert ran == [(queue_name, 3)]
    assert await arq_redis.zcard(queue_name) == 0  # finished: gone from the queue
    # a job that finished is not run again by a worker that read its id before it was removed
    late = worker(arq_redis, queue_name, ran)
    await late._poll_iteration()
    await finish(late)
    assert ran == [(queue_name, 3)]


async def test_a_job_running_elsewhere_or_not_yet_due_is_not_started(arq_redis: ArqRedis, queue_name: str) -> None:
    ran: list[tuple[str, int]] = []
    busy, later = Job(queue_name, 1, "kind"), Job(queue_name, 2, "kind")
    assert await ArqJobQueue(arq_redis).enqueue(busy)
    await arq_redis.psetex(in_progress_key_prefix + busy.job_id, 60_000, b"1")  # another worker holds it
    assert await ArqJobQueue(arq_redis).enqueue(later)
    await arq_redis.zadd(queue_name, {later.job_id: timestamp_ms() + 60_000})  # deferred a minute
    w = worker(arq_redis, queue_name, ran)
    await w._poll_iteration()
    await finish(w)
    assert ran == []
    assert w.job_counter == 0  # both slots given back
    assert await arq_redis.zcard(queue_name) == 2


async def test_workers_hold_no_more_jobs_than_their_slots_and_run_each_once(
    arq_redis: ArqRedis, queue_name: str
) -> None:
    queue = ArqJobQueue(arq_redis)
    for version in range(1, 21):
        assert await queue.enqueue(Job(queue_name, version, "kind"))
    ran: list[tuple[str, int]] = []
    small, other = worker(arq_redis, queue_name, ran, max_jobs=3), worker(arq_redis, queue_name, ran, max_jobs=5)
    peaks = {id(small): 0, id(other): 0}

    async def watch() -> None:
        while True:
            for w in (small, other):
                peaks[id(w)] = max(peaks[id(w)], sum(not t.done() for t in w.tasks.values()))
            await asyncio.sleep(0.005)

    watcher = asyncio.create_task(watch())
    await asyncio.gather(small._poll_iteration(), other._poll_iteration())  # one poll each drains the queue
    await finish(small, other)
    watcher.cancel()
    assert sorted(v for _, v in ran) == list(range(1, 21))
    assert 1 <= peaks[id(small)] <= 3 and 1 <= peaks[id(other)] <= 5
    assert await arq_redis.zcard(queue_name) == 0
