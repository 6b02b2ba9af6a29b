"""Job claims: a started job's claim is a short lease its worker renews; a claim that arq took but whose job never
started (the worker died in between) is released by the sweep, and nothing else is."""

from __future__ import annotations

import pytest
from arq.connections import ArqRedis
from arq.constants import in_progress_key_prefix

from infra.queue import ArqJobClaims, ArqJobQueue, Job
from services.ai_worker.leases import LEASE_MS, Leases

pytestmark = [pytest.mark.integration]

CLAIM_MS = 70_000  # arq's claim: the job timeout (60 s) + 10 s


async def test_the_sweep_releases_only_claims_of_jobs_that_never_started(
    arq_redis: ArqRedis, queue_name: str
) -> None:
    jobs = [Job(queue_name, v, "kind") for v in range(4)]
    for job in jobs:
        assert await ArqJobQueue(arq_redis).enqueue(job)
    orphan, fresh, leased, free = (in_progress_key_prefix + j.job_id for j in jobs)
    await arq_redis.psetex(orphan, CLAIM_MS - 2_000, b"1")  # taken 2 s ago, never leased: its worker died
    await arq_redis.psetex(fresh, CLAIM_MS, b"1")  # just taken: the job is about to start
    await arq_redis.psetex(leased, LEASE_MS, b"1")  # running, leased
    try:
        released = await Leases().sweep(ArqJobClaims(arq_redis, queue_name), CLAIM_MS)
        assert released == 1
        assert not await arq_redis.exists(orphan)
        assert await arq_redis.exists(fresh) and await arq_redis.exists(leased)
        assert not await arq_redis.exists(free)
    finally:
        await arq_redis.delete(orphan, fresh, leased, *(f"arq:job:{j.job_id}" for j in jobs))


async def test_a_started_job_is_leased_and_renewed(arq_redis: ArqRedis, queue_name: str) -> None:
    leases = Leases()
    key = in_progress_key_prefix + f"{queue_name}:1:kind"
    await arq_redis.psetex(key, CLAIM_MS, b"1")
    try:
        await leases.on_job_start({"job_id": f"{queue_name}:1:kind", "redis": arq_redis})
        assert 0 < await arq_redis.pttl(key) <= LEASE_MS
        claims = ArqJobClaims(arq_redis, queue_name)
        assert await leases.renew(claims) == 1
        await leases.after_job_end({"job_id": f"{queue_name}:1:kind"})
        assert await leases.renew(claims) == 0
    finally:
        await arq_redis.delete(key)
