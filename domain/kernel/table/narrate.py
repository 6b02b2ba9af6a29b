"""The table's events in sentences, naming seats as the game's narrator does."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..narration import Named, Narrator, Told, utf16_length
from .facts import SECOND_MS, TableOptions, TimeControl
from .messages import (
    CameBack,
    ClocksSet,
    LeftTable,
    PilotLeft,
    Resigned,
    SeatClaimed,
    StoodIn,
    TableOpened,
    TimedOut,
    TookBack,
    WentAway,
)

# The stand-in is "the computer", as the lobbies call every seat no person plays (its level is in the event).
_POLICY = {
    "stand_in_move": "the computer plays that turn",
    "stand_in_game": "the computer takes the seat over",
    "forfeit": "the seat forfeits",
}


def duration(seconds: int) -> str:
    """``seconds`` in the largest whole unit that fits: "3 days", "2 hours", "90 seconds"."""
    for unit, size in (("day", 86_400), ("hour", 3_600), ("minute", 60)):
        if seconds >= size and seconds % size == 0:
            count = seconds // size
            return f"{count} {unit}{'s' if count != 1 else ''}"
    return f"{seconds} second{'s' if seconds != 1 else ''}"


def control_text(control: TimeControl | None) -> str:
    if control is None:
        return "no time limit"
    if control.kind == "per_move":
        return f"{duration(control.seconds)} per move"
    text = f"a bank of {duration(control.seconds)}"
    if control.increment:
        text += f", plus {duration(control.increment)} per move"
    if control.cap and control.cap != control.seconds:
        text += f", at most {duration(control.cap)}"
    return text


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


def options_text(options: TableOptions) -> str:
    text = f"The table is open: {control_text(options.clock)}"
    if options.clock is not None:
        text += f"; on a timeout {_POLICY[options.on_timeout]}"
    return text + "."


class TableNarrator:
    """The game's narrator, telling the table's events itself."""

    def __init__(self, inner: Narrator | None, names: Mapping[int, str]) -> None:
        self.inner = inner
        self.names = names

    def _line(self, version: int, tag: str, seat: int, rest: str) -> Told:
        name = self.names.get(seat, f"Seat {seat + 1}")
        return Told(version, tag, 0, f"{name} {rest}", (Named(seat, 0, utf16_length(name)),))

    def tell(self, version: int, tag: str, event: Any) -> list[Told]:
        match event:
            case SeatClaimed(seat=seat, name=name):
                named = (Named(seat, 0, utf16_length(name)),)
                return [Told(version, tag, 0, f"{name} claimed seat {seat + 1}.", named)]
            case TableOpened(options=options):
                return [Told(version, tag, 0, options_text(options))]
            case ClocksSet():
                return []  # the clocks are shown beside the seats; the story would repeat them every turn
            case TimedOut(seat=seat, at=at, policy=policy):
                return [self._line(version, tag, seat, f"ran out of time at {moment(at)}: {_POLICY[policy]}.")]
            case StoodIn(seat=seat):
                return [self._line(version, tag, seat, "is played by the computer:")]
            case PilotLeft(seat=seat):
                return [self._line(version, tag, seat, "is back in the player's hands.")]
            case Resigned(seat=seat):
                return [self._line(version, tag, seat, "resigned; the computer plays the seat out.")]
            case LeftTable(seat=seat):
                return [self._line(version, tag, seat, "left the table; the computer plays the seat.")]
            case TookBack(seat=seat):
                return [self._line(version, tag, seat, "took the seat back from the computer.")]
            case WentAway(seat=seat, until=until):
                return [self._line(version, tag, seat, f"is on vacation until {moment(until)}; the clock waits.")]
            case CameBack(seat=seat, at=at):
                return [self._line(version, tag, seat, f"is back from vacation early, at {moment(at)}.")]
        return self.inner.tell(version, tag, event) if self.inner is not None else []
