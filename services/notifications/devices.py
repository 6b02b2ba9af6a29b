"""A player's Web Push subscriptions (``/api/me/push``): one per device, keyed by the SHA-256 of its endpoint,
so a browser subscribing again replaces its record instead of adding one."""

from __future__ import annotations

import hashlib

from infra.channels.addresses import check_resolved
from infra.channels.push import PushSubscription, check_subscription
from infra.notifications import Channels

DEVICES_MAX = 20
"""Subscriptions one player may hold; the oldest is dropped beyond it (a browser that never unsubscribes)."""


def endpoint_id(endpoint: str) -> str:
    return hashlib.sha256(endpoint.encode()).hexdigest()


async def subscribe(store: Channels, player_id: str, sub: PushSubscription, *, allow_private: bool) -> str:
    """Keep a device's subscription (UnsafeAddress or ValueError for one that cannot be used); returns its id."""
    sub = check_subscription(sub, allow_private=allow_private)
    if not allow_private:  # resolved as a delivery resolves it: a name of a private address is refused now
        await check_resolved(sub.endpoint, allow_private=False)
    key = endpoint_id(sub.endpoint)
    await store.keep_device(player_id, key, sub, DEVICES_MAX)
    return key


async def unsubscribe(store: Channels, player_id: str, endpoint: str) -> bool:
    return await store.forget_device(player_id, endpoint_id(endpoint))
