"""A player's Web Push subscriptions (``/api/me/push``): one per device, keyed by the SHA-256 of its endpoint,
so a browser subscribing again replaces its record instead of adding one."""

from __future__ import annotations

import hashlib

from infra.channels.addresses import check_resolved
from infra.channels.push import PushSubscription, check_subscription

from .db import Executor

DEVICES_MAX = 20
"""Subscriptions one player may hold; the oldest is dropped beyond it (a browser that never unsubscribes)."""


def endpoint_id(endpoint: str) -> str:
    return hashlib.sha256(endpoint.encode()).hexdigest()


async def subscribe(db: Executor, player_id: str, sub: PushSubscription, *, allow_private: bool) -> str:
    """Keep a device's subscription (UnsafeAddress or ValueError for one that cannot be used); returns its id."""
    sub = check_subscription(sub, allow_private=allow_private)
    if not allow_private:  # resolved as a delivery resolves it: a name of a private address is refused now
        await check_resolved(sub.endpoint, allow_private=False)
    key = endpoint_id(sub.endpoint)
    await db.execute(
        "INSERT INTO push_subscriptions (endpoint_id, player_id, endpoint, p256dh, auth) VALUES ($1, $2, $3, $4, $5)"
        " ON CONFLICT (endpoint_id) DO UPDATE SET player_id = EXCLUDED.player_id, p256dh = EXCLUDED.p256dh,"
        " auth = EXCLUDED.auth", key, player_id, sub.endpoint, sub.p256dh, sub.auth)
    await db.execute(
        "DELETE FROM push_subscriptions WHERE player_id = $1 AND endpoint_id NOT IN"
        " (SELECT endpoint_id FROM push_subscriptions WHERE player_id = $1 ORDER BY created_at DESC LIMIT $2)",
        player_id, DEVICES_MAX)
    return key


async def unsubscribe(db: Executor, player_id: str, endpoint: str) -> bool:
    gone = await db.fetchval("DELETE FROM push_subscriptions WHERE endpoint_id = $1 AND player_id = $2 RETURNING 1",
                             endpoint_id(endpoint), player_id)
    return gone is not None
