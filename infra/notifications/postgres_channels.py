"""A player's settings and channels in PostgreSQL (``notification_settings``, ``players``' address, ``webhooks``,
``push_subscriptions``) and the server's own keys (``server_keys``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import asyncpg

from infra.channels.push import PushSubscription

from .executor import OnExecutor
from .records import Reach, Settings, Webhook, WebhookFailures, WebhookTarget

_SETTINGS = """
SELECT player_id, email_mode, digest_hours, push, webhooks, kinds, muted_games
FROM notification_settings WHERE player_id = ANY($1)
"""
_SAVE = """
INSERT INTO notification_settings (player_id, email_mode, digest_hours, push, webhooks, kinds, muted_games)
VALUES ($1, $2, $3, $4, $5, $6, $7)
ON CONFLICT (player_id) DO UPDATE SET email_mode = EXCLUDED.email_mode, digest_hours = EXCLUDED.digest_hours,
    push = EXCLUDED.push, webhooks = EXCLUDED.webhooks, kinds = EXCLUDED.kinds, muted_games = EXCLUDED.muted_games
"""
_KEEP_HASH = """
INSERT INTO notification_settings (player_id, unsubscribe_hash) VALUES ($1, $2)
ON CONFLICT (player_id) DO UPDATE SET unsubscribe_hash = EXCLUDED.unsubscribe_hash
WHERE notification_settings.unsubscribe_hash IS DISTINCT FROM EXCLUDED.unsubscribe_hash
"""
_REACH = """
SELECT p.player_id, p.email,
       coalesce((SELECT array_agg(w.webhook_id ORDER BY w.webhook_id) FROM webhooks w
                 WHERE w.player_id = p.player_id AND w.disabled_at IS NULL), '{}') AS webhooks,
       coalesce((SELECT array_agg(s.endpoint_id ORDER BY s.endpoint_id) FROM push_subscriptions s
                 WHERE s.player_id = p.player_id), '{}') AS push
FROM players p WHERE p.player_id = ANY($1)
"""
_WEBHOOKS = """
SELECT webhook_id, url, shape, failures, disabled_at IS NOT NULL AS disabled, created_at
FROM webhooks WHERE player_id = $1 ORDER BY created_at, webhook_id
"""
_ADD_WEBHOOK = """
INSERT INTO webhooks (webhook_id, player_id, url, shape, secret)
SELECT $1, $2, $3, $4, $5 WHERE (SELECT count(*) FROM webhooks WHERE player_id = $2) < $6
RETURNING webhook_id, url, shape, failures, false AS disabled, created_at
"""
_WEBHOOK_FAILED = """
UPDATE webhooks SET failures = failures + 1,
       disabled_at = CASE WHEN failures + 1 >= $2 THEN now() ELSE disabled_at END
WHERE webhook_id = $1 AND disabled_at IS NULL RETURNING url, failures, disabled_at IS NOT NULL AS disabled
"""
_KEEP_DEVICE = """
INSERT INTO push_subscriptions (endpoint_id, player_id, endpoint, p256dh, auth) VALUES ($1, $2, $3, $4, $5)
ON CONFLICT (endpoint_id) DO UPDATE SET player_id = EXCLUDED.player_id, p256dh = EXCLUDED.p256dh,
    auth = EXCLUDED.auth
"""
_TRIM_DEVICES = """
DELETE FROM push_subscriptions WHERE player_id = $1 AND endpoint_id NOT IN
    (SELECT endpoint_id FROM push_subscriptions WHERE player_id = $1 ORDER BY created_at DESC LIMIT $2)
"""


def _settings(row: asyncpg.Record) -> Settings:
    return Settings(email_mode=row["email_mode"], digest_hours=row["digest_hours"], push=row["push"],
                    webhooks=row["webhooks"], kinds=tuple(row["kinds"]), muted_games=tuple(row["muted_games"]))


class PostgresChannels(OnExecutor):
    async def settings(self, player_ids: Iterable[str]) -> dict[str, Settings]:
        rows = await self._db.fetch(_SETTINGS, sorted(set(player_ids)))
        return {row["player_id"]: _settings(row) for row in rows}

    async def save_settings(self, player_id: str, settings: Settings) -> None:
        await self._db.execute(_SAVE, player_id, settings.email_mode, settings.digest_hours, settings.push,
                               settings.webhooks, list(settings.kinds), list(settings.muted_games))

    async def digest_sent(self, player_id: str) -> None:
        await self._db.execute("UPDATE notification_settings SET last_digest_at = now() WHERE player_id = $1",
                               player_id)

    async def keep_unsubscribe_hash(self, player_id: str, token_hash: str) -> None:
        await self._db.execute(_KEEP_HASH, player_id, token_hash)

    async def player_of_unsubscribe(self, token_hash: str) -> str | None:
        found: str | None = await self._db.fetchval(
            "SELECT player_id FROM notification_settings WHERE unsubscribe_hash = $1", token_hash)
        return found

    async def unsubscribe(self, token_hash: str) -> str | None:
        found: str | None = await self._db.fetchval(
            "UPDATE notification_settings SET email_mode = 'off' WHERE unsubscribe_hash = $1 RETURNING player_id",
            token_hash)
        return found

    async def reach(self, player_ids: Sequence[str]) -> dict[str, Reach]:
        rows = await self._db.fetch(_REACH, list(player_ids))
        return {r["player_id"]: Reach(r["email"], tuple(r["webhooks"]), tuple(r["push"])) for r in rows}

    async def language_of(self, player_id: str) -> str | None:
        language: str | None = await self._db.fetchval("SELECT language FROM players WHERE player_id = $1",
                                                       player_id)
        return language

    async def email_of(self, player_id: str) -> str | None:
        email: str | None = await self._db.fetchval("SELECT email FROM players WHERE player_id = $1", player_id)
        return email

    async def webhooks(self, player_id: str) -> list[Webhook]:
        return [Webhook(**dict(r)) for r in await self._db.fetch(_WEBHOOKS, player_id)]

    async def add_webhook(self, webhook_id: str, player_id: str, url: str, shape: str, secret: str,
                          limit: int) -> Webhook | None:
        row = await self._db.fetchrow(_ADD_WEBHOOK, webhook_id, player_id, url, shape, secret, limit)
        return None if row is None else Webhook(**dict(row))

    async def remove_webhook(self, player_id: str, webhook_id: str) -> bool:
        gone = await self._db.fetchval("DELETE FROM webhooks WHERE webhook_id = $1 AND player_id = $2 RETURNING 1",
                                       webhook_id, player_id)
        return gone is not None

    async def webhook(self, player_id: str, webhook_id: str) -> WebhookTarget | None:
        row = await self._db.fetchrow("SELECT url, shape, secret, disabled_at IS NOT NULL AS disabled FROM webhooks"
                                      " WHERE webhook_id = $1 AND player_id = $2", webhook_id, player_id)
        return None if row is None else WebhookTarget(**dict(row))

    async def webhook_succeeded(self, webhook_id: str) -> None:
        await self._db.execute("UPDATE webhooks SET failures = 0 WHERE webhook_id = $1 AND failures <> 0",
                               webhook_id)

    async def webhook_failed(self, webhook_id: str, failures_max: int) -> WebhookFailures | None:
        row = await self._db.fetchrow(_WEBHOOK_FAILED, webhook_id, failures_max)
        return None if row is None else WebhookFailures(**dict(row))

    async def keep_device(self, player_id: str, endpoint_id: str, sub: PushSubscription, keep_at_most: int) -> None:
        await self._db.execute(_KEEP_DEVICE, endpoint_id, player_id, sub.endpoint, sub.p256dh, sub.auth)
        await self._db.execute(_TRIM_DEVICES, player_id, keep_at_most)

    async def forget_device(self, player_id: str, endpoint_id: str) -> bool:
        gone = await self._db.fetchval(
            "DELETE FROM push_subscriptions WHERE endpoint_id = $1 AND player_id = $2 RETURNING 1",
            endpoint_id, player_id)
        return gone is not None

    async def device(self, player_id: str, endpoint_id: str) -> PushSubscription | None:
        row = await self._db.fetchrow("SELECT endpoint, p256dh, auth FROM push_subscriptions"
                                      " WHERE endpoint_id = $1 AND player_id = $2", endpoint_id, player_id)
        return None if row is None else PushSubscription(endpoint=row["endpoint"], p256dh=row["p256dh"],
                                                         auth=row["auth"])

    async def drop_device(self, endpoint_id: str) -> None:
        await self._db.execute("DELETE FROM push_subscriptions WHERE endpoint_id = $1", endpoint_id)

    async def server_key(self, name: str, make: Callable[[], str]) -> str:
        kept: str | None = await self._db.fetchval("SELECT value FROM server_keys WHERE name = $1", name)
        if kept is None:
            await self._db.execute("INSERT INTO server_keys (name, value) VALUES ($1, $2)"
                                   " ON CONFLICT (name) DO NOTHING", name, make())
            kept = await self._db.fetchval("SELECT value FROM server_keys WHERE name = $1", name)
            assert kept is not None
        return kept
