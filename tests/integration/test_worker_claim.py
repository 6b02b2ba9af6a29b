"""The worker's claim (services/ai_worker/claim.py): one script claims a poll's due jobs, each once, each with a lease
from the start; a worker using it runs a due job exactly once and renews nothing once its jobs are over."""

from __future__ import annotations

import pytest
from arq.connections import ArqRedis
from arq.constants import in_progress_key_prefix, job_key_prefix
from arq.utils import timestamp_ms

from infra.config import Settings
from infra.queue import ArqJobClaims, ArqJobQueue, Job, Timer
from services.ai_worker.claim import LeasingWorker
from services.ai_worker.leases import LEASE_MS, Leases
from services.ai_worker.settings import worker_settings
from services.gameplay.bootstrap import Runtime

from .test_worker import assert_ran_once, queued_ids, settings, until_system_job

pytestmark = [
    pytest.mark.integration,
    pytest.mark.filterwarnings("ignore:Call to deprecated close:DeprecationWarning"),
]

__all__ = ["settings"]  # the fixture, shared with test_worker.py


async def test_one_call_claims_each_due_unclaimed_job_once_with_a_lease(arq_redis: ArqRedis, queue_name: str) -> None:
    queue = ArqJobQueue(arq_redis)
    due, also_due, taken = (Job(queue_name, v, "kind") for v in range(3))
    later = Timer(queue_name, "kind", 0, 1, timestamp_ms() + 60_000)
    for job in (due, also_due, taken):
        assert await queue.enqueue(job)
    assert await queue.schedule(later)
    await arq_redis.psetex(in_progress_key_prefix + taken.job_id, 70_000, b"1")  # another worker's
    ids = [due.job_id, taken.job_id, later.job_id, "never-queued", also_due.job_id]
    keys = [in_progress_key_prefix + i for i in ids] + [job_key_prefix + i for i in ids]
    try:
        claims = ArqJobClaims(arq_redis, queue_name)
        claimed = await claims.claim(ids, timestamp_ms(), LEASE_MS)
        assert [job_id for job_id, _ in claimed] == [due.job_id, also_due.job_id]
        assert all(score <= timestamp_ms() for _, score in claimed)
        for job_id, _ in claimed:
            assert 0 < await arq_redis.pttl(in_progress_key_prefix + job_id) <= LEASE_MS
        assert not await arq_redis.exists(in_progress_key_prefix + later.job_id)
        # a second worker polling the same ids at the same time gets none of them
        assert await claims.claim(ids, timestamp_ms(), LEASE_MS) == []
    finally:
        await arq_redis.delete(*keys)


async def test_a_leasing_worker_runs_a_due_job_exactly_once(runtime: Runtime, settings: Settings) -> None:
    job = await until_system_job(runtime, seed=5)
    assert job.job_id in await queued_ids(runtime, settings.queue_name)
    leases = Leases()
    worker = LeasingWorker(**{**worker_settings(settings, leases=leases), "burst": True, "poll_delay": 0,
                              "handle_signals": False}, leases=leases)
    try:
        await worker.async_run()
    finally:
        await worker.close()
    assert worker.jobs_failed == 0 and worker.jobs_complete >= 1
    await assert_ran_once(runtime, job)
    assert leases.running == set()  # nothing left to renew
    assert not await runtime.arq.exists(in_progress_key_prefix + job.job_id)
