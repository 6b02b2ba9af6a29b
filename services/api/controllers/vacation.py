"""A player's vacation: clocks paused in every game they sit at, within a yearly allowance."""

from __future__ import annotations

import logging
from datetime import UTC, datetime

from litestar import Controller, delete, get, post
from litestar.di import Provide
from litestar.params import JSONBody

from domain.kernel.phrases import Phrase, say, say_n
from infra.accounts.vacations import AlreadyAway, VacationTooLong
from services.gameplay.accounts import Accounts

from ..clock_schemas import VacationOut, VacationRequest
from ..deps import AccountsDep, SettingsDep
from ..errors import ApiError, documented
from ..players import PlayerDep, provide_player

log = logging.getLogger("magnate.api")


def days(n: int) -> Phrase:
    return say_n("{n} day", "{n} days", "n", n=n)


class VacationController(Controller):
    path = "/api/me/vacation"
    tags = ("players",)
    dependencies = {"player": Provide(provide_player)}  # noqa: RUF012 (Litestar reads it off the class)

    @get("/", summary="This year's vacation allowance", responses=documented(401))
    async def read(self, player: PlayerDep, accounts: AccountsDep, settings: SettingsDep) -> VacationOut:
        return await self._out(player.player_id, accounts, settings.vacation_days, datetime.now(UTC))

    @post("/", status_code=201, summary="Go on vacation: pause your clocks", responses=documented(
        400, 401, 403, 409, 422, s409="You are on vacation already (vacation/away)",
        s422="More days than are left of this year's allowance (vacation/too_long)"))
    async def take(
        self, data: JSONBody[VacationRequest], player: PlayerDep, accounts: AccountsDep, settings: SettingsDep,
    ) -> VacationOut:
        """From now, for ``days`` days, every clock of yours waits (each game records it in its log, and the
        table sees until when you are away). A turn that comes during the vacation gets its full time after it."""
        now = datetime.now(UTC)
        try:
            _, paused = await accounts.take_vacation(player.player_id, data.days, settings.vacation_days, now)
        except VacationTooLong as exc:
            raise ApiError(422, "vacation/too_long", say(
                "{asked} is more than the {left} of vacation left this year", asked=days(exc.asked),
                left=days(exc.left)), asked=exc.asked, left=exc.left) from exc
        except AlreadyAway as exc:
            until = exc.until.strftime("%Y-%m-%d %H:%M")
            raise ApiError(409, "vacation/away", say("you are already on vacation until {until} UTC", until=until),
                           until=exc.until.isoformat()) from exc
        out = await self._out(player.player_id, accounts, settings.vacation_days, now)
        return VacationOut(out.allowance_days, out.used_days, out.left_days, out.away_until, paused)

    @delete("/", status_code=200, summary="End your vacation early: your clocks run again", responses=documented(
        400, 401, 403, 409, s409="You are not on vacation (vacation/not_away)"))
    async def end(self, player: PlayerDep, accounts: AccountsDep, settings: SettingsDep) -> VacationOut:
        """Ends the running vacation now: it uses only the days it has started, and in every game of yours a clock
        it paused runs again with the time it had left (each game records it in its log)."""
        now = datetime.now(UTC)
        ended, resumed = await accounts.end_vacation(player.player_id, now)
        if ended is None:
            raise ApiError(409, "vacation/not_away", say("you are not on vacation"))
        out = await self._out(player.player_id, accounts, settings.vacation_days, now)
        return VacationOut(out.allowance_days, out.used_days, out.left_days, out.away_until, resumed)

    @staticmethod
    async def _out(player_id: str, accounts: Accounts, allowance: int, now: datetime) -> VacationOut:
        left = await accounts.allowance(player_id, allowance, now)
        return VacationOut(allowance, left.used_days, left.left_days, left.away_until)
