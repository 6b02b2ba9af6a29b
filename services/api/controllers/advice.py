"""A seat's advice: the engine's ranked options for the seat's current state, each with its reason."""

from __future__ import annotations

from litestar import Controller, get
from litestar.di import Provide
from litestar.params import FromPath

from services.gameplay.advice import SeatAdvice

from ..auth import SECURITY, provide_seat
from ..deps import AdviceDep, SeatDep
from ..errors import documented
from ..language import CatalogsDep, LanguageDep


class AdviceController(Controller):
    path = "/api/games"
    tags = ("games",)

    @get("/{game_id:str}/advice", summary="The engine's advice to the caller's seat",
         dependencies={"seat": Provide(provide_seat)}, security=SECURITY, responses=documented(400, 401, 403, 404))
    async def advice(self, game_id: FromPath[str], seat: SeatDep, advice: AdviceDep, catalogs: CatalogsDep,
                     language: LanguageDep) -> SeatAdvice:
        """The options the game's engine advises the seat now, best first: each is the command as the seat would
        submit it, why (a key with its arguments; the reason in the request's language, ``text``, and in no language,
        ``phrase``, for a client that renders it itself) and the engine's score.
        ``options`` is empty when the seat has nothing to decide (not its turn, or the game is over). Decided on
        the seat's own view only, computed once per version and seat and shared by every page of the seat; asking
        records nothing in the game's log. The seat is authenticated as for ``/me``."""
        return await advice.of(game_id, seat, catalogs, language)
