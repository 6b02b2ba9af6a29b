"""What the notification stores hold and hand back: plain frozen records, no behaviour (the rules of what to
notify and how to deliver are :mod:`services.notifications`)."""

from __future__ import annotations

from datetime import datetime

import msgspec

DEFAULT_KINDS = ("your_turn", "outbid", "market", "game_over", "deadline", "undo_asked", "undo_answered")
"""The kinds a player without settings is told (the ``notification_settings.kinds`` column's default)."""
DETAIL_MAX = 500
"""Characters of a delivery's detail kept."""


class Told(msgspec.Struct, frozen=True):
    """A notice for a player: ``notice_id`` is ``<game_id>.<version>.<seat>.<kind>`` (the projector's own id)."""

    notice_id: str
    player_id: str
    game_id: str
    seat: int
    version: int
    kind: str
    text: str
    """Its English words (what a reader of the log or an old version sees)."""
    phrase: str | None = None
    """Its words in no language: a phrase (``domain.kernel.phrases``) as JSON, rendered in each reader's language."""


class Notice(msgspec.Struct, frozen=True):
    """A notice as the player's list shows it (``phrase``: None for a notice kept before phrases)."""

    notice_id: str
    game_id: str
    seat: int
    version: int
    kind: str
    text: str
    created_at: datetime
    read: bool
    phrase: str | None = None
    game_type: str = ""


class NoticeAbout(msgspec.Struct, frozen=True):
    """A notice as its deliveries need it, with its game's type (for the title)."""

    notice_id: str
    game_id: str
    seat: int
    version: int
    kind: str
    text: str
    created_at: datetime
    game_type: str
    phrase: str | None = None


class Delivery(msgspec.Struct, frozen=True):
    """A delivery to write: one message to one channel, ``pending`` until ``due_at``."""

    delivery_id: str
    player_id: str
    channel: str
    target: str
    """The address (email, digest), the webhook's id or the push subscription's endpoint id."""
    notice_id: str | None
    due_at: datetime


class Claimed(msgspec.Struct, frozen=True):
    """A delivery being sent (``sending``) by its job's run."""

    delivery_id: str
    player_id: str
    channel: str
    target: str
    notice_id: str | None
    attempts: int
    created_at: datetime


class Busy(msgspec.Struct, frozen=True):
    """Not claimable now: ``status`` and when to look again (``wait_s``; None: never, it is finished)."""

    status: str
    wait_s: float | None


class Entry(msgspec.Struct, frozen=True):
    """A line of the delivery log a player reads."""

    delivery_id: str
    channel: str
    """email, digest, webhook or push."""
    target: str
    """The address for mail, the webhook's id, or the push device's id."""
    notice_id: str | None
    status: str
    """pending, sending, sent, skipped or failed."""
    attempts: int
    detail: str
    created_at: datetime
    sent_at: datetime | None


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    """A player's stored notification choices (the defaults are the table's)."""

    email_mode: str = "each"
    digest_hours: int = 12
    push: bool = True
    webhooks: bool = True
    kinds: tuple[str, ...] = DEFAULT_KINDS
    muted_games: tuple[str, ...] = ()


class Reach(msgspec.Struct, frozen=True):
    """Where a player can be reached: their address, their active webhooks and push subscriptions (by id)."""

    email: str
    webhooks: tuple[str, ...] = ()
    push: tuple[str, ...] = ()


class Webhook(msgspec.Struct, frozen=True):
    webhook_id: str
    url: str
    shape: str
    failures: int
    """Failed deliveries in a row (it is turned off at ``MAGNATE_WEBHOOK_FAILURES_MAX``)."""
    disabled: bool
    created_at: datetime


class WebhookTarget(msgspec.Struct, frozen=True):
    """What a delivery posts to."""

    url: str
    shape: str
    secret: str
    disabled: bool


class WebhookFailures(msgspec.Struct, frozen=True):
    """A webhook's count after a failed attempt, and whether that attempt turned it off."""

    url: str
    failures: int
    disabled: bool


class Watched(msgspec.Struct, frozen=True):
    """A watched game held by one projector: its cursor, its head and the seats claimed at the head."""

    game_id: str
    cursor: int
    head: int
    game_type: str
    over: bool
    """The game is no longer running (nothing will follow)."""
    claimed: dict[int, str]
    """Seat → player id."""


class WaitingSeat(msgspec.Struct, frozen=True):
    """A running game in which one of a player's seats is on turn."""

    game_id: str
    game_type: str
    seat_name: str
