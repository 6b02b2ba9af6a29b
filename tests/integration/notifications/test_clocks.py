"""Clocks through the real stores and a real arq worker, with the service's clock given by the test (no sleeping):
a timeout that fell due while no worker ran is applied once when one comes back and the stand-in plays on; a move
and a timeout at the same moment never both win; a deadline's reminder reaches its player once."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import pytest
from arq.worker import Worker

from bench.receivers import MailInbox
from domain.kernel import RuleViolation, Seat
from domain.kernel.table import TableOptions, TimeControl, facts_of
from domain.magnate import GameOptions, SeatSpec
from domain.magnate.bots import Greedy
from infra.config import Settings
from infra.errors import ConcurrencyConflict
from services.ai_worker import jobs
from services.ai_worker.settings import worker_settings
from services.gameplay.bootstrap import Runtime, build
from services.gameplay.timekeeper import time_out
from services.notifications.context import Notifications

from .conftest import claim as claim_seat
from .conftest import new_player

pytestmark = [pytest.mark.integration,
              pytest.mark.filterwarnings("ignore:Call to deprecated close:DeprecationWarning")]

T = TypeVar("T")
TWO = GameOptions(seats=(SeatSpec(), SeatSpec()))
HOUR = 3_600_000
TIMED = TableOptions(clock=TimeControl(kind="per_move", seconds=3600))


class Clock:
    """The service's clock, moved by the test. It starts two hours ago, so the worker (which schedules by the
    real time) finds every deadline of the test due as soon as the test's clock says so."""

    def __init__(self) -> None:
        self.now = time.time_ns() // 1_000_000 - 2 * HOUR

    def __call__(self) -> int:
        return self.now


def timed(runtime: Runtime) -> Clock:
    clock = Clock()
    runtime.gameplay.now_ms = clock
    return clock


async def later(delay_s: float, work: Awaitable[T]) -> T:
    await asyncio.sleep(delay_s)
    return await work


async def timed_game(runtime: Runtime) -> tuple[str, int, int, Any]:
    """A new two-seat game with an hour per move: (game id, the seat on turn, its deadline, the state)."""
    game_id = (await runtime.gameplay.create_game("magnate", TWO, table=TIMED)).game_id
    loaded = await runtime.gameplay.load(game_id)
    (seat,) = runtime.gameplay.module("magnate").pending(loaded.state).seats
    deadline = facts_of(loaded.state).clock(seat).deadline
    assert deadline is not None
    return game_id, seat, deadline, loaded.state


async def mailed(inbox: MailInbox) -> bool:
    return any("time runs out" in m["Subject"] for m in inbox.mails)


async def types(runtime: Runtime, game_id: str) -> list[str]:
    return [e.type for e in await runtime.gameplay.store.read(game_id)]


async def run_worker_until(settings: Settings, runtime: Runtime, notifications: Notifications,
                           done: Callable[[], Awaitable[bool]], timeout_s: float = 30) -> None:
    """A real worker over the test's runtime (and so its clock) until ``done()`` holds. Not a burst worker: the
    game's later clocks are deferred jobs in the queue, which a burst worker would wait for. The worker is always
    let start (its Redis pool made, its start-up run) before it is stopped: one cancelled while making its pool
    leaves that pool's connection unclosed (arq's ``close`` closes only a pool it finished making)."""
    options = worker_settings(settings, runtime, notifications=notifications)
    started = asyncio.Event()

    async def on_startup(ctx: dict[str, Any]) -> None:
        await options["on_startup"](ctx)
        started.set()

    worker = Worker(**{**options, "on_startup": on_startup, "poll_delay": 0.01, "handle_signals": False})
    task = asyncio.create_task(worker.async_run())
    try:
        async with asyncio.timeout(timeout_s):
            await started.wait()
            while not await done():
                await asyncio.sleep(0.05)
            while any(not t.done() for t in worker.tasks.values()):  # let the job that did it finish (its
                await asyncio.sleep(0.02)  # bookkeeping after the send): cancelled there, arq's close re-raises
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        await worker.close()
    assert worker.jobs_failed == 0


async def test_a_timeout_that_fell_due_while_no_worker_ran_is_applied_once_when_one_comes_back(
        settings: Settings, runtime: Runtime, notifications: Notifications) -> None:
    clock = timed(runtime)
    created = await runtime.gameplay.create_game("magnate", TWO, table=TIMED)
    loaded = await runtime.gameplay.load(created.game_id)
    (seat,) = runtime.gameplay.module("magnate").pending(loaded.state).seats
    deadline = facts_of(loaded.state).clock(seat).deadline
    assert deadline == clock.now + HOUR

    clock.now = deadline + 5 * 60_000  # the worker was down when the hour ran out

    async def stood_in() -> bool:
        return "table.stood_in" in await types(runtime, created.game_id)

    await run_worker_until(settings, runtime, notifications, stood_in)
    await run_worker_until(settings, runtime, notifications, stood_in)  # a restart (its reconciler) adds nothing
    assert await time_out(runtime.gameplay, created.game_id, seat, deadline) is None  # a repeated job: no-op

    logged = await types(runtime, created.game_id)
    assert logged.count("table.timed_out") == 1
    assert "table.stood_in" in logged, "the stand-in played the seat once its time ran out"
    after = await runtime.gameplay.load(created.game_id)
    assert facts_of(after.state).pilot(seat) is not None
    assert facts_of(after.state).mark(seat) == "timed_out"


async def test_a_move_and_a_timeout_at_the_same_moment_never_both_win(
        settings: Settings, runtime: Runtime) -> None:
    """Two "processes" (services over the same stores): one submits the seat's move, the other its timeout."""
    clock = timed(runtime)
    other = await build(settings)
    other.gameplay.now_ms = clock
    outcomes = set()
    try:
        for trial in range(12):
            game_id, seat, deadline, state = await timed_game(runtime)
            clock.now = deadline
            move = Greedy(trial)(state, Seat(seat))
            head_start = (0.0, 0.03, 0.0, -0.03)[trial % 4]  # which side starts first (and by how much)
            moved, timing = await asyncio.gather(
                later(max(0.0, head_start), runtime.gameplay.submit(game_id, seat, uuid.uuid4().hex, move)),
                later(max(0.0, -head_start), time_out(other.gameplay, game_id, seat, deadline)),
                return_exceptions=True)
            logged = await types(runtime, game_id)
            timed_out = logged.count("table.timed_out")
            if isinstance(moved, RuleViolation):
                assert moved.code == "table/stand_in", moved
                assert timed_out == 1
                outcomes.add("timeout first")
            else:
                assert not isinstance(moved, BaseException), moved
                assert timed_out == 0 and timing is None, "the move came first: the timeout is a no-op"
                outcomes.add("move first")
            assert not isinstance(timing, ConcurrencyConflict)
            clock.now -= 2 * HOUR  # the next game's hour starts again in the past
    finally:
        await other.close()
    assert outcomes == {"move first", "timeout first"}, "both orders were tried, each with one winner"


async def test_a_deadlines_reminder_reaches_its_player_once(
        settings: Settings, runtime: Runtime, notifications: Notifications, inbox: tuple[MailInbox, str]) -> None:
    clock = timed(runtime)
    game_id, seat, deadline, _ = await timed_game(runtime)
    cleo = await new_player(runtime, "cleo")
    await claim_seat(runtime, game_id, seat, cleo)

    ctx = {"gameplay": runtime.gameplay, "notifications": notifications}
    assert await jobs.reminder_job(ctx, game_id, seat, deadline) is True
    assert await jobs.reminder_job(ctx, game_id, seat, deadline) is False  # the job ran twice: told once
    clock.now = deadline - 60_000  # the reconciler, later, queues only reminders still ahead: none
    assert await runtime.gameplay.reconcile() >= 0

    notices = await runtime.pool.fetch("SELECT kind, text FROM notices WHERE player_id = $1", cleo)
    assert [n["kind"] for n in notices] == ["deadline"]
    assert "your time runs out at" in notices[0]["text"]
    # the worker delivers the reminder (and times nothing out: the seat's time is not over by the service's clock)
    await run_worker_until(settings, runtime, notifications, lambda: mailed(inbox[0]))
    await asyncio.sleep(0.5)
    mails = [m for m in inbox[0].mails if "time runs out" in m["Subject"]]
    assert len(mails) == 1
    assert "table.timed_out" not in await types(runtime, game_id)


async def test_a_vacation_pauses_the_clock_in_every_game_and_is_bounded_by_the_allowance(
        runtime: Runtime) -> None:
    from datetime import UTC, datetime

    from infra.accounts.vacations import VacationTooLong
    from services.gameplay.timekeeper import go_away

    clock = timed(runtime)
    created = await runtime.gameplay.create_game("magnate", TWO, table=TIMED)
    loaded = await runtime.gameplay.load(created.game_id)
    (seat,) = runtime.gameplay.module("magnate").pending(loaded.state).seats
    before = facts_of(loaded.state).clock(seat).deadline
    assert before is not None
    dana = await new_player(runtime, "dana")
    now = datetime.now(UTC)
    vacation = await runtime.vacations.take(dana, 3, 30, now)
    until = clock.now + 3 * 24 * HOUR
    assert await go_away(runtime.gameplay, created.game_id, seat, vacation.vacation_id, until)
    assert not await go_away(runtime.gameplay, created.game_id, seat, vacation.vacation_id, until)  # once
    after = facts_of((await runtime.gameplay.load(created.game_id)).state).clock(seat).deadline
    assert after == until + (before - clock.now)
    with pytest.raises(VacationTooLong):
        await runtime.vacations.take(uuid.uuid4().hex, 31, 30, now)
