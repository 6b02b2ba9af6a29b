"""The PostgreSQL store's one-statement append (used when the process knows the game's last hash) behaves
exactly like the locking transaction: two processes racing, a duplicate command id, a stale remembered tip,
a snapshot, an unknown game. Two store objects over two pools stand for two processes."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import asyncpg
import pytest

from infra.errors import ConcurrencyConflict, StreamNotFound
from infra.eventstore import DuplicateCommand, GameSummary, Snapshot
from infra.eventstore.postgres import PostgresEventStore
from services.gameplay.bootstrap import create_pool
from tests.integration.store_records import RUNNING, assert_chain, created, decision, new_id

pytestmark = pytest.mark.integration


@pytest.fixture
async def pools(pg_dsn: str) -> AsyncIterator[tuple[asyncpg.Pool, asyncpg.Pool]]:
    first, second = await create_pool(pg_dsn, 4), await create_pool(pg_dsn, 4)
    try:
        yield first, second
    finally:
        await first.close()
        await second.close()


async def test_the_one_statement_path_is_taken_and_continues_the_chain(
    pools: tuple[asyncpg.Pool, asyncpg.Pool],
) -> None:
    store = PostgresEventStore(pools[0])
    game_id = await created(store)
    statements = 0
    original = store._append_locked

    async def counting(*args: object, **kwargs: object) -> object:
        nonlocal statements
        statements += 1
        return await original(*args, **kwargs)  # type: ignore[arg-type]

    store._append_locked = counting  # type: ignore[method-assign]
    version = 1
    for i in range(5):
        stored = await store.append(game_id, version, [decision(f"c{i}", b'{"x":1}', b'{"y":2}')], RUNNING)
        version = stored[-1].version
    assert statements == 0, "every append after create should have been one statement"
    events = await store.read(game_id)
    assert_chain(game_id, events)
    assert (await store.head(game_id)).version == version == 11
    assert [c.command_id for c in await store.commands(game_id)] == ["start", "c0", "c1", "c2", "c3", "c4"]


async def test_two_processes_racing_on_one_version_append_once(pools: tuple[asyncpg.Pool, asyncpg.Pool]) -> None:
    a, b = PostgresEventStore(pools[0]), PostgresEventStore(pools[1])
    game_id = await created(a)
    for _ in range(10):
        head = await a.head(game_id)
        await b.head(game_id)  # both know the tip: both try the one-statement append
        results = await asyncio.gather(
            a.append(game_id, head.version, [decision(f"a{head.version}", b"{}")], RUNNING),
            b.append(game_id, head.version, [decision(f"b{head.version}", b"{}")], RUNNING),
            return_exceptions=True,
        )
        assert sum(isinstance(r, list) for r in results) == 1, results
        assert sum(isinstance(r, ConcurrencyConflict) for r in results) == 1, results
    events = await a.read(game_id)
    assert_chain(game_id, events)
    assert len(events) == 11
    assert len(await a.commands(game_id)) == 11


async def test_a_stale_tip_falls_back_to_a_conflict(pools: tuple[asyncpg.Pool, asyncpg.Pool]) -> None:
    a, b = PostgresEventStore(pools[0]), PostgresEventStore(pools[1])
    game_id = await created(a)
    await b.head(game_id)
    await a.append(game_id, 1, [decision("first", b"{}")], RUNNING)
    with pytest.raises(ConcurrencyConflict):
        await b.append(game_id, 1, [decision("second", b"{}")], RUNNING)  # b still thinks the game is at 1
    stored = await b.append(game_id, 2, [decision("third", b"{}")], RUNNING)  # it re-reads and continues
    assert stored[0].version == 3
    assert_chain(game_id, await b.read(game_id))


async def test_a_duplicate_command_id_is_reported_with_its_first_record(
    pools: tuple[asyncpg.Pool, asyncpg.Pool],
) -> None:
    a, b = PostgresEventStore(pools[0]), PostgresEventStore(pools[1])
    game_id = await created(a)
    first = await a.append(game_id, 1, [decision("same", b"{}")], RUNNING)
    await b.head(game_id)  # b knows the new tip, so it tries the one statement and hits the unique key
    with pytest.raises(DuplicateCommand) as raised:
        await b.append(game_id, 2, [decision("same", b"{}")], RUNNING)
    assert raised.value.record.first_version == first[0].version == 2
    # duplicates are reported before a moved version, as by the locking path
    with pytest.raises(DuplicateCommand):
        await a.append(game_id, 1, [decision("same", b"{}")], RUNNING)
    assert len(await a.read(game_id)) == 2


async def test_the_read_model_and_a_snapshot_are_written_by_the_one_statement(
    pools: tuple[asyncpg.Pool, asyncpg.Pool],
) -> None:
    store = PostgresEventStore(pools[0])
    game_id = await created(store)
    summary = GameSummary("finished", (), None)
    await store.append(game_id, 1, [decision("end", b"{}", b"{}")], summary, Snapshot(3, "schema-x", b"state"))
    head = await store.head(game_id)
    assert (head.version, head.status, head.on_turn, head.system_job) == (3, "finished", (), None)
    snapshot = await store.latest_snapshot(game_id, "schema-x")
    assert snapshot is not None and (snapshot.version, snapshot.state) == (3, b"state")
    due = await store.append(game_id, 3, [decision("more", b"{}")], GameSummary("running", (1, 0), "x.job"))
    head = await store.head(game_id)
    assert (head.version, head.on_turn, head.system_job) == (due[-1].version, (1, 0), "x.job")
    assert game_id in {h.game_id for h in await store.due_jobs()}


async def test_an_unknown_game_is_still_not_found(pools: tuple[asyncpg.Pool, asyncpg.Pool]) -> None:
    store = PostgresEventStore(pools[0])
    with pytest.raises(StreamNotFound):
        await store.append(new_id(), 0, [decision("x", b"{}")], RUNNING)
