"""The worker as a real process through faults: it outlives a Redis restart (and re-enqueues what Redis lost),
and a game whose worker was killed mid-job resumes within seconds on another worker.

Redis is a server of this module's own (``tests.chaos.stores.Redis``, killed and restarted here; the shared
one is never touched); PostgreSQL is the session's database (a row lock stands for a job caught mid-way)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from arq.constants import in_progress_key_prefix

from domain.games import GAMES
from domain.magnate import GameOptions, SeatSpec
from domain.magnate.bots import RandomLegal
from infra.config import Settings
from infra.queue import Job
from services.gameplay.bootstrap import Runtime
from services.supervisor import spawn
from tests.chaos.stores import Redis
from tests.live import ROOT

pytestmark = [pytest.mark.integration]

TWO_HUMANS = GameOptions(seats=(SeatSpec(), SeatSpec()))




@pytest.fixture
def settings(own_dsn: str, own_redis: Redis) -> Settings:
    return Settings(database_url=own_dsn, redis_url=own_redis.url, queue_name=f"faults:{uuid.uuid4().hex[:8]}")


def worker(settings: Settings, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    assert settings.database_url and settings.redis_url
    return spawn("worker", {**os.environ, "DATABASE_URL": settings.database_url, "REDIS_URL": settings.redis_url,
                            "MAGNATE_QUEUE_NAME": settings.queue_name, "MAGNATE_RECONCILE_EVERY_S": "2",
                            **(env or {})})


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


async def until_system_job(runtime: Runtime, seed: int) -> Job:
    """A new two-seat game played by random seats until a system job (dice, market) is due."""
    gameplay = runtime.gameplay
    game_id = (await gameplay.create_game("magnate", TWO_HUMANS)).game_id
    bot = RandomLegal(seed)
    for _ in range(500):
        head = await gameplay.store.head(game_id)
        if head.system_job is not None:
            return Job(game_id, head.version, head.system_job)
        loaded = await gameplay.load(game_id)
        seat = GAMES["magnate"].pending(loaded.state).seats[0]
        await gameplay.submit(game_id, int(seat), uuid.uuid4().hex, bot(loaded.state, seat))
    raise AssertionError("no system job became due")


async def moved_past(runtime: Runtime, job: Job, within_s: float) -> float:
    """Seconds until the game has moved past the job's version (fails after ``within_s``)."""
    started = time.monotonic()
    while (await runtime.gameplay.store.head(job.game_id)).version <= job.version:
        assert time.monotonic() - started < within_s, f"{job.job_id} did not run within {within_s} s"
        await asyncio.sleep(0.05)
    return time.monotonic() - started


async def test_the_worker_outlives_a_redis_restart_and_runs_what_redis_lost(
    runtime: Runtime, settings: Settings, own_redis: Redis
) -> None:
    process = worker(settings)
    try:
        await moved_past(runtime, await until_system_job(runtime, seed=5), within_s=30)  # it works at all

        own_redis.kill()  # Redis dies (kill -9): every queued job and claim is gone with it
        await asyncio.sleep(3)
        assert process.poll() is None, "the worker exited when Redis went away"
        await own_redis.restart()

        job = await until_system_job(runtime, seed=6)  # enqueued on the new, empty Redis
        await moved_past(runtime, job, within_s=20)
        assert process.poll() is None

        # A job Redis lost (the queue flushed after the append) is re-enqueued by the reconciler.
        lost = await until_system_job(runtime, seed=7)
        own_redis.flushall()
        await moved_past(runtime, lost, within_s=20)
    finally:
        stop(process)


async def test_a_game_resumes_within_5_s_of_its_worker_being_killed_mid_job(
    runtime: Runtime, settings: Settings
) -> None:
    job = await until_system_job(runtime, seed=8)  # no worker yet: the job waits in the queue
    first = worker(settings)
    second: subprocess.Popen[bytes] | None = None
    try:
        async with runtime.pool.acquire() as conn, conn.transaction():
            # The game's row is locked, so the job's append waits: the worker is caught mid-job.
            await conn.execute("SELECT 1 FROM games WHERE game_id = $1 FOR UPDATE", job.game_id)
            await until_claimed(runtime, job)
            second = worker(settings)
            await asyncio.sleep(4)  # the second worker is up and polling, and leaves the claimed job alone
            assert (await runtime.gameplay.store.head(job.game_id)).version == job.version
            first.send_signal(signal.SIGKILL)
            first.wait()
            killed = time.monotonic()
            # PostgreSQL ends the dead worker's session (as TCP keep-alives would): its append never lands.
            await conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                               " WHERE datname = current_database() AND wait_event_type = 'Lock'")
        # Only the dead worker's claim stands between the job and a run now.
        await moved_past(runtime, job, within_s=15)
        assert time.monotonic() - killed < 5.0
        commands = [c.command_id for c in await runtime.gameplay.store.commands(job.game_id)]
        assert commands.count(f"system:{job.version}:{job.kind}") == 1
    finally:
        stop(first)
        if second is not None:
            stop(second)


async def until_claimed(runtime: Runtime, job: Job) -> None:
    """Wait until a worker has started the job (its claim key exists)."""
    deadline = time.monotonic() + 30
    while not await runtime.redis.exists(in_progress_key_prefix + job.job_id):
        assert time.monotonic() < deadline, "no worker started the job"
        await asyncio.sleep(0.01)


def test_an_idle_worker_writes_nothing_to_its_log(settings: Settings, tmp_path: Path) -> None:
    """Its health beat and its reconciler run (every second here), but an idle worker says nothing after it is
    ready: no two INFO lines per reconciler round, as the arq cron job wrote."""
    assert settings.database_url and settings.redis_url
    log_path = tmp_path / "worker.log"
    env = {**os.environ, "DATABASE_URL": settings.database_url, "REDIS_URL": settings.redis_url,
           "MAGNATE_QUEUE_NAME": settings.queue_name, "MAGNATE_RECONCILE_EVERY_S": "1",
           "MAGNATE_WORKER_HEALTH_CHECK_S": "1"}
    with log_path.open("wb") as log:
        process = subprocess.Popen([sys.executable, "-m", "services.cli", "worker"], cwd=ROOT, env=env,
                                   stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while "worker ready" not in log_path.read_text():
            assert process.poll() is None and time.monotonic() < deadline, log_path.read_text()
            time.sleep(0.1)
        ready = len(log_path.read_text().splitlines())
        time.sleep(5)  # several reconciler rounds and health beats
        assert log_path.read_text().splitlines()[ready:] == []
    finally:
        stop(process)
