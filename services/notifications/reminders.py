"""The reminder before a deadline: a ``deadline`` notice for the player of a seat whose clock runs, written with
its deliveries in one transaction, keyed by the game, the deadline and the seat — so a reminder job that runs twice
(arq delivers at least once; the reconciler schedules again after a lost queue) tells the player once."""

from __future__ import annotations

from datetime import UTC, datetime

from domain.kernel.table import facts_of
from services.gameplay.handler import Gameplay

from .derive import Told
from .projector import store_notices
from .service import Notifications
from .texts import notice_text

DEADLINE = "deadline"


def reminder_id(game_id: str, deadline: int, seat: int) -> str:
    return f"{game_id}.d{deadline}.{seat}.{DEADLINE}"


def left_text(deadline: int, now: datetime) -> str:
    """"your time runs out at 14:05 UTC on 24 Nov (in 3 hours)"."""
    when = datetime.fromtimestamp(deadline / 1000, UTC)
    minutes = max(1, round((when - now).total_seconds() / 60))
    span = f"{minutes} minute{'s' if minutes != 1 else ''}" if minutes < 120 else f"{round(minutes / 60)} hours"
    return f"your time runs out at {when:%H:%M} UTC on {when:%d %b} (in {span})"


async def remind(notifications: Notifications, gameplay: Gameplay, game_id: str, seat: int, deadline: int) -> bool:
    """Tell ``seat``'s player that its clock runs out at ``deadline``, if it still does; True if a notice was
    written now (False: the clock has moved on, nobody holds the seat, the player muted it, or it was told)."""
    loaded = await gameplay.load(game_id)
    game = gameplay.module(loaded.game_type)
    if game.pending(loaded.state).finished or facts_of(loaded.state).clock(seat).deadline != deadline:
        return False
    now = datetime.now(UTC)
    async with notifications.store.transaction() as tx:
        player = await tx.player_at(game_id, seat)
        if player is None:
            return False
        notice_id = reminder_id(game_id, deadline, seat)
        if await tx.has_notice(notice_id):
            return False
        text = notice_text(DEADLINE, game.title or game.name, left_text(deadline, now))
        told = [Told(notice_id, player, game_id, seat, loaded.version, DEADLINE, text)]
        created = await store_notices(tx, game_id, told, now)
    if created:
        await notifications.dispatch.enqueue(created)
    if told:
        await notifications.dispatch.announce([player])
    return bool(told)
