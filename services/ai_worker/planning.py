"""The worker's side of planned moves (:mod:`services.gameplay.plans`): the ``planned_move`` job, and the loop that
queues it for the games the news names that hold plans (its own subscription to the news, as the notification
projector has; a failed round or subscription is logged and the next news, or the reconcile, makes good)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from arq.worker import Retry
from redis.exceptions import RedisError
from structlog.contextvars import bind_contextvars

from infra.errors import StoreUnavailable
from infra.news import CATCH_UP, News
from services.gameplay.plans import SeatPlanning

from .jobs import MAX_TRIES, retry_delay_s
from .measure import FAILED, OUTCOME
from .upkeep import FAILURES

log = logging.getLogger("magnate.worker")

LISTEN_AGAIN_S = 1.0


async def planned_move_job(ctx: dict[str, Any], game_id: str, version: int) -> bool:
    """Play the plans of the seats ``game_id`` waits for at ``version`` (:meth:`SeatPlanning.play`); True if it
    appended. Run twice, it appends once (the move's id derives from the version and the seat)."""
    planning: SeatPlanning = ctx["runtime"].planning
    job_try = int(ctx.get("job_try") or 1)
    bind_contextvars(game_id=game_id, version=version)
    try:
        return await planning.play(game_id, version)
    except StoreUnavailable as exc:
        if job_try >= MAX_TRIES:
            ctx[OUTCOME] = FAILED
            return False
        raise Retry(defer=retry_delay_s(job_try)) from exc


async def keep_planning(planning: SeatPlanning, news: News) -> None:
    """Until cancelled: queue the plan job of every game the news names that holds a plan; when the subscription is
    (re)made, of every game that holds one (announcements may have been missed)."""
    while True:
        try:
            async for heard in news.listen():
                try:
                    if heard is CATCH_UP:
                        await planning.reconcile()
                    else:
                        await planning.moved(heard)
                except FAILURES as exc:
                    log.warning("planned moves: a round skipped (%s)", exc)
                except Exception:  # a bug must not end the loop: the next news, or the reconcile, makes good
                    log.exception("planned moves: a round failed")
        except (RedisError, OSError) as exc:
            log.warning("the planned moves' news subscription failed (%s); listening again", exc)
        await asyncio.sleep(LISTEN_AGAIN_S)
