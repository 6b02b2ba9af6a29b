"""The suite's own rules, without any process: the fault plan, the stall limits, the promise of the full size."""

from __future__ import annotations

from domain.games import GAMES

from .clocked import CLOCK_S
from .exercise import AUDIT_DEADLINE_S
from .faults import BOUNDED, FULL, Happened, plan
from .ledger import Stall
from .verdict import ORPHANED_S, RECONCILE_EVERY_S, SLACK_S, WORKER_RESUME_S, judge_stall


def test_the_full_size_is_what_make_chaos_promises() -> None:
    """150 games, 50 of each registered game, 40 worker kills, a Redis FLUSHALL and a 30 s restart (longer than a
    clock's move, so clocks run out in it, and than arq's own connection retries), a 10 s PostgreSQL stop, in well
    under 15 min."""
    assert FULL.games >= 50 * len(GAMES) and FULL.worker_kills >= 40 and FULL.redis_flushes and FULL.redis_restarts
    assert FULL.redis_down_s >= 30 and FULL.redis_down_s > CLOCK_S
    assert FULL.pg_stops and FULL.pg_down_s >= 10
    # The worst case, every bound reached: play, the audit, schemathesis and its setup, start-up and stop.
    assert FULL.play_deadline_s + AUDIT_DEADLINE_S + FULL.fuzz_seconds + 120 <= 14 * 60


def test_store_faults_are_spread_among_the_kills() -> None:
    assert plan(BOUNDED) == ["worker_kill", "redis_restart", "worker_kill", "pg_stop", "worker_kill"]
    full = plan(FULL)
    stores = [i for i, kind in enumerate(full) if kind != "worker_kill"]
    assert len(full) == 44 and stores == [8, 17, 26, 35]


JOB = "g:1:k"
"""The queue's id of the job ``system:1:k`` of game ``g``."""


def kill(at: float, claimed: frozenset[str] = frozenset({JOB})) -> Happened:
    return Happened("worker_kill", at, at, "", claimed)


def stop(at: float, down: float) -> Happened:
    return Happened("pg_stop", at, at + down, "")


def test_a_job_caught_by_a_kill_must_resume_within_the_workers_promise() -> None:
    judged = judge_stall(Stall("g", "system:1:k", 100.0, 9.0), [kill(100.5)])
    assert judged.limit_s == 0.5 + WORKER_RESUME_S + SLACK_S and not judged.over
    assert judge_stall(Stall("g", "system:1:k", 100.0, 70.0), [kill(100.5)]).over


def test_a_fault_after_the_job_is_late_excuses_nothing() -> None:
    judged = judge_stall(Stall("g", "system:1:k", 100.0, 70.0), [kill(100.0), stop(130.0, 10.0)])
    assert [f.kind for f in judged.faults] == ["worker_kill"] and judged.over


def test_a_store_outage_allows_the_reconcilers_period_after_it() -> None:
    judged = judge_stall(Stall("g", "system:1:k", 100.0, 20.0), [stop(102.0, 10.0)])
    assert judged.limit_s == 12.0 + RECONCILE_EVERY_S + SLACK_S and not judged.over


def test_no_fault_allows_only_the_slack() -> None:
    assert judge_stall(Stall("g", "system:1:k", 100.0, SLACK_S + 1), [kill(50.0)]).over


def test_a_kill_catches_only_a_job_that_was_claimed() -> None:
    judged = judge_stall(Stall("g", "system:1:k", 100.0, SLACK_S + 1), [kill(100.5, frozenset({"g:2:k"}))])
    assert judged.faults == () and judged.over


def test_a_claim_left_by_a_killed_worker_is_caught_once() -> None:
    """The dead worker's claim is still there at the next kills: they excuse nothing more."""
    judged = judge_stall(Stall("g", "system:1:k", 100.0, 70.0), [kill(100.5), kill(104.0), kill(107.5)])
    assert len(judged.faults) == 1 and judged.limit_s == 0.5 + WORKER_RESUME_S + SLACK_S and judged.over


def test_a_worker_killed_after_its_append_leaves_the_job_it_made_due_to_the_reconciler() -> None:
    """The killed worker's job (``system:1:k``) was appended, and the job it made due (``system:5:m``) never
    enqueued: the reconciler's longest period after the kill, plus the slack. Not for a kill before the append."""
    stall = Stall("g", "system:5:m", 100.0, 12.0, after="system:1:k")
    judged = judge_stall(stall, [kill(100.1)])
    assert abs(judged.limit_s - (0.1 + ORPHANED_S + SLACK_S)) < 1e-9 and not judged.over
    assert judge_stall(stall, [kill(99.9)]).over
    assert judge_stall(Stall("g", "system:5:m", 100.0, 12.0, after="chaos-1"), [kill(100.1)]).over
