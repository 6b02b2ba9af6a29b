"""How news leaves an append: the append's own announcement names its game on the deployment's news channel (in
the round trip that tells the event streams), the workers' projector hears it and projects that game at once, and a
subscription made (or made again) first catches up on every game that lags, so nothing waits for a poll."""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import AsyncIterator

import pytest
from arq.constants import job_key_prefix

from infra.news import CATCH_UP, RedisNews
from infra.notify import player_channel
from infra.queue import Job
from services.ai_worker.upkeep import reconcile
from services.gameplay.bootstrap import Runtime, redis_client
from services.notifications.context import Notifications
from services.notifications.projector import keep_projecting
from tests.chaos.stores import Redis as RedisServer

from .conftest import claim, new_game, new_player, on_turn, play_until_turn_of

pytestmark = pytest.mark.integration

TOLD_WITHIN_S = 3.0
"""Far below the reconcile's period (10 s): only the news can have told the player this fast."""


@contextlib.asynccontextmanager
async def projecting(runtime: Runtime, notifications: Notifications) -> AsyncIterator[None]:
    task = asyncio.create_task(keep_projecting(notifications.projector, runtime.news))
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def told(runtime: Runtime, player: str) -> AsyncIterator[None]:
    """Yields once subscribed to the player's pages' channel, then waits for the projector's word there."""
    pubsub = runtime.redis.pubsub()
    try:
        await pubsub.subscribe(player_channel(player))
        yield
        async with asyncio.timeout(TOLD_WITHIN_S):
            while await pubsub.get_message(ignore_subscribe_messages=True, timeout=TOLD_WITHIN_S) is None:
                pass
    finally:
        await pubsub.aclose()  # type: ignore[no-untyped-call]


async def test_an_append_names_its_game_on_the_news_in_its_own_round_trip(runtime: Runtime) -> None:
    news = RedisNews(runtime.redis, runtime.news.channel)  # a second listener, as a second worker's
    listening = news.listen()
    assert await anext(listening) is CATCH_UP  # subscribed: whatever came before must be read from the store
    try:
        await runtime.notifier.published("g-1", 4)  # an append that made nothing due
        assert await anext(listening) == {"g-1"}
        await runtime.gameplay.announcer.moved("g-2", 7, Job("g-2", 7, "kind"))  # one that made a job due
        assert await anext(listening) == {"g-2"}
    finally:
        await listening.aclose()  # type: ignore[attr-defined]


async def test_a_your_turn_notice_follows_the_append_without_a_poll(
    runtime: Runtime, notifications: Notifications
) -> None:
    player, game_id = await new_player(runtime), await new_game(runtime)
    seat = 1 if 1 not in await on_turn(runtime, game_id) else 0
    await claim(runtime, game_id, seat, player)
    async with projecting(runtime, notifications):
        await asyncio.sleep(0.2)  # subscribed and caught up (nothing lags yet)
        waiting = told(runtime, player)
        await anext(waiting)
        await play_until_turn_of(runtime, game_id, seat)
        with contextlib.suppress(StopAsyncIteration):
            await anext(waiting)
    notices = await notifications.notices(player)
    assert [n.kind for n in notices if n.game_id == game_id][:1] == ["your_turn"]


async def test_a_new_subscription_catches_up_on_what_it_did_not_hear(
    runtime: Runtime, notifications: Notifications
) -> None:
    player, game_id = await new_player(runtime), await new_game(runtime)
    seat = 1 if 1 not in await on_turn(runtime, game_id) else 0
    await claim(runtime, game_id, seat, player)
    await play_until_turn_of(runtime, game_id, seat)  # announced while no projector listened
    assert await notifications.notices(player) == []
    waiting = told(runtime, player)
    await anext(waiting)
    async with projecting(runtime, notifications):
        with contextlib.suppress(StopAsyncIteration):
            await anext(waiting)
    assert [n.kind for n in await notifications.notices(player)][:1] == ["your_turn"]


async def test_the_one_reconcile_projects_lagging_notices_and_queues_due_deliveries_again(
    runtime: Runtime, notifications: Notifications, queue_name: str
) -> None:
    player, game_id = await new_player(runtime), await new_game(runtime)
    seat = 1 if 1 not in await on_turn(runtime, game_id) else 0
    await claim(runtime, game_id, seat, player)
    await play_until_turn_of(runtime, game_id, seat)  # every announcement lost: no projector listened

    await reconcile(runtime.gameplay, notifications)

    assert [n.kind for n in await notifications.notices(player)][:1] == ["your_turn"]
    [delivery_id] = [e.delivery_id for e in await notifications.deliveries(player)]
    assert await runtime.arq.exists(job_key_prefix + delivery_id)
    await runtime.arq.delete(job_key_prefix + delivery_id)
    await runtime.arq.zrem(queue_name, delivery_id)
    await reconcile(runtime.gameplay, notifications)  # the queue was lost: the delivery's job comes back
    assert await runtime.arq.exists(job_key_prefix + delivery_id)


async def test_one_worker_of_many_takes_a_period(runtime: Runtime) -> None:
    name = f"period-{uuid.uuid4().hex}"

    taken = await asyncio.gather(*(runtime.periods.take(name, 300) for _ in range(5)))

    assert sorted(taken) == [False] * 4 + [True]
    await asyncio.sleep(0.4)
    assert await runtime.periods.take(name, 300)


async def test_the_news_comes_back_after_redis_restarts_and_says_to_catch_up(own_redis: RedisServer) -> None:
    client = redis_client(own_redis.url)
    news = RedisNews(client, f"magnate:news:test-{uuid.uuid4().hex[:8]}", "magnate-test-news-restart", wait_s=0.1)
    listening = news.listen()
    try:
        assert await anext(listening) is CATCH_UP
        own_redis.stop()
        heard = asyncio.ensure_future(anext(listening))
        await asyncio.sleep(0.5)  # Redis away: the listener waits (redis-py retries), nothing is yielded
        assert not heard.done()
        own_redis.start()
        async with asyncio.timeout(15):
            assert await heard is CATCH_UP  # subscribed again: what was announced meanwhile is read from the store
            fresh = redis_client(own_redis.url)
            try:
                await fresh.publish(news.channel, "g-9 3")
            finally:
                await fresh.aclose()
            assert await anext(listening) == {"g-9"}
    finally:
        await listening.aclose()  # type: ignore[attr-defined]
        await client.aclose()
