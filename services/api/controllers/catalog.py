"""The games this server offers, and each game's component tables as a client needs them to draw it (names,
effects, costs, tracks), so no client ever hard-codes a table. Read-only and immutable per dataset, so
responses may be cached. The tables are the game's own (``GameModule.catalog``)."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from litestar import Controller, Response, get
from litestar.datastructures import CacheControlHeader
from litestar.params import FromPath, QueryParameter

from domain.kernel.phrases import say

from ..deps import GameplayDep
from ..errors import ApiError, documented
from ..schemas import GameTypeOut

CACHED = CacheControlHeader(max_age=3600, public=True)


class CatalogController(Controller):
    path = "/api/catalog"
    tags = ("catalog",)

    @get("/", summary="The games this server offers", cache_control=CACHED)
    async def games(self, gameplay: GameplayDep) -> tuple[GameTypeOut, ...]:
        """Each game with its title, data version, AI levels, the JSON Schema of its ``options`` and the events
        that begin its rounds, in the registry's order (the first is the lobby's default)."""
        return tuple(
            GameTypeOut(name, game.title or name, game.data_version, game.ai_levels,
                        msgspec.json.schema(game.options_type), game.round_events)
            for name, game in gameplay.games.items()
        )

    @get("/{game:str}", summary="A game's component tables", responses=documented(400, 404),
         cache_control=CACHED)
    async def read(
        self,
        game: FromPath[str],
        gameplay: GameplayDep,
        dataset: Annotated[str | None, QueryParameter(pattern="^[a-z0-9_]{1,40}$",
                                                      description="The game's dataset (its view names it; "
                                                                  "default: the current one).")] = None,
    ) -> Response[Any]:
        """Everything a client needs to draw a game of this kind (Magnate: names, neighbour effects, building
        costs and capacities, tenant kinds with short letters, the land price and crash tracks, AI difficulties
        and cards)."""
        module = gameplay.games.get(game)
        if module is None or module.catalog is None:
            raise ApiError(404, "catalog/not_found", say("no catalog for game '{game}'", game=game),
                           known=sorted(gameplay.games))
        try:
            return Response(module.catalog(dataset))
        except KeyError as exc:
            raise ApiError(404, "catalog/not_found", say("no dataset '{dataset}' for {game}", dataset=dataset or "",
                                                         game=game), dataset=dataset) from exc
