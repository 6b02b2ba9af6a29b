"""The Dispatch port's contract, run against its twin (recorded in memory) and the REAL arq queue and Redis: a
delivery's job is queued once while it waits (its id is the delivery's), a player's pages are told (Redis: a message
on the player's channel)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest
from redis.asyncio import Redis

from infra.notifications.dispatch import Dispatch, RecordingDispatch, RedisDispatch
from infra.notify import player_channel
from infra.queue import arq_pool

from .store_world import new_id

pytestmark = pytest.mark.integration


@pytest.fixture(params=["memory", "redis"])
async def dispatch(request: pytest.FixtureRequest, redis_url: str, queue_name: str) -> AsyncIterator[Dispatch]:
    if request.param == "memory":
        yield RecordingDispatch()
        return
    arq = await arq_pool(redis_url, queue_name)
    try:
        yield RedisDispatch(arq, arq)
    finally:
        await arq.aclose()


async def test_a_deliverys_job_is_queued_once_while_it_waits(dispatch: Dispatch) -> None:
    now = datetime.now(UTC)
    first, second, later = new_id(), new_id(), new_id()

    assert await dispatch.enqueue([(first, now), (second, now - timedelta(seconds=5))]) == 2
    assert await dispatch.enqueue([(first, now), (later, now + timedelta(hours=1))]) == 1
    assert await dispatch.enqueue([]) == 0


async def test_a_players_pages_are_told(dispatch: Dispatch, redis_url: str) -> None:
    bea = new_id()
    listener = Redis.from_url(redis_url)
    pubsub = listener.pubsub()
    await pubsub.subscribe(player_channel(bea))
    try:
        await dispatch.announce([bea, bea])
        await dispatch.announce([])
        if isinstance(dispatch, RecordingDispatch):
            assert dispatch.announced == [(bea, "notice")]
            return
        message = None
        for _ in range(50):
            message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=0.1)
            if message is not None:
                break
        assert message is not None and message["data"] == b"notice"
    finally:
        await pubsub.aclose()
        await listener.aclose()
