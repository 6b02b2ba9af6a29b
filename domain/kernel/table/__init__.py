"""The table around a game: facts about who sits at it and how, kept in the game's own log (so an audit sees them),
which no game's rules need to know — claimed seats, the time control and the clocks, timeouts, stand-ins that play
a seat, resigning, leaving, vacations, takebacks of moves (:mod:`.undo`, :mod:`.rewind`).

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
    MovesUndone,
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
    UndoAnswer,
    UndoAnswered,
    UndoAsk,
    UndoAsked,
    UndoCancel,
    UndoCancelled,
    WentAway,
)
from .module import seated
from .narrate import control_text, duration
from .rewind import Rewound, fold_log, needs_log, step_with_log, undone_ranges
from .rules import AlreadyGone, NoTakeBack, SeatStoodIn, facts_of
from .undo import UNDO_ANSWERED, UNDO_ASKED, Entry, NoUndo, NoUndoPending, undo_notices, undo_range

TABLE_PREFIX = "table."
"""The tag namespace of the table's messages."""

__all__ = [
    "MAX_SECONDS",
    "MIN_SECONDS",
    "TABLE_EVENTS",
    "TABLE_PREFIX",
    "UNDO_ANSWERED",
    "UNDO_ASKED",
    "AlreadyGone",
    "CameBack",
    "ClaimSeat",
    "ClocksSet",
    "ComeBack",
    "Entry",
    "GoAway",
    "Leave",
    "LeftTable",
    "MovesUndone",
    "NoTakeBack",
    "NoUndo",
    "NoUndoPending",
    "OpenTable",
    "Pilot",
    "PilotLeft",
    "Resign",
    "Resigned",
    "Rewound",
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
    "UndoAnswer",
    "UndoAnswered",
    "UndoAsk",
    "UndoAsked",
    "UndoCancel",
    "UndoCancelled",
    "WentAway",
    "control_text",
    "duration",
    "facts_of",
    "fold_log",
    "needs_log",
    "needs_setting",
    "reminder_at",
    "seated",
    "should_run",
    "step_with_log",
    "undo_notices",
    "undo_range",
    "undone_ranges",
]
