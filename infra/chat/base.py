"""A game's chat: lines kept append-only beside its log (never in it: a line moves no version), numbered 1..n per
game, and the host's mutes. Nothing is deleted: muting a seat hides its lines (``hidden``) and unmuting shows them
again. The port :class:`ChatLines` has a PostgreSQL adapter (:mod:`.postgres`) and an in-memory twin
(:mod:`.memory`), held to one contract (tests/integration/test_chat_lines.py)."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import msgspec

RATE_WINDOW_S = 60
"""The window of the per-seat rate."""


class ChatLine(msgspec.Struct, frozen=True):
    seq: int
    seat: int
    name: str
    text: str
    posted_at: str
    """ISO 8601, UTC."""
    hidden: bool = False
    """The host muted the seat (only the host is shown such lines; the export keeps them)."""


class Posted(msgspec.Struct, frozen=True):
    """What posting came to: the line, or why not (``muted``; ``retry_after_s`` > 0: over the rate)."""

    line: ChatLine | None
    muted: bool = False
    retry_after_s: int = 0


def chat_channel(game_id: str) -> str:
    """The channel on which a game's new lines and mutes are announced (:class:`infra.notify.Broadcast`)."""
    return f"magnate:chat:{game_id}"


@runtime_checkable
class ChatLines(Protocol):
    """The chat of every game: lines and mutes."""

    async def post(self, game_id: str, seat: int, player_id: str | None, name: str, text: str,
                   per_minute: int) -> Posted:
        """Append a line for ``seat`` unless it is muted or has posted ``per_minute`` lines in the last minute
        (0: no rate). StreamNotFound for an unknown game."""
        ...

    async def lines(self, game_id: str, after: int = 0, *, hidden: bool = False) -> list[ChatLine]:
        """The lines after ``after`` in order; the hidden ones only with ``hidden``."""
        ...

    async def muted(self, game_id: str) -> list[int]:
        """The muted seats, in order."""
        ...

    async def mute(self, game_id: str, seat: int, muted: bool) -> None:
        """Mute (hide the seat's lines, refuse its new ones) or unmute (show them again); idempotent."""
        ...
