"""A player's webhooks (``/api/me/webhooks``): at most :data:`WEBHOOKS_MAX`, each URL checked as safe to call
(:func:`infra.channels.addresses.check_url`, and its host resolved as a delivery resolves it,
:func:`~infra.channels.addresses.check_resolved`; checked again at every delivery), its signing secret shown once."""

from __future__ import annotations

import secrets
from datetime import datetime

import msgspec

from infra.channels.addresses import check_resolved, check_url
from infra.channels.webhooks import SHAPES, new_secret

from .db import Executor

WEBHOOKS_MAX = 5


class TooManyWebhooks(Exception):
    code = "request/too_many_webhooks"


class Webhook(msgspec.Struct, frozen=True):
    webhook_id: str
    url: str
    shape: str
    failures: int
    """Failed deliveries in a row (it is turned off at ``MAGNATE_WEBHOOK_FAILURES_MAX``)."""
    disabled: bool
    created_at: datetime


class NewWebhook(msgspec.Struct, frozen=True):
    webhook: Webhook
    secret: str
    """The signing secret (``whsec_...``): shown once, when the webhook is added."""


async def listed(db: Executor, player_id: str) -> list[Webhook]:
    rows = await db.fetch("SELECT webhook_id, url, shape, failures, disabled_at IS NOT NULL AS disabled, created_at"
                          " FROM webhooks WHERE player_id = $1 ORDER BY created_at, webhook_id", player_id)
    return [Webhook(**dict(r)) for r in rows]


async def add(db: Executor, player_id: str, url: str, shape: str, *, allow_private: bool) -> NewWebhook:
    """Add a webhook (UnsafeAddress for a URL the server must not call, ValueError for an unknown shape,
    TooManyWebhooks beyond the limit)."""
    if shape not in SHAPES:
        raise ValueError(f"shape is one of {', '.join(SHAPES)}")
    url = check_url(url, allow_private=allow_private)
    if not allow_private:  # a name that resolves to a private address is refused now, not only at delivery
        await check_resolved(url, allow_private=False)
    secret = new_secret()
    webhook_id = secrets.token_hex(8)
    row = await db.fetchrow(
        "INSERT INTO webhooks (webhook_id, player_id, url, shape, secret)"
        " SELECT $1, $2, $3, $4, $5 WHERE (SELECT count(*) FROM webhooks WHERE player_id = $2) < $6"
        " RETURNING webhook_id, url, shape, failures, false AS disabled, created_at",
        webhook_id, player_id, url, shape, secret, WEBHOOKS_MAX)
    if row is None:
        raise TooManyWebhooks(f"a player has at most {WEBHOOKS_MAX} webhooks; remove one first")
    return NewWebhook(Webhook(**dict(row)), secret)


async def remove(db: Executor, player_id: str, webhook_id: str) -> bool:
    """Remove one of the player's webhooks (False if they have none by that id). Its pending deliveries are
    skipped when their turn comes."""
    gone = await db.fetchval("DELETE FROM webhooks WHERE webhook_id = $1 AND player_id = $2 RETURNING 1",
                             webhook_id, player_id)
    return gone is not None
