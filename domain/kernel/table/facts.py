"""What the table knows about a game beyond its rules: its time control, the seats' clocks, who is away, which
seats a stand-in plays and how each seat's game ended for it. Carried in the game's state (every game's state has a
``table`` field of this type) and changed only by the table's events, so it is the fold of the log like the rest.

All times are integer milliseconds since the Unix epoch, as recorded in the table's commands (``at``): the rules
never read a clock.
"""

from __future__ import annotations

from typing import Annotated, Literal, TypeVar

import msgspec
from msgspec import Meta

T = TypeVar("T")

SECOND_MS = 1000
DAY_S = 86_400
MIN_SECONDS = 10
MAX_SECONDS = 30 * DAY_S
Seconds = Annotated[int, Meta(ge=0, le=MAX_SECONDS)]

Policy = Literal["stand_in_move", "stand_in_game", "forfeit"]
"""What happens when a seat's time runs out: a stand-in plays this turn for it (the seat stays the player's); a
stand-in plays the seat from now on (the player may take it back, if the table allows); or the seat forfeits (it is
ranked last and a stand-in plays it out)."""

BotKey = Annotated[str, Meta(max_length=40, pattern="^[a-z0-9_]*$")]


class TimeControl(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """How long a seat may take. ``per_move``: ``seconds`` for each turn, whatever was left of the last. ``bank``:
    a correspondence bank starting at ``seconds``; a turn uses what it takes, ``increment`` is added after each
    turn, and the bank never holds more than ``cap`` (0: ``seconds``)."""

    kind: Literal["per_move", "bank"]
    seconds: Annotated[int, Meta(ge=MIN_SECONDS, le=MAX_SECONDS)]
    increment: Seconds = 0
    cap: Seconds = 0

    @property
    def cap_ms(self) -> int:
        return max(self.cap, self.seconds) * SECOND_MS


class TableOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The table's options, chosen when the game is created and recorded in its log (``table.opened``)."""

    clock: TimeControl | None = None
    """None: no time limit."""
    on_timeout: Policy = "stand_in_game"
    stand_in: BotKey = ""
    """Which of the game's players stands in for a seat (a key of its ``bots``; empty: its strongest)."""
    takeback: bool = True
    """Whether a player whose seat a stand-in took over (time out, or left) may take it back."""
    stand_ins: Annotated[tuple[Annotated[int, Meta(ge=0, le=15)], ...], Meta(max_length=16)] = ()
    """Seats a stand-in plays from the start (a solo game of a setup made for people, such as a tutorial)."""
    undo: Literal["consent", "instant", "off"] = "consent"
    """Takebacks of moves (:mod:`.undo`): with the other people's consent, at once (unrated tables only), or
    never."""
    rated: bool = False
    """Whether the game changes its players' ratings when it ends (docs/PLAYERS.md, "Ratings"): it needs two seats
    people play; the computer's seats are left out of the rating."""


class SeatClock(msgspec.Struct, frozen=True):
    """One seat's clock: running while ``deadline`` is set (since ``since``); ``bank`` is what a correspondence
    bank holds while it is stopped."""

    deadline: int | None = None
    since: int = 0
    bank: int = 0


Reason = Literal["stand_in", "timeout_turn", "timeout", "left", "resigned", "forfeit"]
"""Why a stand-in plays a seat: seated by the table from the start; a timeout, for this turn or from now on; the
player left, resigned, or forfeited by timing out."""

Mark = Literal["", "timed_out", "left", "resigned", "forfeited"]
"""What the standings say about a seat (the worst thing that happened to it)."""

_SEVERITY: dict[str, int] = {"": 0, "timed_out": 1, "left": 2, "resigned": 3, "forfeited": 3}


class Pilot(msgspec.Struct, frozen=True):
    """A stand-in playing a seat."""

    level: str
    reason: Reason


class UndoRequest(msgspec.Struct, frozen=True):
    """A pending takeback: ``seat`` asks to take back its moves from version ``back_to`` on; ``waiting``: the
    seats whose consent it still needs."""

    seat: int
    back_to: int
    waiting: tuple[int, ...]


class TableFacts(msgspec.Struct, frozen=True):
    """The table's facts about one game (see the module's docstring). Per-seat tuples are empty until the table
    first speaks of a seat; read them through the accessors."""

    options: TableOptions | None = None
    clocks: tuple[SeatClock, ...] = ()
    away: tuple[int, ...] = ()
    """Per seat: until when its player is on vacation (0: not away)."""
    pilots: tuple[Pilot | None, ...] = ()
    marks: tuple[str, ...] = ()
    timeouts: tuple[int, ...] = ()
    undo: UndoRequest | None = None
    """The pending takeback request, if any (cleared by an answer, a withdrawal or any other move)."""

    def clock(self, seat: int) -> SeatClock:
        return self.clocks[seat] if seat < len(self.clocks) else SeatClock()

    def pilot(self, seat: int) -> Pilot | None:
        return self.pilots[seat] if seat < len(self.pilots) else None

    def away_until(self, seat: int) -> int:
        return self.away[seat] if seat < len(self.away) else 0

    def mark(self, seat: int) -> str:
        return self.marks[seat] if seat < len(self.marks) else ""

    def timed_out(self, seat: int) -> int:
        return self.timeouts[seat] if seat < len(self.timeouts) else 0

    @property
    def control(self) -> TimeControl | None:
        return self.options.clock if self.options is not None else None


def worse(old: str, new: str) -> str:
    """The mark that says more: a seat that resigned after timing out is remembered as resigned."""
    return new if _SEVERITY.get(new, 0) >= _SEVERITY.get(old, 0) else old


def put(values: tuple[T, ...], seat: int, value: T, fill: T, seats: int) -> tuple[T, ...]:
    """``values`` with ``values[seat] = value``, padded with ``fill`` to ``seats`` entries."""
    padded = list(values) + [fill] * max(0, max(seats, seat + 1) - len(values))
    padded[seat] = value
    return tuple(padded)
