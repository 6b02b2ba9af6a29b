"""A player's notices in the page: the list (newest first) with the unread count, and marking them read."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import msgspec

from .db import Executor

LISTED = 50
"""Notices one page of the list shows."""
READ_MAX = 500
"""Notice ids one request may mark read."""


class Notice(msgspec.Struct, frozen=True):
    notice_id: str
    game_id: str
    seat: int
    version: int
    kind: str
    text: str
    created_at: datetime
    read: bool


async def unread(db: Executor, player_id: str) -> int:
    count: int = await db.fetchval("SELECT count(*) FROM notices WHERE player_id = $1 AND read_at IS NULL",
                                   player_id)
    return count


async def listed(db: Executor, player_id: str, limit: int = LISTED) -> list[Notice]:
    rows = await db.fetch(
        "SELECT notice_id, game_id, seat, version, kind, text, created_at, read_at IS NOT NULL AS read"
        " FROM notices WHERE player_id = $1 ORDER BY created_at DESC, notice_id DESC LIMIT $2", player_id, limit)
    return [Notice(**dict(r)) for r in rows]


async def mark_read(db: Executor, player_id: str, notice_ids: Sequence[str]) -> int:
    """Mark the player's notices read (all of them when ``notice_ids`` is empty); returns the unread left.
    Ids that are not the player's are ignored."""
    if notice_ids:
        await db.execute("UPDATE notices SET read_at = now() WHERE player_id = $1 AND notice_id = ANY($2)"
                         " AND read_at IS NULL", player_id, list(notice_ids))
    else:
        await db.execute("UPDATE notices SET read_at = now() WHERE player_id = $1 AND read_at IS NULL", player_id)
    return await unread(db, player_id)
