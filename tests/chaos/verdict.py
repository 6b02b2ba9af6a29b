"""What the fault suite holds the service to, given what one run observed: every broken promise, in words.

Most promises are absolute (nothing lost, nothing doubled, every game finished and verified, no 5xx but
503, every 503 with a ``Retry-After``, no worker dying of a store outage). Stalls have limits, because a
fault necessarily delays the jobs it catches. A job is allowed :data:`SLACK_S` (a loaded 2-core machine);
each fault that happens while the job is due, *before* the job has used up what it was allowed so far,
extends that allowance:

* a worker's death, to :data:`WORKER_RESUME_S` after the kill (the worker's promise), plus the slack, if
  the job was claimed (by one worker or the other) when the kill came: a job no worker held was not caught.
  Only the first such kill counts: a claim still there at the next kill is the dead worker's, not a new one
  (a job takes milliseconds), and waiting for it to lapse is the very stall being measured;
* a store fault (Redis flushed or restarted, PostgreSQL stopped or crashed), to the reconciler's period
  (``reconcile_every_s``: it re-enqueues every due job the games table names) after the store is back,
  plus the slack; after a Redis restart, also plus the worker's longest wait between two reconnection attempts
  (:data:`RECONNECT_S`: a worker may have just failed an attempt when Redis came back).

A worker killed between appending a job's command and enqueueing the job that command made due (its own job
was claimed at the kill, and the kill came after the append) leaves the next job to the reconciler: that job is
allowed the reconciler's longest period (:data:`RECONCILE_EVERY_S` and its jitter) after the kill, plus the slack.

A fault that comes after a job is already late excuses nothing: a job stuck for a minute after a worker's
death is not excused by a PostgreSQL restart half a minute later.
"""

from __future__ import annotations

from dataclasses import dataclass

from infra.config import Settings
from infra.queue import Job
from services.ai_worker.worker import BACKOFF

from .exercise import Exercise
from .faults import Happened
from .ledger import Stall

WORKER_RESUME_S = 5.0
SLACK_S = 5.0
RECONCILE_EVERY_S = float(Settings().reconcile_every_s)
"""The reconciler's period the service runs with (its default: the suite does not tune the service)."""
ORPHANED_S = 1.1 * RECONCILE_EVERY_S
"""The reconciler's longest period (it waits its period with a jitter of up to 10 %)."""
RECONNECT_S = BACKOFF.compute(64)
"""The worker's longest wait between two attempts to reach Redis (its back-off's cap)."""
SHOWN = 8
"""At most this many examples of each kind of violation."""


@dataclass(frozen=True)
class Judged:
    stall: Stall
    faults: tuple[Happened, ...]
    limit_s: float

    @property
    def over(self) -> bool:
        return self.stall.seconds > self.limit_s


def allowed_until(fault: Happened) -> float:
    """When a job caught by ``fault`` must have been appended."""
    if fault.kind == "redis_restart":
        return fault.ended + RECONNECT_S + RECONCILE_EVERY_S + SLACK_S
    if fault.store:
        return fault.ended + RECONCILE_EVERY_S + SLACK_S
    return fault.began + WORKER_RESUME_S + SLACK_S


def job_id(stall: Stall) -> str:
    """The queue's id of the stalled job (``{game}:{version}:{kind}``, as :class:`infra.queue.Job` names it)."""
    _, version, kind = stall.command_id.split(":", 2)
    return Job(stall.game_id, int(version), kind).job_id


def made_by(stall: Stall) -> str | None:
    """The queue's id of the job whose command made the stalled job due (None: a player's command made it)."""
    if not stall.after.startswith("system:"):
        return None
    _, version, kind = stall.after.split(":", 2)
    return Job(stall.game_id, int(version), kind).job_id


def judge_stall(stall: Stall, timeline: list[Happened]) -> Judged:
    """The stall's limit, and the faults that set it (see the module docstring)."""
    allowed = stall.began + SLACK_S
    caught: list[Happened] = []
    job, maker = job_id(stall), made_by(stall)
    killed = False
    for fault in sorted(timeline, key=lambda f: f.began):
        orphaned = not fault.store and maker in fault.claimed and fault.began >= stall.began
        if fault.ended < stall.began or (not fault.store and (killed or (job not in fault.claimed and not orphaned))):
            continue
        killed = killed or not fault.store
        if fault.began > min(allowed, stall.ended):
            break
        caught.append(fault)
        allowed = max(allowed, allowed_until(fault), fault.began + ORPHANED_S + SLACK_S if orphaned else 0.0)
    return Judged(stall, tuple(caught), allowed - stall.began)


def longest_away_from_stores(result: Exercise) -> Judged | None:
    """The longest stall that no store fault caught (a worker's death, or nothing, delayed it)."""
    for stall in result.ledger.stalls:
        judged = judge_stall(stall, result.timeline)
        if not any(f.store for f in judged.faults):
            return judged
    return None


def violations(result: Exercise) -> list[str]:
    ledger, traffic = result.ledger, result.traffic
    found: list[str] = []

    def add(title: str, items: list[str]) -> None:
        if items:
            found.append(f"{title} ({len(items)}): " + "; ".join(items[:SHOWN]))

    add("lost", ledger.lost)
    add("duplicated", ledger.duplicated)
    add("orphan games (a creation applied twice)", ledger.orphans)
    add("unfinished games", ledger.unfinished)
    add("broken invariants", ledger.problems)
    add("games the clients could not play", traffic.failures)
    if ledger.verified != ledger.games:
        found.append(f"only {ledger.verified} of {ledger.games} exports verify")
    if ledger.same_as_in_process != len(traffic.results) or len(traffic.results) != result.started_games:
        found.append(f"{ledger.same_as_in_process} of {result.started_games} games finished with the in-process "
                     f"result of their seeds")
    if len(result.timeline) != result.planned:
        found.append(f"only {len(result.timeline)} of {result.planned} faults happened")
    if not result.api_alive:
        found.append("the API process died")
    add("server errors other than 503", traffic.server_errors or
        ([f"{traffic.server_error_count} answers"] if traffic.server_error_count else []))
    if traffic.unavailable_without_retry_after:
        found.append(f"{traffic.unavailable_without_retry_after} of "
                     f"{traffic.unavailable_without_retry_after + traffic.unavailable_with_retry_after} "
                     f"503 answers had no Retry-After header")
    add("workers that exited on their own", [f"{e.name} (exit code {e.code}): ...{e.log_tail[-300:]}"
                                             for e in result.exits])
    add("stalls over their limit", [describe(j) for j in (judge_stall(s, result.timeline)
                                                          for s in ledger.stalls) if j.over])
    return found


def describe(judged: Judged) -> str:
    s = judged.stall
    caught = ", ".join(sorted({f.kind for f in judged.faults})) or "no fault"
    return (f"{s.game_id} {s.command_id} waited {s.seconds:.1f} s{' (still waiting)' if s.ongoing else ''}, "
            f"limit {judged.limit_s:.1f} s, caught by {caught}")
