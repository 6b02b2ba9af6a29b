"""Ending a vacation early (:meth:`infra.accounts.vacations.Vacations.end`), run against the REAL PostgreSQL and the
in-memory twin, as the rest of the vacations' contract (test_vacations_store.py): the running vacation ends at that
moment and uses only the days it started, a new one may start at once, and there is nothing to end when away from
none."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from infra.accounts.vacations import days_of

from .store_records import new_id
from .table_world import World, world_of

pytestmark = pytest.mark.integration

JAN = datetime(2031, 1, 10, 12, tzinfo=UTC)


@pytest.fixture(params=["memory", "postgres"])
def world(request: pytest.FixtureRequest) -> World:
    return world_of(request)


async def test_a_vacation_ended_early_uses_only_its_started_days(world: World) -> None:
    player = await world.player(f"fay-{new_id()}@example.org")
    assert await world.vacations.end(player, JAN) is None
    taken = await world.vacations.take(player, 7, 30, JAN)
    back = JAN + timedelta(days=1, hours=3)
    ended = await world.vacations.end(player, back)
    assert ended is not None and (ended.vacation_id, ended.starts_at, ended.ends_at) == (taken.vacation_id, JAN, back)
    assert days_of(ended) == 2
    assert await world.vacations.of_year(player, back) == [ended]
    assert await world.vacations.end(player, back) is None  # over already
    again = await world.vacations.take(player, 28, 30, back)  # 30 - 2 days left: one may go away again at once
    assert days_of(again) == 28
