"""The chat service: a game's seats post lines, anyone who may watch reads them, the host mutes a seat; each change is
announced on the game's chat channel so that every API process's chat streams re-read (a lost announcement only
delays them: they re-read at each keep-alive tick)."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator

import msgspec

from infra.chat import ChatLine, ChatLines, Posted, chat_channel
from infra.errors import InfraError
from infra.notify import Broadcast

from .audit import export_lines
from .handler import Gameplay

log = logging.getLogger(__name__)

MUTES = "mutes"
"""What a mute or an unmute says on the chat channel (a new line says its seq)."""


class ChatView(msgspec.Struct, frozen=True):
    lines: list[ChatLine]
    muted: list[int]
    host_seat: int | None


class Chat:
    def __init__(self, gameplay: Gameplay, lines: ChatLines, broadcast: Broadcast) -> None:
        self.gameplay = gameplay
        self.store = lines
        self._broadcast = broadcast

    async def export(self, game_id: str) -> list[bytes]:
        """The game's export (:func:`.audit.export_lines`) with its chat: every line, those the host hid included."""
        return await export_lines(self.gameplay, game_id, self.store)

    async def read(self, game_id: str, after: int, seat: int | None) -> ChatView:
        """The lines after ``after``; a muted seat's only for the host (StreamNotFound: no such game)."""
        host = await self.gameplay.queries.host_seat(game_id)
        lines = await self.store.lines(game_id, after, hidden=seat is not None and seat == host)
        return ChatView(lines, await self.store.muted(game_id), host)

    async def post(self, game_id: str, seat: int, text: str, per_minute: int) -> tuple[Posted, ChatView | None]:
        """Post ``text`` as ``seat`` (its name and player as the game's seats say); with the line, the chat's mutes
        and host as they are now."""
        record = next(s for s in await self.gameplay.queries.seats(game_id) if s.seat == seat)
        posted = await self.store.post(game_id, seat, record.player_id, record.name, text, per_minute)
        if posted.line is None:
            return posted, None
        await self._tell(game_id, str(posted.line.seq))
        return posted, ChatView([posted.line], await self.store.muted(game_id),
                                await self.gameplay.queries.host_seat(game_id))

    async def has_seat(self, game_id: str, seat: int) -> bool:
        return seat in {s.seat for s in await self.gameplay.queries.seats(game_id)}

    async def mute(self, game_id: str, seat: int, muted: bool) -> None:
        await self.store.mute(game_id, seat, muted)
        await self._tell(game_id, MUTES)

    def listen(self, game_id: str, timeout_s: float) -> AsyncIterator[tuple[str, bytes] | None]:
        """The game's chat announcements (see :meth:`infra.notify.Broadcast.listen`)."""
        return self._broadcast.listen([chat_channel(game_id)], timeout_s)

    async def _tell(self, game_id: str, what: str) -> None:
        try:
            await self._broadcast.publish(chat_channel(game_id), what)
        except InfraError as exc:
            log.warning("chat of game %s not announced: %s", game_id, exc)
