"""The event store on PostgreSQL (asyncpg). Driver errors are translated here and nowhere else."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime

import asyncpg
import msgspec
from asyncpg.pool import PoolConnectionProxy
from cachetools import LRUCache

from infra.chain import COMMITTED, GENESIS, LEGACY, event_hash
from infra.errors import ConcurrencyConflict, StoreUnavailable, StreamNotFound

from .base import (
    CommandRecord,
    CreationKey,
    Decision,
    DuplicateCommand,
    DuplicateCreation,
    GameHead,
    GameSummary,
    SeatRecord,
    Snapshot,
    StoredEvent,
    timestamp,
)
from .postgres_seats import PostgresOwnership

Connection = asyncpg.Connection | PoolConnectionProxy
"""A connection, direct or borrowed from the pool."""

TIPS_KEPT = 20_000
"""Games whose last (version, hash) the store remembers for the one-statement append."""

_APPEND = """
WITH head AS (
    UPDATE games SET version = $3, last_hash = $4, status = $5, on_turn = $6, system_job = $7, updated_at = now(),
        next_deadline = $26
    WHERE game_id = $1 AND version = $2 AND last_hash = $8
    RETURNING game_id
), commands_in AS (
    INSERT INTO commands (game_id, command_id, actor, type, payload, first_version, last_version, recorded_at)
    SELECT head.game_id, c.command_id, c.actor, c.type, c.payload, c.first_version, c.last_version, $9
    FROM head, unnest($10::text[], $11::text[], $12::text[], $13::bytea[], $14::int[], $15::int[])
        AS c (command_id, actor, type, payload, first_version, last_version)
), events_in AS (
    INSERT INTO events (game_id, version, type, actor, command_id, payload, recorded_at, prev_hash, hash, commitment)
    SELECT head.game_id, e.version, e.type, e.actor, e.command_id, e.payload, $9, e.prev_hash, e.hash, e.commitment
    FROM head, unnest($16::int[], $17::text[], $18::text[], $19::text[], $20::bytea[], $21::text[], $22::text[],
                      $27::text[])
        AS e (version, type, actor, command_id, payload, prev_hash, hash, commitment)
), snapshot_in AS (
    INSERT INTO snapshots (game_id, version, state_schema, state)
    SELECT head.game_id, $23, $24, $25 FROM head WHERE $25::bytea IS NOT NULL
    ON CONFLICT DO NOTHING
)
SELECT count(*) FROM head
"""
"""The whole append as one statement (one round trip, its own transaction): the UPDATE of the read model both
checks the expected version (and the chain's last hash) and takes the game's row lock; the inserts happen only
if it matched. A concurrent append to the same game waits for the lock, then finds the version moved and
writes nothing."""

_UNAVAILABLE = (
    OSError,  # refused or reset connections, and timeouts (TimeoutError is an OSError)
    asyncpg.PostgresConnectionError,  # the connection broke or could not be made
    asyncpg.exceptions.OperatorInterventionError,  # the server is shutting down, or starting up
    asyncpg.exceptions.TooManyConnectionsError,
    asyncpg.InterfaceError,  # "connection is closed": a pooled connection whose server went away
    asyncpg.exceptions.InternalClientError,  # "cannot switch to state …": a connection broken mid-operation
)
"""What PostgreSQL being down, restarting or full looks like to asyncpg: the store is unavailable (HTTP 503,
jobs retry), never an internal error."""

_HEAD = "SELECT game_id, game_type, version, last_hash, status, on_turn, system_job, updated_at, chain FROM games"
_EVENT_COLUMNS = "version, type, actor, command_id, recorded_at, payload, prev_hash, hash, commitment"


class PostgresEventStore(PostgresOwnership):
    """Appends run in one transaction that first locks the game's read-model row, so appends to one game
    are serialised and the expected-version check is exact; appends to different games never wait."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool
        self._tips: LRUCache[str, tuple[int, str, int]] = LRUCache(maxsize=TIPS_KEPT)
        """(version, last hash, chain scheme) of games as last read or written by this process: the start of the
        chain of the next append, if the game is still at that version."""

    def _tip(self, game_id: str, version: int, last_hash: str, chain: int) -> None:
        known = self._tips.get(game_id)
        if known is None or known[0] <= version:
            self._tips[game_id] = (version, last_hash, chain)

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[Connection]:
        try:
            async with self._pool.acquire() as conn:
                yield conn
        except _UNAVAILABLE as exc:
            raise StoreUnavailable(f"the database is unavailable: {exc}") from exc

    async def create(
        self, game_id: str, game_type: str, seats: list[SeatRecord], seed: bytes, decision: Decision | list[Decision],
        summary: GameSummary, creation: CreationKey | None = None, rules_version: str = "v1",
        host_seat: int | None = None,
    ) -> list[StoredEvent]:
        async with self._connection() as conn, conn.transaction():
            if creation is not None:
                # A concurrent creation with the same key waits here for the first to commit, then finds it.
                taken = await conn.fetchval(
                    "INSERT INTO game_creations (key_hash, request_hash, game_id) VALUES ($1, $2, $3)"
                    " ON CONFLICT (key_hash) DO NOTHING RETURNING false",
                    creation.key_hash, creation.request_hash, game_id,
                )
                if taken is None:
                    existing = await self._find_creation(conn, creation.key_hash)
                    assert existing is not None  # rows of game_creations are never deleted
                    raise DuplicateCreation(existing)
            try:
                await conn.execute(
                    "INSERT INTO games (game_id, game_type, status, version, last_hash, rules_version, host_seat)"
                    " VALUES ($1, $2, 'running', 0, $3, $4, $5)",
                    game_id, game_type, GENESIS, rules_version, host_seat,
                )
            except asyncpg.UniqueViolationError as exc:
                raise ConcurrencyConflict(game_id, 0) from exc
            await conn.execute("UPDATE games SET chain = $2 WHERE game_id = $1", game_id, COMMITTED)
            await conn.execute("INSERT INTO game_secrets (game_id, seed) VALUES ($1, $2)", game_id, seed)
            await conn.executemany(
                "INSERT INTO seats (game_id, seat, kind, name, payload, token_hash) VALUES ($1, $2, $3, $4, $5, $6)",
                [(game_id, s.seat, s.kind, s.name, msgspec.json.encode(s.payload).decode(), s.token_hash)
                 for s in seats],
            )
            decisions = decision if isinstance(decision, list) else [decision]
            stored = await self._write(conn, game_id, 0, GENESIS, COMMITTED, decisions, summary, None)
        if stored:
            self._tip(game_id, stored[-1].version, stored[-1].hash, COMMITTED)
        return stored

    async def find_creation(self, key_hash: str) -> CreationKey | None:
        async with self._connection() as conn:
            return await self._find_creation(conn, key_hash)

    @staticmethod
    async def _find_creation(conn: Connection, key_hash: str) -> CreationKey | None:
        row = await conn.fetchrow(
            "SELECT key_hash, request_hash, game_id FROM game_creations WHERE key_hash = $1", key_hash)
        return None if row is None else CreationKey(row["key_hash"], row["request_hash"], row["game_id"])

    async def append(
        self, game_id: str, expected_version: int, decisions: list[Decision], summary: GameSummary,
        snapshot: Snapshot | None = None,
    ) -> list[StoredEvent]:
        """One statement when this process knows the game's last hash at ``expected_version`` (it read the head
        or appended last); otherwise, or if that statement writes nothing or hits a unique key (a moved
        stream, a duplicate command, an unknown game), the locking transaction below, which tells them apart."""
        tip = self._tips.get(game_id)
        if tip is not None and tip[0] == expected_version:
            stored = await self._append_one_statement(game_id, expected_version, tip[1], tip[2], decisions,
                                                      summary, snapshot)
            if stored is not None:
                return stored
        stored, chain = await self._append_locked(game_id, expected_version, decisions, summary, snapshot)
        if stored:
            self._tip(game_id, stored[-1].version, stored[-1].hash, chain)
        return stored

    async def _append_one_statement(
        self, game_id: str, expected_version: int, last_hash: str, chain: int, decisions: list[Decision],
        summary: GameSummary, snapshot: Snapshot | None,
    ) -> list[StoredEvent] | None:
        moment = datetime.now(UTC)
        stored, commands = _chain(game_id, expected_version, last_hash, chain, decisions, timestamp(moment))
        if not stored:
            return None
        tip = stored[-1]
        async with self._connection() as conn:
            try:
                written = await conn.fetchval(
                    _APPEND,
                    game_id, expected_version, tip.version, tip.hash, summary.status, list(summary.on_turn),
                    summary.system_job, last_hash, moment,
                    [c[0] for c in commands], [c[1] for c in commands], [c[2] for c in commands],
                    [c[3] for c in commands], [c[4] for c in commands], [c[5] for c in commands],
                    [e.version for e in stored], [e.type for e in stored], [e.actor for e in stored],
                    [e.command_id for e in stored], [e.payload for e in stored], [e.prev_hash for e in stored],
                    [e.hash for e in stored],
                    snapshot.version if snapshot else None, snapshot.schema if snapshot else None,
                    snapshot.state if snapshot else None, summary.deadline, [e.commitment for e in stored],
                )
            except asyncpg.UniqueViolationError:
                return None
        if written != 1:
            return None
        self._tip(game_id, tip.version, tip.hash, chain)
        return stored

    async def _append_locked(
        self, game_id: str, expected_version: int, decisions: list[Decision], summary: GameSummary,
        snapshot: Snapshot | None = None,
    ) -> tuple[list[StoredEvent], int]:
        async with self._connection() as conn, conn.transaction():
            row = await conn.fetchrow(
                "SELECT version, last_hash, chain FROM games WHERE game_id = $1 FOR UPDATE", game_id
            )
            if row is None:
                raise StreamNotFound(f"no game {game_id}")
            for decision in decisions:
                first = await self._find_command(conn, game_id, decision.command_id)
                if first is not None:
                    raise DuplicateCommand(first)
            if row["version"] != expected_version:
                raise ConcurrencyConflict(game_id, expected_version)
            try:
                stored = await self._write(conn, game_id, expected_version, row["last_hash"], row["chain"],
                                           decisions, summary, snapshot)
                return stored, row["chain"]
            except asyncpg.UniqueViolationError as exc:
                raise ConcurrencyConflict(game_id, expected_version) from exc

    async def _write(
        self, conn: Connection, game_id: str, version: int, last_hash: str, chain: int, decisions: list[Decision],
        summary: GameSummary, snapshot: Snapshot | None,
    ) -> list[StoredEvent]:
        recorded_at = timestamp()
        stored, commands = _chain(game_id, version, last_hash, chain, decisions, recorded_at)
        if stored:
            version, last_hash = stored[-1].version, stored[-1].hash
        moment = datetime.fromisoformat(recorded_at)
        await conn.executemany(
            "INSERT INTO commands (game_id, command_id, actor, type, payload, first_version, last_version,"
            " recorded_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            [(game_id, *c, moment) for c in commands],
        )
        await conn.execute(
            "INSERT INTO events (game_id, version, type, actor, command_id, payload, recorded_at, prev_hash, hash,"
            " commitment) SELECT $1, * FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::bytea[],"
            " $7::timestamptz[], $8::text[], $9::text[], $10::text[])",
            game_id,
            [e.version for e in stored], [e.type for e in stored], [e.actor for e in stored],
            [e.command_id for e in stored], [e.payload for e in stored], [moment] * len(stored),
            [e.prev_hash for e in stored], [e.hash for e in stored], [e.commitment for e in stored],
        )
        await conn.execute(
            "UPDATE games SET version = $2, last_hash = $3, status = $4, on_turn = $5, system_job = $6,"
            " next_deadline = $7, updated_at = now() WHERE game_id = $1",
            game_id, version, last_hash, summary.status, list(summary.on_turn), summary.system_job, summary.deadline,
        )
        if snapshot is not None:
            await conn.execute(
                "INSERT INTO snapshots (game_id, version, state_schema, state) VALUES ($1, $2, $3, $4)"
                " ON CONFLICT DO NOTHING",
                game_id, snapshot.version, snapshot.schema, snapshot.state,
            )
        return stored

    async def head(self, game_id: str) -> GameHead:
        async with self._connection() as conn:
            row = await conn.fetchrow(f"{_HEAD} WHERE game_id = $1", game_id)
        if row is None:
            raise StreamNotFound(f"no game {game_id}")
        self._tip(game_id, row["version"], row["last_hash"], row["chain"])
        return _head(row)

    async def head_with_snapshot(self, game_id: str) -> tuple[GameHead, Snapshot | None]:
        async with self._connection() as conn:
            row = await conn.fetchrow(
                "SELECT g.game_id, g.game_type, g.version, g.last_hash, g.status, g.on_turn, g.system_job,"
                " g.updated_at, g.chain, s.version AS snapshot_version, s.state_schema, s.state FROM games g"
                " LEFT JOIN LATERAL (SELECT version, state_schema, state FROM snapshots"
                " WHERE game_id = g.game_id ORDER BY version DESC LIMIT 1) s ON true WHERE g.game_id = $1",
                game_id,
            )
        if row is None:
            raise StreamNotFound(f"no game {game_id}")
        self._tip(game_id, row["version"], row["last_hash"], row["chain"])
        snapshot = (None if row["snapshot_version"] is None
                    else Snapshot(row["snapshot_version"], row["state_schema"], bytes(row["state"])))
        return _head(row), snapshot

    async def heads(self, game_ids: list[str]) -> list[GameHead]:
        async with self._connection() as conn:
            rows = await conn.fetch(f"{_HEAD} WHERE game_id = ANY($1::text[]) ORDER BY updated_at DESC", game_ids)
        return [_head(r) for r in rows]

    async def due_jobs(self) -> list[GameHead]:
        async with self._connection() as conn:
            rows = await conn.fetch(f"{_HEAD} WHERE status = 'running' AND system_job IS NOT NULL")
        return [_head(r) for r in rows]

    async def timed_games(self) -> list[str]:
        """The running games with a running clock (the reconciler schedules their deadlines again)."""
        async with self._connection() as conn:
            rows = await conn.fetch("SELECT game_id FROM games WHERE status = 'running' AND next_deadline IS NOT NULL")
        return [r["game_id"] for r in rows]

    async def read(
        self, game_id: str, after: int = 0, until: int | None = None, *, known: bool = False
    ) -> list[StoredEvent]:
        async with self._connection() as conn:
            rows = await conn.fetch(
                f"SELECT {_EVENT_COLUMNS} FROM events WHERE game_id = $1 AND version > $2"
                " AND ($3::int IS NULL OR version <= $3) ORDER BY version",
                game_id, after, until,
            )
            if not rows and not known:
                await self._require_game(conn, game_id)
        if rows:
            last = rows[-1]
            self._tip(game_id, last["version"], last["hash"], LEGACY if last["commitment"] is None else COMMITTED)
        moments: dict[datetime, str] = {}  # the events of one command share their time: format it once
        return [
            StoredEvent(r["version"], r["type"], r["actor"], r["command_id"],
                        moments.get(r["recorded_at"]) or moments.setdefault(r["recorded_at"],
                                                                             timestamp(r["recorded_at"])),
                        bytes(r["payload"]), r["prev_hash"], r["hash"], r["commitment"])
            for r in rows
        ]

    async def latest_snapshot(self, game_id: str, schema: str, at_most: int | None = None) -> Snapshot | None:
        async with self._connection() as conn:
            row = await conn.fetchrow(
                "SELECT version, state_schema, state FROM snapshots WHERE game_id = $1 AND state_schema = $2"
                " AND ($3::int IS NULL OR version <= $3) ORDER BY version DESC LIMIT 1",
                game_id, schema, at_most,
            )
        return None if row is None else Snapshot(row["version"], row["state_schema"], bytes(row["state"]))

    async def find_command(self, game_id: str, command_id: str) -> CommandRecord | None:
        async with self._connection() as conn:
            return await self._find_command(conn, game_id, command_id)

    @staticmethod
    async def _find_command(conn: Connection, game_id: str, command_id: str) -> CommandRecord | None:
        row = await conn.fetchrow(
            "SELECT command_id, actor, type, payload, first_version, last_version, recorded_at FROM commands"
            " WHERE game_id = $1 AND command_id = $2",
            game_id, command_id,
        )
        return None if row is None else _command(row)

    async def commands(self, game_id: str) -> list[CommandRecord]:
        async with self._connection() as conn:
            rows = await conn.fetch(
                "SELECT command_id, actor, type, payload, first_version, last_version, recorded_at FROM commands"
                " WHERE game_id = $1 ORDER BY first_version",
                game_id,
            )
        return [_command(r) for r in rows]

    async def seed(self, game_id: str) -> bytes:
        async with self._connection() as conn:
            seed = await conn.fetchval("SELECT seed FROM game_secrets WHERE game_id = $1", game_id)
        if seed is None:
            raise StreamNotFound(f"no game {game_id}")
        return bytes(seed)

    async def seats(self, game_id: str) -> list[SeatRecord]:
        async with self._connection() as conn:
            rows = await conn.fetch(
                "SELECT seat, kind, name, payload::text, token_hash, player_id FROM seats WHERE game_id = $1"
                " ORDER BY seat",
                game_id,
            )
            if not rows:
                await self._require_game(conn, game_id)
        return [SeatRecord(r["seat"], r["kind"], r["name"], msgspec.json.decode(r["payload"]), r["token_hash"],
                           r["player_id"]) for r in rows]

    async def seat_for_token(self, game_id: str, token_hash: str) -> int | None:
        async with self._connection() as conn:
            seat: int | None = await conn.fetchval(_SEAT_FOR_TOKEN, game_id, token_hash)
        return seat

    @staticmethod
    async def _require_game(conn: Connection, game_id: str) -> None:
        if await conn.fetchval("SELECT 1 FROM games WHERE game_id = $1", game_id) is None:
            raise StreamNotFound(f"no game {game_id}")


_SEAT_FOR_TOKEN = """
WITH used AS (
    UPDATE seats SET link_used = true WHERE game_id = $1 AND token_hash = $2 AND NOT link_used RETURNING seat
)
SELECT seat FROM used
UNION ALL SELECT seat FROM seats WHERE game_id = $1 AND token_hash = $2 AND link_used
LIMIT 1
"""
"""The seat a token opens, marked used the first time (so it is no longer free to join, see ``claim_seat``). A join
that took the seat first has cleared its token: the update, which waits for the join's lock, then finds nothing."""


def _chain(
    game_id: str, version: int, last_hash: str, chain: int, decisions: list[Decision], recorded_at: str
) -> tuple[list[StoredEvent], list[tuple[str, str, str, bytes, int, int]]]:
    """The stored events of ``decisions`` after ``version`` (hash chain from ``last_hash``, through the events'
    commitments in a chain-2 game) and their command records ``(command_id, actor, type, payload, first_version,
    last_version)``."""
    stored: list[StoredEvent] = []
    commands: list[tuple[str, str, str, bytes, int, int]] = []
    for decision in decisions:
        first = version + 1
        for event in decision.events:
            version += 1
            committed = event.commitment if chain == COMMITTED else None
            digest = event_hash(last_hash, game_id, version, event.type, decision.actor, decision.command_id,
                                recorded_at, event.payload, committed)
            stored.append(StoredEvent(version, event.type, decision.actor, decision.command_id, recorded_at,
                                      event.payload, last_hash, digest, committed))
            last_hash = digest
        commands.append((decision.command_id, decision.actor, decision.command_type, decision.command, first,
                         version))
    return stored, commands


def _head(row: asyncpg.Record) -> GameHead:
    return GameHead(
        row["game_id"], row["game_type"], row["version"], row["last_hash"], row["status"], tuple(row["on_turn"]),
        row["system_job"], timestamp(row["updated_at"]),
    )


def _command(row: asyncpg.Record) -> CommandRecord:
    return CommandRecord(
        row["command_id"], row["actor"], row["type"], bytes(row["payload"]), row["first_version"],
        row["last_version"], timestamp(row["recorded_at"]),
    )
