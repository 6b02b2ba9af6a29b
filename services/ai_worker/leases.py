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

Only arq's public seams are used: the ``on_job_start``/``after_job_end`` hooks, the job id and Redis pool it
passes in ``ctx``, and the key prefix it exports (``arq.constants.in_progress_key_prefix``).
"""

from __future__ import annotations

from typing import Any

from arq.constants import in_progress_key_prefix
from redis.asyncio import Redis

LEASE_MS = 3000
"""How long a started job stays claimed without a renewal: the longest a dead worker's job waits."""
RENEW_EVERY_S = 1.0
"""How often a living worker renews its jobs' claims (three chances per lease)."""


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

    async def renew(self, redis: Redis) -> int:
        """Extend the claims of the running jobs (one round trip); returns how many were extended. A claim that
        is gone (the job finished between two renewals) is not recreated: PEXPIRE only touches existing keys."""
        running = sorted(self.running)
        if not running:
            return 0
        async with redis.pipeline(transaction=False) as pipe:
            for job_id in running:
                pipe.pexpire(in_progress_key_prefix + job_id, self.lease_ms)
            extended = await pipe.execute()
        return sum(1 for ok in extended if ok)
