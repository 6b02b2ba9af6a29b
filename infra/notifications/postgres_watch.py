"""The projector's checkpoints in PostgreSQL (``notice_cursors``, written at a seat's claim by the event store),
and what notifications read of ``games`` and ``seats``."""

from __future__ import annotations

from collections.abc import Sequence

from .executor import OnExecutor
from .records import WaitingSeat, Watched

_MOVED = """
SELECT c.game_id FROM notice_cursors c JOIN games g USING (game_id)
WHERE g.version > c.version OR g.status <> 'running'
LIMIT $1
"""
_MOVED_AMONG = """
SELECT c.game_id FROM notice_cursors c JOIN games g USING (game_id)
WHERE c.game_id = ANY($2::text[]) AND (g.version > c.version OR g.status <> 'running')
LIMIT $1
"""
# SKIP LOCKED: several workers project side by side, each game by one of them at a time. The head and the claimed
# seats are read in the same statement: a consistent snapshot, so a seat claimed later is not told what came before.
_HOLD = """
SELECT c.version AS cursor, g.version AS head, g.game_type, g.status,
       coalesce((SELECT array_agg(s.seat ORDER BY s.seat) FROM seats s
                 WHERE s.game_id = g.game_id AND s.player_id IS NOT NULL), '{}') AS seats,
       coalesce((SELECT array_agg(s.player_id ORDER BY s.seat) FROM seats s
                 WHERE s.game_id = g.game_id AND s.player_id IS NOT NULL), '{}') AS players
FROM notice_cursors c JOIN games g USING (game_id)
WHERE c.game_id = $1
FOR UPDATE OF c SKIP LOCKED
"""
_WAITING = """
SELECT g.game_id, g.game_type, s.name AS seat_name FROM seats s JOIN games g USING (game_id)
WHERE s.player_id = $1 AND g.status = 'running' AND s.seat = ANY(g.on_turn)
ORDER BY g.updated_at, g.game_id
"""


class PostgresWatch(OnExecutor):
    async def moved(self, limit: int, among: Sequence[str] | None = None) -> list[str]:
        if among is None:
            return [r["game_id"] for r in await self._db.fetch(_MOVED, limit)]
        if not among:
            return []
        return [r["game_id"] for r in await self._db.fetch(_MOVED_AMONG, limit, list(among))]

    async def hold(self, game_id: str) -> Watched | None:
        row = await self._db.fetchrow(_HOLD, game_id)
        if row is None:
            return None
        return Watched(game_id, row["cursor"], row["head"], row["game_type"], row["status"] != "running",
                       dict(zip(row["seats"], row["players"], strict=True)))

    async def advance(self, game_id: str, version: int) -> None:
        await self._db.execute("UPDATE notice_cursors SET version = $2 WHERE game_id = $1", game_id, version)

    async def forget(self, game_id: str) -> None:
        await self._db.execute("DELETE FROM notice_cursors WHERE game_id = $1", game_id)

    async def player_at(self, game_id: str, seat: int) -> str | None:
        player: str | None = await self._db.fetchval(
            "SELECT player_id FROM seats WHERE game_id = $1 AND seat = $2", game_id, seat)
        return player

    async def waiting(self, player_id: str) -> list[WaitingSeat]:
        return [WaitingSeat(**dict(r)) for r in await self._db.fetch(_WAITING, player_id)]
