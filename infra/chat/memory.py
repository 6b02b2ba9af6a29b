"""The chat in memory: the twin of :class:`~.postgres.PostgresChatStore` for service-layer tests, held to the same
contract (tests/integration/test_chat_lines.py)."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime

import msgspec

from infra.errors import StreamNotFound

from .base import RATE_WINDOW_S, ChatLine, Posted


class _Kept(msgspec.Struct):
    line: ChatLine
    at_s: float
    player_id: str | None = None
    """Who posted it (PostgreSQL's ``chat_lines.player_id``): what an erasure finds the player's lines by."""


class InMemoryChatStore:
    """``exists``: whether a game is known (the store refuses lines of an unknown game, as PostgreSQL's key does);
    ``clock``: seconds, for the per-seat rate."""

    def __init__(self, exists: Callable[[str], bool] = lambda _: True,
                 clock: Callable[[], float] = time.time) -> None:
        self._exists = exists
        self._clock = clock
        self._lines: dict[str, list[_Kept]] = {}
        self._mutes: dict[str, set[int]] = {}

    async def post(self, game_id: str, seat: int, player_id: str | None, name: str, text: str,
                   per_minute: int) -> Posted:
        if not self._exists(game_id):
            raise StreamNotFound("no such game")
        if seat in self._mutes.get(game_id, set()):
            return Posted(None, muted=True)
        kept = self._lines.setdefault(game_id, [])
        now = self._clock()
        if per_minute > 0:
            recent = [k.at_s for k in kept if k.line.seat == seat and k.at_s > now - RATE_WINDOW_S][-per_minute:]
            if len(recent) >= per_minute:
                return Posted(None, retry_after_s=max(1, int(RATE_WINDOW_S - (now - recent[0])) + 1))
        at = datetime.fromtimestamp(now, UTC).isoformat().replace("+00:00", "Z")
        line = ChatLine(len(kept) + 1, seat, name, text, at)
        kept.append(_Kept(line, now, player_id))
        return Posted(line)

    async def lines(self, game_id: str, after: int = 0, *, hidden: bool = False) -> list[ChatLine]:
        return [k.line for k in self._lines.get(game_id, []) if k.line.seq > after and (hidden or not k.line.hidden)]

    async def muted(self, game_id: str) -> list[int]:
        return sorted(self._mutes.get(game_id, set()))

    async def mute(self, game_id: str, seat: int, muted: bool) -> None:
        seats = self._mutes.setdefault(game_id, set())
        if muted:
            seats.add(seat)
        else:
            seats.discard(seat)
        for kept in self._lines.get(game_id, []):
            if kept.line.seat == seat:
                kept.line = msgspec.structs.replace(kept.line, hidden=muted)

    def forget_player(self, player_id: str) -> None:
        """An erased account's lines stay, linked to nobody and under their seat's "Player N", as
        :class:`infra.accounts.erasure.PostgresErasure` leaves them."""
        for kept in self._lines.values():
            for line in kept:
                if line.player_id == player_id:
                    line.player_id = None
                    line.line = msgspec.structs.replace(line.line, name=f"Player {line.line.seat + 1}")
