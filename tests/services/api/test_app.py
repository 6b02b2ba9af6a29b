"""The application as a whole: its own lifespan, health, OpenAPI and the error format of unknown routes."""

from __future__ import annotations

import httpx
from litestar.testing import AsyncTestClient
from redis.asyncio import Redis

from infra.config import Settings
from services.api import create_app
from services.gameplay.bootstrap import Runtime

from .table import asgi_client, game_body


async def test_the_lifespan_builds_its_own_runtime_and_serves(settings: Settings) -> None:
    async with AsyncTestClient(create_app(settings)) as client:
        health = await client.get("/health")
        assert health.status_code == 200
        assert health.json() == {"status": "ok", "database": True, "redis": True}
        created = await client.post("/api/games", json=game_body([{}, {}]))
        assert created.status_code == 201, created.text
        game_id = created.json()["game_id"]
        assert (await client.get(f"/api/games/{game_id}")).status_code == 200


async def test_health_is_ok_when_both_stores_answer(client: httpx.AsyncClient) -> None:
    response = await client.get("/health")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": True, "redis": True}


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


async def test_the_openapi_schema_describes_the_api(client: httpx.AsyncClient) -> None:
    response = await client.get("/schema/openapi.json")
    assert response.status_code == 200
    schema = response.json()
    assert schema["info"]["title"] == "Magnate Server"
    assert set(schema["paths"]) >= {
        "/api/games",
        "/api/games/{game_id}",
        "/api/games/{game_id}/me",
        "/api/games/{game_id}/commands",
        "/api/games/{game_id}/events",
        "/api/games/{game_id}/state",
        "/api/games/{game_id}/export",
        "/api/games/{game_id}/stream",
        "/health",
    }
    submit = schema["paths"]["/api/games/{game_id}/commands"]["post"]
    assert submit["security"] == [{"seatToken": []}]
    assert set(submit["responses"]) >= {"200", "400", "401", "403", "404", "409", "422"}
    error = submit["responses"]["422"]["content"]["application/json"]["schema"]
    assert error == {"$ref": "#/components/schemas/ErrorBody"}
    assert schema["components"]["securitySchemes"]["seatToken"]["scheme"] == "bearer"


async def test_an_unknown_route_is_a_json_404(client: httpx.AsyncClient) -> None:
    response = await client.get("/api/nothing-here")
    assert response.status_code == 404
    assert response.json()["code"] == "route/not_found"
    wrong_method = await client.delete("/api/games")
    assert wrong_method.status_code == 405
    assert wrong_method.json()["code"] == "request/method_not_allowed"
