"""The reminder before a deadline: a ``deadline`` notice for the player of a seat whose clock runs, written with
its deliveries in one transaction, keyed by the game, the deadline and the seat — so a reminder job that runs twice
(arq delivers at least once; the reconciler schedules again after a lost queue) tells the player once.

One mail per turn, whatever the clock (issue #26, point 7): the reminder comes a quarter of the allowance before
the deadline, so on a short clock it came seconds after the turn's own mail and a 15-second turn sent two. The
reminder is now mailed only when this turn's ``your_turn`` mail was not (the player was at the page then, or is not
told turns by mail, or the turn began before they claimed the seat); it still reaches the page, the webhooks and
the devices. Its text says the real time left (:func:`left_text`): "in 4 seconds" on a 15-second clock, and the
deadline's time and date in the reader's language."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from domain.kernel.notices import YOUR_TURN
from domain.kernel.table import facts_of
from infra.notifications import Outbox
from services.gameplay.handler import Gameplay

from .derive import Told
from .outbox import EMAIL
from .projector import store_notices
from .seen import at_the_page
from .service import Notifications
from .texts import left_phrase, notice_phrase
from .words import encoded, english

DEADLINE = "deadline"
MAILED = ("pending", "sending", "sent")
"""A turn mail in one of these states went out, or is going."""
LOOKED_AT = 500
"""Deliveries of the player's log read to find this turn's mail (the newest first)."""
SLACK = timedelta(seconds=5)
"""A turn's notice is projected after the append that started its clock; this covers the clocks' skew."""


def reminder_id(game_id: str, deadline: int, seat: int) -> str:
    return f"{game_id}.d{deadline}.{seat}.{DEADLINE}"


def left_text(deadline: int, now: datetime) -> str:
    """"your time runs out at 14:05 UTC on Nov 24 (in 3 hours)"; on a short clock "at 14:05:07 UTC (in 4
    seconds)", in English (:func:`.texts.left_phrase` for the other languages)."""
    return english(left_phrase(deadline, now))


async def turn_mailed(store: Outbox, player_id: str, game_id: str, seat: int, since: datetime) -> bool:
    """Whether the ``your_turn`` notice of ``seat`` made since ``since`` (its clock's start) was mailed, or is
    being."""
    prefix, suffix = f"{game_id}.", f".{seat}.{YOUR_TURN}"
    return any(e.channel == EMAIL and e.status in MAILED and e.created_at >= since - SLACK
               and e.notice_id is not None and e.notice_id.startswith(prefix) and e.notice_id.endswith(suffix)
               for e in await store.entries(player_id, LOOKED_AT))


async def remind(notifications: Notifications, gameplay: Gameplay, game_id: str, seat: int, deadline: int) -> bool:
    """Tell ``seat``'s player that its clock runs out at ``deadline``, if it still does; True if a notice was
    written now (False: the clock has moved on, nobody holds the seat, the player muted it, or it was told)."""
    loaded = await gameplay.load(game_id)
    game = gameplay.module(loaded.game_type)
    clock = facts_of(loaded.state).clock(seat)
    if game.pending(loaded.state).finished or clock.deadline != deadline:
        return False
    now = datetime.now(UTC)
    since = datetime.fromtimestamp(clock.since / 1000, UTC)
    seen = await at_the_page(notifications.presence, game_id, [seat])
    async with notifications.store.transaction() as tx:
        player = await tx.player_at(game_id, seat)
        if player is None:
            return False
        notice_id = reminder_id(game_id, deadline, seat)
        if await tx.has_notice(notice_id):
            return False
        phrase = notice_phrase(DEADLINE, game.title or game.name, left_phrase(deadline, now))
        told = [Told(notice_id, player, game_id, seat, loaded.version, DEADLINE, english(phrase), encoded(phrase))]
        unmailed = [notice_id] if await turn_mailed(tx, player, game_id, seat, since) else []
        created = await store_notices(tx, game_id, told, now, seen, unmailed)
    if created:
        await notifications.dispatch.enqueue(created)
    if told:
        await notifications.dispatch.announce([player])
    return bool(told)
