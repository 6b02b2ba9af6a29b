"""The ratings store's contract (:class:`infra.ratings.Ratings`), run against the REAL PostgreSQL
(:class:`~infra.ratings.PostgresRatings`) and the in-memory twin (:class:`~infra.ratings.InMemoryRatings`): a game
is settled once (a second settling changes nothing, even racing), the update sees the players' current ratings (a
newcomer's the fresh one), the leaderboard ranks by shown rating with shared positions and pages, a rated open
table shows its host's rating, and an account's ratings go with it.

The PostgreSQL database is the test session's, shared with other tests: game types are this test's own."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

import pytest

from infra.accounts import InMemoryPlayerStore
from infra.eventstore.memory import InMemoryEventStore
from infra.ratings import InMemoryRatings, PostgresRatings, Ratings, Skill

from .store_records import new_id
from .table_world import World, world_of

pytestmark = pytest.mark.integration

FRESH = Skill(25.0, 8.0, 0, 1000)


@dataclass
class Side:
    world: World
    ratings: Ratings
    erase: Callable[[str], Awaitable[object]]
    """Delete an account (as the erasure does)."""


@pytest.fixture(params=["memory", "postgres"])
def side(request: pytest.FixtureRequest) -> Side:
    world = world_of(request)
    if request.param == "memory":
        assert isinstance(world.events, InMemoryEventStore) and isinstance(world.players, InMemoryPlayerStore)
        players = world.players

        async def forget(player_id: str) -> None:
            players.forget(player_id)

        return Side(world, InMemoryRatings(world.events, world.players), forget)
    pool = request.getfixturevalue("pg_pool")
    return Side(world, PostgresRatings(pool),
                lambda player_id: pool.execute("DELETE FROM players WHERE player_id = $1", player_id))


def winner_first(before: Sequence[tuple[str, Skill]]) -> list[Skill]:
    """A stand-in for the service's arithmetic: the first player gains 2, the others lose 1, sigma shrinks."""
    return [Skill(s.mu + (2 if i == 0 else -1), s.sigma - 0.5, s.games + 1, s.shown + (20 if i == 0 else -10))
            for i, (_, s) in enumerate(before)]


async def test_a_game_is_settled_once_and_updates_from_the_current_ratings(side: Side) -> None:
    kind = f"rk-{new_id()}"
    ada, bob = (await side.world.player(f"ada-{new_id()}@example.org"),
                await side.world.player(f"bob-{new_id()}@example.org"))
    first, second = await side.world.game(), await side.world.game()
    await side.ratings.open(first, kind)
    assert await side.ratings.result(first) == "open"
    assert await side.ratings.result(second) is None
    seen: list[list[tuple[str, Skill]]] = []

    def update(before: Sequence[tuple[str, Skill]]) -> list[Skill]:
        seen.append(list(before))
        return winner_first(before)

    after = await side.ratings.settle(first, kind, [bob, ada], FRESH, update, "rated")
    assert after == (Skill(27.0, 7.5, 1, 1020), Skill(24.0, 7.5, 1, 990))
    assert seen == [[(bob, FRESH), (ada, FRESH)]]
    assert await side.ratings.result(first) == "rated"
    assert await side.ratings.settle(first, kind, [bob, ada], FRESH, update, "rated") is None  # replayed: nothing
    assert len(seen) == 1
    assert await side.ratings.settle(second, kind, [ada, bob], FRESH, update, "rated") == (
        Skill(26.0, 7.0, 2, 1010), Skill(26.0, 7.0, 2, 1010))
    assert seen[1] == [(ada, Skill(24.0, 7.5, 1, 990)), (bob, Skill(27.0, 7.5, 1, 1020))]
    mine = await side.ratings.of_player(ada)
    assert [(r.game_type, r.mu, r.sigma, r.games, r.shown) for r in mine] == [(kind, 26.0, 7.0, 2, 1010)]
    assert mine[0].updated_at.endswith("Z")


async def test_racing_settlements_of_one_game_apply_it_once(side: Side) -> None:
    kind = f"rk-{new_id()}"
    ada, bob = (await side.world.player(f"ada-{new_id()}@example.org"),
                await side.world.player(f"bob-{new_id()}@example.org"))
    game = await side.world.game()
    await side.ratings.open(game, kind)
    done = await asyncio.gather(*(side.ratings.settle(game, kind, [ada, bob], FRESH, winner_first, "rated")
                                  for _ in range(4)))
    assert sum(d is not None for d in done) == 1
    assert [r.games for r in await side.ratings.of_player(ada)] == [1]


async def test_an_unrated_end_changes_nobody_and_a_gone_account_is_left_out(side: Side) -> None:
    kind = f"rk-{new_id()}"
    ada = await side.world.player(f"ada-{new_id()}@example.org")
    game = await side.world.game()
    await side.ratings.open(game, kind)
    assert await side.ratings.settle(game, kind, (), FRESH, None, "guest_seat") == ()
    assert await side.ratings.result(game) == "guest_seat"
    assert await side.ratings.settle(game, kind, [ada, "p-nobody"], FRESH, winner_first, "rated") is None
    lonely = await side.world.game()
    assert await side.ratings.settle(lonely, kind, [ada, "p-nobody"], FRESH, winner_first, "rated") == ()
    assert await side.ratings.result(lonely) == "too_few_players"
    assert await side.ratings.of_player(ada) == []


async def test_the_leaderboard_ranks_by_shown_rating_and_pages(side: Side) -> None:
    kind = f"rk-{new_id()}"
    names = ["Ada", "Bob", "Cyd", "Dee"]
    ids = [await side.world.player(f"{n.lower()}-{new_id()}@example.org") for n in names]
    for pid, name in zip(ids, names, strict=True):
        await side.world.players.rename(pid, name)

    def fixed(values: dict[str, Skill]) -> object:
        return lambda before: [values[p] for p, _ in before]

    ratings = {ids[0]: Skill(30, 5, 3, 1150), ids[1]: Skill(28, 5, 2, 1100), ids[2]: Skill(27, 5, 4, 1100),
               ids[3]: Skill(20, 6, 1, 900)}
    await side.ratings.settle(await side.world.game(), kind, ids, FRESH, fixed(ratings), "rated")  # type: ignore[arg-type]
    board = await side.ratings.leaderboard(kind, 10, 0)
    assert [(r.position, r.name, r.shown, r.games) for r in board] == [
        (1, "Ada", 1150, 3), (2, "Cyd", 1100, 4), (2, "Bob", 1100, 2), (4, "Dee", 900, 1)]
    assert [r.name for r in await side.ratings.leaderboard(kind, 2, 2)] == ["Bob", "Dee"]
    assert [r.position for r in await side.ratings.leaderboard(kind, 2, 2)] == [2, 4]
    assert await side.ratings.leaderboard(kind, 10, 4) == []
    assert await side.ratings.leaderboard(f"rk-{new_id()}", 10, 0) == []


async def test_a_rated_open_table_shows_its_hosts_rating(side: Side) -> None:
    kind = f"rk-{new_id()}"
    ada, bob = (await side.world.player(f"ada-{new_id()}@example.org"),
                await side.world.player(f"bob-{new_id()}@example.org"))
    await side.ratings.settle(await side.world.game(), kind, [ada, bob], FRESH, winner_first, "rated")
    hosted, newcomer, unrated = (await side.world.game(host_seat=0), await side.world.game(host_seat=0),
                                 await side.world.game(host_seat=0))
    await side.world.claim(hosted, 0, ada, (await side.world.events.seats(hosted))[0].token_hash)
    carol = await side.world.player(f"carol-{new_id()}@example.org")
    await side.world.claim(newcomer, 0, carol, (await side.world.events.seats(newcomer))[0].token_hash)
    await side.ratings.open(hosted, kind)
    await side.ratings.open(newcomer, kind)
    found = await side.ratings.hosts([hosted, newcomer, unrated, new_id()])
    assert sorted((h.game_id, h.game_type, h.shown, h.games) for h in found) == sorted(
        [(hosted, kind, 1020, 1), (newcomer, kind, None, 0)])


async def test_an_accounts_ratings_go_with_it(side: Side) -> None:
    kind = f"rk-{new_id()}"
    ada, bob = (await side.world.player(f"ada-{new_id()}@example.org"),
                await side.world.player(f"bob-{new_id()}@example.org"))
    await side.ratings.settle(await side.world.game(), kind, [ada, bob], FRESH, winner_first, "rated")
    await side.erase(ada)
    assert await side.ratings.of_player(ada) == []
    assert [r.player_id for r in await side.ratings.leaderboard(kind, 10, 0)] == [bob]
