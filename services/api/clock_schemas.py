"""Bodies about the table around a board: the clocks, stand-ins and marks of a game's seats (part of every game
read), and a player's vacations."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from msgspec import Meta

from domain.kernel.table import TableOptions, TimeControl, control_text, facts_of
from domain.kernel.table.facts import UndoRequest


class SeatTableOut(msgspec.Struct, frozen=True):
    seat: int
    deadline: int | None
    """When the seat's time runs out (ms since the epoch), while its clock runs."""
    bank_ms: int
    """A correspondence bank: what the seat has left while its clock is stopped."""
    away_until: int | None
    """The seat's player is on vacation until then (its clock waits)."""
    stand_in: str | None
    """The player that stands in for the seat now (a bot of the game), if any."""
    reason: str | None
    """Why it stands in: stand_in (from the start), timeout_turn, timeout, left, resigned, forfeit."""
    mark: str
    """What the standings will say: timed_out, left, resigned, forfeited, or nothing."""
    timeouts: int


class TableStateOut(msgspec.Struct, frozen=True):
    """The table around the board: its time control, in words too, and each seat's clock and stand-in."""

    clock: TimeControl | None
    clock_text: str
    on_timeout: str
    takeback: bool
    seats: tuple[SeatTableOut, ...]
    now: int
    """The server's time (ms since the epoch), so a page can count down without trusting its own clock."""
    undo_mode: str = "consent"
    """Takebacks of moves (``table.undo_ask``): ``consent`` of the other people, ``instant``, or ``off``."""
    undo: UndoRequest | None = None
    """The pending takeback request: the asking ``seat``, the version its moves begin at (``back_to``) and the
    seats whose answer it waits for (``waiting``)."""


def table_state(state: Any, seats: int, now: int) -> TableStateOut:
    facts = facts_of(state)
    options = facts.options or TableOptions()
    out = []
    for seat in range(seats):
        clock, pilot, away = facts.clock(seat), facts.pilot(seat), facts.away_until(seat)
        out.append(SeatTableOut(seat, clock.deadline, clock.bank, away if away > now else None,
                                pilot.level if pilot else None, pilot.reason if pilot else None, facts.mark(seat),
                                facts.timed_out(seat)))
    return TableStateOut(options.clock, control_text(options.clock), options.on_timeout, options.takeback,
                         tuple(out), now, options.undo, facts.undo)


class VacationRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    days: Annotated[int, Meta(ge=1, le=366)]
    """How many days from now (within what is left of this year's allowance)."""


class VacationOut(msgspec.Struct, frozen=True):
    allowance_days: int
    """Days a player may be away per calendar year."""
    used_days: int
    left_days: int
    away_until: str | None
    """The end of the current vacation (ISO 8601, UTC), if one is running."""
    games: int = 0
    """Games whose clocks the new vacation paused (in a response to taking one), or whose clocks run again (in a
    response to ending one early)."""
