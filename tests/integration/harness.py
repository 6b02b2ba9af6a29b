"""Gameplay services over the test database, as the integration tests use them: each ``make`` is one "process"
(its own cache, a recording queue and notifier), with games driven through it and checks of what it stored."""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import asyncpg

from domain.games import GAMES as REGISTERED
from domain.kernel import Pending, Seat, fold, tag_of
from domain.magnate import GAME, GameOptions, MagnateState, SeatSpec
from infra.chain import GENESIS, event_hash
from infra.codec import GameCodec
from infra.eventstore import StoredEvent
from infra.eventstore.postgres import PostgresEventStore
from infra.notify import RecordingNotifier
from infra.queue import Job, RecordingJobQueue, Timer
from services.gameplay import Gameplay, Loaded

GAMES = {"magnate": REGISTERED["magnate"]}
"""The game as the server serves it (with the table's messages): the database holds other tests' timed games."""
CODEC = GameCodec(GAME)
THREE_SEATS = GameOptions(seats=(SeatSpec(), SeatSpec(), SeatSpec()))
SNAPSHOT_EVERY = 20

Policy = Callable[[MagnateState, Seat], Any]
Stop = Callable[[Loaded, Pending], bool]


def make(pool: asyncpg.Pool, store: PostgresEventStore | None = None) -> Gameplay:
    """One "process": its own cache, queue and notifier, over the shared database."""
    return Gameplay(store or PostgresEventStore(pool), RecordingJobQueue(), RecordingNotifier(), GAMES,
                    snapshot_every=SNAPSHOT_EVERY)


def jobs(gameplay: Gameplay) -> list[Job]:
    assert isinstance(gameplay.queue, RecordingJobQueue)
    return gameplay.queue.jobs


def timers(gameplay: Gameplay) -> list[Timer]:
    assert isinstance(gameplay.queue, RecordingJobQueue)
    return gameplay.queue.timers


def announced(gameplay: Gameplay) -> list[tuple[str, int]]:
    assert isinstance(gameplay.notifier, RecordingNotifier)
    return gameplay.notifier.published_versions


def cid() -> str:
    return uuid.uuid4().hex


async def new_game(gameplay: Gameplay, seed: bytes = b"integration-test-seed-0123456789") -> str:
    """A new game; a fixed seed (and seeded bots) make every test play the same game each run."""
    return (await gameplay.create_game("magnate", THREE_SEATS, ["Ada", "Bob", "Cyd"], seed=seed)).game_id


async def drive(gameplay: Gameplay, game_id: str, policy: Policy, until: Stop | None = None) -> Counter[str]:
    """Play as the API and the worker would: seats submit; the system runs the job the service queued."""
    played: Counter[str] = Counter()
    while played.total() < 2000:
        loaded = await gameplay.load(game_id)
        due = GAME.pending(loaded.state)
        if due.finished or (until is not None and until(loaded, due)):
            return played
        if due.system is not None:
            job = jobs(gameplay)[-1]
            assert job == Job(game_id, loaded.version, tag_of(due.system)), "the due system job was not queued"
            assert await gameplay.run_system(job.game_id, job.version, job.kind)
            played["system"] += 1
        else:
            (seat,) = due.seats
            await gameplay.submit(game_id, int(seat), cid(), policy(loaded.state, seat))
            played["seat"] += 1
    raise AssertionError("the game did not end")


def seat_to_move(loaded: Loaded) -> Seat:
    (seat,) = GAME.pending(loaded.state).seats
    return seat


def folded(events: list[StoredEvent], until: int | None = None) -> MagnateState:
    """The state from nothing but the log (no snapshot, no cache)."""
    chosen = [e for e in events if until is None or e.version <= until]
    return fold(GAME.evolve, (CODEC.decode_event(e.payload) for e in chosen), GAME.initial_state())


def assert_unbroken_chain(game_id: str, events: list[StoredEvent]) -> None:
    assert [e.version for e in events] == list(range(1, len(events) + 1)), "the log has a gap"
    previous = GENESIS
    for e in events:
        assert e.prev_hash == previous
        assert e.hash == event_hash(previous, game_id, e.version, e.type, e.actor, e.command_id, e.recorded_at,
                                    e.payload, e.commitment)
        previous = e.hash


async def command_rows(pool: asyncpg.Pool, game_id: str, command_id: str) -> int:
    count: int = await pool.fetchval("SELECT count(*) FROM commands WHERE game_id = $1 AND command_id = $2",
                                     game_id, command_id)
    return count


# -- a whole game ---------------------------------------------------------------------------------------


class CountingStore(PostgresEventStore):
    """The real store, recording which of its calls (and which append path) a process made."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        super().__init__(pool)
        self.calls: list[str] = []

    async def find_command(self, *args: Any, **kwargs: Any) -> Any:
        self.calls.append("find_command")
        return await super().find_command(*args, **kwargs)

    async def seat_for_token(self, *args: Any, **kwargs: Any) -> Any:
        self.calls.append("seat_for_token")
        return await super().seat_for_token(*args, **kwargs)

    async def head(self, *args: Any, **kwargs: Any) -> Any:
        self.calls.append("head")
        return await super().head(*args, **kwargs)

    async def head_with_snapshot(self, *args: Any, **kwargs: Any) -> Any:
        self.calls.append("head_with_snapshot")
        return await super().head_with_snapshot(*args, **kwargs)

    async def read(self, *args: Any, **kwargs: Any) -> Any:
        self.calls.append("read")
        return await super().read(*args, **kwargs)

    async def _append_locked(self, *args: Any, **kwargs: Any) -> Any:
        self.calls.append("append (locking)")
        return await super()._append_locked(*args, **kwargs)

    async def _append_one_statement(self, *args: Any, **kwargs: Any) -> Any:
        self.calls.append("append (one statement)")
        return await super()._append_one_statement(*args, **kwargs)


@asynccontextmanager
async def migrated_database(pg_dsn: str, pool_size: int = 4) -> AsyncIterator[tuple[asyncpg.Connection, asyncpg.Pool]]:
    """A database of its own beside ``pg_dsn``'s, migrated: a connection and a pool on it (a migration test rolls the
    schema back to before its change there, then migrates again); dropped afterwards."""
    from infra.migrate import migrate

    admin = await asyncpg.connect(pg_dsn)
    database = f"magnate_migration_{cid()[:10]}"
    await admin.execute(f'CREATE DATABASE "{database}"')
    dsn = pg_dsn.rsplit("/", 1)[0] + f"/{database}"
    try:
        conn = await asyncpg.connect(dsn)
        try:
            await migrate(conn)
            pool = await asyncpg.create_pool(dsn, min_size=1, max_size=pool_size)
            assert pool is not None
            try:
                yield conn, pool
            finally:
                await pool.close()
        finally:
            await conn.close()
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
        await admin.close()
