"""The arq worker, with its job claim in one Redis round trip instead of four.

arq starts every job with ``WATCH`` of the job's in-progress key, ``EXISTS`` of it, ``ZSCORE`` of the job in
the queue and ``MULTI``/``PSETEX``/``EXEC``: four round trips, about a fifth of a busy worker's time here,
where a round trip to Redis costs as much CPU as a small system job's rules. The claim below does the very
same checks and the same write in one Lua script, which Redis runs atomically (what the WATCH/MULTI
transaction achieves optimistically): a job is claimed only if no worker holds it and it is still queued
and due; then its in-progress key is set with arq's timeout. Everything else (reading the job, retries,
results, finishing) is arq's own.

arq is pinned to the minor version this override was written against (``pyproject.toml``);
``tests/integration/test_worker.py`` runs it against the real Redis.
"""

from __future__ import annotations

import logging

from arq.constants import in_progress_key_prefix
from arq.utils import timestamp_ms
from arq.worker import Worker
from redis.commands.core import AsyncScript

logger = logging.getLogger("arq.worker")

_CLAIM = """
if redis.call('exists', KEYS[1]) == 1 then
    return false
end
local score = redis.call('zscore', KEYS[2], ARGV[1])
if not score or tonumber(score) == 0 or tonumber(score) > tonumber(ARGV[2]) then
    return false
end
redis.call('psetex', KEYS[1], ARGV[3], '1')
return score
"""
"""KEYS: the job's in-progress key, the queue. ARGV: job id, now (ms), in-progress timeout (ms). Returns the
job's score (its due time in ms) if it was claimed, else nil."""


class MagnateWorker(Worker):
    """arq's worker with :data:`_CLAIM` as its claim (see the module docstring)."""

    _claim: AsyncScript | None = None

    async def start_jobs(self, job_ids: list[bytes]) -> None:
        """arq's ``start_jobs``, claiming each job with one script call."""
        if self._claim is None:
            self._claim = self.pool.register_script(_CLAIM)
        timeout_ms = int(self.in_progress_timeout_s * 1000)
        for job_id_b in job_ids:
            await self.sem.acquire()
            if self.job_counter >= self.max_jobs:
                self.sem.release()
                return
            self.job_counter = self.job_counter + 1
            job_id = job_id_b.decode()
            score = await self._claim(keys=[in_progress_key_prefix + job_id, self.queue_name],
                                      args=[job_id, timestamp_ms(), timeout_ms])
            if score is None:
                # already running elsewhere, finished and removed, or re-enqueued with a delay
                self.job_counter = self.job_counter - 1
                self.sem.release()
                logger.debug("job %s already running elsewhere", job_id)
                continue
            task = self.loop.create_task(self.run_job(job_id, int(float(score))))
            task.add_done_callback(lambda _: self._release_sem_dec_counter_on_complete())
            self.tasks[job_id] = task
