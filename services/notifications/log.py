"""The delivery log a player reads (``GET /api/me/deliveries``): what was sent, when, by which channel, and what
became of it (sent, skipped and why, failed and why, or still pending)."""

from __future__ import annotations

from datetime import datetime

import msgspec

from .db import Executor

LISTED = 100


class Entry(msgspec.Struct, frozen=True):
    delivery_id: str
    channel: str
    """email, digest, webhook or push."""
    target: str
    """The address for mail, the webhook's id, or the push device's id."""
    notice_id: str | None
    status: str
    """pending, sending, sent, skipped or failed."""
    attempts: int
    detail: str
    created_at: datetime
    sent_at: datetime | None


async def entries(db: Executor, player_id: str, limit: int = LISTED) -> list[Entry]:
    rows = await db.fetch(
        "SELECT delivery_id, channel, target, notice_id, status, attempts, detail, created_at, sent_at"
        " FROM deliveries WHERE player_id = $1 ORDER BY created_at DESC, delivery_id LIMIT $2", player_id, limit)
    return [Entry(**dict(r)) for r in rows]
