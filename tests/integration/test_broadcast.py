"""The broadcast contract (:class:`infra.notify.Broadcast`), run against the REAL Redis and the in-memory twin: a
listener hears what is published on its channels while it listens, nothing else, and is told of silences."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator

import pytest

from infra.notify import Broadcast, InMemoryBroadcast, RedisBroadcast
from services.gameplay.bootstrap import redis_client

pytestmark = pytest.mark.integration


@pytest.fixture(params=["memory", "redis"])
async def broadcast(request: pytest.FixtureRequest) -> AsyncIterator[Broadcast]:
    if request.param == "memory":
        yield InMemoryBroadcast()
        return
    redis = redis_client(request.getfixturevalue("redis_url"))
    try:
        yield RedisBroadcast(redis)
    finally:
        await redis.aclose()


def names(count: int) -> list[str]:
    prefix = f"magnate:test:broadcast:{uuid.uuid4().hex[:8]}"
    return [f"{prefix}:{n}" for n in range(count)]


async def test_a_listener_hears_its_channels_only(broadcast: Broadcast) -> None:
    mine, also, other = names(3)
    heard: list[tuple[str, bytes]] = []

    async def listen() -> None:
        listener = broadcast.listen([mine, also], timeout_s=5.0)
        try:
            async for message in listener:
                if message is not None:
                    heard.append(message)
                if len(heard) == 2:
                    return
        finally:
            await listener.aclose()

    task = asyncio.create_task(listen())
    await asyncio.sleep(0.3)  # subscribed
    await broadcast.publish(other, "not for it")
    await broadcast.publish(mine, "7")
    await broadcast.publish(also, "games")
    await asyncio.wait_for(task, 5)
    assert heard == [(mine, b"7"), (also, b"games")]


async def test_a_silence_is_heard_as_none(broadcast: Broadcast) -> None:
    (quiet,) = names(1)
    listener = broadcast.listen([quiet], timeout_s=0.2)
    try:
        assert await asyncio.wait_for(anext(listener), 5) is None
    finally:
        await listener.aclose()


async def test_what_is_published_before_listening_is_not_kept(broadcast: Broadcast) -> None:
    (channel,) = names(1)
    await broadcast.publish(channel, "early")
    listener = broadcast.listen([channel], timeout_s=0.3)
    try:
        assert await asyncio.wait_for(anext(listener), 5) is None
    finally:
        await listener.aclose()
