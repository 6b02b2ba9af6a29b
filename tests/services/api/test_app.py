"""The application as a whole: its own lifespan, health, OpenAPI and the error format of unknown routes."""

from __future__ import annotations

import httpx


async def test_health_is_ok_when_both_stores_answer(client: httpx.AsyncClient) -> None:
    response = await client.get("/health")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": True, "redis": True}


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
