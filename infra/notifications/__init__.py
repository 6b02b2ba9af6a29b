"""The notifications context's stores: four small ports (:mod:`.base`), over PostgreSQL (:mod:`.postgres`) and in
memory (:mod:`.memory`), with the records they hold (:mod:`.records`)."""

from .base import STORE_FAILURES, Channels, Inbox, NotificationStore, Outbox, Watch
from .records import (
    DEFAULT_KINDS,
    Busy,
    Claimed,
    Delivery,
    Entry,
    Notice,
    NoticeAbout,
    Reach,
    Settings,
    Told,
    WaitingSeat,
    Watched,
    Webhook,
    WebhookFailures,
    WebhookTarget,
)

__all__ = [
    "DEFAULT_KINDS",
    "STORE_FAILURES",
    "Busy",
    "Channels",
    "Claimed",
    "Delivery",
    "Entry",
    "Inbox",
    "Notice",
    "NoticeAbout",
    "NotificationStore",
    "Outbox",
    "Reach",
    "Settings",
    "Told",
    "WaitingSeat",
    "Watch",
    "Watched",
    "Webhook",
    "WebhookFailures",
    "WebhookTarget",
]
