"""Ratings (issue #29, docs/PLAYERS.md "Ratings"): a leaderboard per game type, a player's ratings, and the rated
tables among open games with their host's rating. Public reads: a rating, a name and a player's public id, no
account detail."""

from __future__ import annotations

from typing import Annotated

from litestar import Controller, get
from litestar.params import FromPath, QueryParameter

from domain.kernel.phrases import say
from infra.ratings import PAGE_MAX

from ..deps import AccountsDep, GameplayDep, RatingsDep
from ..errors import ApiError, documented, invalid
from ..rating_schemas import (
    BoardRowOut,
    HostRatingOut,
    LeaderboardOut,
    PlayerRatingOut,
    PlayerRatingsOut,
    RatedTablesOut,
)

Limit = Annotated[int, QueryParameter(ge=1, le=PAGE_MAX, description="At most this many players.")]
Offset = Annotated[int, QueryParameter(ge=0, le=1_000_000, description="Skip this many (the previous page's "
                                                                      "`next_offset`).")]
GameIds = Annotated[list[str], QueryParameter(
    max_items=PAGE_MAX, description="The games to ask about (repeat the parameter: `game=a&game=b`).")]
ID_MAX = 64


class RatingsController(Controller):
    path = "/api"
    tags = ("ratings",)

    @get("/ratings/{game_type:str}/leaderboard", summary="The leaderboard of a game", responses=documented(
        400, 404, s404="No such game on this server (ratings/unknown_game)"))
    async def leaderboard(self, game_type: FromPath[str], ratings: RatingsDep, gameplay: GameplayDep,
                          limit: Limit = 50, offset: Offset = 0) -> LeaderboardOut:
        """The players who played rated games of ``game_type``, the highest rating first, a page at a time."""
        module = gameplay.games.get(game_type)
        if module is None:
            raise ApiError(404, "ratings/unknown_game", say("this server has no game '{game}'",
                                                            game=game_type[:ID_MAX]))
        rows = await ratings.leaderboard(game_type, limit, offset)
        return LeaderboardOut(game_type, module.title, tuple(
            BoardRowOut(r.position, r.player_id, r.name, r.shown, r.games, r.mu, r.sigma) for r in rows),
            offset + len(rows) if len(rows) == limit else None)

    @get("/players/{player_id:str}/ratings", summary="A player's ratings", responses=documented(
        400, 404, s404="No such player (player/not_found)"))
    async def of_player(self, player_id: FromPath[str], ratings: RatingsDep, accounts: AccountsDep,
                        gameplay: GameplayDep) -> PlayerRatingsOut:
        """The player's name and rating in each game they played rated games of."""
        player = await accounts.player(player_id) if len(player_id) <= ID_MAX and "\x00" not in player_id else None
        if player is None:
            raise ApiError(404, "player/not_found", say("there is no such player"))
        rows = await ratings.of_player(player_id)
        return PlayerRatingsOut(player_id, player.name, tuple(
            PlayerRatingOut(r.game_type, m.title if (m := gameplay.games.get(r.game_type)) else r.game_type,
                            r.shown, r.games, r.mu, r.sigma, r.updated_at) for r in rows))

    @get("/ratings/tables", summary="Which of these games are rated, with their host's rating",
         responses=documented(400))
    async def tables(self, ratings: RatingsDep, game: GameIds) -> RatedTablesOut:
        """For the open-games list: of the games named, the rated ones and their host's rating in the game's type
        (null before the host's first rated game of it)."""
        if any(len(g) > ID_MAX or "\x00" in g for g in game):
            raise invalid(say("a game id is at most {n} characters, with no NUL character", n=ID_MAX), field="game")
        hosts = await ratings.hosts(game)
        return RatedTablesOut(tuple(HostRatingOut(h.game_id, h.game_type, h.shown, h.games) for h in hosts))
