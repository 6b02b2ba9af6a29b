"""The clocks as pure arithmetic over recorded times (ms).

A seat's clock runs while the game waits for that seat and no stand-in plays it. Starting at ``at`` it gets its
allowance (the time per move, or what its bank holds) from ``max(at, away_until)``: a turn that begins during a
vacation starts counting when the vacation ends. Stopping a bank clock keeps what was left, plus the increment, up to
the cap. A vacation that begins while a clock runs moves its deadline by the time that was left at that moment;
one that ends early gives the clock that time from its end.
"""

from __future__ import annotations

from collections.abc import Iterable

from .facts import SECOND_MS, SeatClock, TableFacts, TimeControl


def initial(control: TimeControl | None, seats: int) -> tuple[SeatClock, ...]:
    """The clocks of a new table: stopped, each bank full."""
    bank = control.seconds * SECOND_MS if control is not None and control.kind == "bank" else 0
    return tuple(SeatClock(bank=bank) for _ in range(seats))


def should_run(facts: TableFacts, on_turn: Iterable[int]) -> frozenset[int]:
    """The seats whose clocks run: those the game waits for that no stand-in plays (none without a control)."""
    if facts.control is None:
        return frozenset()
    return frozenset(seat for seat in on_turn if facts.pilot(seat) is None)


def running(facts: TableFacts) -> frozenset[int]:
    return frozenset(i for i, c in enumerate(facts.clocks) if c.deadline is not None)


def needs_setting(facts: TableFacts, on_turn: Iterable[int]) -> bool:
    """Whether the clocks must be stopped or started now (the table then records :class:`SetClocks`)."""
    return facts.control is not None and should_run(facts, on_turn) != running(facts)


def set_clocks(facts: TableFacts, on_turn: Iterable[int], at: int) -> tuple[SeatClock, ...]:
    """Every seat's clock after stopping those no longer due and starting those now due, at ``at``."""
    control = facts.control
    assert control is not None
    due = should_run(facts, on_turn)
    clocks = list(facts.clocks)
    for seat, clock in enumerate(clocks):
        runs = clock.deadline is not None
        if runs and seat not in due:
            clocks[seat] = stop(control, clock, at)
        elif not runs and seat in due:
            clocks[seat] = start(control, clock, at, facts.away_until(seat))
    return tuple(clocks)


def allowance(control: TimeControl, clock: SeatClock) -> int:
    return control.seconds * SECOND_MS if control.kind == "per_move" else clock.bank


def start(control: TimeControl, clock: SeatClock, at: int, away_until: int) -> SeatClock:
    return SeatClock(deadline=max(at, away_until) + allowance(control, clock), since=at, bank=clock.bank)


def stop(control: TimeControl, clock: SeatClock, at: int) -> SeatClock:
    assert clock.deadline is not None
    if control.kind == "per_move":
        return SeatClock(bank=clock.bank)
    left = max(0, clock.deadline - max(at, clock.since))
    return SeatClock(bank=min(control.cap_ms, left + control.increment * SECOND_MS))


def pause(clock: SeatClock, at: int, until: int) -> SeatClock:
    """A vacation from ``at`` to ``until`` begins: a running clock keeps the time it had left at ``at``."""
    if clock.deadline is None or until <= at:
        return clock
    left = max(0, clock.deadline - at)
    return SeatClock(deadline=max(clock.deadline, until + left), since=clock.since, bank=clock.bank)


def resume(clock: SeatClock, at: int, until: int) -> SeatClock:
    """A vacation meant to last until ``until`` ends early, at ``at``: a clock it paused runs again from ``at`` with
    the time it kept (what a paused clock holds beyond ``until``)."""
    if clock.deadline is None or at >= until:
        return clock
    return SeatClock(deadline=at + max(0, clock.deadline - until), since=clock.since, bank=clock.bank)


def reminder_at(clock: SeatClock, lead_cap_ms: int = 12 * 3600 * SECOND_MS) -> int | None:
    """When to remind a seat of its deadline: a quarter of its allowance before, at most ``lead_cap_ms`` before."""
    if clock.deadline is None:
        return None
    lead = min(lead_cap_ms, max(0, clock.deadline - clock.since) // 4)
    return clock.deadline - lead
