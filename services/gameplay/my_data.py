"""The player's own data (issue #29): everything the service holds about a signed-in player, as one JSON document,
and the erasure of their account (docs/PLAYERS.md, "Your data").

The export reads each store through its port: the account, the seats (the event store), the notes, the notification
settings, notices, webhooks and delivery log (the notifications service, whose webhook listing never holds a signing
secret), the vacations, and the ratings when a ratings store is wired in (:class:`RatingsOfPlayer`, read through
``ratings()``; ``None`` in the export means the service keeps no ratings). The erasure deletes the account through
:class:`infra.accounts.erasure.Erasure` after the player typed their address again."""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any, Protocol

import msgspec

from domain.kernel import RuleViolation
from domain.kernel.table import Leave
from infra.accounts import Player
from infra.accounts.erasure import Erased, Erasure
from infra.accounts.vacations import Vacations
from infra.errors import ConcurrencyConflict
from infra.notes import Notes
from services.notifications.service import Notifications

from .handler import Gameplay
from .timekeeper import come_back

log = logging.getLogger(__name__)

WITHHELD = (
    "webhook signing secrets (shown once, when the webhook was added)",
    "push subscriptions' endpoints and keys (they belong to the browser that subscribed)",
    "sign-in links and sessions (only their hashes and ids are kept)",
)
"""What the export leaves out on purpose, as the export itself says."""


class RatingsOfPlayer(Protocol):
    """The hook for a ratings store (``infra/ratings``): a player's ratings, each a JSON-able struct or mapping."""

    async def of_player(self, player_id: str) -> Sequence[Any]: ...


class NotConfirmed(Exception):
    code = "account/not_confirmed"


class MyData:
    def __init__(self, gameplay: Gameplay, notes: Notes, vacations: Vacations, notifications: Notifications,
                 erasure: Erasure, ratings: Callable[[], RatingsOfPlayer | None] = lambda: None) -> None:
        self.gameplay = gameplay
        self.events = gameplay.store
        self.notes = notes
        self.vacations = vacations
        self.notifications = notifications
        self.erasure = erasure
        self.ratings = ratings

    async def export(self, player: Player) -> dict[str, Any]:
        """Everything kept about ``player``, as plain JSON values."""
        pid = player.player_id
        games = await self.events.player_games(pid)
        ratings = self.ratings()
        if ratings is not None and not callable(getattr(ratings, "of_player", None)):
            ratings = None  # a ratings service without the hook's read: nothing to read it through
        data: dict[str, Any] = msgspec.to_builtins({
            "format": "magnate-player-data/1",
            "account": {"player_id": pid, "email": player.email, "name": player.name, "language": player.language,
                        "created_at": await self.erasure.created_at(pid)},
            "seats": [{"game_id": g.game_id, "game_type": g.game_type, "status": g.status, "seat": g.seat,
                       "name": g.names[g.seat] if g.seat < len(g.names) else None} for g in games],
            "notes": await self.notes.of_player(pid),
            "notification_settings": await self.notifications.preferences(pid),
            "webhooks": await self.notifications.webhooks_of(pid),
            "notices": [msgspec.structs.replace(n, phrase=None) for n in await self.notifications.notices(pid)],
            "deliveries": await self.notifications.deliveries(pid),
            "vacations": await self.vacations.every(pid),
            "ratings": None if ratings is None else list(await ratings.of_player(pid)),
            "withheld": list(WITHHELD),
        })
        return data

    async def erase(self, player: Player, confirm_email: str) -> Erased | None:
        """Delete the account when ``confirm_email`` is its address (NotConfirmed otherwise); None: it was gone.

        First a running vacation ends (``table.back`` in every running game where the seat's clock waits for it),
        and the player leaves every running game they sit at (``table.leave``, the seat's own command in the log:
        the table's stand-in plays the seat out), so no game waits for a seat nobody can play any more."""
        if confirm_email.strip().casefold() != player.email.casefold():
            raise NotConfirmed("type the account's email address to delete it")
        at = self.gameplay.now_ms()
        vacation = await self.vacations.end(player.player_id, datetime.fromtimestamp(at / 1000, UTC))
        for game_id, seat in await self.vacations.running_games(player.player_id):
            if vacation is not None:
                try:  # the seat's clock runs again: the stand-in plays it out on the table's time
                    await come_back(self.gameplay, game_id, seat, vacation.vacation_id, at)
                except (RuleViolation, ConcurrencyConflict) as refused:
                    log.info("erasing %s: seat %d of %s stays away: %s", player.player_id, seat, game_id, refused)
            try:
                await self.gameplay.submit(game_id, seat, f"leave-{uuid.uuid4().hex}", Leave())
            except (RuleViolation, ConcurrencyConflict) as refused:  # already left or resigned, no stand-in, over
                log.info("erasing %s: seat %d of %s stays as it is: %s", player.player_id, seat, game_id, refused)
        return await self.erasure.erase(player.player_id)
