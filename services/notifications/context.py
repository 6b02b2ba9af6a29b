"""Building the notifications service (:class:`.service.Notifications`) once per process over a runtime's live
adapters: the store over its PostgreSQL pool, the dispatch over its arq pool and Redis, its presence and mail
sender. The composition root (:class:`services.gameplay.bootstrap.Runtime`) calls :func:`build`; the pools stay
the runtime's (the service's ``aclose()`` releases only its HTTP client)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import httpx

from infra.channels.mail import MailSender, mail_sender
from infra.config import Settings
from infra.notifications import NotificationStore
from infra.notifications.dispatch import Dispatch, RedisDispatch
from infra.notifications.postgres import PostgresNotificationStore

from .projector import Projector
from .service import Notifications, Present, allow_private, public_url_of

if TYPE_CHECKING:
    from services.gameplay.bootstrap import Runtime
    from services.gameplay.handler import Gameplay

HTTP_CONNECTIONS = 100
"""Connections the webhook and push client keeps (one delivery job uses one at a time)."""

__all__ = ["HTTP_CONNECTIONS", "Notifications", "allow_private", "assemble", "build", "public_url_of"]


def assemble(settings: Settings, store: NotificationStore, dispatch: Dispatch, presence: Present,
             gameplay: Gameplay, mail: MailSender, *, http: httpx.AsyncClient | None = None) -> Notifications:
    """The service over the given ports (the PostgreSQL store and Redis dispatch in production, the twins in
    tests: ``InMemoryNotificationStore`` and ``RecordingDispatch``), with an HTTP client of its own for webhooks
    and push unless one is given."""
    http = http or httpx.AsyncClient(limits=httpx.Limits(max_connections=HTTP_CONNECTIONS), follow_redirects=False)
    projector = Projector(store, gameplay.loader, dispatch, presence=presence)
    return Notifications(settings, store, dispatch, presence, gameplay.games, mail, http, projector)


def build(settings: Settings, runtime: Runtime, *, mail: MailSender | None = None) -> Notifications:
    """Notifications over a runtime's stores (``mail``: a sender to use instead of the configured one)."""
    return assemble(settings, PostgresNotificationStore(runtime.pool), RedisDispatch(runtime.arq, runtime.redis),
                    runtime.presence, runtime.gameplay, mail or mail_sender(settings, runtime.pool))
