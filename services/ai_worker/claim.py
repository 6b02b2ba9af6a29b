"""The worker's claim: a poll's due jobs claimed in one round trip, each claim a lease from the start.

arq's ``Worker.start_jobs`` claims the ids one poll read one at a time, four round trips each (WATCH the job's
in-progress key, EXISTS, ZSCORE, MULTI/PSETEX/EXEC), for ``job_timeout`` + 10 s; then :mod:`.leases` cuts the
claim to a lease when the job starts (a fifth). :class:`LeasingWorker` overrides that one method: it claims, in
one script (:meth:`infra.queue.JobClaims.claim`), every id it has a free slot for, with the same test arq makes
(no in-progress key, still in the queue, due) and the same key, set to the lease at once, and starts each claimed
job as arq does (its slot, its task, arq's own ``run_job``). Everything else is arq's: the poll (the bounded read
of due ids, the forgetting of finished tasks, the health beat), running a job, retries, finishing.

What it changes: one round trip per poll instead of five per job, and no moment where a job's claim is long, so a
worker killed between a claim and the job's start leaves a claim that expires within the lease, like any other
(the sweep of :mod:`.leases` finds no long claims of this worker's). A claimed job is a job whose claim the
worker renews (:meth:`.leases.Leases.claimed`) from the moment it is claimed.

The seam is ``start_jobs`` and the state it keeps (``sem``, ``job_counter``, ``tasks``, ``run_job``): arq 0.28
(maintenance only upstream) has kept them since 0.16; tests/integration/test_worker_claim.py runs a worker of
this class and fails if any of them is gone.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from arq.utils import timestamp_ms
from arq.worker import Worker

from infra.queue import ArqJobClaims

from .leases import Leases


class LeasingWorker(Worker):
    """arq's ``Worker`` whose claim is :meth:`infra.queue.JobClaims.claim` (see the module docstring)."""

    def __init__(self, *args: Any, leases: Leases, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.leases = leases
        self._claims: ArqJobClaims | None = None

    async def start_jobs(self, job_ids: list[bytes]) -> None:
        free = self.max_jobs - self.job_counter
        if free <= 0 or not job_ids:
            return
        if self._claims is None:
            self._claims = ArqJobClaims(self.pool, self.queue_name)
        wanted = [raw.decode() for raw in job_ids[:free]]
        claimed = await self._claims.claim(wanted, timestamp_ms(), self.leases.lease_ms)
        for job_id, score in claimed:
            await self.sem.acquire()  # free: the slots were counted above, and only this loop takes them
            self.job_counter += 1
            self.leases.claimed(job_id)
            task = self.loop.create_task(self.run_job(job_id, score))
            task.add_done_callback(partial(self._ended, job_id))
            self.tasks[job_id] = task

    def _ended(self, job_id: str, _: object) -> None:
        self._release_sem_dec_counter_on_complete()
        self.leases.ended(job_id)
