"""A real arq worker over the real Redis and PostgreSQL: a due system job runs exactly once, and a
lost queue is rebuilt by the reconciler at worker start-up with no gap and no duplicate in the log."""

from __future__ import annotations

import uuid

import pytest
from arq.constants import job_key_prefix
from arq.worker import Worker

from domain.games import GAMES
from domain.magnate import GameOptions, SeatSpec
from domain.magnate.bots import RandomLegal
from infra.config import Settings
from infra.queue import Job
from services.ai_worker.settings import worker_settings
from services.gameplay.bootstrap import Runtime

pytestmark = [
    pytest.mark.integration,
    # arq (maintenance-only upstream) closes its pool with redis-py's deprecated close().
    pytest.mark.filterwarnings("ignore:Call to deprecated close:DeprecationWarning"),
]

TWO_HUMANS = GameOptions(seats=(SeatSpec(), SeatSpec()))


@pytest.fixture
def settings(own_dsn: str, redis_url: str, queue_name: str) -> Settings:
    return Settings(database_url=own_dsn, redis_url=redis_url, queue_name=queue_name)


async def until_system_job(runtime: Runtime, game_id: str | None = None, seed: int = 7) -> Job:
    """Play random legal moves (creating a game first if needed) until a system job is due."""
    gameplay = runtime.gameplay
    if game_id is None:
        game_id = (await gameplay.create_game("magnate", TWO_HUMANS)).game_id
    bot = RandomLegal(seed)
    for _ in range(500):
        head = await gameplay.store.head(game_id)
        if head.system_job is not None:
            return Job(game_id, head.version, head.system_job)
        assert head.status == "running"
        loaded = await gameplay.load(game_id)
        seat = GAMES["magnate"].pending(loaded.state).seats[0]
        await gameplay.submit(game_id, int(seat), uuid.uuid4().hex, bot(loaded.state, seat))
    raise AssertionError("no system job became due")


async def queued_ids(runtime: Runtime, queue_name: str) -> set[str]:
    return {raw.decode() for raw in await runtime.arq.zrange(queue_name, 0, -1)}


async def burst(settings: Settings) -> Worker:
    """Run a worker until the queue is empty (start-up reconciler included), then shut it down."""
    worker = Worker(**{**worker_settings(settings), "burst": True, "poll_delay": 0, "handle_signals": False})
    try:
        await worker.async_run()
    finally:
        await worker.close()
    assert worker.jobs_failed == 0
    return worker


async def assert_ran_once(runtime: Runtime, job: Job) -> None:
    store = runtime.gameplay.store
    commands = await store.commands(job.game_id)
    mine = [c for c in commands if c.command_id == f"system:{job.version}:{job.kind}"]
    assert len(mine) == 1, f"{job.job_id} ran {len(mine)} times"
    assert mine[0].type == job.kind
    assert mine[0].first_version == job.version + 1
    head = await store.head(job.game_id)
    assert [e.version for e in await store.read(job.game_id)] == list(range(1, head.version + 1))
    spans = sorted((c.first_version, c.last_version) for c in commands)
    assert [first for first, _ in spans] == [1] + [last + 1 for _, last in spans[:-1]]  # no gap, no overlap


async def test_the_worker_runs_a_due_job_exactly_once(runtime: Runtime, settings: Settings) -> None:
    job = await until_system_job(runtime)
    assert job.job_id in await queued_ids(runtime, settings.queue_name)  # enqueued after the append

    worker = await burst(settings)

    assert worker.jobs_complete >= 1
    await assert_ran_once(runtime, job)

    # The same job delivered again (at-least-once) finds the game moved on: nothing is appended.
    head = await runtime.gameplay.store.head(job.game_id)
    assert await runtime.arq.enqueue_job(job.kind, job.game_id, job.version, _job_id=job.job_id) is not None
    await burst(settings)
    assert (await runtime.gameplay.store.head(job.game_id)).version >= head.version
    await assert_ran_once(runtime, job)


async def test_a_lost_queue_is_rebuilt_by_the_reconciler(runtime: Runtime, settings: Settings) -> None:
    job = await until_system_job(runtime, seed=11)
    assert job.job_id in await queued_ids(runtime, settings.queue_name)

    # Redis loses the queue: the sorted set and the job's own key go.
    await runtime.arq.delete(settings.queue_name, job_key_prefix + job.job_id)
    assert await queued_ids(runtime, settings.queue_name) == set()

    await burst(settings)  # its start-up reconciler re-enqueues what the games say is due

    await assert_ran_once(runtime, job)
    # And once more for the next system job of the same game, with the reconciler called directly.
    later = await until_system_job(runtime, job.game_id, seed=12)
    await runtime.arq.delete(settings.queue_name, job_key_prefix + later.job_id)
    assert await runtime.gameplay.reconcile() >= 1
    assert later.job_id in await queued_ids(runtime, settings.queue_name)
    await burst(settings)
    await assert_ran_once(runtime, later)
    await assert_ran_once(runtime, job)
