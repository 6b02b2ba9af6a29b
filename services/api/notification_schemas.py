"""Request and response bodies of the notification routes (docs/PLAYERS.md, "API (notifications)"). Every
string and list has a bound, so an oversized value is a 400 (``request/invalid``) before anything reads it."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

import msgspec
from msgspec import Meta

EmailMode = Literal["off", "each", "digest"]
Kind = Literal["your_turn", "outbid", "market", "game_over", "deadline"]
Shape = Literal["json", "discord", "slack"]
GameId = Annotated[str, Meta(min_length=1, max_length=100)]
NoticeId = Annotated[str, Meta(min_length=1, max_length=300)]
Url = Annotated[str, Meta(min_length=1, max_length=2000)]


class SettingsIn(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    email_mode: EmailMode = "each"
    digest_hours: Annotated[int, Meta(ge=1, le=168)] = 12
    """1, 2, 3, 4, 6, 8, 12, 24, 48, 72 or 168 (periods line up with the clock)."""
    push: bool = True
    webhooks: bool = True
    kinds: Annotated[list[Kind], Meta(max_length=5)] = msgspec.field(
        default_factory=lambda: ["your_turn", "outbid", "market", "game_over", "deadline"])
    muted_games: Annotated[list[GameId], Meta(max_length=200)] = msgspec.field(default_factory=list)


class SettingsOut(msgspec.Struct, frozen=True):
    email_mode: str
    digest_hours: int
    push: bool
    webhooks: bool
    kinds: tuple[str, ...]
    muted_games: tuple[str, ...]


class NoticeOut(msgspec.Struct, frozen=True):
    notice_id: str
    game_id: str
    seat: int
    version: int
    kind: str
    text: str
    created_at: datetime
    read: bool


class NoticesOut(msgspec.Struct, frozen=True):
    unread: int
    notices: tuple[NoticeOut, ...]


class ReadIn(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    notice_ids: Annotated[list[NoticeId], Meta(max_length=500)] = msgspec.field(default_factory=list)
    """The notices to mark read; empty: every notice."""


class UnreadOut(msgspec.Struct, frozen=True):
    unread: int


class WebhookIn(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    url: Url
    shape: Shape = "json"


class WebhookOut(msgspec.Struct, frozen=True):
    webhook_id: str
    url: str
    shape: str
    failures: int
    """Failed deliveries in a row (it is turned off at ``MAGNATE_WEBHOOK_FAILURES_MAX``)."""
    disabled: bool
    created_at: datetime


class WebhookCreatedOut(msgspec.Struct, frozen=True):
    webhook: WebhookOut
    secret: str
    """The Standard Webhooks signing secret (``whsec_...``): shown this once."""


class WebhooksOut(msgspec.Struct, frozen=True):
    webhooks: tuple[WebhookOut, ...]


class PushKeyOut(msgspec.Struct, frozen=True):
    key: str
    """The VAPID application server key (base64url) for ``pushManager.subscribe``."""


class PushKeys(msgspec.Struct, frozen=True):
    p256dh: Annotated[str, Meta(min_length=1, max_length=200)]
    auth: Annotated[str, Meta(min_length=1, max_length=100)]


class PushIn(msgspec.Struct, frozen=True):
    """``PushSubscription.toJSON()`` (its ``expirationTime`` is ignored)."""

    endpoint: Url
    keys: PushKeys


class PushOut(msgspec.Struct, frozen=True):
    device_id: str


class PushDeleteIn(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    endpoint: Url


class DeliveryOut(msgspec.Struct, frozen=True):
    delivery_id: str
    channel: str
    """email, digest, webhook or push."""
    target: str
    notice_id: str | None
    status: str
    """pending, sending, sent, skipped or failed."""
    attempts: int
    detail: str
    created_at: datetime
    sent_at: datetime | None


class DeliveriesOut(msgspec.Struct, frozen=True):
    deliveries: tuple[DeliveryOut, ...]
