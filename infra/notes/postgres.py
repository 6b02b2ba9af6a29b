"""Notes on PostgreSQL (infra/migrations/014_notes.sql)."""

from __future__ import annotations

from datetime import UTC, datetime

import asyncpg

from infra.errors import StreamNotFound

from .base import Note


def _iso(at: datetime) -> str:
    return at.astimezone(UTC).isoformat().replace("+00:00", "Z")


def _note(row: asyncpg.Record) -> Note:
    return Note(row["game_id"], row["seat"], row["text"], _iso(row["updated_at"]))


class PostgresNotes:
    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    async def get(self, player_id: str, game_id: str) -> Note | None:
        row = await self._pool.fetchrow(
            "SELECT game_id, seat, text, updated_at FROM notes WHERE player_id = $1 AND game_id = $2",
            player_id, game_id)
        return None if row is None else _note(row)

    async def put(self, player_id: str, game_id: str, seat: int, text: str) -> Note | None:
        if not text:
            await self._pool.execute("DELETE FROM notes WHERE player_id = $1 AND game_id = $2", player_id, game_id)
            return None
        try:
            row = await self._pool.fetchrow(
                "INSERT INTO notes (player_id, game_id, seat, text) VALUES ($1, $2, $3, $4)"
                " ON CONFLICT (player_id, game_id) DO UPDATE SET seat = excluded.seat, text = excluded.text,"
                " updated_at = now() RETURNING game_id, seat, text, updated_at", player_id, game_id, seat, text)
        except asyncpg.ForeignKeyViolationError as exc:
            raise StreamNotFound("no such game") from exc
        assert row is not None
        return _note(row)

    async def of_player(self, player_id: str) -> list[Note]:
        rows = await self._pool.fetch(
            "SELECT game_id, seat, text, updated_at FROM notes WHERE player_id = $1 ORDER BY game_id", player_id)
        return [_note(r) for r in rows]

    async def forget_player(self, player_id: str) -> int:
        deleted: str = await self._pool.execute("DELETE FROM notes WHERE player_id = $1", player_id)
        return int(deleted.rsplit(" ", 1)[-1])
