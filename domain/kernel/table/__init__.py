"""The table around a game: facts about who sits at it and how, kept in the game's own log (so an audit sees them),
which no game's rules need to know — claimed seats, the time control and the clocks, timeouts, stand-ins that play
a seat, resigning, leaving, vacations.

:func:`seated` gives a game module that also speaks these messages; the registry (``domain/games.py``) serves every
game through it. Tags start with ``table.``, a namespace no game uses. See docs/ARCHITECTURE.md, "The table".
"""

from .clock import needs_setting, reminder_at, should_run
from .facts import MAX_SECONDS, MIN_SECONDS, Pilot, SeatClock, TableFacts, TableOptions, TimeControl
from .messages import (
    TABLE_EVENTS,
    CameBack,
    ClaimSeat,
    ClocksSet,
    ComeBack,
    GoAway,
    Leave,
    LeftTable,
    OpenTable,
    PilotLeft,
    Resign,
    Resigned,
    SeatClaimed,
    SetClocks,
    StandIn,
    StoodIn,
    TableOpened,
    TakeBack,
    TimedOut,
    TimeOut,
    TookBack,
    WentAway,
)
from .module import seated
from .narrate import control_text, duration
from .rules import AlreadyGone, NoTakeBack, SeatStoodIn, facts_of

TABLE_PREFIX = "table."
"""The tag namespace of the table's messages."""

__all__ = [
    "MAX_SECONDS",
    "MIN_SECONDS",
    "TABLE_EVENTS",
    "TABLE_PREFIX",
    "AlreadyGone",
    "CameBack",
    "ClaimSeat",
    "ClocksSet",
    "ComeBack",
    "GoAway",
    "Leave",
    "LeftTable",
    "NoTakeBack",
    "OpenTable",
    "Pilot",
    "PilotLeft",
    "Resign",
    "Resigned",
    "SeatClaimed",
    "SeatClock",
    "SeatStoodIn",
    "SetClocks",
    "StandIn",
    "StoodIn",
    "TableFacts",
    "TableOpened",
    "TableOptions",
    "TakeBack",
    "TimeControl",
    "TimeOut",
    "TimedOut",
    "TookBack",
    "WentAway",
    "control_text",
    "duration",
    "facts_of",
    "needs_setting",
    "reminder_at",
    "seated",
    "should_run",
]
