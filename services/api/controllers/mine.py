""""My games": every game the signed-in player holds a seat in, your-turn first, on any device, and kept live by
the player's own event stream (which also tells the notification pipeline the player is here)."""

from __future__ import annotations

import logging
import uuid
from collections.abc import AsyncGenerator, AsyncIterator
from typing import Any

import msgspec
from litestar import Controller, Request, get
from litestar.di import Provide
from litestar.middleware.rate_limit import get_remote_address
from litestar.response import ServerSentEvent, ServerSentEventMessage
from redis.exceptions import RedisError

from infra.accounts import Player
from infra.errors import InfraError
from services.gameplay.accounts import Accounts
from services.gameplay.mine import GAMES_CHANGED, MyGames

from ..deps import AccountsDep, MyGamesDep, SettingsDep
from ..errors import documented
from ..held_stream import KEEP_ALIVE_S, RETRY_MS, HeldStream
from ..limits import StreamSlots
from ..pages import public_url
from ..player_schemas import MyGameOut, MyGamesOut
from ..players import PlayerDep, provide_player

log = logging.getLogger(__name__)


def _rank(game: MyGameOut) -> int:
    return 0 if game.your_turn else 1 if game.status == "running" else 2


async def my_games(mine: MyGames, player: Player, base: str) -> MyGamesOut:
    games = []
    for g in await mine.of(player.player_id):
        module = mine.gameplay.games.get(g.game_type)
        turn = g.status == "running" and g.seat in g.on_turn
        games.append(MyGameOut(g.game_id, g.game_type, module.title if module else g.game_type, g.status, g.version,
                               g.seat, g.names, g.on_turn, turn, g.updated_at, f"{base}/play/{g.game_id}"))
    games.sort(key=_rank)  # stable: newest first within a rank, as the store lists them
    return MyGamesOut(tuple(games), sum(1 for g in games if g.your_turn))


def _games_message(games: MyGamesOut) -> ServerSentEventMessage:
    return ServerSentEventMessage(data=msgspec.json.encode(games).decode(), event="games")


async def feed(mine: MyGames, accounts: Accounts, player: Player, base: str
               ) -> AsyncIterator[ServerSentEventMessage]:
    """``games`` on connect and whenever one of them moves; ``notice`` when the pipeline has told the player
    something. The player is present (:mod:`infra.presence`) while it runs."""
    connection = uuid.uuid4().hex
    yield ServerSentEventMessage(data=None, comment="connected", retry=RETRY_MS)
    heard = None
    try:
        await accounts.player_here(player.player_id, connection)
        games = await my_games(mine, player, base)
        yield _games_message(games)
        heard = mine.listen(player.player_id, [g.game_id for g in games.games if g.status == "running"],
                            KEEP_ALIVE_S)
        async for message in heard:
            await accounts.player_here(player.player_id, connection)
            if message is None:
                yield ServerSentEventMessage(data=None, comment="keep-alive")
                continue
            to_player, data = message
            if to_player and data != GAMES_CHANGED.encode():
                yield ServerSentEventMessage(data=data.decode("utf-8", "replace") or "{}", event="notice")
            fresh = await my_games(mine, player, base)
            if fresh != games:
                grew = {g.game_id for g in fresh.games} != {g.game_id for g in games.games}
                games = fresh
                yield _games_message(games)
                if grew:
                    break  # a new game: the page reconnects, and this stream listens to it too
    except (InfraError, RedisError) as exc:
        log.warning("the player stream of %s ended: %s", player.player_id, exc)
    finally:
        if isinstance(heard, AsyncGenerator):
            await heard.aclose()
        await accounts.player_gone(player.player_id, connection)



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
                     accounts: AccountsDep, settings: SettingsDep) -> ServerSentEvent:
        """``event: games`` (the body of ``GET /api/me/games``) on connect and whenever one of the games moves;
        ``event: notice`` when something new was noticed for the player (read ``GET /api/me/notices``)."""
        slots: StreamSlots = request.app.state.stream_slots
        client = get_remote_address(request)
        slots.admit(client)
        return ServerSentEvent(HeldStream(slots, client, feed(mine, accounts, player, public_url(settings))))
