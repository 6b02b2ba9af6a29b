"""Building the notifications service (:class:`.service.Notifications`) once per process over a runtime's live
adapters: the store over its PostgreSQL pool, the dispatch over its arq pool and Redis, its presence and mail
sender. The composition root (:class:`services.gameplay.bootstrap.Runtime`) calls :func:`build`; the pools stay
the runtime's (the service's ``aclose()`` releases only its HTTP client)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import httpx

from infra.channels.mail import MailSender, mail_sender
from infra.config import Settings
from infra.notifications.dispatch import RedisDispatch
from infra.notifications.postgres import PostgresNotificationStore

from .projector import Projector
from .service import Notifications, allow_private, public_url_of

if TYPE_CHECKING:
    from services.gameplay.bootstrap import Runtime

HTTP_CONNECTIONS = 100
"""Connections the webhook and push client keeps (one delivery job uses one at a time)."""

__all__ = ["HTTP_CONNECTIONS", "Notifications", "allow_private", "build", "public_url_of"]


def build(settings: Settings, runtime: Runtime, *, mail: MailSender | None = None) -> Notifications:
    """Notifications over a runtime's stores (``mail``: a sender to use instead of the configured one)."""
    http = httpx.AsyncClient(limits=httpx.Limits(max_connections=HTTP_CONNECTIONS), follow_redirects=False)
    store = PostgresNotificationStore(runtime.pool)
    dispatch = RedisDispatch(runtime.arq, runtime.redis)
    projector = Projector(store, runtime.gameplay.loader, dispatch)
    return Notifications(settings, store, dispatch, runtime.presence, runtime.gameplay.games,
                         mail or mail_sender(settings, runtime.pool), http, projector)
