"""The planned moves' store contract (:class:`infra.plans.SeatPlans`), run against the REAL PostgreSQL
(:class:`~infra.plans.PostgresSeatPlans`) and the in-memory twin (:class:`~infra.plans.InMemorySeatPlans`): one plan
per seat and kind, replaced whole; dropped by kind or all at once; read per seat, per gathering of games and as the
list of games with plans; an unknown game is refused."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from infra.errors import StreamNotFound
from infra.plans import InMemorySeatPlans, PostgresSeatPlans, SeatPlans

from .store_records import new_id
from .table_world import World, world_of

pytestmark = pytest.mark.integration

PASS = b'{"type":"magnate.pass_auctions","every_round":false,"round":1}'
BID = b'{"type":"magnate.bid_up_to","limit":500,"round":1}'


@dataclass
class PlansWorld:
    world: World
    plans: SeatPlans


@pytest.fixture(params=["memory", "postgres"])
def side(request: pytest.FixtureRequest) -> PlansWorld:
    world = world_of(request)
    if request.param == "memory":
        return PlansWorld(world, InMemorySeatPlans(world.known))
    return PlansWorld(world, PostgresSeatPlans(request.getfixturevalue("pg_pool")))


async def test_a_seat_keeps_one_plan_of_each_kind(side: PlansWorld) -> None:
    game = await side.world.game()
    assert await side.plans.of_seat(game, 1) == []
    first = await side.plans.put(game, 1, "magnate.pass_auctions", PASS)
    assert (first.game_id, first.seat, first.kind, first.body) == (game, 1, "magnate.pass_auctions", PASS)
    assert first.set_at.endswith("Z")
    await side.plans.put(game, 1, "magnate.bid_up_to", BID, "ada")
    replaced = await side.plans.put(game, 1, "magnate.bid_up_to", BID.replace(b"500", b"700"), "bob")
    assert replaced.holder == "bob"
    kept = await side.plans.of_seat(game, 1)
    assert [(p.kind, p.body) for p in kept] == [("magnate.bid_up_to", replaced.body), ("magnate.pass_auctions", PASS)]
    assert await side.plans.of_seat(game, 0) == [], "another seat's plans are not this seat's"


async def test_plans_are_dropped_by_kind_or_all_at_once(side: PlansWorld) -> None:
    game = await side.world.game()
    await side.plans.put(game, 0, "magnate.pass_auctions", PASS)
    await side.plans.put(game, 0, "magnate.bid_up_to", BID)
    await side.plans.put(game, 1, "magnate.bid_up_to", BID)
    assert await side.plans.drop(game, 0, ("magnate.bid_up_to",)) == 1
    assert [p.kind for p in await side.plans.of_seat(game, 0)] == ["magnate.pass_auctions"]
    assert await side.plans.drop(game, 0) == 1
    assert await side.plans.drop(game, 0) == 0
    assert [p.seat for p in await side.plans.of_seat(game, 1)] == [1], "the other seat keeps its plan"


async def test_the_workers_reads_name_the_games_with_plans(side: PlansWorld) -> None:
    planned, other, bare = await side.world.game(), await side.world.game(), await side.world.game()
    await side.plans.put(planned, 1, "magnate.pass_auctions", PASS)
    await side.plans.put(other, 0, "magnate.bid_up_to", BID)
    found = await side.plans.of_games([planned, bare])
    assert [(p.game_id, p.seat) for p in found] == [(planned, 1)]
    assert {planned, other} <= set(await side.plans.planned_games())
    assert bare not in await side.plans.planned_games()


async def test_a_plan_in_an_unknown_game_is_refused(side: PlansWorld) -> None:
    with pytest.raises(StreamNotFound):
        await side.plans.put(f"nope-{new_id()}", 0, "magnate.pass_auctions", PASS)


async def test_a_plan_keeps_the_version_it_was_set_at(side: PlansWorld) -> None:
    game = await side.world.game()
    kept = await side.plans.put(game, 0, "magnate.pass_auctions", PASS, "holder", since=7)
    assert (kept.since, kept.holder) == (7, "holder")
    again = await side.plans.put(game, 0, "magnate.pass_auctions", PASS, "holder", since=12)  # set again later
    assert [p.since for p in await side.plans.of_seat(game, 0)] == [again.since] == [12]
    assert [p.since for p in await side.plans.of_games([game])] == [12]
