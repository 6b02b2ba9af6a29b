"""The ports of the notifications context: what it stores and reads, in four small protocols, and the store that
is all four with transactions (:class:`NotificationStore`), implemented over PostgreSQL (:mod:`.postgres`) and in
memory (:mod:`.memory`); one contract suite per port runs against both (``tests/integration/notifications/
test_store_*.py``).

* :class:`Inbox` — the notices: written once per id, listed newest first, counted and marked read;
* :class:`Outbox` — the deliveries: written once per id, claimed (an attempt counted; the job's lease in the queue
  makes a delivery one worker's at a time, :mod:`services.ai_worker.leases`), finished, put back with a due time,
  found again by the sweep, listed as a log;
* :class:`Channels` — a player's settings and where they can be reached: the settings row, the address,
  webhooks (with their failure count), push devices, the unsubscribe token's hash, and the server's own keys;
* :class:`Watch` — the projector's checkpoints (one cursor per watched game, held by one projector at a time)
  and the facts of games it and the reminders read (the claimed seats, who waits where).

Failures of the database are the driver's (:data:`STORE_FAILURES`), raised unchanged: the worker's jobs and loops
already retry on them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import datetime
from typing import Protocol

import asyncpg

from infra.channels.push import PushSubscription
from infra.errors import StoreUnavailable

from .records import (
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

STORE_FAILURES: tuple[type[BaseException], ...] = (OSError, asyncpg.PostgresError, asyncpg.InterfaceError,
                                                   StoreUnavailable)
"""What a store raises when its database is away or failing (a round is retried, a renewal skipped)."""


class Inbox(Protocol):
    """The notices players read in the page."""

    async def write_notices(self, told: Sequence[Told]) -> None:
        """Keep new notices (unread, created now); a notice id kept already is ignored."""

    async def has_notice(self, notice_id: str) -> bool: ...

    async def notice(self, notice_id: str) -> NoticeAbout | None:
        """A notice with its game's type (None: no such notice, or its game is gone)."""

    async def notices(self, player_id: str, limit: int) -> list[Notice]:
        """The player's notices, newest first (ties: the greater id first), at most ``limit``."""

    async def unread(self, player_id: str) -> int: ...

    async def mark_read(self, player_id: str, notice_ids: Sequence[str]) -> None:
        """Mark the player's notices read (all when ``notice_ids`` is empty); others' ids are ignored."""


class Outbox(Protocol):
    """The deliveries: one message to one channel each, and what became of it. A delivery has no lease of its own:
    its job (whose id is the delivery's) is the unit of work, and the job's lease makes it one worker's at a time."""

    async def write_deliveries(self, deliveries: Sequence[Delivery]) -> list[tuple[str, datetime]]:
        """Keep new deliveries (``pending``); a delivery id kept already is ignored. Returns (id, due at) of the
        new ones."""

    async def claim(self, delivery_id: str) -> Claimed | Busy:
        """Make a delivery ``sending`` with one more attempt, if it is ``pending`` and due, or ``sending`` (the run
        of its job that was sending it has died: its job runs again only then); otherwise say why not (and for how
        long). Two claims of one delivery are two attempts: only its job claims it, one run at a time."""

    async def finish(self, delivery_id: str, status: str, detail: str) -> bool:
        """``sent`` (with the time), ``skipped`` or ``failed`` a ``sending`` delivery (False: it was not)."""

    async def put_back(self, delivery_id: str, wait_s: float, detail: str) -> None:
        """A ``sending`` delivery is ``pending`` again, due ``wait_s`` from now."""

    async def due(self, limit: int) -> list[tuple[str, datetime]]:
        """(id, due at) of the deliveries ``pending`` and due, or ``sending`` (whose job may be gone), oldest due
        first, at most ``limit``."""

    async def entries(self, player_id: str, limit: int) -> list[Entry]:
        """The player's deliveries, newest first (ties by id), at most ``limit``."""


class Channels(Protocol):
    """A player's notification settings and channels, and the keys the server keeps for them."""

    async def settings(self, player_ids: Iterable[str]) -> dict[str, Settings]:
        """The stored settings of the given players who have any (others have the defaults)."""

    async def save_settings(self, player_id: str, settings: Settings) -> None:
        """Store a player's choices (their unsubscribe token's hash and last digest's time are kept)."""

    async def digest_sent(self, player_id: str) -> None:
        """Record that the player's digest went out now."""

    async def keep_unsubscribe_hash(self, player_id: str, token_hash: str) -> None:
        """Keep the hash with the player's settings (a row with the defaults is made if there is none)."""

    async def player_of_unsubscribe(self, token_hash: str) -> str | None: ...

    async def unsubscribe(self, token_hash: str) -> str | None:
        """Turn email off for the hash's player; returns the player (None: unknown hash)."""

    async def reach(self, player_ids: Sequence[str]) -> dict[str, Reach]:
        """Every given player's address, active webhooks and push devices (by id, sorted)."""

    async def email_of(self, player_id: str) -> str | None: ...

    async def language_of(self, player_id: str) -> str | None:
        """The language the player chose (None: never chosen, or no such player)."""

    async def webhooks(self, player_id: str) -> list[Webhook]:
        """The player's webhooks, oldest first (ties by id)."""

    async def add_webhook(self, webhook_id: str, player_id: str, url: str, shape: str, secret: str,
                          limit: int) -> Webhook | None:
        """Add a webhook unless the player has ``limit`` already (None)."""

    async def remove_webhook(self, player_id: str, webhook_id: str) -> bool: ...

    async def webhook(self, player_id: str, webhook_id: str) -> WebhookTarget | None: ...

    async def webhook_succeeded(self, webhook_id: str) -> None:
        """A delivery reached it: its count of failures in a row is zero again."""

    async def webhook_failed(self, webhook_id: str, failures_max: int) -> WebhookFailures | None:
        """Count a failed attempt; at ``failures_max`` in a row the webhook is turned off. None: it is gone or
        was turned off already."""

    async def keep_device(self, player_id: str, endpoint_id: str, sub: PushSubscription, keep_at_most: int) -> None:
        """Keep a device's subscription (replacing the record of the same endpoint), and only the player's
        ``keep_at_most`` newest devices."""

    async def forget_device(self, player_id: str, endpoint_id: str) -> bool: ...

    async def device(self, player_id: str, endpoint_id: str) -> PushSubscription | None: ...

    async def drop_device(self, endpoint_id: str) -> None:
        """Delete a subscription the push service says is gone."""

    async def server_key(self, name: str, make: Callable[[], str]) -> str:
        """The key kept under ``name``; made with ``make`` and kept on first use (of processes racing, the
        first one kept wins and all read it)."""


class Watch(Protocol):
    """The projector's checkpoints, and what notifications read of games and seats."""

    async def moved(self, limit: int, among: Sequence[str] | None = None) -> list[str]:
        """Watched games whose head is past their cursor, or which have ended (at most ``limit``); only those
        ``among`` the given games when given (the games an announcement named)."""

    async def hold(self, game_id: str) -> Watched | None:
        """Inside a transaction: lock the game's cursor for this projector and read it with the game's head and
        claimed seats (None: not watched, or another projector holds it)."""

    async def advance(self, game_id: str, version: int) -> None:
        """Everything up to ``version`` is projected."""

    async def forget(self, game_id: str) -> None:
        """The game has ended and is projected: it is watched no more."""

    async def player_at(self, game_id: str, seat: int) -> str | None:
        """The player who claimed the seat."""

    async def waiting(self, player_id: str) -> list[WaitingSeat]:
        """Every running game in which one of the player's seats is on turn, longest waiting first."""


class NotificationStore(Inbox, Outbox, Channels, Watch, Protocol):
    """All four ports, and transactions over them."""

    def transaction(self) -> AbstractAsyncContextManager[NotificationStore]:
        """A store whose statements commit together when the block ends, or not at all if it raises."""
