"""A test-side client for the API: create games, act for seats, and stand in for the worker."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any, cast

import httpx
from litestar import Litestar

from services.gameplay.bootstrap import Runtime

_ids = itertools.count(1)


def asgi_client(app: Litestar) -> httpx.AsyncClient:
    """An in-process client (httpx's ASGI transport types the app more loosely than Litestar does)."""
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=cast(Any, app)), base_url="http://testserver")


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@dataclass
class Game:
    id: str
    tokens: dict[int, str]
    """Human seat -> its secret token."""
    created: dict[str, Any] = field(repr=False)


def game_body(seats: list[dict[str, Any]], *, game: str = "magnate", seed: str | None = None,
              **options: Any) -> dict[str, Any]:
    """A create request: ``seats`` as the game's options want them, each possibly with the player's ``name``
    (moved to ``names``), the other Magnate options as keywords."""
    names = [s.get("name") for s in seats]
    body: dict[str, Any] = {"game": game,
                            "options": {"seats": [{k: v for k, v in s.items() if k != "name"} for s in seats],
                                        **options}}
    if any(n is not None for n in names):
        body["names"] = names
    if seed is not None:
        body["seed"] = seed
    return body


class Table:
    def __init__(self, client: httpx.AsyncClient, runtime: Runtime) -> None:
        self.client = client
        self.runtime = runtime

    async def create(self, humans: int = 2, seats: list[dict[str, Any]] | None = None, **options: Any) -> Game:
        body = game_body(seats or [{"kind": "human"} for _ in range(humans)], **options)
        response = await self.client.post("/api/games", json=body)
        assert response.status_code == 201, response.text
        created = response.json()
        tokens = {s["seat"]: s["token"] for s in created["seats"] if s["token"]}
        return Game(created["game_id"], tokens, created)

    async def read(self, game: Game) -> dict[str, Any]:
        response = await self.client.get(f"/api/games/{game.id}")
        assert response.status_code == 200, response.text
        return dict(response.json())

    async def me(self, game: Game, seat: int) -> dict[str, Any]:
        response = await self.client.get(f"/api/games/{game.id}/me", headers=bearer(game.tokens[seat]))
        assert response.status_code == 200, response.text
        return dict(response.json())

    async def log(self, game: Game) -> list[dict[str, Any]]:
        response = await self.client.get(f"/api/games/{game.id}/events")
        assert response.status_code == 200, response.text
        return list(response.json()["events"])

    async def run_system_jobs(self, game: Game) -> dict[str, Any]:
        """Do the worker's part: run every due system job; returns the game once a seat must act."""
        while True:
            state = await self.read(game)
            if state["system_job"] is None:
                return state
            assert await self.runtime.gameplay.run_system(game.id, state["version"], state["system_job"])

    async def submit(self, game: Game, as_seat: int, command: dict[str, Any], /, *, token: str | None = None,
                     command_id: str | None = None, **envelope: Any) -> httpx.Response:
        """POST a command with ``as_seat``'s token (or ``token``); ``envelope`` adds body fields."""
        body = {"command_id": command_id or f"cmd-{next(_ids)}", "command": command, **envelope}
        return await self.client.post(f"/api/games/{game.id}/commands", json=body,
                                      headers=bearer(token or game.tokens[as_seat]))

    async def seat_on_turn(self, game: Game) -> int:
        state = await self.run_system_jobs(game)
        assert state["status"] == "running" and state["on_turn"], state
        return int(state["on_turn"][0])

    async def play_suggested(self, game: Game) -> dict[str, Any]:
        """The seat on turn plays its first legal template's suggested command; returns the response."""
        seat = await self.seat_on_turn(game)
        me = await self.me(game, seat)
        response = await self.submit(game, seat, me["legal"][0]["command"], expected_version=me["version"])
        assert response.status_code == 200, response.text
        return dict(response.json())
