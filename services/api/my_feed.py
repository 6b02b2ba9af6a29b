""""My games" as it changes: every game the signed-in player holds a seat in, your-turn first, and their notices,
sent by the player's own stream (``GET /api/me/stream``) and by the lobby's (which also tells the notification
pipeline the player is here)."""

from __future__ import annotations

import logging
import uuid
from collections.abc import AsyncGenerator, AsyncIterator

import msgspec
from litestar.response import ServerSentEventMessage
from redis.exceptions import RedisError

from infra.accounts import Player
from infra.errors import InfraError
from services.gameplay.accounts import Accounts
from services.gameplay.mine import GAMES_CHANGED, MyGames
from services.notifications.service import Notifications

from .held_stream import KEEP_ALIVE_S, RETRY_MS
from .page_stream import notices_message
from .player_schemas import MyGameOut, MyGamesOut

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


async def feed(mine: MyGames, accounts: Accounts, player: Player, base: str,
               told: tuple[Notifications, str] | None = None) -> AsyncIterator[ServerSentEventMessage]:
    """``games`` on connect and whenever one of them moves; ``notices`` (the player's notices, in ``told``'s
    language) when the pipeline has told the player something. The player is present (:mod:`infra.presence`) while
    it runs."""
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
            if to_player and data != GAMES_CHANGED.encode() and told is not None:
                yield await notices_message(told[0], player, told[1])
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
