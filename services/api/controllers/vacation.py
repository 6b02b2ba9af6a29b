"""A player's vacation: clocks paused in every game they sit at, within a yearly allowance."""

from __future__ import annotations

import logging
from datetime import UTC, datetime

from litestar import Controller, get, post
from litestar.di import Provide
from litestar.params import JSONBody

from infra.accounts.vacations import AlreadyAway, VacationTooLong, days_of
from services.gameplay.bootstrap import Runtime
from services.gameplay.timekeeper import go_away

from ..clock_schemas import VacationOut, VacationRequest
from ..deps import GameplayDep, RuntimeDep, SettingsDep
from ..errors import ApiError, documented
from ..players import PlayerDep, provide_player

log = logging.getLogger("magnate.api")


class VacationController(Controller):
    path = "/api/me/vacation"
    tags = ("players",)
    dependencies = {"player": Provide(provide_player)}  # noqa: RUF012 (Litestar reads it off the class)

    @get("/", summary="This year's vacation allowance", responses=documented(401))
    async def read(self, player: PlayerDep, runtime: RuntimeDep, settings: SettingsDep) -> VacationOut:
        return await self._out(player.player_id, runtime, settings.vacation_days, datetime.now(UTC))

    @post("/", status_code=201, summary="Go on vacation: pause your clocks", responses=documented(
        400, 401, 403, 409, 422, s409="You are on vacation already (vacation/away)",
        s422="More days than are left of this year's allowance (vacation/too_long)"))
    async def take(
        self, data: JSONBody[VacationRequest], player: PlayerDep, runtime: RuntimeDep, gameplay: GameplayDep,
        settings: SettingsDep,
    ) -> VacationOut:
        """From now, for ``days`` days, every clock of yours waits (each game records it in its log, and the
        table sees until when you are away). A turn that comes during the vacation gets its full time after it."""
        now = datetime.now(UTC)
        try:
            vacation = await runtime.vacations.take(player.player_id, data.days, settings.vacation_days, now)
        except VacationTooLong as exc:
            raise ApiError(422, "vacation/too_long", str(exc), asked=exc.asked, left=exc.left) from exc
        except AlreadyAway as exc:
            raise ApiError(409, "vacation/away", str(exc), until=exc.until.isoformat()) from exc
        until = int(vacation.ends_at.timestamp() * 1000)
        paused = 0
        for game_id, seat in await runtime.vacations.running_games(player.player_id):
            paused += await go_away(gameplay, game_id, seat, vacation.vacation_id, until)
        out = await self._out(player.player_id, runtime, settings.vacation_days, now)
        return VacationOut(out.allowance_days, out.used_days, out.left_days, out.away_until, paused)

    @staticmethod
    async def _out(player_id: str, runtime: Runtime, allowance: int, now: datetime) -> VacationOut:
        taken = await runtime.vacations.of_year(player_id, now)
        used = sum(days_of(v) for v in taken)
        current = next((v for v in taken if v.ends_at > now), None)
        return VacationOut(allowance, used, max(0, allowance - used),
                           current.ends_at.isoformat() if current else None)
