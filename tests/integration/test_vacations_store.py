"""The vacations' contract (:class:`infra.accounts.vacations.Vacations`), run against the REAL PostgreSQL
(:class:`~infra.accounts.vacations.VacationStore`) and the in-memory twin (:class:`~infra.accounts.vacations.
InMemoryVacations`): a year's allowance is spent by whole started days, one vacation at a time, two requests never
both spend the last days, and a player's running games are those they hold a seat at."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest

from infra.accounts.vacations import AlreadyAway, VacationTooLong, days_of
from infra.eventstore import GameSummary

from .store_records import new_id
from .table_world import World, world_of

pytestmark = pytest.mark.integration

JAN = datetime(2031, 1, 10, 12, tzinfo=UTC)
FEB = datetime(2031, 2, 10, 12, tzinfo=UTC)


@pytest.fixture(params=["memory", "postgres"])
def world(request: pytest.FixtureRequest) -> World:
    return world_of(request)


async def test_a_vacation_spends_whole_days_of_the_years_allowance(world: World) -> None:
    player = await world.player(f"ada-{new_id()}@example.org")
    taken = await world.vacations.take(player, 3, 30, JAN)
    assert (taken.starts_at, days_of(taken)) == (JAN, 3)
    assert await world.vacations.of_year(player, FEB) == [taken]
    with pytest.raises(VacationTooLong) as refused:
        await world.vacations.take(player, 28, 30, FEB)
    assert (refused.value.asked, refused.value.left) == (28, 27)
    second = await world.vacations.take(player, 27, 30, FEB)
    assert await world.vacations.of_year(player, FEB) == [taken, second]
    assert await world.vacations.of_year(player, datetime(2032, 1, 2, tzinfo=UTC)) == []  # a new year


async def test_one_vacation_at_a_time(world: World) -> None:
    player = await world.player(f"bea-{new_id()}@example.org")
    taken = await world.vacations.take(player, 5, 30, JAN)
    with pytest.raises(AlreadyAway) as refused:
        await world.vacations.take(player, 1, 30, JAN.replace(day=12))
    assert refused.value.until == taken.ends_at


async def test_two_requests_never_both_spend_the_last_days(world: World) -> None:
    player = await world.player(f"cyd-{new_id()}@example.org")
    await world.vacations.take(player, 25, 30, JAN)
    outcomes = await asyncio.gather(world.vacations.take(player, 5, 30, FEB), world.vacations.take(player, 5, 30, FEB),
                                    return_exceptions=True)
    assert sorted(type(o).__name__ for o in outcomes) == ["AlreadyAway", "Vacation"]


async def test_the_running_games_are_those_the_player_holds_a_seat_at(world: World) -> None:
    player, other = (await world.player(f"dan-{new_id()}@example.org"),
                     await world.player(f"eve-{new_id()}@example.org"))
    running, ended = await world.game(), await world.game(summary=GameSummary("finished", (), None))
    theirs = await world.game()
    await world.claim(running, 1, player, None)
    await world.claim(ended, 0, player, None)
    await world.claim(theirs, 0, other, None)
    assert await world.vacations.running_games(player) == [(running, 1)]
    assert await world.vacations.running_games(f"nobody-{new_id()}") == []
