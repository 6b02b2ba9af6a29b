"""A webhook's health: every failed attempt counts on its row, a success resets the count, and at
``MAGNATE_WEBHOOK_FAILURES_MAX`` failures in a row the webhook is turned off (``disabled_at``) and its player is
told with a ``channel_disabled`` notice: in the page always, by email too when their email is on. The count,
the switch and the notice are one transaction, so a player is told once."""

from __future__ import annotations

from datetime import UTC, datetime
from urllib.parse import urlsplit

from infra.notifications import Channels, Claimed, Delivery
from infra.notifications.base import NotificationStore

from . import preferences
from .derive import Told
from .outbox import EMAIL
from .projector import NoticeWriter
from .texts import CHANNEL_DISABLED, channel_disabled_phrase
from .words import encoded, english


async def succeeded(store: Channels, webhook_id: str) -> None:
    await store.webhook_succeeded(webhook_id)


async def failed(store: NotificationStore, delivery: Claimed, failures_max: int,
                 ) -> tuple[bool, list[tuple[str, datetime]]]:
    """Count a failed attempt of ``delivery`` (a webhook delivery). Returns whether the webhook is off now and
    the deliveries made to tell the player (the email of the notice; the caller queues it)."""
    async with store.transaction() as tx:
        counted = await tx.webhook_failed(delivery.target, failures_max)
        if counted is None:  # removed, or turned off by another attempt meanwhile
            return True, []
        if not counted.disabled:
            return False, []
        return True, await _tell(tx, delivery, urlsplit(counted.url).hostname or "?", counted.failures)


async def _tell(store: NoticeWriter, delivery: Claimed, host: str, failures: int) -> list[tuple[str, datetime]]:
    about = None if delivery.notice_id is None else await store.notice(delivery.notice_id)
    if about is None:
        return []
    notice_id = f"{CHANNEL_DISABLED}.{delivery.target}"
    phrase = channel_disabled_phrase(host, failures)
    told = Told(notice_id, delivery.player_id, about.game_id, about.seat, about.version, CHANNEL_DISABLED,
                english(phrase), encoded(phrase))
    await store.write_notices([told])
    prefs = await preferences.load(store, delivery.player_id)
    if prefs.email_mode == "off":
        return []
    email = await store.email_of(delivery.player_id) or ""
    mail = Delivery(f"{notice_id}.email", delivery.player_id, EMAIL, email, notice_id, datetime.now(UTC))
    return await store.write_deliveries([mail])
