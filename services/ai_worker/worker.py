"""The arq worker, with its jobs claimed in batches: one Redis round trip per poll instead of four per job.

arq polls the ids of due jobs, then claims each with ``WATCH`` of its in-progress key, ``EXISTS`` of it,
``ZSCORE`` of the job and ``MULTI``/``PSETEX``/``EXEC``: four round trips per job, about a fifth of a busy
worker's time here, where a round trip to Redis costs as much CPU as a small system job's rules. Worse, every
worker reads the same ids, so two workers race for each job and the loser pays its round trips for nothing.

:meth:`MagnateWorker._poll_iteration` does the same checks and the same writes in one Lua script, which Redis
runs atomically (what arq's WATCH/MULTI transaction achieves optimistically): of the due jobs (score at most
now, read in due order as arq reads them), those no worker holds are claimed (their in-progress key set with
arq's timeout), up to the free slots of this worker. So each job is claimed by exactly one worker, in one round
trip for all of them. Everything else (reading the job, retries, results, finishing) is arq's own.

The script touches the in-progress keys it finds by name, which a Redis Cluster would refuse; arq (and this
service) use a single Redis. arq is pinned to the minor version this override was written against
(``pyproject.toml``); ``tests/integration/test_worker_claim.py`` runs it against the real Redis.
"""

from __future__ import annotations

import asyncio
import logging

from arq.constants import in_progress_key_prefix
from arq.utils import timestamp_ms
from arq.worker import Worker
from redis.commands.core import AsyncScript

logger = logging.getLogger("arq.worker")

_CLAIM = """
local due = redis.call('zrangebyscore', KEYS[1], '-inf', ARGV[1], 'WITHSCORES', 'LIMIT', 0, ARGV[3])
local claimed = {}
local wanted = tonumber(ARGV[2])
for i = 1, #due, 2 do
    if #claimed >= 2 * wanted then
        break
    end
    local key = ARGV[5] .. due[i]
    if tonumber(due[i + 1]) ~= 0 and redis.call('exists', key) == 0 then
        redis.call('psetex', key, ARGV[4], '1')
        claimed[#claimed + 1] = due[i]
        claimed[#claimed + 1] = due[i + 1]
    end
end
return claimed
"""
"""KEYS: the queue. ARGV: now (ms), jobs wanted, ids to look at, in-progress timeout (ms), in-progress key
prefix. Returns the claimed jobs as id, score, id, score, ..."""


class MagnateWorker(Worker):
    """arq's worker with :data:`_CLAIM` as its claim (see the module docstring)."""

    _claim: AsyncScript | None = None

    async def _poll_iteration(self) -> None:
        """arq's poll (start due jobs, forget finished tasks, heart beat), claiming in script calls: while
        claims fill every free slot there may be more due jobs, so once a quarter of the slots are free again
        they are refilled (as arq's claim loop does, waiting for its semaphore), before the poll delay."""
        refill = max(1, self.max_jobs // 4)
        while self.allow_pick_jobs:
            wanted = self._free_slots()
            if wanted < refill:  # wait for a quarter of the slots to free up: one claim for several jobs
                running = [t for t in self.tasks.values() if not t.done()]
                if not running or (self.burst and self.max_burst_jobs >= 0
                                   and self._jobs_started() >= self.max_burst_jobs):
                    if wanted <= 0:
                        break
                else:
                    await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
                    continue
            if await self._start_claimed(wanted) < wanted:
                break  # no more claimable due jobs now
        if self.allow_abort_jobs:
            await self._cancel_aborted_jobs()
        for job_id, task in list(self.tasks.items()):
            if task.done():
                del self.tasks[job_id]
                task.result()  # errors in run_job propagate, as in arq
        await self.heart_beat()

    def _free_slots(self) -> int:
        free = self.max_jobs - self.job_counter
        if self.burst and self.max_burst_jobs >= 0:
            free = min(free, self.max_burst_jobs - self._jobs_started())
        return free

    async def _start_claimed(self, wanted: int) -> int:
        """Claim up to ``wanted`` due jobs and start them; how many were claimed."""
        if self._claim is None:
            self._claim = self.pool.register_script(_CLAIM)
        claimed = await self._claim(
            keys=[self.queue_name],
            args=[timestamp_ms(), wanted, self.queue_read_limit, int(self.in_progress_timeout_s * 1000),
                  in_progress_key_prefix],
        )
        for raw_id, raw_score in zip(claimed[::2], claimed[1::2], strict=True):
            await self.sem.acquire()  # free: no more were claimed than this worker has slots
            self.job_counter = self.job_counter + 1
            job_id = raw_id.decode()
            task = self.loop.create_task(self.run_job(job_id, int(float(raw_score))))
            task.add_done_callback(lambda _: self._release_sem_dec_counter_on_complete())
            self.tasks[job_id] = task
        return len(claimed) // 2
