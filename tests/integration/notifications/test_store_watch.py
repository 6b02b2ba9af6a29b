"""The Watch port's contract, and the store's transactions, run against the in-memory twin and the REAL PostgreSQL:
a watched game is found when it moves or ends, is held by one transaction at a time (the others skip it), and its
cursor moves or is dropped with the notices written beside it, or not at all when the transaction fails; who holds
a seat, and which running games wait for a player, longest waiting first."""

from __future__ import annotations

import asyncio

import pytest

from infra.notifications import Told, Watched

from .store_world import World, new_id

pytestmark = pytest.mark.integration


async def test_a_watched_game_is_found_when_it_moves_or_ends(world: World) -> None:
    store = world.store
    moved, current, ended, unwatched = [await world.game(version=5) for _ in range(4)]
    await world.watch(moved, 3)
    await world.watch(current, 5)
    await world.watch(ended, 5)
    await world.move(ended, 5, status="finished")

    found = set(await store.moved(10_000))

    assert {moved, ended} <= found and not {current, unwatched} & found
    assert len(await store.moved(1)) == 1
    # among the games an announcement named: only those, moved and watched
    assert set(await store.moved(10, among=[moved, current, unwatched, moved])) == {moved}
    assert await store.moved(10, among=[]) == []


async def test_a_held_game_is_skipped_by_other_transactions_until_it_commits(world: World) -> None:
    store, bea = world.store, await world.player()
    game_id = await world.game(version=7, on_turn=(1,))
    await world.seat(game_id, 0, None)
    await world.seat(game_id, 1, bea)
    await world.watch(game_id, 4)
    holding, release = asyncio.Event(), asyncio.Event()
    seen: list[Watched | None] = []

    async def first() -> None:
        async with store.transaction() as tx:
            held = await tx.hold(game_id)
            seen.append(held)
            holding.set()
            await release.wait()
            await tx.advance(game_id, 7)

    async def second() -> None:
        await holding.wait()
        async with store.transaction() as tx:
            seen.append(await tx.hold(game_id))
        release.set()

    await asyncio.gather(first(), second())

    held, skipped = seen
    assert skipped is None
    assert held is not None
    assert (held.cursor, held.head, held.game_type, held.over, held.claimed) == (4, 7, "magnate", False, {1: bea})
    assert game_id not in await store.moved(10_000)
    async with store.transaction() as tx:
        again = await tx.hold(game_id)
    assert again is not None and again.cursor == again.head == 7


async def test_a_cursor_moves_with_its_notices_or_not_at_all(world: World) -> None:
    store, bea = world.store, await world.player()
    game_id = await world.game(version=3)
    await world.seat(game_id, 0, bea)
    await world.watch(game_id, 1)
    notice = Told(f"{game_id}.3.0.your_turn", bea, game_id, 0, 3, "your_turn", "Your turn")

    with pytest.raises(RuntimeError):
        async with store.transaction() as tx:
            assert await tx.hold(game_id) is not None
            await tx.write_notices([notice])
            await tx.advance(game_id, 3)
            raise RuntimeError("the projector died before its commit")

    assert not await store.has_notice(notice.notice_id)
    assert game_id in await store.moved(10_000)
    async with store.transaction() as tx:
        held = await tx.hold(game_id)  # the failed transaction let go of it
        assert held is not None and held.cursor == 1
        await tx.write_notices([notice])
        await tx.forget(game_id)
    assert await store.has_notice(notice.notice_id)
    async with store.transaction() as tx:
        assert await tx.hold(game_id) is None  # watched no more


async def test_who_holds_a_seat_and_which_games_wait_for_a_player(world: World) -> None:
    store, bea, cid = world.store, await world.player(), await world.player()
    older = await world.game(on_turn=(0,))
    await world.seat(older, 0, bea, "Bea")
    await asyncio.sleep(0.01)
    newer = await world.game(on_turn=(0, 1))
    await world.seat(newer, 0, cid)
    await world.seat(newer, 1, bea, "Beatrix")
    not_her_turn = await world.game(on_turn=(1,))
    await world.seat(not_her_turn, 0, bea)
    over = await world.game(status="finished", on_turn=(0,))
    await world.seat(over, 0, bea)

    waiting = await store.waiting(bea)

    assert [(w.game_id, w.game_type, w.seat_name) for w in waiting] == [
        (older, "magnate", "Bea"), (newer, "magnate", "Beatrix")]
    await world.move(older, 2, on_turn=(0,))  # moved last: it has waited the shortest
    assert [w.game_id for w in await store.waiting(bea)] == [newer, older]
    assert await store.player_at(newer, 1) == bea
    assert await store.player_at(newer, 7) is None
    assert await store.player_at(new_id(), 0) is None
