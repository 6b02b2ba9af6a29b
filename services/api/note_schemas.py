"""The shapes of the private notes' routes and of the account's erasure (issue #29)."""

from __future__ import annotations

import msgspec


class NoteRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    text: str
    """The whole note (an empty text deletes it)."""


class NoteOut(msgspec.Struct, frozen=True):
    game_id: str
    seat: int
    """The seat the player holds in the game."""
    text: str
    """The note ("" when none was written)."""
    updated_at: str | None
    """When it was last written (ISO 8601, UTC); null when there is none."""


class EraseRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    confirm_email: str
    """The account's email address, typed again."""


class ErasedOut(msgspec.Struct, frozen=True):
    anonymous_seats: int
    """How many seats in games now show "Player N" instead of the player's name."""
