"""The table's commands and events. Tags start with ``table.``, a namespace no game uses.

System commands come from the service (a claim, the clocks, a timeout, a vacation, a stand-in's move); each that
involves time carries the moment it was issued (``at``, ms since the epoch), which is how time enters the rules.
Player commands (resign, leave, take back the seat, ask for and answer a takeback of moves) come from a seat
through the same route as the game's own moves.
"""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta

from ..messages import Command, Event, SystemCommand
from .facts import Policy, SeatClock, TableOptions

Moment = Annotated[int, Meta(ge=0, le=1 << 53)]
SeatNo = Annotated[int, Meta(ge=0, le=15)]


# -- system commands ------------------------------------------------------------------------------------------------

class ClaimSeat(SystemCommand, frozen=True, tag="table.claim_seat"):
    """The service binds ``seat`` to a signed-in player. The service records no ``name`` (the seat's name lives
    beside the log, in the seats table, so a deleted account's name leaves the game); an older log's claim holds
    the name the seat showed then, and still decodes."""

    seat: int
    name: str = ""


class OpenTable(SystemCommand, frozen=True, tag="table.open"):
    """Record the table's options (time control, timeout policy, seats a stand-in plays) at creation."""

    options: TableOptions


class SetClocks(SystemCommand, frozen=True, tag="table.clock"):
    """At ``at``, stop the clocks of the seats no longer on turn and start those of the seats now on turn."""

    at: Moment


class TimeOut(SystemCommand, frozen=True, tag="table.time_out"):
    """``seat``'s deadline has passed at ``at``: apply the table's timeout policy."""

    seat: SeatNo
    at: Moment


class StandIn(SystemCommand, frozen=True, tag="table.stand_in"):
    """The stand-in playing ``seat`` makes its move."""

    seat: SeatNo


class GoAway(SystemCommand, frozen=True, tag="table.vacation"):
    """``seat``'s player is on vacation from ``at`` until ``until``: its clock is paused for that time."""

    seat: SeatNo
    at: Moment
    until: Moment


class ComeBack(SystemCommand, frozen=True, tag="table.back"):
    """``seat``'s player ends their vacation early, at ``at``: a paused clock runs again with the time it had
    left."""

    seat: SeatNo
    at: Moment


# -- player commands ------------------------------------------------------------------------------------------------

class Resign(Command, frozen=True, tag="table.resign"):
    """Concede: ranked last, a stand-in plays the seat out."""


class Leave(Command, frozen=True, tag="table.leave"):
    """Leave the table: a stand-in plays the seat from now on (the player may take it back if the table allows)."""


class TakeBack(Command, frozen=True, tag="table.take_back"):
    """Play the seat again after a stand-in took it over (time out or leaving)."""


class UndoAsk(Command, frozen=True, tag="table.undo_ask"):
    """Ask to take back the seat's own last ``moves`` moves (its last commands of the game): allowed only while
    nothing has crossed to another seat since (:mod:`.undo`). Not the seat's ``take_back`` from a stand-in."""

    moves: Annotated[int, Meta(ge=1, le=20)] = 1


class UndoAnswer(Command, frozen=True, tag="table.undo_answer"):
    """Another seat's answer to the pending takeback request: ``accept`` it, or refuse it."""

    accept: bool


class UndoCancel(Command, frozen=True, tag="table.undo_cancel"):
    """The asking seat withdraws its pending takeback request."""


# -- events ---------------------------------------------------------------------------------------------------------

class SeatClaimed(Event, frozen=True, tag="table.seat_claimed"):
    """``seat`` is a signed-in player's. ``name``: empty since claims record no name (an older log's claim holds
    the name the seat showed then); the seat is named by the seats table."""

    seat: int
    name: str = ""


class TableOpened(Event, frozen=True, tag="table.opened"):
    options: TableOptions
    seats: int
    level: str
    """The stand-in's player (a key of the game's bots)."""


class ClocksSet(Event, frozen=True, tag="table.clocks_set"):
    """Every seat's clock from ``at`` on."""

    at: int
    clocks: tuple[SeatClock, ...]


class TimedOut(Event, frozen=True, tag="table.timed_out"):
    seat: int
    at: int
    policy: Policy
    level: str


class StoodIn(Event, frozen=True, tag="table.stood_in"):
    """The stand-in played ``command`` (a command tag) for ``seat``; the game's events of that move follow."""

    seat: int
    level: str
    command: str


class PilotLeft(Event, frozen=True, tag="table.pilot_left"):
    """The stand-in's turn for ``seat`` is over: the seat is its player's again."""

    seat: int


class Resigned(Event, frozen=True, tag="table.resigned"):
    seat: int
    level: str


class LeftTable(Event, frozen=True, tag="table.left"):
    seat: int
    level: str


class TookBack(Event, frozen=True, tag="table.took_back"):
    seat: int


class UndoAsked(Event, frozen=True, tag="table.undo_asked"):
    """``seat`` asks to take back its moves from version ``back_to`` on; ``waiting``: the seats whose consent it
    needs (none: taken back at once, ``table.moves_undone`` follows in the same decision)."""

    seat: int
    back_to: int
    waiting: tuple[int, ...]


class UndoAnswered(Event, frozen=True, tag="table.undo_answered"):
    """``seat`` accepted or refused the pending takeback request."""

    seat: int
    accept: bool


class UndoCancelled(Event, frozen=True, tag="table.undo_cancelled"):
    """The pending takeback request of ``seat`` is withdrawn."""

    seat: int


class MovesUndone(Event, frozen=True, tag="table.moves_undone"):
    """The events from version ``back_to`` up to this one no longer count: the game is as it was before them
    (the table's facts stay as they are). They stay in the log and its chain, marked as taken back. Folded only
    by :func:`~.rewind.fold_log` (the plain ``evolve`` cannot know the state before ``back_to``)."""

    seat: int
    back_to: int


class WentAway(Event, frozen=True, tag="table.away"):
    seat: int
    at: int
    until: int


class CameBack(Event, frozen=True, tag="table.back"):
    """``seat``'s vacation ended early, at ``at``."""

    seat: int
    at: int


TableSystemCommand = ClaimSeat | OpenTable | SetClocks | TimeOut | StandIn | GoAway | ComeBack
TablePlayerCommand = Resign | Leave | TakeBack | UndoAsk | UndoAnswer | UndoCancel
TableEvent = (SeatClaimed | TableOpened | ClocksSet | TimedOut | StoodIn | PilotLeft | Resigned | LeftTable | TookBack
              | WentAway | CameBack | UndoAsked | UndoAnswered | UndoCancelled | MovesUndone)
TABLE_EVENTS = (SeatClaimed, TableOpened, ClocksSet, TimedOut, StoodIn, PilotLeft, Resigned, LeftTable, TookBack,
                WentAway, CameBack, UndoAsked, UndoAnswered, UndoCancelled, MovesUndone)
TABLE_COMMANDS = (ClaimSeat, OpenTable, SetClocks, TimeOut, StandIn, GoAway, ComeBack, Resign, Leave, TakeBack,
                  UndoAsk, UndoAnswer, UndoCancel)
