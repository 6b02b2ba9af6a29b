"""The table's events in phrases (in no language), naming seats as the reader's language does."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..narration import Narrator, Told
from ..phrases import Phrase, plain, say, say_n, seat
from .facts import SECOND_MS, TableOptions, TimeControl
from .messages import (
    CameBack,
    ClocksSet,
    LeftTable,
    MovesUndone,
    PilotLeft,
    Resigned,
    SeatClaimed,
    StoodIn,
    TableOpened,
    TimedOut,
    TookBack,
    UndoAnswered,
    UndoAsked,
    UndoCancelled,
    WentAway,
)


def policy(name: str) -> Phrase:
    """What happens on a timeout. The stand-in is "the computer", as the lobbies call every seat no person plays
    (its level is in the event)."""
    if name == "stand_in_move":
        return say("the computer plays that turn")
    if name == "stand_in_game":
        return say("the computer takes the seat over")
    return say("the seat forfeits")


def duration(seconds: int) -> Phrase:
    """``seconds`` in the largest whole unit that fits: "3 days", "2 hours", "90 seconds"."""
    if seconds >= 86_400 and seconds % 86_400 == 0:
        return say_n("{count} day", "{count} days", "count", count=seconds // 86_400)
    if seconds >= 3_600 and seconds % 3_600 == 0:
        return say_n("{count} hour", "{count} hours", "count", count=seconds // 3_600)
    if seconds >= 60 and seconds % 60 == 0:
        return say_n("{count} minute", "{count} minutes", "count", count=seconds // 60)
    return say_n("{count} second", "{count} seconds", "count", count=seconds)


def control_phrase(control: TimeControl | None) -> Phrase:
    """The table's clock in words: "1 hour per move", "a bank of 3 days, plus 1 hour per move, at most 5 days"."""
    if control is None:
        return say("no time limit")
    if control.kind == "per_move":
        return say("{duration} per move", duration=duration(control.seconds))
    bank = duration(control.seconds)
    capped = bool(control.cap) and control.cap != control.seconds
    if control.increment and capped:
        return say("a bank of {bank}, plus {increment} per move, at most {cap}", bank=bank,
                   increment=duration(control.increment), cap=duration(control.cap or 0))
    if control.increment:
        return say("a bank of {bank}, plus {increment} per move", bank=bank, increment=duration(control.increment))
    if capped:
        return say("a bank of {bank}, at most {cap}", bank=bank, cap=duration(control.cap or 0))
    return say("a bank of {bank}", bank=bank)


def control_text(control: TimeControl | None) -> str:
    """The table's clock in English (:func:`control_phrase` for the reader's language)."""
    return plain(control_phrase(control))


def civil(days: int) -> tuple[int, int, int]:
    """The proleptic Gregorian (year, month, day) of ``days`` since 1970-01-01 (H. Hinnant's days_from_civil
    inverse; pure arithmetic, since the domain reads no clock and imports no datetime)."""
    z = days + 719_468
    era = (z if z >= 0 else z - 146_096) // 146_097
    doe = z - era * 146_097
    yoe = (doe - doe // 1460 + doe // 36_524 - doe // 146_096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = mp + 3 if mp < 10 else mp - 9
    return yoe + era * 400 + (month <= 2), month, day


def moment(ms: int) -> str:
    """``ms`` since the epoch as "2026-11-24 14:05 UTC"."""
    days, rest = divmod(ms // SECOND_MS, 86_400)
    year, month, day = civil(days)
    return f"{year:04d}-{month:02d}-{day:02d} {rest // 3600:02d}:{rest % 3600 // 60:02d} UTC"


def options_phrase(options: TableOptions) -> Phrase:
    if options.rated:  # the story says the game counts for the players' ratings (docs/PLAYERS.md, "Ratings")
        if options.clock is None:
            return say("The rated table is open: {clock}.", clock=control_phrase(options.clock))
        return say("The rated table is open: {clock}; on a timeout {policy}.", clock=control_phrase(options.clock),
                   policy=policy(options.on_timeout))
    if options.clock is None:
        return say("The table is open: {clock}.", clock=control_phrase(options.clock))
    return say("The table is open: {clock}; on a timeout {policy}.", clock=control_phrase(options.clock),
               policy=policy(options.on_timeout))


def undo_phrase(event: UndoAsked | UndoAnswered | UndoCancelled | MovesUndone) -> Phrase:
    """A takeback's event in words."""
    match event:
        case UndoAsked(seat=number, waiting=()):
            return say("{seat} takes back their last move.", seat=seat(number))
        case UndoAsked(seat=number):
            return say("{seat} asks to take back their last move.", seat=seat(number))
        case UndoAnswered(seat=number, accept=True):
            return say("{seat} accepts the takeback.", seat=seat(number))
        case UndoAnswered(seat=number):
            return say("{seat} refuses the takeback.", seat=seat(number))
        case UndoCancelled(seat=number):
            return say("{seat} withdraws the takeback request.", seat=seat(number))
    return say("The moves of {seat} from version {version} on are taken back.", seat=seat(event.seat),
               version=event.back_to)


class TableNarrator:
    """The game's narrator, telling the table's events itself."""

    def __init__(self, inner: Narrator | None, names: Mapping[int, str]) -> None:
        self.inner = inner
        self.names = names

    def tell(self, version: int, tag: str, event: Any) -> list[Told]:
        phrase = self.phrase(event)
        if phrase is not None:
            return [Told(version, tag, 0, "", (), phrase)]
        if isinstance(event, ClocksSet):
            return []  # the clocks are shown beside the seats; the story would repeat them every turn
        return self.inner.tell(version, tag, event) if self.inner is not None else []

    @staticmethod
    def phrase(event: Any) -> Phrase | None:
        """The line telling a table's event (None for another event)."""
        if isinstance(event, UndoAsked | UndoAnswered | UndoCancelled | MovesUndone):
            return undo_phrase(event)
        match event:
            case SeatClaimed(seat=number):
                return say("{seat} claimed seat {number}.", seat=seat(number), number=number + 1)
            case TableOpened(options=options):
                return options_phrase(options)
            case TimedOut(seat=number, at=at, policy=name):
                return say("{seat} ran out of time at {moment}: {policy}.", seat=seat(number), moment=moment(at),
                           policy=policy(name))
            case StoodIn(seat=number):
                return say("{seat} is played by the computer:", seat=seat(number))
            case PilotLeft(seat=number):
                return say("{seat} is back in the player's hands.", seat=seat(number))
            case Resigned(seat=number):
                return say("{seat} resigned; the computer plays the seat out.", seat=seat(number))
            case LeftTable(seat=number):
                return say("{seat} left the table; the computer plays the seat.", seat=seat(number))
            case TookBack(seat=number):
                return say("{seat} took the seat back from the computer.", seat=seat(number))
            case WentAway(seat=number, until=until):
                return say("{seat} is on vacation until {moment}; the clock waits.", seat=seat(number),
                           moment=moment(until))
            case CameBack(seat=number, at=at):
                return say("{seat} is back from vacation early, at {moment}.", seat=seat(number), moment=moment(at))
        return None
