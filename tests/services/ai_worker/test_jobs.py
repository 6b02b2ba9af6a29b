"""The worker's job functions, called directly over the in-memory store and fakes."""

from __future__ import annotations

import dataclasses
import uuid
from typing import Any

import msgspec
import pytest
from arq.worker import Retry

from domain.games import GAMES
from domain.magnate import GameOptions, SeatSpec
from domain.magnate.bots import RandomLegal
from infra.config import Settings
from infra.errors import StoreUnavailable
from infra.eventstore.memory import InMemoryEventStore
from infra.notify import RecordingNotifier
from infra.queue import Job, RecordingJobQueue
from services.ai_worker import jobs
from services.ai_worker.settings import worker_settings
from services.gameplay.handler import Gameplay

TWO_HUMANS = GameOptions(seats=(SeatSpec(), SeatSpec()))


@pytest.fixture
def queue() -> RecordingJobQueue:
    return RecordingJobQueue()


@pytest.fixture
def gameplay(queue: RecordingJobQueue) -> Gameplay:
    return Gameplay(InMemoryEventStore(), queue, RecordingNotifier(), GAMES)


async def until_system_job(gameplay: Gameplay, queue: RecordingJobQueue, seed: int = 1) -> Job:
    """Create a game and play random legal moves until the game waits for a system job."""
    created = await gameplay.create_game("magnate", TWO_HUMANS, seed=bytes(32))
    bot = RandomLegal(seed)
    for _ in range(500):
        if queue.jobs:
            return queue.jobs[-1]
        loaded = await gameplay.load(created.game_id)
        seat = GAMES["magnate"].pending(loaded.state).seats[0]
        await gameplay.submit(created.game_id, int(seat), uuid.uuid4().hex, bot(loaded.state, seat))
    raise AssertionError("no system job became due")


def ctx_for(gameplay: Gameplay, job_try: int = 1) -> dict[str, Any]:
    return {"gameplay": gameplay, "job_try": job_try}


def test_one_job_per_system_command_kind_except_start_and_reveal() -> None:
    kinds = jobs.system_kinds(GAMES)
    assert {"magnate.roll_dice", "magnate.process_market"} <= set(kinds)
    assert "magnate.start_game" not in kinds
    assert "magnate.reveal_seed" not in kinds
    assert len(kinds) == len(set(kinds))
    for game in GAMES.values():
        assert not game.service_commands & set(kinds)


def test_a_game_that_names_no_service_only_commands_gets_no_jobs() -> None:
    unnamed = dataclasses.replace(GAMES["magnate"], service_commands=frozenset())
    with pytest.raises(TypeError, match="service-only commands"):
        jobs.system_kinds({"magnate": unnamed})


async def test_a_due_job_runs_once(gameplay: Gameplay, queue: RecordingJobQueue) -> None:
    job = await until_system_job(gameplay, queue)
    run = jobs.system_job(job.kind)

    assert await run(ctx_for(gameplay), job.game_id, job.version) is True

    commands = await gameplay.store.commands(job.game_id)
    assert [c.command_id for c in commands].count(f"system:{job.version}:{job.kind}") == 1
    head = await gameplay.store.head(job.game_id)
    assert head.version > job.version
    events = await gameplay.store.read(job.game_id)
    assert [e.version for e in events] == list(range(1, head.version + 1))

    # The same job delivered again (arq is at-least-once) finds the version moved on and does nothing.
    assert await run(ctx_for(gameplay), job.game_id, job.version) is False
    assert (await gameplay.store.head(job.game_id)).version == head.version


async def test_a_stale_job_is_a_no_op(gameplay: Gameplay, queue: RecordingJobQueue) -> None:
    job = await until_system_job(gameplay, queue)
    before = await gameplay.store.head(job.game_id)
    other = next(k for k in jobs.system_kinds(GAMES) if k != job.kind)

    assert await jobs.system_job(job.kind)(ctx_for(gameplay), job.game_id, job.version - 1) is False
    assert await jobs.system_job(job.kind)(ctx_for(gameplay), job.game_id, job.version + 1) is False
    assert await jobs.system_job(other)(ctx_for(gameplay), job.game_id, job.version) is False

    assert await gameplay.store.head(job.game_id) == before


class Unavailable:
    async def run_system(self, game_id: str, version: int, kind: str) -> bool:
        raise StoreUnavailable("the database is down")

    async def reconcile(self) -> int:
        raise StoreUnavailable("the database is down")


async def test_an_unavailable_store_retries_with_back_off_then_gives_up() -> None:
    run = jobs.system_job("magnate.roll_dice")
    delays = []
    for job_try in range(1, jobs.MAX_TRIES):
        with pytest.raises(Retry) as retry:
            await run(ctx_for(Unavailable(), job_try), "g", 3)  # type: ignore[arg-type]
        delays.append(retry.value.defer_score or 0)
    assert delays == sorted(delays) and delays[0] > 0
    # The last try gives up quietly: the reconciler re-enqueues the job once the store is back.
    assert await run(ctx_for(Unavailable(), jobs.MAX_TRIES), "g", 3) is False  # type: ignore[arg-type]
    assert await jobs.reconcile(ctx_for(Unavailable())) == 0  # type: ignore[arg-type]


async def test_the_reconciler_re_enqueues_a_lost_job(gameplay: Gameplay, queue: RecordingJobQueue) -> None:
    job = await until_system_job(gameplay, queue)
    queue.jobs.clear()  # the queue was lost

    assert await jobs.reconcile(ctx_for(gameplay)) == 1
    assert queue.jobs == [job]
    assert await jobs.system_job(job.kind)(ctx_for(gameplay), job.game_id, job.version) is True


def test_worker_settings() -> None:
    settings = Settings(redis_url="unix:///tmp/redis.sock", queue_name="q", worker_max_jobs=7,
                        worker_poll_delay_s=0.05, worker_job_timeout_s=9, reconcile_every_s=15)
    ws = worker_settings(settings)
    assert [f.name for f in ws["functions"]] == [*jobs.system_kinds(GAMES), "notify.deliver", "table.deadline",
                                                "table.remind", "planned_move"]
    assert ws["queue_name"] == "q"
    assert ws["redis_settings"].unix_socket_path == "/tmp/redis.sock"
    assert ws["keep_result"] == 0
    assert (ws["max_jobs"], ws["poll_delay"], ws["job_timeout"]) == (7, 0.05, 9)
    payload = {"args": ("g", 3), "f": "magnate.roll_dice"}
    assert ws["job_deserializer"](ws["job_serializer"](payload)) == {"args": ["g", 3], "f": "magnate.roll_dice"}
    assert ws["job_serializer"] is msgspec.msgpack.encode  # never pickle
    assert "cron_jobs" not in ws  # the reconciler runs beside the worker: an idle worker logs nothing
    assert ws["health_check_interval"] == settings.worker_health_check_s
    assert ws["on_job_start"].__name__ == "on_job_start"  # the job leases (tests/integration/test_leases.py)


def test_a_worker_needs_redis() -> None:
    with pytest.raises(StoreUnavailable):
        worker_settings(Settings())
