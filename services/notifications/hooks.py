"""A player's webhooks (``/api/me/webhooks``): at most :data:`WEBHOOKS_MAX`, each URL checked as safe to call
(:func:`infra.channels.addresses.check_url`, and its host resolved as a delivery resolves it,
:func:`~infra.channels.addresses.check_resolved`; checked again at every delivery), its signing secret shown once."""

from __future__ import annotations

import secrets

import msgspec

from infra.channels.addresses import check_resolved, check_url
from infra.channels.webhooks import SHAPES, new_secret
from infra.notifications import Channels, Webhook

WEBHOOKS_MAX = 5

__all__ = ["WEBHOOKS_MAX", "NewWebhook", "TooManyWebhooks", "Webhook", "add", "listed", "remove"]


class TooManyWebhooks(Exception):
    code = "request/too_many_webhooks"


class NewWebhook(msgspec.Struct, frozen=True):
    webhook: Webhook
    secret: str
    """The signing secret (``whsec_...``): shown once, when the webhook is added."""


async def listed(store: Channels, player_id: str) -> list[Webhook]:
    return await store.webhooks(player_id)


async def add(store: Channels, player_id: str, url: str, shape: str, *, allow_private: bool) -> NewWebhook:
    """Add a webhook (UnsafeAddress for a URL the server must not call, ValueError for an unknown shape,
    TooManyWebhooks beyond the limit)."""
    if shape not in SHAPES:
        raise ValueError(f"shape is one of {', '.join(SHAPES)}")
    url = check_url(url, allow_private=allow_private)
    if not allow_private:  # a name that resolves to a private address is refused now, not only at delivery
        await check_resolved(url, allow_private=False)
    secret = new_secret()
    webhook_id = secrets.token_hex(8)
    made = await store.add_webhook(webhook_id, player_id, url, shape, secret, WEBHOOKS_MAX)
    if made is None:
        raise TooManyWebhooks(f"a player has at most {WEBHOOKS_MAX} webhooks; remove one first")
    return NewWebhook(made, secret)


async def remove(store: Channels, player_id: str, webhook_id: str) -> bool:
    """Remove one of the player's webhooks (False if they have none by that id). Its pending deliveries are
    skipped when their turn comes."""
    return await store.remove_webhook(player_id, webhook_id)
