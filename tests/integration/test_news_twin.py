"""The news of new versions, run against the REAL Redis (:class:`infra.notify.RedisNotifier`) and the in-memory twin
(:class:`infra.memory_news.InMemoryNotifier`): a listener hears the versions of its game published after it
listens (perhaps after a tick telling it to re-read), never another game's, and nothing once closed."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest
from redis.asyncio import Redis

from infra.memory_news import InMemoryNotifier
from infra.notify import QUIET, RedisNotifier

pytestmark = pytest.mark.integration


@pytest.fixture(params=["memory", "redis"])
async def news(request: pytest.FixtureRequest) -> AsyncIterator[Any]:
    if request.param == "memory":
        twin = InMemoryNotifier()
        yield twin
        await twin.aclose()
        return
    redis = Redis.from_url(request.getfixturevalue("redis_url"))
    real = RedisNotifier(redis, f"magnate-test-news:{uuid.uuid4().hex[:8]}")
    yield real
    await real.aclose()
    await redis.aclose()


async def heard(listener: Any, news: Any, game_id: str, version: int) -> list[Any]:
    """Publish ``version`` until the listener hears it (a subscription may still be on its way); what it heard."""
    said: list[Any] = []
    for _ in range(50):
        await news.published(game_id, version)
        said.append(await anext(listener))
        if said[-1] == version:
            return said
    return said


async def test_a_listener_hears_its_games_versions_and_not_anothers(news: Any) -> None:
    game, other = f"g-{uuid.uuid4().hex}", f"g-{uuid.uuid4().hex}"
    listener, elsewhere = news.listen(game, 0.1), news.listen(other, 0.1)
    try:
        said = await heard(listener, news, game, 3)
        assert said[-1] == 3 and all(s in (None, QUIET) for s in said[:-1])
        assert await anext(elsewhere) in (None, QUIET)  # a tick: nothing of the other game
        await news.published(game, 4)
        got = await anext(listener)
        while got in (None, QUIET, 3):
            got = await anext(listener)
        assert got == 4
    finally:
        await listener.aclose()
        await elsewhere.aclose()
    assert news.watched() <= 1  # closed listeners leave (a shared subscription may linger a moment)
