"""The event streams' one Redis subscription per process (:mod:`infra.fanout`), against the real Redis: waiters
share one connection, a wake-up that comes while nobody waits is kept, a channel is left with its last waiter, and
the subscription comes back (with a re-read) after its connection is killed or Redis restarts."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis

from infra.fanout import QUIET, Fanout, Heard, Waiter
from services.gameplay.bootstrap import redis_client
from tests.chaos.stores import Redis as RedisServer

pytestmark = [pytest.mark.integration]

WAIT_S = 10.0


@pytest.fixture
async def redis(redis_url: str) -> AsyncIterator[Redis]:
    client = redis_client(redis_url)
    try:
        yield client
    finally:
        await client.aclose()


@pytest.fixture
async def fanout(redis: Redis) -> AsyncIterator[Fanout]:
    hub = Fanout(redis, f"magnate-test-fanout:{uuid.uuid4().hex[:10]}", poll_s=0.02)
    try:
        yield hub
    finally:
        await hub.aclose()


def a_channel() -> str:
    return f"magnate:test:game:{uuid.uuid4().hex[:10]}"


async def clients_named(redis: Redis, name: str) -> list[dict[str, str]]:
    return [c for c in await redis.client_list() if c.get("name") == name]


async def subscribers(redis: Redis, name: str) -> int:
    return int((await redis.pubsub_numsub(name))[0][1])


async def until_subscribers(redis: Redis, name: str, count: int) -> None:
    async with asyncio.timeout(WAIT_S):
        while await subscribers(redis, name) != count:
            await asyncio.sleep(0.01)


async def next_tick(waiter: Waiter) -> Heard:
    async with asyncio.timeout(WAIT_S):
        return await anext(waiter)


async def subscribed(waiter: Waiter) -> None:
    """The first tick: the subscription is confirmed, re-read (None)."""
    assert await next_tick(waiter) is None


async def test_waiters_share_one_connection_and_each_hears_the_version(redis: Redis, fanout: Fanout) -> None:
    names = [a_channel(), a_channel()]
    waiters = [fanout.listen(names[i % 2], timeout_s=WAIT_S) for i in range(50)]
    for waiter in waiters:
        await subscribed(waiter)
    assert len(await clients_named(redis, fanout.client_name)) == 1
    assert fanout.channels() == 2
    await redis.publish(names[0], "7")
    await redis.publish(names[1], "3")
    assert [await next_tick(w) for w in waiters] == [7, 3] * 25
    for waiter in waiters:
        await waiter.aclose()


async def test_a_wake_up_while_nobody_waits_is_kept_and_versions_merge(redis: Redis, fanout: Fanout) -> None:
    name = a_channel()
    waiter = fanout.listen(name, timeout_s=WAIT_S)
    await subscribed(waiter)
    for version in (4, 5, 6, 5):  # while the stream is busy elsewhere (reading, writing to its client)
        await redis.publish(name, str(version))
    async with asyncio.timeout(WAIT_S):
        while fanout.announced(name) < 6:
            await asyncio.sleep(0.01)
    assert await next_tick(waiter) == 6  # the highest, at once
    await waiter.aclose()


async def test_silence_is_quiet_while_the_subscription_holds(fanout: Fanout) -> None:
    waiter = fanout.listen(a_channel(), timeout_s=0.2)
    await subscribed(waiter)
    assert await next_tick(waiter) is QUIET
    await waiter.aclose()


async def test_the_last_waiter_to_leave_unsubscribes(redis: Redis, fanout: Fanout) -> None:
    name = a_channel()
    first, second = fanout.listen(name, timeout_s=WAIT_S), fanout.listen(name, timeout_s=WAIT_S)
    await subscribed(first)
    await subscribed(second)
    await until_subscribers(redis, name, 1)
    await first.aclose()
    await asyncio.sleep(0.1)
    assert await subscribers(redis, name) == 1
    await second.aclose()
    await until_subscribers(redis, name, 0)
    assert fanout.channels() == 0
    with pytest.raises(StopAsyncIteration):
        await anext(second)
    again = fanout.listen(name, timeout_s=WAIT_S)  # back on the same connection
    await subscribed(again)
    await until_subscribers(redis, name, 1)
    await again.aclose()


async def test_a_killed_connection_resubscribes_and_the_waiters_re_read(redis: Redis, fanout: Fanout) -> None:
    name = a_channel()
    waiter = fanout.listen(name, timeout_s=WAIT_S)
    await subscribed(waiter)
    [before] = await clients_named(redis, fanout.client_name)
    await redis.client_kill_filter(_id=before["id"])  # our own connection only
    assert await next_tick(waiter) is None  # re-subscribed: announcements may have been lost, re-read
    [after] = await clients_named(redis, fanout.client_name)
    assert after["id"] != before["id"]
    await redis.publish(name, "12")
    assert await next_tick(waiter) == 12
    await waiter.aclose()


async def test_the_subscription_comes_back_after_redis_restarts(own_redis: RedisServer) -> None:
    client = redis_client(own_redis.url)
    hub = Fanout(client, "magnate-test-fanout-restart", poll_s=0.02)
    name = a_channel()
    waiter = hub.listen(name, timeout_s=0.5)
    try:
        await subscribed(waiter)
        own_redis.stop()
        assert await next_tick(waiter) is None  # a silence while Redis is away: re-read, something may be missed
        own_redis.start()
        fresh = redis_client(own_redis.url)
        try:
            await until_subscribers(fresh, name, 1)  # redis-py reconnected (its back-off) and re-subscribed
            await fresh.publish(name, "3")
        finally:
            await fresh.aclose()
        async with asyncio.timeout(WAIT_S):
            while (tick := await anext(waiter)) != 3:
                assert tick is None or tick is QUIET
    finally:
        await waiter.aclose()
        await hub.aclose()
        await client.aclose()
