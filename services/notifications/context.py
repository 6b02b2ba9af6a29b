"""The live adapters notifications are projected and delivered with, built once per worker process from its
:class:`~services.gameplay.bootstrap.Runtime` (the database pool, Redis and the arq pool are the runtime's own)."""

from __future__ import annotations

import email.utils
from collections.abc import Mapping
from typing import Any

import asyncpg
import httpx
from arq.connections import ArqRedis
from redis.asyncio import Redis

from domain.kernel import GameModule
from infra.channels.mail import MailSender, mail_sender
from infra.channels.push import PushSender, vapid_keys
from infra.channels.webhooks import WebhookSender
from infra.config import Settings
from infra.presence import Presence
from services.gameplay.bootstrap import Runtime

from . import unsubscribe
from .projector import Projector

HTTP_CONNECTIONS = 100
"""Connections the webhook and push client keeps (one delivery job uses one at a time)."""


def public_url_of(settings: Settings) -> str:
    return (settings.public_url or f"http://{settings.host}:{settings.port}").rstrip("/")


def allow_private(settings: Settings) -> bool:
    """Webhook and push addresses may be private only on a sandbox server or when explicitly allowed."""
    return settings.sandbox or settings.allow_private_webhooks


class Notifications:
    """What a delivery job needs; ``aclose()`` releases what this object made (not the runtime's pools)."""

    def __init__(self, settings: Settings, pool: asyncpg.Pool, redis: Redis, arq: ArqRedis,
                 games: Mapping[str, GameModule[Any]], mail: MailSender, http: httpx.AsyncClient,
                 projector: Projector) -> None:
        self.settings = settings
        self.pool = pool
        self.redis = redis
        self.arq = arq
        self.games = games
        self.mail = mail
        self.http = http
        self.projector = projector
        self.presence = Presence(redis, settings.presence_s)
        self.webhooks = WebhookSender(http, allow_private=allow_private(settings))
        self.public_url = public_url_of(settings)
        self._push: PushSender | None = None
        self._unsubscribe_key: bytes | None = None

    async def push(self) -> PushSender:
        """The push sender (the VAPID keys are read, or made, on first use)."""
        if self._push is None:
            address = email.utils.parseaddr(self.settings.mail_from)[1] or "magnate@localhost"
            self._push = PushSender(self.http, await vapid_keys(self.pool), f"mailto:{address}",
                                    allow_private=allow_private(self.settings))
        return self._push

    async def unsubscribe_token(self, player_id: str) -> str:
        """The player's one-click unsubscribe token (its hash is kept with their settings)."""
        if self._unsubscribe_key is None:
            self._unsubscribe_key = await unsubscribe.signing_key(self.pool, self.settings.secret_key)
        token = unsubscribe.token_for(self._unsubscribe_key, player_id)
        await unsubscribe.remember(self.pool, player_id, token)
        return token

    async def aclose(self) -> None:
        await self.http.aclose()


def build(settings: Settings, runtime: Runtime, *, mail: MailSender | None = None) -> Notifications:
    """Notifications over a runtime's stores (``mail``: a sender to use instead of the configured one)."""
    http = httpx.AsyncClient(limits=httpx.Limits(max_connections=HTTP_CONNECTIONS), follow_redirects=False)
    gameplay = runtime.gameplay
    projector = Projector(runtime.pool, gameplay.loader, runtime.arq, runtime.redis)
    return Notifications(settings, runtime.pool, runtime.redis, runtime.arq, gameplay.games,
                         mail or mail_sender(settings, runtime.pool), http, projector)
