"""Plans on PostgreSQL (infra/migrations/016_plans.sql)."""

from __future__ import annotations

from collections.abc import Collection
from datetime import UTC, datetime

import asyncpg

from infra.errors import StreamNotFound

from .base import PlanRecord

_COLUMNS = "game_id, seat, kind, body, set_at, holder, since"


def _record(row: asyncpg.Record) -> PlanRecord:
    at: datetime = row["set_at"]
    return PlanRecord(row["game_id"], row["seat"], row["kind"], bytes(row["body"]),
                      at.astimezone(UTC).isoformat().replace("+00:00", "Z"), row["holder"], row["since"])


class PostgresSeatPlans:
    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    async def of_seat(self, game_id: str, seat: int) -> list[PlanRecord]:
        rows = await self._pool.fetch(
            f"SELECT {_COLUMNS} FROM plans WHERE game_id = $1 AND seat = $2 ORDER BY kind", game_id, seat)
        return [_record(r) for r in rows]

    async def put(self, game_id: str, seat: int, kind: str, body: bytes, holder: str = "", since: int = 0
                  ) -> PlanRecord:
        try:
            row = await self._pool.fetchrow(
                "INSERT INTO plans (game_id, seat, kind, body, holder, since) VALUES ($1, $2, $3, $4, $5, $6)"
                " ON CONFLICT (game_id, seat, kind) DO UPDATE SET body = excluded.body, holder = excluded.holder,"
                f" since = excluded.since, set_at = now() RETURNING {_COLUMNS}", game_id, seat, kind, body, holder,
                since)
        except asyncpg.ForeignKeyViolationError as exc:
            raise StreamNotFound("no such game") from exc
        assert row is not None
        return _record(row)

    async def drop(self, game_id: str, seat: int, kinds: Collection[str] | None = None) -> int:
        if kinds is None:
            done: str = await self._pool.execute("DELETE FROM plans WHERE game_id = $1 AND seat = $2", game_id, seat)
        else:
            done = await self._pool.execute("DELETE FROM plans WHERE game_id = $1 AND seat = $2 AND kind = ANY($3)",
                                            game_id, seat, list(kinds))
        return int(done.rsplit(" ", 1)[-1])

    async def of_games(self, game_ids: Collection[str]) -> list[PlanRecord]:
        rows = await self._pool.fetch(
            f"SELECT {_COLUMNS} FROM plans WHERE game_id = ANY($1) ORDER BY game_id, seat, kind", list(game_ids))
        return [_record(r) for r in rows]

    async def planned_games(self) -> list[str]:
        return [r["game_id"] for r in await self._pool.fetch("SELECT DISTINCT game_id FROM plans ORDER BY game_id")]
