"""What the command side hands back: a created game with its seats, an applied command with its events."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from domain.kernel import RuleViolation
from infra.eventstore import StoredEvent


class SeatCreated(msgspec.Struct, frozen=True):
    seat: int
    kind: str
    name: str
    payload: dict[str, Any]
    """What the game says about the seat (Magnate: its company)."""
    token: str | None
    """The seat's secret token (human seats only); shown once, stored only as a hash."""


class Created(msgspec.Struct, frozen=True):
    game_id: str
    game_type: str
    version: int
    seats: tuple[SeatCreated, ...]
    host_seat: int | None = None
    """The creator's seat: its holder manages the other seats' invites (None: no person plays this game)."""


class Applied(msgspec.Struct, frozen=True):
    """The result of a command: the version it brought the game to and the events it appended."""

    game_id: str
    version: int
    events: tuple[StoredEvent, ...]
    duplicate: bool = False
    """True when this command id had already been applied (the first result is returned)."""
    over: bool = False
    """The game has ended (after this command; for a duplicate, by now): nothing of it is hidden any more."""


class NotAHumanSeat(RuleViolation):
    """The host seat named at creation is not a person's seat of the game."""

    code = "rule/invalid_value"


def host_of(seats: Sequence[SeatCreated], asked: int | None) -> int | None:
    """The creator's seat: the one asked for (a human seat), or the first human seat."""
    humans = [s.seat for s in seats if s.kind == "human"]
    if asked is None:
        return humans[0] if humans else None
    if asked not in humans:
        raise NotAHumanSeat(f"host_seat {asked} is not a person's seat of this game", field="host_seat")
    return asked
