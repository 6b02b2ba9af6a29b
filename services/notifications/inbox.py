"""A player's notices in the page: the list (newest first) with the unread count, and marking them read."""

from __future__ import annotations

from collections.abc import Sequence

from infra.notifications import Inbox, Notice

LISTED = 50
"""Notices one page of the list shows."""
READ_MAX = 500
"""Notice ids one request may mark read."""

__all__ = ["LISTED", "READ_MAX", "Notice", "listed", "mark_read", "unread"]


async def unread(store: Inbox, player_id: str) -> int:
    return await store.unread(player_id)


async def listed(store: Inbox, player_id: str, limit: int = LISTED) -> list[Notice]:
    return await store.notices(player_id, limit)


async def mark_read(store: Inbox, player_id: str, notice_ids: Sequence[str]) -> int:
    """Mark the player's notices read (all of them when ``notice_ids`` is empty); returns the unread left.
    Ids that are not the player's are ignored."""
    await store.mark_read(player_id, notice_ids)
    return await store.unread(player_id)
