"""Job leases: a job's claim lasts seconds while its worker lives, not minutes after it dies.

arq marks a job it starts with an in-progress key (``arq:in-progress:<job id>``) that lives for the job
timeout plus 10 s, and no worker starts a job whose key exists. A worker killed mid-job (kill -9, a lost
machine) leaves that key behind, so its job — and its game — waited about 70 s (``job_timeout`` 60 s). The
job itself is still in the queue (arq removes it only when it finishes), so the cure is a short claim that
the living worker keeps renewing: when a job starts (arq's public ``on_job_start`` hook) its key is cut to
:data:`LEASE_MS`, and :meth:`Leases.renew` extends the keys of the jobs this worker runs every
:data:`RENEW_EVERY_S`. If the worker dies, the key expires within ``LEASE_MS`` and the next poll of any
worker starts the job again; a job that runs twice appends once (its command id, see
:mod:`services.gameplay.command_ids`), so an over-eager expiry (a worker stalled longer than the lease)
costs a wasted run, never a wrong log.

One gap remains: arq claims a job (its long in-progress key) a moment before the job starts and the hook
shortens it; a worker killed in that moment leaves a long claim on a job that never started. arq reads due
jobs from the head of the queue and skips claimed ones, so such an orphan sits at the head: every second
:meth:`Leases.sweep` looks at the first due jobs and releases a claim that is still long (never leased) more
than :data:`ORPHAN_AFTER_MS` after it was taken — a living worker starts a claimed job within milliseconds.

Only arq's public seams are used: the ``on_job_start``/``after_job_end`` hooks, the job id and Redis pool it
passes in ``ctx``, and the key prefix it exports (``arq.constants.in_progress_key_prefix``); the renewals and the
release of orphans go through the :class:`infra.queue.JobClaims` port the runtime builds.

This is the one lease of the system: every unit of work is an arq job (a system command, a clock's timer, a
notification's delivery, whose job id is the delivery's id), and this lease is what makes it one worker's at a
time and another's seconds after that worker dies. A delivery's row keeps its state (pending, sending, its
attempts, when it is due) but no lease of its own (:mod:`services.notifications.claim`).
"""

from __future__ import annotations

from typing import Any

from arq.constants import in_progress_key_prefix
from redis.asyncio import Redis

from infra.queue import JobClaims

LEASE_MS = 3000
"""How long a started job stays claimed without a renewal: the longest a dead worker's job waits."""
RENEW_EVERY_S = 1.0
"""How often a living worker renews its jobs' claims (three chances per lease)."""
ORPHAN_AFTER_MS = 1500
"""A claim never shortened to a lease this long after arq took it belongs to a worker that died before starting
the job."""
SWEPT = 256
"""Due jobs at the head of the queue looked at per sweep (orphans gather there: arq reads from the head)."""


class Leases:
    """The jobs this worker process runs now, and their claims in Redis."""

    def __init__(self, lease_ms: int = LEASE_MS) -> None:
        self.lease_ms = lease_ms
        self.running: set[str] = set()

    async def on_job_start(self, ctx: dict[str, Any]) -> None:
        """arq's ``on_job_start`` hook: shorten the claim arq has just taken to a lease."""
        job_id: str = ctx["job_id"]
        self.running.add(job_id)
        redis: Redis = ctx["redis"]
        await redis.pexpire(in_progress_key_prefix + job_id, self.lease_ms)

    async def after_job_end(self, ctx: dict[str, Any]) -> None:
        """arq's ``after_job_end`` hook: arq has deleted the claim; stop renewing it."""
        self.running.discard(ctx["job_id"])

    async def sweep(self, claims: JobClaims, claim_ms: int) -> int:
        """Release the orphaned claims among the first due jobs (see the module docstring): a claim whose time to
        live is still above the lease and which was taken more than ORPHAN_AFTER_MS ago (arq sets it to
        ``claim_ms``). Returns how many were released; a release that races a living but stalled worker costs
        a second run, which appends nothing."""
        return await claims.release_orphans(self.lease_ms, claim_ms, ORPHAN_AFTER_MS, SWEPT)

    async def renew(self, claims: JobClaims) -> int:
        """Extend the claims of the running jobs (one round trip); returns how many were extended. A claim that
        is gone (the job finished between two renewals) is not recreated."""
        return await claims.renew(sorted(self.running), self.lease_ms)
