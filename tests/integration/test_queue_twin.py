"""The job queue's contract and its depth, run against the REAL Redis (:class:`infra.queue.ArqJobQueue`, sampled by
:func:`infra.queue.queue_depth`) and the in-memory twin (:class:`infra.memory_queue.InMemoryJobQueue`): a job id is
queued once, a timer waits until its moment, and the depth counts what is due, what is scheduled and how long the
oldest due job has waited. Also the health probes: each answers True while its store answers."""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import asyncpg
import pytest
from arq.connections import ArqRedis
from arq.utils import timestamp_ms

from infra.memory_queue import InMemoryJobQueue
from infra.probes import database_ok, in_process_ok, redis_ok
from infra.queue import ArqJobQueue, Job, JobQueue, QueueDepth, Timer, queue_depth

pytestmark = pytest.mark.integration


@dataclass
class Queue:
    jobs: JobQueue
    depth: Callable[[], Awaitable[QueueDepth]]


@pytest.fixture(params=["memory", "redis"])
def queue(request: pytest.FixtureRequest) -> Queue:
    if request.param == "memory":
        twin = InMemoryJobQueue()
        return Queue(twin, twin.depth)
    arq: ArqRedis = request.getfixturevalue("arq_redis")
    name: str = request.getfixturevalue("queue_name")
    return Queue(ArqJobQueue(arq), lambda: queue_depth(arq, name))


async def test_an_empty_queue_has_no_depth(queue: Queue) -> None:
    assert await queue.depth() == QueueDepth(0, 0, 0.0)


async def test_a_job_id_is_queued_once_and_counted_due(queue: Queue) -> None:
    game = f"g-{uuid.uuid4().hex}"  # arq's job keys are the Redis server's, whatever the queue
    job = Job(game, 3, "roll_dice")
    assert await queue.jobs.enqueue(job)
    assert not await queue.jobs.enqueue(job)
    assert await queue.jobs.enqueue(Job(game, 4, "roll_dice"))
    depth = await queue.depth()
    assert (depth.due, depth.scheduled) == (2, 0) and 0 <= depth.oldest_due_s < 5


async def test_a_timer_is_scheduled_until_its_moment(queue: Queue) -> None:
    game = f"g-{uuid.uuid4().hex}"
    later = Timer(game, "time_out", 0, deadline=1, due_ms=timestamp_ms() + 3_600_000)
    assert await queue.jobs.schedule(later)
    assert not await queue.jobs.schedule(later)
    past = Timer(game, "time_out", 1, deadline=2, due_ms=timestamp_ms() - 1_000)
    assert await queue.jobs.schedule(past)  # overdue: due now
    depth = await queue.depth()
    assert (depth.due, depth.scheduled) == (1, 1)


async def test_the_probes_answer_while_their_stores_do(pg_pool: asyncpg.Pool, arq_redis: ArqRedis) -> None:
    assert await database_ok(pg_pool)
    assert await redis_ok(arq_redis)
    assert await in_process_ok()
