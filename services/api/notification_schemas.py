"""Request and response bodies of the notification routes (docs/PLAYERS.md, "API (notifications)"). Every
string and list has a bound, so an oversized value is a 400 (``request/invalid``) before anything reads it.

A response that is field for field what :mod:`services.notifications` returns (a notice, a webhook, a delivery)
takes its fields from that struct: it only names it for the OpenAPI document (``NoticeOut``, ...), and
:func:`out` converts the service's value."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal, TypeVar, get_args

import msgspec
from msgspec import Meta

from services.notifications.hooks import Webhook
from services.notifications.log import Entry

T = TypeVar("T")

EmailMode = Literal["off", "each", "digest"]
Kind = Literal["your_turn", "outbid", "market", "game_over", "deadline", "undo_asked", "undo_answered"]
"""The kinds a player chooses: ``services.notifications.preferences.KINDS``, in its order (tested)."""
KINDS: tuple[Kind, ...] = get_args(Kind)
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
    kinds: Annotated[list[Kind], Meta(max_length=len(KINDS))] = msgspec.field(default_factory=lambda: list(KINDS))
    muted_games: Annotated[list[GameId], Meta(max_length=200)] = msgspec.field(default_factory=list)


class SettingsOut(msgspec.Struct, frozen=True):
    email_mode: str
    digest_hours: int
    push: bool
    webhooks: bool
    kinds: tuple[str, ...]
    muted_games: tuple[str, ...]


def out(value: Any, response_type: type[T]) -> T:
    """``value`` (a service's struct, or structs within a sequence or struct) as the response type that names
    it for the API; the fields are the same, so nothing is lost."""
    return msgspec.convert(value, response_type, from_attributes=True)


class NoticeOut(msgspec.Struct, frozen=True):
    """A notice as the player's list shows it (``text``: in the request's language)."""

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


class WebhookOut(Webhook, frozen=True):
    pass


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


class DeliveryOut(Entry, frozen=True):
    pass


class DeliveriesOut(msgspec.Struct, frozen=True):
    deliveries: tuple[DeliveryOut, ...]
