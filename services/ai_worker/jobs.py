"""System job functions: one per system command kind of every game, plus the reconciler and the delivery of a
notification (:func:`deliver_notification`).

Jobs hold no rule knowledge. A job ``(game_id, version)`` named after a system command kind asks
:meth:`Gameplay.run_system` to run that command if the game is still at ``version`` and still waits
for it; anything else (a duplicate, a late job, a job whose version the game has moved past) is a
quiet no-op. That check is what makes arq's at-least-once delivery safe: **a job may run twice**.

The kinds are read off each game's ``system_command_type`` union (minus the commands the game names as the
gameplay service's own, ``service_commands``: the start and the seed's reveal), so a new system command in a game
module gets a job function without touching this package.
"""

from __future__ import annotations

import logging
import typing
from collections.abc import Mapping
from typing import Any, cast

import asyncpg
from arq.typing import WorkerCoroutine
from arq.worker import Retry
from redis.exceptions import RedisError
from structlog.contextvars import bind_contextvars

from domain.kernel import GameModule
from infra.errors import StoreUnavailable
from services.gameplay.handler import Gameplay
from services.gameplay.timekeeper import time_out
from services.notifications.context import Notifications
from services.notifications.deliver import deliver
from services.notifications.reminders import remind

from .measure import FAILED, OUTCOME

log = logging.getLogger("magnate.worker")

MAX_TRIES = 5
"""Tries of one job while the database or Redis is unavailable; then it is dropped (the reconciler
re-enqueues it once the stores are back, since the game still says it is due)."""
RETRY_BASE_S = 0.5
RETRY_CAP_S = 10.0
DELIVER_MAX_TRIES = 30
"""Runs of one delivery's job: its back-offs are runs too (``Retry``). A job arq gives up
on is queued again by the sweep while its delivery is due (the delivery's own attempts are counted in its row)."""
_DELIVERY_OUTAGE = (StoreUnavailable, OSError, RedisError, asyncpg.PostgresError, asyncpg.InterfaceError)


def _tags_of_union(union: Any) -> list[str]:
    members = typing.get_args(union) or (union,)
    tags: list[str] = []
    for member in members:
        tag = member.__struct_config__.tag
        if not isinstance(tag, str):
            raise TypeError(f"{member.__name__} has no string tag")
        tags.append(tag)
    return tags


def system_kinds(games: Mapping[str, GameModule[Any]]) -> list[str]:
    """Every system command tag a worker may be asked to run, in a stable order: each game's system commands but
    the ones it names as the gameplay service's own (:attr:`GameModule.service_commands`)."""
    kinds: list[str] = []
    for game in games.values():
        if not game.service_commands:
            raise TypeError(f"game {game.name!r}: name its service-only commands (GameModule.service_commands, "
                            "filled by domain.kernel.start_and_reveal)")
        kinds.extend(tag for tag in _tags_of_union(game.system_command_type)
                     if tag not in game.service_commands and tag not in kinds)
    return kinds


def retry_delay_s(job_try: int) -> float:
    """Exponential back-off between tries: 0.5 s, 1 s, 2 s, 4 s ... capped at 10 s."""
    return float(min(RETRY_CAP_S, RETRY_BASE_S * 2 ** max(0, job_try - 1)))


async def run_system_job(ctx: dict[str, Any], kind: str, game_id: str, version: int) -> bool:
    """Run system command ``kind`` due at ``version`` of ``game_id``; True if it appended events."""
    gameplay: Gameplay = ctx["gameplay"]
    job_try = int(ctx.get("job_try") or 1)
    bind_contextvars(game_id=game_id, version=version)
    try:
        ran = await gameplay.run_system(game_id, version, kind)
    except StoreUnavailable as exc:
        if job_try >= MAX_TRIES:
            log.warning("giving up %s:%s:%s after %d tries (%s); the reconciler will re-enqueue it",
                        game_id, version, kind, job_try, exc)
            ctx[OUTCOME] = FAILED
            return False
        raise Retry(defer=retry_delay_s(job_try)) from exc
    if not ran:
        log.debug("job %s:%s:%s is stale or a duplicate; nothing to do", game_id, version, kind)
    return ran


def system_job(kind: str) -> WorkerCoroutine:
    """The arq job function for one system command kind (registered under the name ``kind``)."""

    async def job(ctx: dict[str, Any], game_id: str, version: int) -> bool:
        return await run_system_job(ctx, kind, game_id, version)

    job.__name__ = job.__qualname__ = kind
    job.__doc__ = f"Run the system command {kind!r} if it is still due at the given version."
    return cast(WorkerCoroutine, job)


async def reconcile(ctx: dict[str, Any]) -> int:
    """Re-enqueue every system job the games say is due (cron, and once at worker start-up)."""
    gameplay: Gameplay = ctx["gameplay"]
    try:
        count = await gameplay.reconcile()
    except StoreUnavailable as exc:
        log.warning("reconciler skipped: %s", exc)
        return 0
    if count:
        log.info("reconciler re-enqueued %d due job(s)", count)
    return count


async def deliver_notification(ctx: dict[str, Any], delivery_id: str) -> bool:
    """Deliver one notification (:func:`services.notifications.deliver.deliver`); True when nothing is left to do.

    The job keeps the delivery's id for its whole life: a back-off after a failed attempt, or a wait until the
    delivery is due, is arq's ``Retry`` with that wait (rather than a new job with a suffixed id), so the
    projector, a retry and the sweep can never queue two jobs for one delivery; arq refuses the second id. The
    job's lease (:mod:`.leases`) is the delivery's only one. A database or Redis outage is retried with the system
    jobs' back-off; the retry claims the delivery again (one more attempt)."""
    notifications: Notifications = ctx["notifications"]
    job_try = int(ctx.get("job_try") or 1)
    bind_contextvars(delivery_id=delivery_id)
    try:
        wait = await deliver(notifications, delivery_id)
    except _DELIVERY_OUTAGE as exc:
        log.warning("delivery %s interrupted (%s); retrying", delivery_id, exc)
        raise Retry(defer=retry_delay_s(job_try)) from exc
    if wait is not None:
        raise Retry(defer=wait)
    return True


async def deadline_job(ctx: dict[str, Any], game_id: str, seat: int, deadline: int) -> bool:
    """A seat's clock may have run out (:func:`services.gameplay.timekeeper.time_out`): applied at most once, a
    no-op once the seat has moved; a job that comes early (clocks apart) waits for the deadline."""
    gameplay: Gameplay = ctx["gameplay"]
    job_try = int(ctx.get("job_try") or 1)
    bind_contextvars(game_id=game_id, seat=seat)
    try:
        wait = await time_out(gameplay, game_id, seat, deadline)
    except StoreUnavailable as exc:
        raise Retry(defer=retry_delay_s(job_try)) from exc
    if wait is not None:
        raise Retry(defer=wait / 1000)
    return True


async def reminder_job(ctx: dict[str, Any], game_id: str, seat: int, deadline: int) -> bool:
    """Remind a seat's player of its deadline (:func:`services.notifications.reminders.remind`): told once."""
    job_try = int(ctx.get("job_try") or 1)
    bind_contextvars(game_id=game_id, seat=seat)
    try:
        return await remind(ctx["notifications"], ctx["gameplay"], game_id, seat, deadline)
    except _DELIVERY_OUTAGE as exc:
        raise Retry(defer=retry_delay_s(job_try)) from exc
