"""The table around the games (docs/PLAYERS.md, "Open games, watching and rematch"): the public lists of games
seeking players and games to watch, joining a listed game's free seat, and a finished game's rematch."""

from __future__ import annotations

from typing import Annotated

from litestar import Controller, get, post
from litestar.di import Provide
from litestar.params import FromPath, QueryParameter

from infra.eventstore.tables import PAGE_MAX
from services.gameplay.tables import Rematched, TableRefused

from ..auth import SECURITY, provide_seat
from ..deps import SeatDep, SettingsDep, TablesDep
from ..errors import ApiError, documented
from ..pages import public_url
from ..players import PlayerDep, provide_player
from ..schemas import SeatCreatedOut
from ..table_lists import open_tables, watched_tables
from ..table_schemas import JoinedOut, RematchOut, TablesOut

Limit = Annotated[int, QueryParameter(ge=1, le=PAGE_MAX, description="At most this many games.")]
Before = Annotated[int, QueryParameter(ge=0, le=2**53 - 1, description=(
    "Only games that last moved before this cursor (the previous page's `next_before`; 0: from the newest)."))]


def rematch_out(rematched: Rematched, caller: int, base: str) -> RematchOut:
    """The rematch as this caller may see it: tokens only of seats nobody holds, and after the first request only
    the caller's own."""
    created = rematched.created
    claimed = tuple(s.seat for s in rematched.seats if s.player_id is not None)
    seats = []
    for s in created.seats:
        token = s.token if s.seat not in claimed and (rematched.first or s.seat == caller) else None
        seats.append(SeatCreatedOut(s.seat, s.kind, s.name, s.payload, token,
                                    f"{base}/play/{created.game_id}#token={token}" if token else None))
    return RematchOut(created.game_id, created.game_type, created.version, tuple(seats), created.host_seat,
                      url=f"{base}/play/{created.game_id}", first=rematched.first, claimed=claimed)


def refused(exc: TableRefused) -> ApiError:
    return ApiError(exc.status, exc.code, exc.message)


class TablesController(Controller):
    path = "/api"
    tags = ("tables",)

    @get("/tables/open", summary="Games listed publicly that seek players", responses=documented(400))
    async def open(self, tables: TablesDep, settings: SettingsDep, limit: Limit = 50) -> TablesOut:
        """Running games whose creator listed them, with a person's seat nobody holds yet, newest first. A signed-in
        player joins one with ``POST /api/games/{game_id}/join``."""
        return await open_tables(tables, public_url(settings), limit)

    @get("/tables/live", summary="Games listed publicly, to watch", responses=documented(400))
    async def live(self, tables: TablesDep, settings: SettingsDep, limit: Limit = 20,
                   before: Before = 0) -> TablesOut:
        """Running listed games, the most recently moved first, a page at a time (``before``: the previous page's
        ``next_before``). Anyone may watch a game at its ``url``."""
        return await watched_tables(tables, public_url(settings), limit, before)

    @post("/games/{game_id:str}/join", status_code=200, summary="Join a free seat of a game listed publicly",
          dependencies={"player": Provide(provide_player)}, security=SECURITY, responses=documented(
              400, 401, 403, 404, 409, 422,
              s403="The game is not listed publicly (table/unlisted), or the CSRF header is missing (auth/csrf)",
              s409="Every seat is taken (seat/full), or you already hold a seat of this game (seat/already_seated)",
              s422="The game has ended (rule/game_over)"))
    async def join(self, game_id: FromPath[str], player: PlayerDep, tables: TablesDep,
                   settings: SettingsDep) -> JoinedOut:
        """The signed-in player takes the first free person's seat (a ``table.seat_claimed`` event in the log, as a
        claim by invite); the seat's invite link, if the host sent one, stops opening it."""
        try:
            joined = await tables.join(game_id, player.player_id, player.name)
        except TableRefused as exc:
            raise refused(exc) from exc
        return JoinedOut(game_id, joined.seat, joined.applied.version, f"{public_url(settings)}/play/{game_id}")

    @post("/games/{game_id:str}/rematch", status_code=200, summary="The rematch of a finished game",
          dependencies={"seat": Provide(provide_seat)}, security=SECURITY, responses=documented(
              400, 401, 403, 404, 409, 422,
              s409="The game is not over (table/not_finished)",
              s422="The game's options were not recorded (table/no_options)"))
    async def rematch(self, game_id: FromPath[str], seat: SeatDep, tables: TablesDep,
                      settings: SettingsDep) -> RematchOut:
        """A seat of the finished game (its token, or its player's session) asks for the rematch: the same game,
        options, seat order and names; every seat a player held is claimed by them again. The first request sets it
        up and gets the invites of the seats nobody holds (its own seat's token among them, for a guest); every
        later request finds the same game (``first`` false) and gets only its own seat's token, for a guest.
        ``GET /api/games/{game_id}`` then names it (``rematch_id``)."""
        try:
            rematched = await tables.rematch(game_id)
        except TableRefused as exc:
            raise refused(exc) from exc
        return rematch_out(rematched, seat, public_url(settings))
