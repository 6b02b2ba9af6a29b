""""My games": every game the signed-in player holds a seat in, your-turn first, on any device, and kept live by
the player's own event stream (which also tells the notification pipeline the player is here)."""

from __future__ import annotations

from typing import Any

from litestar import Controller, Request, get
from litestar.di import Provide
from litestar.middleware.rate_limit import get_remote_address
from litestar.response import ServerSentEvent

from ..deps import AccountsDep, MyGamesDep, NotificationsDep, SettingsDep
from ..errors import documented
from ..held_stream import HeldStream
from ..language import LanguageDep
from ..limits import StreamSlots
from ..my_feed import feed, my_games
from ..pages import public_url
from ..player_schemas import MyGamesOut
from ..players import PlayerDep, provide_player


class MyGamesController(Controller):
    path = "/api/me"
    tags = ("players",)
    dependencies = {"player": Provide(provide_player)}  # noqa: RUF012 (Litestar's declared class attribute)

    @get("/games", summary="My games, your-turn first", responses=documented(401))
    async def games(self, player: PlayerDep, mine: MyGamesDep, settings: SettingsDep) -> MyGamesOut:
        return await my_games(mine, player, public_url(settings))

    @get("/stream", summary="My games, live (Server-Sent Events)", media_type="text/event-stream",
         responses=documented(401, s429="Too many open streams from this client address (rate/limited)"))
    async def stream(self, request: Request[Any, Any, Any], player: PlayerDep, mine: MyGamesDep,
                     accounts: AccountsDep, settings: SettingsDep, notifications: NotificationsDep,
                     language: LanguageDep) -> ServerSentEvent:
        """``event: games`` (the body of ``GET /api/me/games``) on connect and whenever one of the games moves;
        ``event: notices`` (the body of ``GET /api/me/notices``, in the request's language) when something new was
        noticed for the player."""
        slots: StreamSlots = request.app.state.stream_slots
        client = get_remote_address(request)
        slots.admit(client)
        told = (notifications, language)
        return ServerSentEvent(HeldStream(slots, client, feed(mine, accounts, player, public_url(settings), told)))
