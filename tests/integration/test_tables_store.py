"""The table read model's contract (:class:`infra.eventstore.tables.TableStore`), run against the REAL PostgreSQL
(:class:`~infra.eventstore.tables.PostgresTables`) and the in-memory twin (:class:`~infra.eventstore.memory_tables.
InMemoryTables` over the in-memory event store), with the seat facts it reads from the event store: a listed game
with a free person's seat is open, a seat whose invite link was used is a guest's (not free to join, ``SeatInUse``),
the host's seat is never free, a released seat is free again, the first rematch key and link win.

The PostgreSQL database is the test session's, shared with other tests: lists are checked for this test's games."""

from __future__ import annotations

import asyncio
import uuid

import msgspec
import pytest

from infra.errors import InviteInvalid, SeatInUse, StreamNotFound
from infra.eventstore import GameSummary

from .store_records import new_id
from .table_world import World, world_of

pytestmark = pytest.mark.integration


@pytest.fixture(params=["memory", "postgres"])
def world(request: pytest.FixtureRequest) -> World:
    return world_of(request)


def mine(rows: list, *games: str) -> list[str]:  # type: ignore[type-arg]
    return [r.game_id for r in rows if r.game_id in games]


async def test_a_games_table_keeps_its_listing_options_and_host(world: World) -> None:
    game_id = await world.game(listed=True, host_seat=0)
    table = await world.tables.table_of(game_id)
    assert (table.listed, table.rematch_id, table.host_seat) == (True, None, 0)
    assert table.options is not None
    assert msgspec.json.decode(table.options) == {"seats": [{}, {}, {"kind": "ai"}]}
    unlisted = await world.game(listed=False)
    assert not (await world.tables.table_of(unlisted)).listed
    with pytest.raises(StreamNotFound):
        await world.tables.table_of(new_id())


async def test_a_used_invite_link_makes_its_seat_a_guests_until_released(world: World) -> None:
    game_id = await world.game(host_seat=0)
    guest = (await world.events.seats(game_id))[1].token_hash
    assert guest is not None
    assert await world.tables.unclaimed(game_id) == ([1], [])  # the host's seat 0 is never free
    assert await world.events.seat_for_token(game_id, guest) == 1  # the guest opens the link
    assert await world.tables.unclaimed(game_id) == ([], [1])
    assert mine(await world.tables.open_tables(100), game_id) == []

    assert await world.tables.release_seat(game_id, guest) == 1
    assert await world.tables.unclaimed(game_id) == ([1], [])
    assert await world.events.seat_for_token(game_id, guest) is None  # the link opens nothing any more
    assert mine(await world.tables.open_tables(100), game_id) == [game_id]
    with pytest.raises(InviteInvalid):
        await world.tables.release_seat(game_id, guest)


async def test_a_new_invite_frees_a_seat_whose_old_link_was_used(world: World) -> None:
    game_id = await world.game()
    old = (await world.events.seats(game_id))[0].token_hash
    assert old is not None
    await world.events.seat_for_token(game_id, old)
    assert await world.tables.unclaimed(game_id) == ([1], [0])
    await world.events.set_invite(game_id, 0, f"token-{uuid.uuid4().hex}")
    assert await world.tables.unclaimed(game_id) == ([0, 1], [])


async def test_joining_takes_a_free_seat_of_a_listed_game_only(world: World) -> None:
    game_id = await world.game(host_seat=0)
    ada, bob = await world.player(f"ada-{new_id()}@example.org"), await world.player(f"bob-{new_id()}@example.org")
    with pytest.raises(InviteInvalid):
        await world.claim(game_id, 0, ada, None)  # the host's seat
    with pytest.raises(InviteInvalid):
        await world.claim(game_id, 2, ada, None)  # the AI's
    unlisted = await world.game(listed=False)
    with pytest.raises(InviteInvalid):
        await world.claim(unlisted, 1, ada, None)

    guest = (await world.events.seats(game_id))[1].token_hash
    assert guest is not None
    await world.events.seat_for_token(game_id, guest)
    with pytest.raises(SeatInUse):
        await world.claim(game_id, 1, ada, None)  # a guest plays it by its link

    other = await world.game()
    await world.claim(other, 1, bob, None)
    assert await world.events.seat_of_player(other, bob) == 1
    assert await world.tables.unclaimed(other) == ([0], [])
    listed = (await world.tables.open_tables(100))
    [row] = [r for r in listed if r.game_id == other]
    assert (row.kinds, row.taken) == (("human", "human", "ai"), (False, True, False))


async def test_a_claimed_seat_shows_its_players_name_from_the_claim_on(world: World) -> None:
    game_id = await world.game(host_seat=0)
    bea, cal = await world.player(f"bea-{new_id()}@example.org"), await world.player(f"cal-{new_id()}@example.org")
    await world.claim(game_id, 1, bea, None, "Bea")
    assert [s.name for s in await world.events.seats(game_id)] == ["Ada", "Bea", "Cyd"]
    [row] = [r for r in await world.tables.open_tables(100) if r.game_id == game_id] or [None]
    assert row is None  # no free seat is left (the host's, Bea's, the AI's)
    [mine_now] = [g for g in await world.events.player_games(bea) if g.game_id == game_id]
    assert mine_now.names == ("Ada", "Bea", "Cyd")
    other = await world.game()
    await world.claim(other, 1, cal, None)  # no name given: the seat keeps its own
    assert [s.name for s in await world.events.seats(other)] == ["Ada", "Bob", "Cyd"]


async def test_open_tables_are_the_listed_running_games_with_a_free_seat_newest_first(world: World) -> None:
    older = await world.game()
    await asyncio.sleep(0.01)
    newer = await world.game()
    unlisted = await world.game(listed=False)
    finished = await world.game(summary=GameSummary("finished", (), None))
    rows = await world.tables.open_tables(100)
    assert mine(rows, older, newer, unlisted, finished) == [newer, older]
    row = next(r for r in rows if r.game_id == newer)
    assert (row.game_type, row.names, row.taken) == ("magnate", ("Ada", "Bob", "Cyd"), (False, False, False))
    assert row.created_at.endswith("Z") and row.updated_us > 0


async def test_live_tables_are_the_listed_running_games_most_recently_moved_first(world: World) -> None:
    first = await world.game()
    await asyncio.sleep(0.01)
    second = await world.game()
    rows = await world.tables.live_tables(100, None)
    assert mine(rows, first, second) == [second, first]
    cursor = next(r for r in rows if r.game_id == second).updated_us
    assert mine(await world.tables.live_tables(100, cursor), first, second) == [first]


async def test_the_first_rematch_key_and_link_win(world: World) -> None:
    game_id = await world.game()
    assert await world.tables.rematch_key(game_id, "k1") == "k1"
    assert await world.tables.rematch_key(game_id, "k2") == "k1"
    assert await world.tables.set_rematch(game_id, "r1")
    assert not await world.tables.set_rematch(game_id, "r2")
    assert (await world.tables.table_of(game_id)).rematch_id == "r1"
    with pytest.raises(StreamNotFound):
        await world.tables.rematch_key(new_id(), "k")
