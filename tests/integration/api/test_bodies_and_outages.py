"""Redis away behind a committed creation, on the REAL PostgreSQL: a 503 with a retry hint, never a 500 (the hostile
bodies and the other outages: tests/services/api/test_bodies_and_outages.py, on twins)."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator

import pytest
from arq.connections import ArqRedis
from redis.asyncio import Redis

from domain.games import GAMES
from infra.config import Settings
from infra.eventstore.postgres import PostgresEventStore
from infra.notify import RedisNotifier
from infra.queue import ArqAnnouncer, ArqJobQueue
from services.api import create_app, errors
from services.gameplay import Gameplay
from services.gameplay.bootstrap import Runtime
from tests.services.api.table import asgi_client, game_body
from tests.services.api.test_bodies_and_outages import assert_unavailable


@pytest.fixture
async def redis_away() -> AsyncIterator[Redis]:
    """A Redis client (an arq one, so it can back the job queue too) of a port nothing listens on."""
    unreachable = ArqRedis(host="127.0.0.1", port=1, socket_connect_timeout=1)
    try:
        yield unreachable
    finally:
        await unreachable.aclose()


async def test_redis_away_behind_a_committed_creation_is_a_503_with_a_retry_hint(
    settings: Settings, runtime: Runtime, redis_away: ArqRedis, caplog: pytest.LogCaptureFixture
) -> None:
    queue, notifier = ArqJobQueue(redis_away), RedisNotifier(redis_away)
    gameplay = Gameplay(PostgresEventStore(runtime.pool), queue, notifier, GAMES,
                        announcer=ArqAnnouncer(queue, notifier))
    broken = Runtime(gameplay, runtime.pool, redis_away, redis_away, RedisNotifier(redis_away), settings)
    app = create_app(settings, broken)
    logging.getLogger(errors.__name__).addHandler(caplog.handler)  # the app's logging setup replaced caplog's
    try:
        async with asgi_client(app) as client:
            response = await client.post("/api/games", json=game_body([{}, {}]))
    finally:
        logging.getLogger(errors.__name__).removeHandler(caplog.handler)
    assert_unavailable(response)
    assert "store unavailable" in caplog.text
