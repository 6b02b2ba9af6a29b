"""The notifications application service: built once per process (:func:`.context.build`, which the composition
root calls) over the context's ports, and handed to the API's controllers (Litestar DI), the worker's jobs (arq's
``ctx``) and its loops (the projector, the sweep). It owns no SQL and no connection: the store
(:class:`infra.notifications.NotificationStore`) and the dispatch (:class:`infra.notifications.dispatch.Dispatch`)
do; the rules stay in the modules beside it (what to notify, what to send, when to give up)."""

from __future__ import annotations

import email.utils
from collections.abc import Mapping, Sequence
from typing import Any

import httpx
import msgspec

from domain.kernel import GameModule
from infra.channels.mail import MailSender
from infra.channels.push import PushSender, PushSubscription, VapidKeys, vapid_keys
from infra.channels.webhooks import WebhookSender
from infra.config import Settings
from infra.notifications import Entry, Notice, NotificationStore, Webhook
from infra.notifications.dispatch import Dispatch
from services.language.catalogs import catalogs_for

from . import account, devices, hooks, inbox, log, unsubscribe
from .preferences import Preferences
from .projector import Projector
from .seen import Present
from .sweep import sweep
from .words import Words, words_for

__all__ = ["Notifications", "Present", "allow_private", "public_url_of"]


def allow_private(settings: Settings) -> bool:
    """Webhook and push addresses may be private only on a sandbox server or when explicitly allowed."""
    return settings.sandbox or settings.allow_private_webhooks


def public_url_of(settings: Settings) -> str:
    return (settings.public_url or f"http://{settings.host}:{settings.port}").rstrip("/")


class Notifications:
    """What the API, the jobs and the worker's loops ask of notifications; ``aclose()`` releases what this object
    made (its HTTP client), not the stores it was given."""

    def __init__(self, settings: Settings, store: NotificationStore, dispatch: Dispatch, presence: Present,
                 games: Mapping[str, GameModule[Any]], mail: MailSender, http: httpx.AsyncClient,
                 projector: Projector) -> None:
        self.settings = settings
        self.store = store
        self.dispatch = dispatch
        self.presence = presence
        self.games = games
        self.mail = mail
        self.http = http
        self.projector = projector
        self.allow_private = allow_private(settings)
        self.webhooks = WebhookSender(http, allow_private=self.allow_private)
        self.public_url = public_url_of(settings)
        self.catalogs = catalogs_for(settings.games, settings.languages, settings.pseudo_locale)
        """Every domain's words, for the notices, mails, pushes and webhooks (the worker's too)."""
        self._push: PushSender | None = None
        self._unsubscribe_key: bytes | None = None

    # --- a signed-in player's settings, notices, channels and delivery log (the API) ---

    async def preferences(self, player_id: str) -> Preferences:
        return await account.read(self.store, player_id)

    async def choose(self, player_id: str, prefs: Preferences) -> Preferences:
        """Store choices checked by :func:`.account.checked`."""
        return await account.change(self.store, player_id, prefs)

    async def notices(self, player_id: str, language: str | None = None) -> list[Notice]:
        """The player's notices, newest first, their words in ``language`` (the player's own, else the service's
        default, for None)."""
        if language is None:
            language = await self.store.language_of(player_id)
        return (await self.notices_in(player_id, (language,)))[language]  # None: the service's default

    async def notices_in(self, player_id: str, languages: Sequence[str | None]) -> dict[str | None, list[Notice]]:
        """:meth:`notices` in each of ``languages``, read once (the pusher's per-language channels)."""
        listed = await inbox.listed(self.store, player_id)
        return {language: [msgspec.structs.replace(notice, text=self.words(language, notice.game_type).shown(
            notice.phrase, notice.text)) for notice in listed] for language in languages}

    def words(self, language: str | None, game_type: str = "") -> Words:
        """The words of ``game_type``'s notices (the server's for none) in ``language`` (the default for None)."""
        return words_for(self.catalogs, language, game_type)

    async def unread(self, player_id: str) -> int:
        return await inbox.unread(self.store, player_id)

    async def mark_read(self, player_id: str, notice_ids: Sequence[str]) -> int:
        return await inbox.mark_read(self.store, player_id, notice_ids)

    async def deliveries(self, player_id: str) -> list[Entry]:
        return await log.entries(self.store, player_id)

    async def webhooks_of(self, player_id: str) -> list[Webhook]:
        return await hooks.listed(self.store, player_id)

    async def add_webhook(self, player_id: str, url: str, shape: str) -> hooks.NewWebhook:
        return await hooks.add(self.store, player_id, url, shape, allow_private=self.allow_private)

    async def remove_webhook(self, player_id: str, webhook_id: str) -> bool:
        return await hooks.remove(self.store, player_id, webhook_id)

    async def subscribe_device(self, player_id: str, sub: PushSubscription) -> str:
        return await devices.subscribe(self.store, player_id, sub, allow_private=self.allow_private)

    async def forget_device(self, player_id: str, endpoint: str) -> bool:
        return await devices.unsubscribe(self.store, player_id, endpoint)

    async def vapid_keys(self) -> VapidKeys:
        """The server's VAPID keys (made and kept on first use)."""
        return await vapid_keys(self.store)

    async def unsubscribed_player(self, token: str) -> str | None:
        """The player a mail's unsubscribe token belongs to (None: unknown)."""
        return await unsubscribe.player_of(self.store, token)

    async def unsubscribe(self, token: str) -> str | None:
        """Turn email off for the token's player (idempotent); None for an unknown token."""
        return await unsubscribe.unsubscribe(self.store, token)

    # --- what deliveries need ---

    async def push(self) -> PushSender:
        """The push sender (the VAPID keys are read, or made, on first use)."""
        if self._push is None:
            address = email.utils.parseaddr(self.settings.mail_from)[1] or "magnate@localhost"
            self._push = PushSender(self.http, await self.vapid_keys(), f"mailto:{address}",
                                    allow_private=self.allow_private)
        return self._push

    async def unsubscribe_token(self, player_id: str) -> str:
        """The player's one-click unsubscribe token (its hash is kept with their settings)."""
        if self._unsubscribe_key is None:
            self._unsubscribe_key = await unsubscribe.signing_key(self.store, self.settings.secret_key)
        token = unsubscribe.token_for(self._unsubscribe_key, player_id)
        await unsubscribe.remember(self.store, player_id, token)
        return token

    # --- the worker's loops ---

    async def sweep(self) -> int:
        """Queue again every delivery that is due or was abandoned; returns how many jobs were new."""
        return await sweep(self.store, self.dispatch)

    async def aclose(self) -> None:
        await self.http.aclose()
