"""The :class:`Notes` port: a player's private note on a game, one per player and game (written at the seat the
player holds there). Nothing here decides who may read a note: the application service
(:mod:`services.gameplay.notes`) asks for the author's own note only."""

from __future__ import annotations

from typing import Protocol

import msgspec

TEXT_MAX = 10_000
"""A note's length at most, in characters (the service refuses longer ones before the store sees them)."""


class Note(msgspec.Struct, frozen=True):
    game_id: str
    seat: int
    text: str
    updated_at: str
    """When it was last written (ISO 8601, UTC)."""


class Notes(Protocol):
    async def get(self, player_id: str, game_id: str) -> Note | None:
        """The player's note on the game (None: none written, or emptied)."""
        ...

    async def put(self, player_id: str, game_id: str, seat: int, text: str) -> Note | None:
        """Keep ``text`` as the player's note on the game, written at ``seat``; an empty text deletes the note (and
        answers None). StreamNotFound for an unknown game."""
        ...

    async def of_player(self, player_id: str) -> list[Note]:
        """Every note of the player, by game id."""
        ...

    async def forget_player(self, player_id: str) -> int:
        """Delete every note of the player; how many there were."""
        ...
