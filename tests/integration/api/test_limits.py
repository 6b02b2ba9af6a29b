"""Limits per client address, counted in the REAL Redis: shared by every API process (the other limit tests run on
twins, tests/services/api/test_limits.py)."""

from __future__ import annotations

from infra.config import Settings
from services.api import create_app
from services.gameplay.bootstrap import Runtime
from tests.services.api.test_limits import TWO_SEATS, assert_limited, client_at, limited


async def test_the_counts_are_shared_by_every_api_process(settings: Settings, runtime: Runtime) -> None:
    limits = limited(settings, rate_create_per_min=2)
    first, second = create_app(limits, runtime), create_app(limits, runtime)  # two processes, one Redis
    async with client_at(first, "10.0.0.3") as via_first, client_at(second, "10.0.0.3") as via_second:
        assert (await via_first.post("/api/games", json=TWO_SEATS)).status_code == 201
        assert (await via_second.post("/api/games", json=TWO_SEATS)).status_code == 201
        assert_limited(await via_first.post("/api/games", json=TWO_SEATS))
        assert_limited(await via_second.post("/api/games", json=TWO_SEATS))
