"""The job queue port and its arq adapter.

arq is in maintenance-only mode upstream, so nothing outside this module (and the worker's settings)
knows about it: the gameplay service only sees :class:`JobQueue`. Jobs carry primitive arguments,
are serialised with msgpack (never pickle) and have deterministic ids ``{game_id}:{version}:{kind}``,
so the same due job enqueued twice (by the service and the reconciler) runs once.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

import msgspec
from arq.connections import ArqRedis, RedisSettings, create_pool
from arq.constants import in_progress_key_prefix, job_key_prefix, result_key_prefix
from arq.jobs import serialize_job
from arq.utils import timestamp_ms
from redis.asyncio import Redis
from redis.exceptions import RedisError

from infra.errors import StoreUnavailable
from infra.news import news_message
from infra.notify import Notifier, RedisNotifier, channel


class Job(msgspec.Struct, frozen=True):
    """A system job: run the system command ``kind`` due at ``version`` of ``game_id``."""

    game_id: str
    version: int
    kind: str

    @property
    def job_id(self) -> str:
        return f"{self.game_id}:{self.version}:{self.kind}"


class Timer(msgspec.Struct, frozen=True):
    """A job due at a moment (``due_ms``, ms since the epoch): run ``kind`` for ``seat`` of ``game_id`` about the
    clock whose deadline is ``deadline`` (a timeout, or the reminder before it). Its id names the game, the seat
    and the deadline, so the service and the reconciler schedule the same clock's timer once."""

    game_id: str
    kind: str
    seat: int
    deadline: int
    due_ms: int

    @property
    def job_id(self) -> str:
        return f"{self.game_id}:{self.deadline}:{self.kind}:{self.seat}"


@runtime_checkable
class JobQueue(Protocol):
    async def enqueue(self, job: Job) -> bool:
        """Queue the job; False when a job with the same id is already queued or running."""
        ...

    async def schedule(self, timer: Timer) -> bool:
        """Queue the timer to run at its moment; False when it is queued, running or done already."""
        ...


@runtime_checkable
class Announcer(Protocol):
    """How the news of an append leaves: the new version announced to the event streams and, when the append made
    a system job due, that job enqueued."""

    async def moved(self, game_id: str, version: int, due: Job | None) -> None:
        """Announce ``version`` of ``game_id``; enqueue ``due`` if given (a no-op if it is queued already)."""
        ...


class QueueAndNotifier:
    """:class:`Announcer` over any queue and notifier: the announcement and the enqueue are two round trips, made at
    once."""

    def __init__(self, queue: JobQueue, notifier: Notifier) -> None:
        self.queue, self.notifier = queue, notifier

    async def moved(self, game_id: str, version: int, due: Job | None) -> None:
        if due is None:
            await self.notifier.published(game_id, version)
        else:
            await asyncio.gather(self.notifier.published(game_id, version), self.queue.enqueue(due))


class ArqAnnouncer:
    """:class:`Announcer` on the Redis of the queue, the event streams and the workers' news: every append is one
    round trip, which publishes the version on the game's channel (the streams) and the game on the deployment's
    news channel (the notification projector, :mod:`infra.news`), and, when the append made a system job due,
    enqueues it (the enqueue's own script, :meth:`ArqJobQueue.enqueue_announcing`)."""

    def __init__(self, queue: ArqJobQueue, notifier: RedisNotifier) -> None:
        self.queue, self.notifier = queue, notifier

    async def moved(self, game_id: str, version: int, due: Job | None) -> None:
        if due is None:
            await self.notifier.published(game_id, version)
        else:
            await self.queue.enqueue_announcing(due, self.notifier.news)


def serialize(value: Any) -> bytes:
    return msgspec.msgpack.encode(value)


def deserialize(data: bytes) -> Any:
    return msgspec.msgpack.decode(data)


def redis_settings(url: str) -> RedisSettings:
    """arq settings for a redis:// URL or a unix:///path/to/socket URL (the embedded Redis)."""
    if url.startswith("unix://"):
        return RedisSettings(unix_socket_path=url.removeprefix("unix://"))
    return RedisSettings.from_dsn(url)


async def arq_pool(url: str, queue_name: str, *, conn_retries: int | None = None) -> ArqRedis:
    """An arq pool on ``url`` whose default queue is ``queue_name``. arq's ``create_pool`` tries to connect
    ``conn_retries`` times more (arq's default: 5, a second apart) and then re-raises what the driver raised:
    redis-py's ``ConnectionError`` (a ``RedisError``, not an ``OSError``) or a timeout; either is
    :class:`~infra.errors.StoreUnavailable` here, so every caller meets one error for "Redis is away". A caller
    with a back-off of its own (the worker's reconnection loop) passes ``conn_retries=0``."""
    settings = redis_settings(url)
    if conn_retries is not None:
        settings = dataclasses.replace(settings, conn_retries=conn_retries)
    try:
        return await create_pool(settings, job_serializer=serialize, job_deserializer=deserialize,
                                 default_queue_name=queue_name)
    except (RedisError, OSError) as exc:  # TimeoutError is an OSError
        raise StoreUnavailable(f"Redis is unavailable at {url}: {exc}") from exc


_ENQUEUE = """
local queued = 0
if redis.call('exists', KEYS[1], KEYS[2]) == 0 then
    redis.call('psetex', KEYS[1], ARGV[1], ARGV[2])
    redis.call('zadd', KEYS[3], ARGV[3], ARGV[4])
    queued = 1
end
if ARGV[5] then
    redis.call('publish', ARGV[5], ARGV[6])
end
if ARGV[7] then
    redis.call('publish', ARGV[7], ARGV[8])
end
return queued
"""
"""arq's ``enqueue_job`` in one round trip: the same keys, values and expiry, and the same refusal when a job
with that id is queued, running or has a kept result; arq does it with WATCH, EXISTS and MULTI/EXEC (three
round trips), a script is atomic by itself. With ARGV[5] and ARGV[6] it also publishes that message on that
channel (the announcement of the version, see :class:`infra.notify.RedisNotifier`), and with ARGV[7] and ARGV[8]
the game's news on the deployment's news channel (:mod:`infra.news`)."""


class ArqJobQueue:
    def __init__(self, pool: ArqRedis) -> None:
        self._pool = pool
        self._script = pool.register_script(_ENQUEUE)

    async def enqueue(self, job: Job) -> bool:
        return await self._enqueue(job, announce=False)

    async def enqueue_announcing(self, job: Job, news: str | None = None) -> bool:
        """:meth:`enqueue`, and announce ``job.version`` on its game's channel (and the game on the ``news`` channel,
        if given) in the same round trip, even when the job is queued already (the pool must be on the Redis the
        event streams and the workers listen to)."""
        return await self._enqueue(job, announce=True, news=news)

    async def _enqueue(self, job: Job, *, announce: bool, news: str | None = None) -> bool:
        now_ms = timestamp_ms()
        data = serialize_job(job.kind, (job.game_id, job.version), {}, None, now_ms, serializer=serialize)
        args: list[Any] = [self._pool.expires_extra_ms, data, now_ms, job.job_id]
        if announce:
            args += [channel(job.game_id), str(job.version)]
            if news is not None:
                args += [news, news_message(job.game_id, job.version)]
        try:
            queued = await self._script(
                keys=[job_key_prefix + job.job_id, result_key_prefix + job.job_id, self._pool.default_queue_name],
                args=args,
            )
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(f"Redis is unavailable: {exc}") from exc
        return bool(queued)

    async def schedule(self, timer: Timer) -> bool:
        now_ms = timestamp_ms()
        due = max(now_ms, timer.due_ms)
        data = serialize_job(timer.kind, (timer.game_id, timer.seat, timer.deadline), {}, None, now_ms,
                             serializer=serialize)
        keep_ms = due - now_ms + self._pool.expires_extra_ms  # as arq's own deferred jobs: kept until due, and then
        try:
            queued = await self._script(
                keys=[job_key_prefix + timer.job_id, result_key_prefix + timer.job_id, self._pool.default_queue_name],
                args=[keep_ms, data, due, timer.job_id],
            )
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(f"Redis is unavailable: {exc}") from exc
        return bool(queued)


class RecordingJobQueue:
    """A fake queue that records jobs (for service-layer unit tests)."""

    def __init__(self) -> None:
        self.jobs: list[Job] = []
        self.timers: list[Timer] = []

    async def enqueue(self, job: Job) -> bool:
        if job in self.jobs:
            return False
        self.jobs.append(job)
        return True

    async def schedule(self, timer: Timer) -> bool:
        if timer in self.timers:
            return False
        self.timers.append(timer)
        return True


class QueueDepth(msgspec.Struct, frozen=True):
    """The job queue as sampled: jobs due now, jobs scheduled later, and how long the oldest due job has waited."""

    due: int
    scheduled: int
    oldest_due_s: float


async def queue_depth(redis: Redis, queue: str) -> QueueDepth:
    """arq keeps every job in one sorted set scored by its due moment (ms), the running ones included until they
    end (StoreUnavailable when Redis does not answer)."""
    now = timestamp_ms()
    try:
        async with redis.pipeline(transaction=False) as pipe:
            pipe.zcount(queue, "-inf", now)
            pipe.zcard(queue)
            pipe.zrange(queue, 0, 0, withscores=True)
            due, total, first = await pipe.execute()
    except (RedisError, OSError) as exc:
        raise StoreUnavailable(f"Redis is unavailable: {exc}") from exc
    oldest = max(0.0, (now - float(first[0][1])) / 1000) if first and due else 0.0
    return QueueDepth(int(due), int(total) - int(due), oldest)


class JobClaims(Protocol):
    """arq's claims of the jobs being run (its in-progress keys), kept short while their worker lives
    (:mod:`services.ai_worker.leases`)."""

    async def renew(self, job_ids: Sequence[str], lease_ms: int) -> int:
        """Extend the claims of these jobs to ``lease_ms`` (a claim that is gone is not recreated); returns how
        many were extended."""
        ...

    async def release_orphans(self, lease_ms: int, claim_ms: int, orphan_after_ms: int, limit: int) -> int:
        """Among the first ``limit`` due jobs, release the claims never shortened to a lease (time to live above
        ``lease_ms``) taken more than ``orphan_after_ms`` ago (arq takes them for ``claim_ms``); returns how many."""
        ...


class ArqJobClaims:
    """:class:`JobClaims` on arq's keys in Redis (one round trip per call, two when orphans are released)."""

    def __init__(self, redis: Redis, queue_name: str) -> None:
        self._redis, self._queue = redis, queue_name

    async def renew(self, job_ids: Sequence[str], lease_ms: int) -> int:
        if not job_ids:
            return 0
        async with self._redis.pipeline(transaction=False) as pipe:
            for job_id in job_ids:
                pipe.pexpire(in_progress_key_prefix + job_id, lease_ms)
            extended = await pipe.execute()
        return sum(1 for ok in extended if ok)

    async def release_orphans(self, lease_ms: int, claim_ms: int, orphan_after_ms: int, limit: int) -> int:
        due = await self._redis.zrangebyscore(self._queue, "-inf", timestamp_ms(), start=0, num=limit)
        if not due:
            return 0
        keys = [in_progress_key_prefix + raw.decode() for raw in due]
        async with self._redis.pipeline(transaction=False) as pipe:
            for key in keys:
                pipe.pttl(key)
            ttls = await pipe.execute()
        orphans = [key for key, ttl in zip(keys, ttls, strict=True)
                   if ttl > lease_ms and claim_ms - ttl > orphan_after_ms]
        if orphans:
            await self._redis.delete(*orphans)
        return len(orphans)


class Periods(Protocol):
    """Periodic tasks run by one worker of many per period."""

    async def take(self, name: str, period_ms: int) -> bool:
        """True for the first caller of ``name`` in a period of ``period_ms`` (the others: False); raises
        StoreUnavailable when the store is away (the task skips a round)."""
        ...


class RedisPeriods:
    """:class:`Periods` as a Redis key per task and deployment (``SET NX PX``)."""

    def __init__(self, redis: Redis, deployment: str) -> None:
        self._redis, self._deployment = redis, deployment

    async def take(self, name: str, period_ms: int) -> bool:
        try:
            return bool(await self._redis.set(f"{self._deployment}:{name}", "1", nx=True, px=period_ms))
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(f"Redis is unavailable: {exc}") from exc
