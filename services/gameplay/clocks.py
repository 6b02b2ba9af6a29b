"""The clocks as the service runs them: when to record the clocks, which timers a state needs, and a timeout.

Time enters the rules only here, as the ``at`` of the table's commands, read from the service's clock (a function
returning ms since the epoch, which tests replace). After any decision that changes who is on turn, the service
appends :class:`~domain.kernel.table.SetClocks` in the same transaction; after any append that set a clock, it
schedules that clock's deadline and reminder as arq jobs whose ids name the game, the seat and the deadline, so the
reconciler (after a lost queue) schedules the same ones again. A timeout re-reads the game and appends only if that
very clock still runs and its deadline has passed; a move appended first makes it a no-op, and a timeout appended
first makes the move fail against its expected version and then be refused by the rules (the seat is stood in for).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from domain.kernel import GameModule
from domain.kernel.table import SetClocks, TableFacts, facts_of, needs_setting, reminder_at
from infra.eventstore import StoredEvent
from infra.queue import Timer

DEADLINE = "table.deadline"
"""The job kind of a timeout."""
REMIND = "table.remind"
"""The job kind of the reminder before a deadline."""
_CLOCK_EVENTS = frozenset({"table.clocks_set", "table.away", "table.back"})


def wall_ms() -> int:
    """The service's clock: the wall clock, in ms since the epoch."""
    return time.time_ns() // 1_000_000


def clock_id(version: int) -> str:
    """The id of the clocks recorded after the decision that brought the game to ``version``."""
    return f"clock:{version}"


def timeout_id(seat: int, deadline: int) -> str:
    """The id of the timeout of ``seat``'s clock running to ``deadline``: one per clock run."""
    return f"timeout:{seat}:{deadline}"


def clocks_due(game: GameModule[Any], state: Any, at: int) -> SetClocks | None:
    """The clocks to record now, if who is on turn has changed (and the game has a time control)."""
    due = game.pending(state)
    if due.finished or not needs_setting(facts_of(state), due.seats):
        return None
    return SetClocks(at=at)


def earliest_deadline(state: Any, finished: bool) -> int | None:
    """The read model's ``deadline``: the earliest running clock's, while the game runs."""
    if finished:
        return None
    return min((c.deadline for c in facts_of(state).clocks if c.deadline is not None), default=None)


def timers(game_id: str, facts: TableFacts, reminders_after: int = 0) -> list[Timer]:
    """Every running clock's timeout and its reminder (if due after ``reminders_after``: the reconciler does not
    queue again a reminder whose moment has passed, which has run or been lost with the queue)."""
    out: list[Timer] = []
    for seat, clock in enumerate(facts.clocks):
        if clock.deadline is None:
            continue
        out.append(Timer(game_id, DEADLINE, seat, clock.deadline, clock.deadline))
        remind = reminder_at(clock)
        if remind is not None and reminders_after <= remind < clock.deadline:
            out.append(Timer(game_id, REMIND, seat, clock.deadline, remind))
    return out


def clocks_changed(stored: Iterable[StoredEvent]) -> bool:
    return any(e.type in _CLOCK_EVENTS for e in stored)
