"""The event store contract, run against both stores: the in-memory fake and the REAL PostgreSQL.

Whatever the gameplay service relies on (versions, the hash chain, optimistic concurrency, idempotent
commands, the games read model, snapshots) must hold for both, so service unit tests over the fake
mean something for production.
"""

from __future__ import annotations

from collections.abc import Iterator

import asyncpg
import pytest

from infra.chain import GENESIS, event_hash
from infra.errors import ConcurrencyConflict, StreamNotFound
from infra.eventstore import DuplicateCommand, EventStore, GameSummary, Snapshot
from infra.eventstore.memory import InMemoryEventStore
from infra.eventstore.postgres import PostgresEventStore
from infra.migrate import migrate, migration_files
from tests.conftest import own_database

from .store_records import RUNNING, SEED, assert_chain, created, decision, new_id, seats


@pytest.fixture(params=["memory", "postgres"])
def store(request: pytest.FixtureRequest) -> EventStore:
    if request.param == "memory":
        return InMemoryEventStore()
    return PostgresEventStore(request.getfixturevalue("pg_pool"))


async def test_create_makes_a_readable_game(store: EventStore) -> None:
    game_id = new_id()
    records = seats()
    stored = await store.create(game_id, "magnate", records, SEED,
                                decision("start", b'{"a":1}', b'{"b":2}', actor="system"),
                                GameSummary("running", (1,), None))

    assert [e.version for e in stored] == [1, 2]
    assert await store.read(game_id) == stored
    head = await store.head(game_id)
    assert (head.game_id, head.game_type, head.version, head.last_hash) == (game_id, "magnate", 2, stored[-1].hash)
    assert (head.status, head.on_turn, head.system_job) == ("running", (1,), None)
    assert await store.seats(game_id) == records
    assert await store.seed(game_id) == SEED
    assert await store.seat_for_token(game_id, records[1].token_hash or "") == 1
    assert await store.seat_for_token(game_id, "no-such-token") is None
    start = await store.find_command(game_id, "start")
    assert start is not None
    assert (start.actor, start.first_version, start.last_version) == ("system", 1, 2)


async def test_append_assigns_the_next_versions_and_links_the_hash_chain(store: EventStore) -> None:
    game_id = await created(store)
    first = await store.append(game_id, 1, [decision("c1", b'{"x":1}', b'{"x":2}')], RUNNING)
    second = await store.append(game_id, 3, [decision("c2", b'{"x":3}')], RUNNING)

    assert [e.version for e in first] == [2, 3]
    assert [e.version for e in second] == [4]
    events = await store.read(game_id)
    assert events[1:] == first + second
    assert events[0].prev_hash == GENESIS
    assert_chain(game_id, events)
    assert (await store.head(game_id)).last_hash == events[-1].hash
    assert await store.read(game_id, after=1, until=3) == first
    assert await store.read(game_id, after=3) == second


async def test_a_stale_append_conflicts_and_writes_nothing(store: EventStore) -> None:
    game_id = await created(store)
    await store.append(game_id, 1, [decision("c1", b'{"x":1}')], RUNNING)
    before, head_before = await store.read(game_id), await store.head(game_id)

    for stale in (0, 1, 5):
        with pytest.raises(ConcurrencyConflict) as caught:
            await store.append(game_id, stale, [decision("late", b'{"x":9}')], GameSummary("finished", (), None))
        assert caught.value.expected_version == stale

    assert await store.read(game_id) == before
    head = await store.head(game_id)
    assert (head.version, head.last_hash, head.status) == (head_before.version, head_before.last_hash, "running")
    assert await store.find_command(game_id, "late") is None


async def test_a_duplicate_command_id_returns_the_first_record(store: EventStore) -> None:
    game_id = await created(store)
    await store.append(game_id, 1, [decision("c1", b'{"x":1}', b'{"x":2}')], RUNNING)
    before = await store.read(game_id)

    # Checked before the version, so a retry that raced its own first attempt learns the first result.
    for version in (3, 1):
        with pytest.raises(DuplicateCommand) as caught:
            await store.append(game_id, version, [decision("c1", b'{"x":7}')], RUNNING)
        record = caught.value.record
        assert (record.command_id, record.first_version, record.last_version) == ("c1", 2, 3)
        assert record.actor == "seat:0"
        assert record.payload == decision("c1").command

    assert await store.read(game_id) == before


async def test_several_decisions_append_atomically_in_order(store: EventStore) -> None:
    game_id = await created(store)
    stored = await store.append(
        game_id, 1,
        [decision("last-move", b'{"x":1}', b'{"x":2}'), decision("reveal", b'{"seed":"ab"}', actor="system")],
        GameSummary("finished", (), None),
    )

    assert [(e.version, e.command_id) for e in stored] == [(2, "last-move"), (3, "last-move"), (4, "reveal")]
    assert stored[2].actor == "system"
    assert_chain(game_id, await store.read(game_id))
    records = await store.commands(game_id)
    assert [(c.command_id, c.first_version, c.last_version) for c in records] == [
        ("start", 1, 1), ("last-move", 2, 3), ("reveal", 4, 4)]
    assert (await store.head(game_id)).status == "finished"


async def test_the_games_read_model_follows_the_last_append(store: EventStore) -> None:
    game_id = await created(store, GameSummary("running", (0,), None))
    await store.append(game_id, 1, [decision("c1", b"{}")], GameSummary("running", (), "magnate.roll_dice"))
    head = await store.head(game_id)
    assert (head.version, head.status, head.on_turn, head.system_job) == (2, "running", (), "magnate.roll_dice")

    await store.append(game_id, 2, [decision("c2", b"{}", actor="system")], GameSummary("running", (2,), None))
    head = await store.head(game_id)
    assert (head.version, head.status, head.on_turn, head.system_job) == (3, "running", (2,), None)

    await store.append(game_id, 3, [decision("c3", b"{}")], GameSummary("finished", (), None))
    (listed,) = await store.heads([game_id, new_id()])
    assert (listed.game_id, listed.version, listed.status, listed.on_turn) == (game_id, 4, "finished", ())


async def test_due_jobs_lists_only_running_games_with_a_system_job(store: EventStore) -> None:
    due = await created(store, GameSummary("running", (), "magnate.process_market"))
    waiting = await created(store, GameSummary("running", (1,), None))
    ended = await created(store, GameSummary("finished", (), "magnate.process_market"))
    moved_on = await created(store, GameSummary("running", (), "magnate.roll_dice"))
    await store.append(moved_on, 1, [decision("c1", b"{}", actor="system")], GameSummary("running", (0,), None))

    mine = {due, waiting, ended, moved_on}
    listed = [h for h in await store.due_jobs() if h.game_id in mine]
    assert [(h.game_id, h.version, h.system_job) for h in listed] == [(due, 1, "magnate.process_market")]


async def test_latest_snapshot_respects_schema_and_version_bound(store: EventStore) -> None:
    game_id = await created(store)
    version = 1
    for n, snapshot in enumerate([Snapshot(2, "s1", b"two"), Snapshot(3, "s2", b"three"), Snapshot(4, "s1", b"four")]):
        await store.append(game_id, version, [decision(f"c{n}", b"{}")], RUNNING, snapshot)
        version += 1

    async def latest(schema: str, at_most: int | None = None) -> tuple[int, bytes] | None:
        found = await store.latest_snapshot(game_id, schema, at_most)
        return None if found is None else (found.version, found.state)

    assert await latest("s1") == (4, b"four")
    assert await latest("s1", at_most=4) == (4, b"four")
    assert await latest("s1", at_most=3) == (2, b"two")
    assert await latest("s1", at_most=1) is None
    assert await latest("s2") == (3, b"three")
    assert await latest("s2", at_most=2) is None
    assert await latest("another-layout") is None


async def test_the_head_comes_with_the_latest_snapshot_of_any_layout(store: EventStore) -> None:
    game_id = await created(store)
    head, snapshot = await store.head_with_snapshot(game_id)
    assert head == await store.head(game_id) and snapshot is None
    version = 1
    for n, made in enumerate([Snapshot(2, "s1", b"two"), Snapshot(3, "s2", b"three")]):
        await store.append(game_id, version, [decision(f"c{n}", b"{}")], RUNNING, made)
        version += 1
    head, snapshot = await store.head_with_snapshot(game_id)
    assert head == await store.head(game_id) and head.version == 3
    assert snapshot == Snapshot(3, "s2", b"three")
    with pytest.raises(StreamNotFound):
        await store.head_with_snapshot(new_id())


async def test_an_unknown_game_is_not_found(store: EventStore) -> None:
    await created(store)
    unknown = new_id()
    with pytest.raises(StreamNotFound):
        await store.head(unknown)
    with pytest.raises(StreamNotFound):
        await store.read(unknown)
    with pytest.raises(StreamNotFound):
        await store.seats(unknown)
    with pytest.raises(StreamNotFound):
        await store.seed(unknown)
    with pytest.raises(StreamNotFound):
        await store.append(unknown, 0, [decision("c1", b"{}")], RUNNING)
    assert await store.heads([unknown]) == []


# -- PostgreSQL only -----------------------------------------------------------------------------------


@pytest.fixture
def scratch_database() -> Iterator[str]:
    """An empty database (not migrated), dropped afterwards."""
    with own_database("magnate_scratch", migrated=False) as dsn:
        yield dsn


async def test_migrate_applies_each_file_once(pg_dsn: str, scratch_database: str) -> None:
    names = [name for name, _ in migration_files()]
    assert names, "no migration files are packaged"

    conn = await asyncpg.connect(scratch_database)
    try:
        assert await migrate(conn) == names
        assert await migrate(conn) == []
        tables = {r["tablename"] for r in await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname='public'")}
        assert {"games", "game_secrets", "seats", "commands", "events", "snapshots"} <= tables
    finally:
        await conn.close()

    # The session database the other tests use was migrated by the fixture: nothing is left to apply.
    conn = await asyncpg.connect(pg_dsn)
    try:
        assert await migrate(conn) == []
        assert {r["name"] for r in await conn.fetch("SELECT name FROM schema_migrations")} == set(names)
    finally:
        await conn.close()


async def test_recorded_at_survives_postgres_so_hashes_recompute(pg_pool: asyncpg.Pool) -> None:
    writer = PostgresEventStore(pg_pool)
    game_id = await created(writer)
    appended = await writer.append(game_id, 1, [decision("c1", b'{"x":1}', b'{"x":2}')], RUNNING)

    # A different store object, so nothing can come from memory: read the columns PostgreSQL holds.
    rows = await pg_pool.fetch(
        "SELECT version, type, actor, command_id, recorded_at, payload, prev_hash, hash, commitment FROM events"
        " WHERE game_id = $1 ORDER BY version", game_id)
    reread = await PostgresEventStore(pg_pool).read(game_id)
    assert reread[1:] == appended
    previous = GENESIS
    for row, event in zip(rows, reread, strict=True):
        assert row["recorded_at"].tzinfo is not None
        assert event.recorded_at.endswith("Z")
        recomputed = event_hash(previous, game_id, row["version"], row["type"], row["actor"], row["command_id"],
                                event.recorded_at, bytes(row["payload"]), row["commitment"])
        assert recomputed == row["hash"]
        assert row["prev_hash"] == previous
        previous = row["hash"]


async def test_a_failing_multi_decision_append_leaves_nothing_behind(pg_pool: asyncpg.Pool) -> None:
    store = PostgresEventStore(pg_pool)
    game_id = await created(store)
    await store.append(game_id, 1, [decision("c1", b"{}")], RUNNING)
    before = await store.read(game_id)

    # The second decision reuses an applied command id: nothing of the batch is written.
    with pytest.raises(DuplicateCommand):
        await store.append(game_id, 2, [decision("fresh", b'{"x":1}'), decision("c1", b'{"x":2}')],
                           GameSummary("finished", (), None))

    assert await store.read(game_id) == before
    assert await store.find_command(game_id, "fresh") is None
    head = await store.head(game_id)
    assert (head.version, head.status) == (2, "running")
