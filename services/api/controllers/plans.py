"""Planned moves (issue #29): the seat's own standing instructions, played for it by the server at its turn. Only the
seat's holder reads or writes them (its token, or the signed-in player who holds it; CSRF for a session); no other
route, stream, history or export carries a plan before it is played (docs/PLAYERS.md, "Planned moves")."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from litestar import Controller, Request, delete, get, put
from litestar.datastructures import CacheControlHeader
from litestar.di import Provide
from litestar.params import FromPath, JSONBody, QueryParameter

from domain.kernel.phrases import say
from services.gameplay.plans import BadPlan, NoPlans, OtherGamesPlan, SeatsPlans
from services.gameplay.story import renderer
from services.language.catalogs import Catalogs

from ..auth import SECURITY, provide_seat
from ..bodies import json_only, refuse_duplicate_keys
from ..deps import PlanningDep, SeatDep, plausible_game_id
from ..errors import ApiError, documented
from ..language import CatalogsDep, LanguageDep
from ..plan_schemas import FieldOut, OfferOut, PlanOut, PlanRequest, PlansOut

PRIVATE = CacheControlHeader(no_store=True)
"""A seat's plans are nobody's but the seat's: no cache keeps them."""
Kind = Annotated[str | None, QueryParameter(description="Clear only the plan of this type tag")]


def plans_out(shown: SeatsPlans, catalogs: Catalogs, language: str) -> PlansOut:
    """The seat's plans with their words in ``language``."""
    words = renderer(catalogs, shown.game_type, language, {})
    offered = [OfferOut(o.kind, words.text(o.title), [
        FieldOut(f.name, words.text(f.label), f.type, f.minimum, f.maximum, f.step, f.default) for f in o.fields])
        for o in shown.offered]
    return PlansOut(shown.game_id, shown.seat, shown.version, offered,
                    [PlanOut(p.kind, words.text(p.text), msgspec.json.decode(p.plan), p.set_at) for p in shown.plans])


def no_plans(exc: NoPlans) -> ApiError:
    return ApiError(404, exc.code, say("this game offers no planned moves"))


class PlansController(Controller):
    path = "/api/games/{game_id:str}/plans"
    tags = ("commands",)
    guards = [plausible_game_id]  # noqa: RUF012 (Litestar reads it off the class)
    dependencies = {"seat": Provide(provide_seat)}  # noqa: RUF012

    @get("/", summary="Your seat's planned moves", security=SECURITY, cache_control=PRIVATE,
         responses=documented(401, 403, 404, s404="No such game, or the game offers no plans (plan/unavailable)"))
    async def read(self, game_id: FromPath[str], seat: SeatDep, planning: PlanningDep,
                   catalogs: CatalogsDep, language: LanguageDep) -> PlansOut:
        """The caller's seat's plans and the kinds it may set now. The seat is authenticated as for ``/me``."""
        try:
            return plans_out(await planning.read(game_id, seat), catalogs, language)
        except NoPlans as exc:
            raise no_plans(exc) from exc

    @put("/", summary="Set a planned move", guards=[json_only], security=SECURITY, cache_control=PRIVATE,
         responses=documented(400, 401, 403, 404, 415, 422, s400="Not one of the game's plans (plan/invalid)",
                              s422="The plan cannot be set now (plan/refused), or it is another game's "
                                   "(plan/other_games_plan)"))
    async def write(self, request: Request[Any, Any, Any], game_id: FromPath[str], data: JSONBody[PlanRequest],
                    seat: SeatDep, planning: PlanningDep,
                   catalogs: CatalogsDep, language: LanguageDep) -> PlansOut:
        """Body: ``{"plan": {"type": "magnate.pass_auctions", ...}}``, one of the game's plans (``offered`` names
        them). Replaces the seat's plan of that kind. The server plays it for the seat at its turn through the game's
        rules (the move is the seat's, marked as planned in the history) until it is spent or expires; any move the
        seat makes itself clears its plans."""
        refuse_duplicate_keys(await request.body())
        try:
            return plans_out(await planning.set(game_id, seat, msgspec.json.encode(data.plan)), catalogs, language)
        except OtherGamesPlan as exc:
            raise ApiError(422, exc.code, say("that is a {other} plan, and this is a {game} game", other=exc.other,
                                              game=exc.game), game=exc.game) from exc
        except BadPlan as exc:
            raise ApiError(400, exc.code, say("not a planned move of this game: {reason}", reason=str(exc))) from exc
        except NoPlans as exc:
            raise no_plans(exc) from exc

    @delete("/", status_code=200, summary="Clear planned moves", security=SECURITY, cache_control=PRIVATE,
            responses=documented(401, 403, 404))
    async def clear(self, game_id: FromPath[str], seat: SeatDep, planning: PlanningDep,
                    catalogs: CatalogsDep, language: LanguageDep, kind: Kind = None) -> PlansOut:
        """Clears the seat's plan of ``kind``, or all its plans."""
        try:
            return plans_out(await planning.clear(game_id, seat, kind), catalogs, language)
        except NoPlans as exc:
            raise no_plans(exc) from exc
