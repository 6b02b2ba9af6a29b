"""The table's events in sentences, naming seats as the game's narrator does."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from ..narration import Named, Narrator, Told, utf16_length
from .facts import SECOND_MS, TableOptions, TimeControl
from .messages import (
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

_POLICY = {
    "stand_in_move": "a stand-in plays that turn",
    "stand_in_game": "a stand-in takes the seat over",
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


def moment(ms: int) -> str:
    return datetime.fromtimestamp(ms / SECOND_MS, UTC).strftime("%Y-%m-%d %H:%M UTC")


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
            case StoodIn(seat=seat, level=level):
                return [self._line(version, tag, seat, f"is played by the stand-in ({level}):")]
            case PilotLeft(seat=seat):
                return [self._line(version, tag, seat, "is back in the player's hands.")]
            case Resigned(seat=seat):
                return [self._line(version, tag, seat, "resigned; a stand-in plays the seat out.")]
            case LeftTable(seat=seat):
                return [self._line(version, tag, seat, "left the table; a stand-in plays the seat.")]
            case TookBack(seat=seat):
                return [self._line(version, tag, seat, "took the seat back from the stand-in.")]
            case WentAway(seat=seat, until=until):
                return [self._line(version, tag, seat, f"is on vacation until {moment(until)}; the clock waits.")]
        return self.inner.tell(version, tag, event) if self.inner is not None else []
