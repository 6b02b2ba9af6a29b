"""The application over the REAL PostgreSQL and Redis: its own lifespan builds its runtime, and health is a 503 when
Redis does not answer (the rest: tests/services/api/test_app.py, on twins)."""

from __future__ import annotations

from litestar.testing import AsyncTestClient
from redis.asyncio import Redis

from infra.config import Settings
from services.api import create_app
from services.gameplay.bootstrap import Runtime
from tests.services.api.table import asgi_client, game_body


async def test_the_lifespan_builds_its_own_runtime_and_serves(settings: Settings) -> None:
    async with AsyncTestClient(create_app(settings)) as client:
        health = await client.get("/health")
        assert health.status_code == 200
        assert health.json() == {"status": "ok", "database": True, "redis": True}
        created = await client.post("/api/games", json=game_body([{}, {}]))
        assert created.status_code == 201, created.text
        game_id = created.json()["game_id"]
        assert (await client.get(f"/api/games/{game_id}")).status_code == 200


async def test_health_is_503_when_redis_is_unreachable(settings: Settings, runtime: Runtime) -> None:
    unreachable = Redis(host="127.0.0.1", port=1, socket_connect_timeout=1)
    broken = Runtime(runtime.gameplay, runtime.pool, unreachable, runtime.arq, runtime.notifier, settings)
    try:
        async with asgi_client(create_app(settings, broken)) as client:
            response = await client.get("/health")
    finally:
        await unreachable.aclose()
    assert response.status_code == 503
    assert response.json() == {"status": "unavailable", "database": True, "redis": False}
