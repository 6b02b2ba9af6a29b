"""The deliveries a notice needs, by the player's choices and where they can be reached (pure).

A delivery is one message to one channel; its id is the idempotency key every receiver sees (the mail's
Message-ID, the ``webhook-id``, the push's Topic) and the arq job's id:

* email, one per notice: ``<notice_id>.email``, due now;
* a digest, one per player per period: ``digest.<player_id>.<period start>`` (UTC, ``YYYYmmddTHHMMZ``), due at the
  period's end; every notice of the period names the same delivery, so the projector writes it once (the insert
  ignores a repeat). Periods are ``digest_hours`` long and start at multiples of it since the Unix epoch (every
  allowed length divides a day or a week), so they do not depend on when the first notice came;
* one per active webhook: ``<notice_id>.webhook.<webhook_id>``;
* one per push subscription (device): ``<notice_id>.push.<endpoint_id>``.

Whether the player is away is judged when a delivery is sent, not here: presence changes by the second.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

from infra.notifications import Delivery, Reach

from .derive import Told
from .preferences import Preferences

EMAIL, DIGEST, WEBHOOK, PUSH = "email", "digest", "webhook", "push"
CHANNELS = (EMAIL, DIGEST, WEBHOOK, PUSH)

__all__ = ["CHANNELS", "DIGEST", "EMAIL", "PUSH", "WEBHOOK", "Delivery", "Reach", "digest_period", "plan", "unique"]


def digest_period(now: datetime, hours: int) -> tuple[datetime, datetime]:
    """The digest period holding ``now``: [start, end)."""
    length = int(timedelta(hours=max(1, hours)).total_seconds())
    start = int(now.timestamp()) // length * length
    begins = datetime.fromtimestamp(start, UTC)
    return begins, begins + timedelta(seconds=length)


def plan(told: Told, prefs: Preferences, reach: Reach, now: datetime, *, mail: bool = True) -> list[Delivery]:
    """The deliveries of one notice (none if the player does not want it told; no mail, digest included, unless
    ``mail``)."""
    out: list[Delivery] = []
    if mail and prefs.email_mode == "each":
        out.append(Delivery(f"{told.notice_id}.email", told.player_id, EMAIL, reach.email, told.notice_id, now))
    elif mail and prefs.email_mode == "digest":
        start, end = digest_period(now, prefs.digest_hours)
        out.append(Delivery(f"digest.{told.player_id}.{start:%Y%m%dT%H%MZ}", told.player_id, DIGEST, reach.email,
                            None, end))
    if prefs.webhooks:
        out += [Delivery(f"{told.notice_id}.webhook.{w}", told.player_id, WEBHOOK, w, told.notice_id, now)
                for w in reach.webhooks]
    if prefs.push:
        out += [Delivery(f"{told.notice_id}.push.{p}", told.player_id, PUSH, p, told.notice_id, now)
                for p in reach.push]
    return out


def unique(deliveries: Iterable[Delivery]) -> list[Delivery]:
    """One delivery per id (the notices of one period share their digest)."""
    seen: dict[str, Delivery] = {}
    for delivery in deliveries:
        seen.setdefault(delivery.delivery_id, delivery)
    return list(seen.values())
