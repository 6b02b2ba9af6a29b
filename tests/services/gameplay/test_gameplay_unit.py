"""The gameplay service over the in-memory event store and recording fakes: fast checks of the
load -> decide -> append -> announce -> enqueue cycle (the PostgreSQL versions are in tests/integration)."""

from __future__ import annotations

import uuid

import pytest

from domain.kernel import Pending, tag_of
from domain.magnate import GAME, GameOptions, SeatSpec
from domain.magnate.bots import RandomLegal
from infra.eventstore.memory import InMemoryEventStore
from infra.notify import RecordingNotifier
from infra.queue import Job, RecordingJobQueue
from services.gameplay import Gameplay
from services.gameplay.audit import export_lines, verify

GAMES = {"magnate": GAME}
THREE_SEATS = GameOptions(seats=(SeatSpec(), SeatSpec(), SeatSpec()))
SEED = b"unit-test-seed"


class CheckingQueue(RecordingJobQueue):
    """Records jobs, and checks at enqueue time that the version the job is for is already stored."""

    def __init__(self, store: InMemoryEventStore) -> None:
        super().__init__()
        self.store = store
        self.heads_seen: list[int] = []

    async def enqueue(self, job: Job) -> bool:
        self.heads_seen.append((await self.store.head(job.game_id)).version)
        return await super().enqueue(job)


@pytest.fixture
def store() -> InMemoryEventStore:
    return InMemoryEventStore()


@pytest.fixture
def gameplay(store: InMemoryEventStore) -> Gameplay:
    return Gameplay(store, CheckingQueue(store), RecordingNotifier(), GAMES, snapshot_every=25)


def queue_of(gameplay: Gameplay) -> CheckingQueue:
    assert isinstance(gameplay.queue, CheckingQueue)
    return gameplay.queue


async def step(gameplay: Gameplay, game_id: str, policy: RandomLegal) -> Pending:
    """One move by whoever must act; returns what was pending before it."""
    loaded = await gameplay.load(game_id)
    due = GAME.pending(loaded.state)
    if due.system is not None:
        job = queue_of(gameplay).jobs[-1]
        assert await gameplay.run_system(job.game_id, job.version, job.kind)
    elif due.seats:
        await gameplay.submit(game_id, int(due.seats[0]), uuid.uuid4().hex, policy(loaded.state, due.seats[0]))
    return due


async def test_a_full_game_ends_with_standings_and_a_verifiable_export(gameplay: Gameplay) -> None:
    game_id = (await gameplay.create_game("magnate", THREE_SEATS, seed=SEED)).game_id
    policy = RandomLegal(21)
    for _ in range(2000):
        if (await step(gameplay, game_id, policy)).finished:
            break
    head = await gameplay.store.head(game_id)
    assert head.status == "finished"
    state = (await gameplay.load(game_id)).state
    assert sorted(s.seat for s in state.standings) == [0, 1, 2]

    cold = Gameplay(gameplay.store, RecordingJobQueue(), RecordingNotifier(), GAMES, snapshot_every=25)
    assert (await cold.load(game_id)).state == state

    verdict = verify(await export_lines(gameplay, game_id), GAMES)
    assert verdict.ok, verdict.problems
    assert verdict.replayed == verdict.commands == len(await gameplay.store.commands(game_id))


async def test_a_repeated_command_returns_the_first_result(gameplay: Gameplay) -> None:
    game_id = (await gameplay.create_game("magnate", THREE_SEATS, seed=SEED)).game_id
    loaded = await gameplay.load(game_id)
    (seat,) = GAME.pending(loaded.state).seats
    command = RandomLegal(1)(loaded.state, seat)

    first = await gameplay.submit(game_id, int(seat), "click-1", command)
    again = await gameplay.submit(game_id, int(seat), "click-1", command)
    cold = Gameplay(gameplay.store, RecordingJobQueue(), RecordingNotifier(), GAMES)
    later = await cold.submit(game_id, int(seat), "click-1", command)

    assert (first.duplicate, again.duplicate, later.duplicate) == (False, True, True)
    assert first.events and again.events == first.events == later.events
    assert again.version == later.version == first.version == (await gameplay.store.head(game_id)).version


async def test_jobs_are_enqueued_after_the_append_with_deterministic_ids(gameplay: Gameplay) -> None:
    game_id = (await gameplay.create_game("magnate", THREE_SEATS, seed=SEED)).game_id
    policy = RandomLegal(8)
    while not queue_of(gameplay).jobs:
        assert not (await step(gameplay, game_id, policy)).finished

    queue = queue_of(gameplay)
    (job,) = queue.jobs
    loaded = await gameplay.load(game_id)
    due = GAME.pending(loaded.state).system
    assert due is not None
    assert job == Job(game_id, loaded.version, tag_of(due))
    assert job.job_id == f"{game_id}:{loaded.version}:{tag_of(due)}"
    assert queue.heads_seen == [job.version]  # the events were stored before the job was queued
    assert (await gameplay.store.head(game_id)).system_job == job.kind
    assert isinstance(gameplay.notifier, RecordingNotifier)
    assert gameplay.notifier.published_versions[-1] == (game_id, job.version)

    # Running it moves the game on; the reconciler finds nothing left to queue for this game.
    assert await gameplay.run_system(job.game_id, job.version, job.kind)
    assert not await gameplay.run_system(job.game_id, job.version, job.kind)
    assert all(h.game_id != game_id or h.version > job.version for h in await gameplay.store.due_jobs())
