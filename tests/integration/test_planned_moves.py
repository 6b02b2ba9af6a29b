"""Planned moves through the real processes (issue #29): the API server and a worker over the real PostgreSQL and
Redis. A seat plans "pass on the auction this round" while the other seat is on turn; the other seat moves; the
worker hears the append (the news), plays the pass for the planning seat (its move, under the service's id, marked
"(planned)" in the history) and, once the round's auction is over, drops the spent plan."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from tests.live import Services, services

__all__ = ["services"]  # the fixture, used by the tests below

pytestmark = pytest.mark.integration


@pytest.fixture
async def http(services: Services) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=services.url, timeout=10) as client:
        yield client


async def until(probe: Any, what: str, timeout_s: float = 20.0) -> Any:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        found = await probe()
        if found:
            return found
        await asyncio.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


async def test_the_worker_passes_for_a_seat_that_planned_it(http: httpx.AsyncClient) -> None:
    created = await http.post("/api/games", json={"game": "magnate", "options": {"seats": [{}, {}]}})
    assert created.status_code == 201, created.text
    game_id = created.json()["game_id"]
    tokens = {s["seat"]: {"Authorization": f"Bearer {s['token']}"} for s in created.json()["seats"]}
    on_turn = (await http.get(f"/api/games/{game_id}")).json()["on_turn"][0]
    planner = 1 - on_turn
    planned = await http.put(f"/api/games/{game_id}/plans", json={"plan": {"type": "magnate.pass_auctions"}},
                             headers=tokens[planner])
    assert planned.status_code == 200, planned.text
    await asyncio.sleep(0.5)
    before = (await http.get(f"/api/games/{game_id}/events")).json()["events"]
    assert not [e for e in before if e["command_id"].startswith("plan:")], "not the planner's turn yet"

    bid = await http.post(f"/api/games/{game_id}/commands", headers=tokens[on_turn], json={
        "command_id": "bid-1", "command": {"type": "magnate.place_bid", "amount": 100}})
    assert bid.status_code == 200, bid.text

    async def planned_pass() -> list[dict[str, Any]]:
        events = (await http.get(f"/api/games/{game_id}/events")).json()["events"]
        return [e for e in events if e["command_id"].startswith("plan:")]

    played = await until(planned_pass, "the planned pass")
    assert played[0]["type"] == "magnate.bid_passed" and played[0]["actor"] == f"seat:{planner}"
    assert len({e["command_id"] for e in played}) == 1, "one planned move"
    lines = (await http.get(f"/api/games/{game_id}/history")).json()["lines"]
    assert next(line["text"] for line in lines if line["version"] == played[0]["version"]).endswith("(planned)")

    async def spent() -> bool:
        answer = await http.get(f"/api/games/{game_id}/plans", headers=tokens[planner])
        return answer.json()["plans"] == []

    await until(spent, "the spent plan to be dropped once the round's auction is over")
