"""The event streams' one Redis connection, over a real connection (uvicorn) and the REAL Redis: a closed stream leaves
no subscription behind, many streams share one connection, and a killed connection is made again (the rest of the
stream: tests/services/api/test_stream.py, on twins)."""

from __future__ import annotations

import asyncio
import contextlib

import httpx

from infra.notify import channel
from services.gameplay.bootstrap import Runtime
from tests.services.api.sse import EventStream
from tests.services.api.table import Table
from tests.services.api.test_stream import _stream


async def test_a_closed_stream_leaves_no_subscription_and_no_connection_behind(
    live_url: str, table: Table, runtime: Runtime
) -> None:
    game = await table.create()
    pool = runtime.redis.connection_pool
    for _ in range(3):
        async with httpx.AsyncClient(base_url=live_url, timeout=10) as http, http.stream(
            "GET", f"/api/games/{game.id}/stream"
        ) as response:
            stream = EventStream(response)  # keep it: a collected line iterator closes the response
            await stream.events()
            await _wait_for_subscribers(runtime, game.id, 1)
        await _wait_for_subscribers(runtime, game.id, 0)
    # The hung-up listeners were cancelled; each must still have returned its connection to the pool.
    async with asyncio.timeout(10):
        while pool._in_use_connections:  # redis-py keeps no public count
            await asyncio.sleep(0.02)


async def test_many_streams_share_one_redis_connection_and_each_sees_the_move(
    live_url: str, table: Table, runtime: Runtime
) -> None:
    game = await table.create()
    seat = await table.seat_on_turn(game)
    start = (await table.read(game))["version"]
    async with httpx.AsyncClient(base_url=live_url, timeout=10, limits=httpx.Limits(max_connections=None)) as http, \
            contextlib.AsyncExitStack() as stack:
        streams = []
        for _ in range(20):
            response = await stack.enter_async_context(http.stream("GET", f"/api/games/{game.id}/stream",
                                                                   params={"after": start}))
            stream = EventStream(response)
            assert (await stream.message()).comments == ["connected"]
            streams.append(stream)
        await _wait_for_subscribers(runtime, game.id, 1)
        assert len(await _our_clients(runtime)) == 1
        submitted = await table.submit(game, seat, {"type": "magnate.pass_bid"})
        version = submitted.json()["version"]
        for stream in streams:
            assert (await stream.until_version(version))[-1].id == str(version)
    await _wait_for_subscribers(runtime, game.id, 0)
    assert runtime.notifier.watched() == 0


async def test_after_the_subscription_connection_is_killed_streams_get_the_next_move(
    live_url: str, table: Table, runtime: Runtime
) -> None:
    game = await table.create()
    start = (await table.read(game))["version"]
    async with _stream(live_url, game.id, start) as stream:
        await _wait_for_subscribers(runtime, game.id, 1)
        [ours] = await _our_clients(runtime)
        await runtime.redis.client_kill_filter(_id=ours["id"])  # our own connection, nobody else's
        seat = await table.seat_on_turn(game)
        submitted = await table.submit(game, seat, {"type": "magnate.pass_bid"})
        version = submitted.json()["version"]
        assert (await stream.until_version(version))[-1].id == str(version)
        await _wait_for_subscribers(runtime, game.id, 1)
        [again] = await _our_clients(runtime)
        assert again["id"] != ours["id"]
        next_seat = await table.seat_on_turn(game)
        submitted = await table.submit(game, next_seat, {"type": "magnate.pass_bid"})
        version = submitted.json()["version"]
        assert (await stream.until_version(version))[-1].id == str(version)


async def _wait_for_subscribers(runtime: Runtime, game_id: str, count: int) -> None:
    async with asyncio.timeout(10):
        while await _subscribers(runtime, game_id) != count:
            await asyncio.sleep(0.02)


async def _subscribers(runtime: Runtime, game_id: str) -> int:
    counts = await runtime.redis.pubsub_numsub(channel(game_id))
    return int(counts[0][1])


async def _our_clients(runtime: Runtime) -> list[dict[str, str]]:
    """The Redis connections named as this runtime's event-stream subscription."""
    return [c for c in await runtime.redis.client_list() if c.get("name") == runtime.notifier.client_name]
