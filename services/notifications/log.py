"""The delivery log a player reads (``GET /api/me/deliveries``): what was sent, when, by which channel, and what
became of it (sent, skipped and why, failed and why, or still pending)."""

from __future__ import annotations

from infra.notifications import Entry, Outbox

LISTED = 100

__all__ = ["LISTED", "Entry", "entries"]


async def entries(store: Outbox, player_id: str, limit: int = LISTED) -> list[Entry]:
    return await store.entries(player_id, limit)
