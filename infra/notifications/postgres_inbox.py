"""The notices in PostgreSQL (``notices``)."""

from __future__ import annotations

from collections.abc import Sequence

from .executor import OnExecutor
from .records import Notice, NoticeAbout, Told

_WRITE = """
INSERT INTO notices (notice_id, player_id, game_id, seat, version, kind, text, phrase)
SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::int[], $6::text[], $7::text[], $8::jsonb[])
ON CONFLICT (notice_id) DO NOTHING
"""
_ABOUT = """
SELECT x.notice_id, x.game_id, x.seat, x.version, x.kind, x.text, x.created_at, g.game_type, x.phrase::text
FROM notices x JOIN games g USING (game_id) WHERE x.notice_id = $1
"""
_LISTED = """
SELECT x.notice_id, x.game_id, x.seat, x.version, x.kind, x.text, x.created_at, x.read_at IS NOT NULL AS read,
       x.phrase::text AS phrase, coalesce(g.game_type, '') AS game_type
FROM notices x LEFT JOIN games g USING (game_id)
WHERE x.player_id = $1 ORDER BY x.created_at DESC, x.notice_id DESC LIMIT $2
"""


class PostgresInbox(OnExecutor):
    async def write_notices(self, told: Sequence[Told]) -> None:
        if not told:
            return
        await self._db.execute(_WRITE, [t.notice_id for t in told], [t.player_id for t in told],
                               [t.game_id for t in told], [t.seat for t in told], [t.version for t in told],
                               [t.kind for t in told], [t.text for t in told], [t.phrase for t in told])

    async def has_notice(self, notice_id: str) -> bool:
        return bool(await self._db.fetchval("SELECT 1 FROM notices WHERE notice_id = $1", notice_id))

    async def notice(self, notice_id: str) -> NoticeAbout | None:
        row = await self._db.fetchrow(_ABOUT, notice_id)
        return None if row is None else NoticeAbout(**dict(row))

    async def notices(self, player_id: str, limit: int) -> list[Notice]:
        return [Notice(**dict(r)) for r in await self._db.fetch(_LISTED, player_id, limit)]

    async def unread(self, player_id: str) -> int:
        count: int = await self._db.fetchval(
            "SELECT count(*) FROM notices WHERE player_id = $1 AND read_at IS NULL", player_id)
        return count

    async def mark_read(self, player_id: str, notice_ids: Sequence[str]) -> None:
        if notice_ids:
            await self._db.execute("UPDATE notices SET read_at = now() WHERE player_id = $1 AND notice_id = ANY($2)"
                                   " AND read_at IS NULL", player_id, list(notice_ids))
        else:
            await self._db.execute("UPDATE notices SET read_at = now() WHERE player_id = $1 AND read_at IS NULL",
                                   player_id)
