"""The arq adapter's enqueue against the real Redis: a job id is queued once, and an announcing queue tells
the game's event streams the version in the same call, also when the job was already queued."""

from __future__ import annotations

import asyncio

import pytest
from arq.connections import ArqRedis
from arq.constants import job_key_prefix

from infra.notify import channel, listen_channels
from infra.queue import ArqJobQueue, Job
from services.gameplay.bootstrap import redis_client

pytestmark = [
    pytest.mark.integration,
    pytest.mark.filterwarnings("ignore:Call to deprecated close:DeprecationWarning"),
]



async def test_a_job_id_is_queued_once(arq_redis: ArqRedis, queue_name: str) -> None:
    queue = ArqJobQueue(arq_redis)
    job = Job(f"game-q-{queue_name}", 4, "magnate.roll_dice")  # arq's job keys outlive the queue
    assert await queue.enqueue(job)
    assert not await queue.enqueue(job)
    assert [raw.decode() for raw in await arq_redis.zrange(queue_name, 0, -1)] == [job.job_id]
    assert await arq_redis.exists(job_key_prefix + job.job_id)


async def test_an_announcing_queue_publishes_the_version(arq_redis: ArqRedis, redis_url: str, queue_name: str) -> None:
    redis = redis_client(redis_url)
    heard: list[int] = []

    async def listen() -> None:  # the raw channel: a stream's listener passes on only versions it has not seen
        async for message in listen_channels(redis, [channel(f"game-a-{queue_name}")], timeout_s=2.0):
            if message is not None:  # None: a quiet moment
                heard.append(int(message[1]))
            if len(heard) == 2:
                return

    try:
        listener = asyncio.create_task(listen())
        await asyncio.sleep(0.2)  # subscribed
        queue = ArqJobQueue(arq_redis)
        job = Job(f"game-a-{queue_name}", 9, "magnate.ai_turn")
        assert await queue.enqueue_announcing(job)
        assert not await queue.enqueue_announcing(job)  # refused as a job, still announced
        await asyncio.wait_for(listener, 5)
        assert heard == [9, 9]
    finally:
        await redis.aclose()
