"""Private notes (issue #29): a signed-in player's own note on a game they hold a seat in, seen by its author alone.

A note is kept with the account (:class:`infra.notes.Notes`), beside the game and never in it: no event, no version,
nothing in the export, the view, the history or any stream. Only its author reads it: every read and write names the
player, and the player must hold a seat in the game (:class:`NotSeated` otherwise), so a note of a seat given up
(an erased account, a released seat) is not served to whoever holds the seat next."""

from __future__ import annotations

from infra.notes import TEXT_MAX, Note, Notes

from .handler import Gameplay


class NotSeated(Exception):
    code = "notes/not_seated"


class NoteTooLong(Exception):
    code = "notes/too_long"

    def __init__(self, length: int) -> None:
        super().__init__(f"a note is at most {TEXT_MAX} characters")
        self.length = length


class PrivateNotes:
    def __init__(self, gameplay: Gameplay, notes: Notes) -> None:
        self.gameplay = gameplay
        self.notes = notes

    async def _seat(self, player_id: str, game_id: str) -> int:
        await self.gameplay.store.head(game_id)  # StreamNotFound: an unknown game
        seat = await self.gameplay.store.seat_of_player(game_id, player_id)
        if seat is None:
            raise NotSeated("only a player who holds a seat in this game keeps notes on it")
        return seat

    async def read(self, player_id: str, game_id: str) -> tuple[int, Note | None]:
        """The player's seat in the game and their note on it (None: none yet). StreamNotFound, NotSeated."""
        seat = await self._seat(player_id, game_id)
        return seat, await self.notes.get(player_id, game_id)

    async def write(self, player_id: str, game_id: str, text: str) -> tuple[int, Note | None]:
        """Keep ``text`` (an empty one deletes the note). StreamNotFound, NotSeated, NoteTooLong."""
        if len(text) > TEXT_MAX:
            raise NoteTooLong(len(text))
        seat = await self._seat(player_id, game_id)
        return seat, await self.notes.put(player_id, game_id, seat, text)

    async def of_player(self, player_id: str) -> list[Note]:
        return await self.notes.of_player(player_id)
