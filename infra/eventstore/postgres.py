"""The event store on PostgreSQL (asyncpg). Driver errors are translated here and nowhere else."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import datetime
from typing import Any

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from infra.chain import GENESIS, event_hash
from infra.errors import ConcurrencyConflict, StoreUnavailable, StreamNotFound

from .base import (
    CommandRecord,
    Decision,
    DuplicateCommand,
    GameHead,
    GameSummary,
    SeatRecord,
    Snapshot,
    StoredEvent,
    timestamp,
)

Connection = asyncpg.Connection | PoolConnectionProxy
"""A connection, direct or borrowed from the pool."""

_HEAD = "SELECT game_id, game_type, version, last_hash, status, on_turn, system_job, updated_at FROM games"
_EVENT_COLUMNS = "version, type, actor, command_id, recorded_at, payload, prev_hash, hash"


class PostgresEventStore:
    """Appends run in one transaction that first locks the game's read-model row, so appends to one game
    are serialised and the expected-version check is exact; appends to different games never wait."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[Connection]:
        try:
            async with self._pool.acquire() as conn:
                yield conn
        except (OSError, asyncpg.exceptions.ConnectionDoesNotExistError,
                asyncpg.exceptions.CannotConnectNowError) as exc:
            raise StoreUnavailable(f"the database is unavailable: {exc}") from exc

    async def create(
        self, game_id: str, game_type: str, seats: list[SeatRecord], seed: bytes, decision: Decision,
        summary: GameSummary,
    ) -> list[StoredEvent]:
        async with self._connection() as conn, conn.transaction():
            try:
                await conn.execute(
                    "INSERT INTO games (game_id, game_type, status, version, last_hash)"
                    " VALUES ($1, $2, 'running', 0, $3)",
                    game_id, game_type, GENESIS,
                )
            except asyncpg.UniqueViolationError as exc:
                raise ConcurrencyConflict(game_id, 0) from exc
            await conn.execute("INSERT INTO game_secrets (game_id, seed) VALUES ($1, $2)", game_id, seed)
            await conn.executemany(
                "INSERT INTO seats (game_id, seat, kind, name, company, token_hash) VALUES ($1, $2, $3, $4, $5, $6)",
                [(game_id, s.seat, s.kind, s.name, s.company, s.token_hash) for s in seats],
            )
            return await self._write(conn, game_id, 0, GENESIS, [decision], summary, None)

    async def append(
        self, game_id: str, expected_version: int, decisions: list[Decision], summary: GameSummary,
        snapshot: Snapshot | None = None,
    ) -> list[StoredEvent]:
        async with self._connection() as conn, conn.transaction():
            row = await conn.fetchrow(
                "SELECT version, last_hash FROM games WHERE game_id = $1 FOR UPDATE", game_id
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
                return await self._write(conn, game_id, expected_version, row["last_hash"], decisions, summary,
                                         snapshot)
            except asyncpg.UniqueViolationError as exc:
                raise ConcurrencyConflict(game_id, expected_version) from exc

    async def _write(
        self, conn: Connection, game_id: str, version: int, last_hash: str, decisions: list[Decision],
        summary: GameSummary, snapshot: Snapshot | None,
    ) -> list[StoredEvent]:
        recorded_at = timestamp()
        stored: list[StoredEvent] = []
        commands: list[tuple[Any, ...]] = []
        for decision in decisions:
            first = version + 1
            for event in decision.events:
                version += 1
                digest = event_hash(last_hash, game_id, version, event.type, decision.actor, decision.command_id,
                                    recorded_at, event.payload)
                stored.append(StoredEvent(version, event.type, decision.actor, decision.command_id, recorded_at,
                                          event.payload, last_hash, digest))
                last_hash = digest
            commands.append((game_id, decision.command_id, decision.actor, decision.command_type, decision.command,
                             first, version))
        moment = datetime.fromisoformat(recorded_at)
        await conn.executemany(
            "INSERT INTO commands (game_id, command_id, actor, type, payload, first_version, last_version,"
            " recorded_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            [(*c, moment) for c in commands],
        )
        await conn.execute(
            "INSERT INTO events (game_id, version, type, actor, command_id, payload, recorded_at, prev_hash, hash)"
            " SELECT $1, * FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::bytea[],"
            " $7::timestamptz[], $8::text[], $9::text[])",
            game_id,
            [e.version for e in stored], [e.type for e in stored], [e.actor for e in stored],
            [e.command_id for e in stored], [e.payload for e in stored], [moment] * len(stored),
            [e.prev_hash for e in stored], [e.hash for e in stored],
        )
        await conn.execute(
            "UPDATE games SET version = $2, last_hash = $3, status = $4, on_turn = $5, system_job = $6,"
            " updated_at = now() WHERE game_id = $1",
            game_id, version, last_hash, summary.status, list(summary.on_turn), summary.system_job,
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
        return _head(row)

    async def heads(self, game_ids: list[str]) -> list[GameHead]:
        async with self._connection() as conn:
            rows = await conn.fetch(f"{_HEAD} WHERE game_id = ANY($1::text[]) ORDER BY updated_at DESC", game_ids)
        return [_head(r) for r in rows]

    async def due_jobs(self) -> list[GameHead]:
        async with self._connection() as conn:
            rows = await conn.fetch(f"{_HEAD} WHERE status = 'running' AND system_job IS NOT NULL")
        return [_head(r) for r in rows]

    async def read(self, game_id: str, after: int = 0, until: int | None = None) -> list[StoredEvent]:
        async with self._connection() as conn:
            rows = await conn.fetch(
                f"SELECT {_EVENT_COLUMNS} FROM events WHERE game_id = $1 AND version > $2"
                " AND ($3::int IS NULL OR version <= $3) ORDER BY version",
                game_id, after, until,
            )
            if not rows:
                await self._require_game(conn, game_id)
        return [
            StoredEvent(r["version"], r["type"], r["actor"], r["command_id"], timestamp(r["recorded_at"]),
                        bytes(r["payload"]), r["prev_hash"], r["hash"])
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
                "SELECT seat, kind, name, company, token_hash FROM seats WHERE game_id = $1 ORDER BY seat", game_id
            )
            if not rows:
                await self._require_game(conn, game_id)
        return [SeatRecord(r["seat"], r["kind"], r["name"], r["company"], r["token_hash"]) for r in rows]

    async def seat_for_token(self, game_id: str, token_hash: str) -> int | None:
        async with self._connection() as conn:
            seat: int | None = await conn.fetchval(
                "SELECT seat FROM seats WHERE game_id = $1 AND token_hash = $2", game_id, token_hash
            )
        return seat

    @staticmethod
    async def _require_game(conn: Connection, game_id: str) -> None:
        if await conn.fetchval("SELECT 1 FROM games WHERE game_id = $1", game_id) is None:
            raise StreamNotFound(f"no game {game_id}")


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
