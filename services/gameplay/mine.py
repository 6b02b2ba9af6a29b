""""My games": the games a player holds a seat in, and what their open pages listen to (the player's channel,
where the notification pipeline and seat claims speak, and each running game's channel)."""

from __future__ import annotations

from collections.abc import AsyncIterator

from infra.eventstore import PlayerGame
from infra.notify import Broadcast, channel, player_channel

from .handler import Gameplay
from .seating import GAMES_CHANGED

__all__ = ["GAMES_CHANGED", "MyGames"]


class MyGames:
    def __init__(self, gameplay: Gameplay, broadcast: Broadcast) -> None:
        self.gameplay = gameplay
        self._broadcast = broadcast

    async def of(self, player_id: str) -> list[PlayerGame]:
        """Every game the player holds a seat in, newest first."""
        return await self.gameplay.queries.player_games(player_id)

    def listen(self, player_id: str, running: list[str], timeout_s: float
               ) -> AsyncIterator[tuple[bool, bytes] | None]:
        """Yields (said to the player?, data) for each message on the player's channel or the channels of the games
        ``running``, or None after ``timeout_s`` of silence. The caller closes it (``aclose``)."""
        mine = player_channel(player_id)
        return self._heard(mine, self._broadcast.listen([mine, *(channel(g) for g in running)], timeout_s))

    @staticmethod
    async def _heard(mine: str, heard: AsyncIterator[tuple[str, bytes] | None]
                     ) -> AsyncIterator[tuple[bool, bytes] | None]:
        try:
            async for message in heard:
                yield None if message is None else (message[0] == mine, message[1])
        finally:
            aclose = getattr(heard, "aclose", None)
            if aclose is not None:
                await aclose()
