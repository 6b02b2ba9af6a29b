"""What the pusher (:mod:`services.pusher`) publishes to a signed-in player's own channel (``players/<id>/<lang>``,
which a player's game page hears on the same connection as its game's, nchan's multiplexing): "My games"' messages,
as the Python game stream merges them in (:mod:`services.api.my_feed`): ``games`` (the player's games, your-turn
first; sent when they changed: a game of theirs moved, or a seat was claimed or given up) and ``notices`` (the body of
``GET /api/me/notices`` in each language, when the notification pipeline told the player something).

A player's messages are made in order, one player at a time, a change heard meanwhile joining the next round."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

import msgspec
from cachetools import LRUCache
from redis.exceptions import RedisError

from infra.accounts import Player
from infra.errors import InfraError
from infra.nchan.publisher import Push
from services.api.my_feed import my_games
from services.api.page_stream import notices_messages
from services.gameplay.mine import GAMES_CHANGED, MyGames
from services.notifications.service import Notifications

log = logging.getLogger("magnate.pusher")

KEPT_PLAYERS = 100_000
"""Players whose last published games the pusher remembers (to send only a change)."""


def player_channel(player_id: str, language: str) -> str:
    return f"players/{player_id}/{language}"


class PlayerFeeds:
    def __init__(self, mine: MyGames, notifications: Notifications, push: Push, languages: Sequence[str],
                 base: str) -> None:
        self.mine, self.notifications, self.push = mine, notifications, push
        self.languages = tuple(languages)
        self.base = base
        self._sent: LRUCache[str, bytes] = LRUCache(maxsize=KEPT_PLAYERS)
        self._wanted: dict[str, bool] = {}
        """Players with something to send, and whether notices are among it."""
        self._running: dict[str, asyncio.Task[None]] = {}

    def moved(self, player_ids: Sequence[str]) -> None:
        """A game of these players has a new version: their games again (sent if they changed)."""
        for player_id in player_ids:
            self._want(player_id, False)

    def told(self, player_id: str, said: str) -> None:
        """A message on the player's channel (:func:`infra.notify.player_channel`): the games changed, or a notice."""
        self._want(player_id, said != GAMES_CHANGED)

    def _want(self, player_id: str, notices: bool) -> None:
        self._wanted[player_id] = self._wanted.get(player_id, False) or notices
        if player_id not in self._running:
            self._running[player_id] = asyncio.create_task(self._drain(player_id))

    async def idle(self) -> None:
        while self._running:
            await asyncio.gather(*self._running.values(), return_exceptions=True)

    async def _drain(self, player_id: str) -> None:
        try:
            while (notices := self._wanted.pop(player_id, None)) is not None:
                try:
                    await self.publish(player_id, notices)
                except (InfraError, RedisError) as exc:
                    log.warning("push to player %s failed: %s", player_id, exc)
        finally:
            del self._running[player_id]

    async def publish(self, player_id: str, notices: bool) -> None:
        player = Player(player_id, "", "")  # what the reads use of it: its id
        channels = [player_channel(player_id, language) for language in self.languages]
        if notices:
            told = await notices_messages(self.notifications, player, self.languages)
            await asyncio.gather(*(self.push.publish(channel, str(told[language].data), "notices")
                                   for channel, language in zip(channels, self.languages, strict=True)))
        games = msgspec.json.encode(await my_games(self.mine, player, self.base))
        if self._sent.get(player_id) != games:
            await self.push.publish_to(channels, games.decode(), "games")
            self._sent[player_id] = games
