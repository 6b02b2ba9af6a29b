"""Notes within one process: the twin of :class:`~.postgres.PostgresNotes` (tests/integration/test_notes_store.py
holds both to one contract). ``known``: whether a game exists (the event store twin's answer), as the real table's
foreign key asks."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime

from infra.errors import StreamNotFound

from .base import Note


class InMemoryNotes:
    def __init__(self, known: Callable[[str], Awaitable[bool]],
                 clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self._known = known
        self._clock = clock
        self._notes: dict[tuple[str, str], Note] = {}

    async def get(self, player_id: str, game_id: str) -> Note | None:
        return self._notes.get((player_id, game_id))

    async def put(self, player_id: str, game_id: str, seat: int, text: str) -> Note | None:
        if not text:
            self._notes.pop((player_id, game_id), None)
            return None
        if not await self._known(game_id):
            raise StreamNotFound("no such game")
        at = self._clock().astimezone(UTC).isoformat().replace("+00:00", "Z")
        note = self._notes[(player_id, game_id)] = Note(game_id, seat, text, at)
        return note

    async def of_player(self, player_id: str) -> list[Note]:
        return [note for (owner, _), note in sorted(self._notes.items()) if owner == player_id]

    async def forget_player(self, player_id: str) -> int:
        mine = [key for key in self._notes if key[0] == player_id]
        for key in mine:
            del self._notes[key]
        return len(mine)
