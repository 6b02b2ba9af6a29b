"""A seat cannot take the service's command ids; a retry after a failure between the append and the enqueue
gets the first result and the game is scheduled again; a retried creation with an idempotency key gets the
same game and tokens. In-memory store and fakes (the PostgreSQL versions are in tests/integration)."""

from __future__ import annotations

import pytest

from domain.kernel import Chance
from domain.magnate import GAME, GameOptions, SeatSpec
from domain.magnate.bots import RandomLegal
from infra.errors import CommandIdReserved, IdempotencyKeyReused, InvalidIdempotencyKey, StoreUnavailable
from infra.eventstore.memory import InMemoryEventStore
from infra.notify import RecordingNotifier
from infra.queue import Job, RecordingJobQueue
from services.gameplay import Gameplay
from services.gameplay.creation_keys import key_hash

GAMES = {"magnate": GAME}
THREE_SEATS = GameOptions(seats=(SeatSpec(), SeatSpec(), SeatSpec()))
SOLO = GameOptions(seats=(SeatSpec(), SeatSpec(kind="ai")), difficulty="generalised_ai")
SEED = b"ids-and-retries"
KEY = "3f0c6a3e-5b1d-4c1e-9d44-0a8c2b7e9f11"


class FlakyQueue(RecordingJobQueue):
    """Records jobs; fails the next ``failures`` enqueues as Redis being away does."""

    def __init__(self) -> None:
        super().__init__()
        self.failures = 0

    async def enqueue(self, job: Job) -> bool:
        if self.failures:
            self.failures -= 1
            raise StoreUnavailable("Redis is unavailable: connection refused")
        return await super().enqueue(job)


class FlakyNotifier(RecordingNotifier):
    def __init__(self) -> None:
        super().__init__()
        self.failures = 0

    async def published(self, game_id: str, version: int) -> None:
        if self.failures:
            self.failures -= 1
            raise StoreUnavailable("Redis is unavailable: connection refused")
        await super().published(game_id, version)


@pytest.fixture
def queue() -> FlakyQueue:
    return FlakyQueue()


@pytest.fixture
def notifier() -> FlakyNotifier:
    return FlakyNotifier()


@pytest.fixture
def gameplay(queue: FlakyQueue, notifier: FlakyNotifier) -> Gameplay:
    return Gameplay(InMemoryEventStore(), queue, notifier, GAMES)


@pytest.mark.parametrize("command_id", [
    "start", "reveal:{game}", "system:1:magnate.roll_dice", "system:{version}:magnate.ai_turn", "my:id", "a b",
    "", "x" * 101, "naïve",
])
async def test_a_seat_cannot_use_an_id_of_the_services_namespace(gameplay: Gameplay, command_id: str) -> None:
    game_id = (await gameplay.create_game("magnate", THREE_SEATS, seed=SEED)).game_id
    loaded = await gameplay.load(game_id)
    (seat,) = GAME.pending(loaded.state).seats
    command = RandomLegal(1)(loaded.state, seat)

    with pytest.raises(CommandIdReserved):
        await gameplay.submit(game_id, int(seat), command_id.format(game=game_id, version=loaded.version), command)

    assert (await gameplay.store.head(game_id)).version == loaded.version
    assert [c.command_id for c in await gameplay.store.commands(game_id)] == ["start"]


@pytest.mark.parametrize("command_id", ["click-1", "0b5d0c1e-7a51-4b0e-8d7e-2f7b5f2d9a10", "a.b_c~d", "x" * 100])
async def test_client_ids_of_the_client_alphabet_are_taken(gameplay: Gameplay, command_id: str) -> None:
    game_id = (await gameplay.create_game("magnate", THREE_SEATS, seed=SEED)).game_id
    loaded = await gameplay.load(game_id)
    (seat,) = GAME.pending(loaded.state).seats
    applied = await gameplay.submit(game_id, int(seat), command_id, RandomLegal(1)(loaded.state, seat))
    assert applied.version > loaded.version


async def test_a_retry_after_redis_failed_behind_a_commit_gets_the_first_result(
    gameplay: Gameplay, notifier: FlakyNotifier
) -> None:
    game_id = (await gameplay.create_game("magnate", THREE_SEATS, seed=SEED)).game_id
    loaded = await gameplay.load(game_id)
    (seat,) = GAME.pending(loaded.state).seats
    command = RandomLegal(1)(loaded.state, seat)

    notifier.failures = 1
    with pytest.raises(StoreUnavailable):
        await gameplay.submit(game_id, int(seat), "bid-1", command)
    committed = await gameplay.store.head(game_id)
    assert committed.version > loaded.version  # the append had committed before Redis failed

    retried = await gameplay.submit(game_id, int(seat), "bid-1", command)
    assert retried.duplicate and retried.version == committed.version
    assert (await gameplay.store.head(game_id)).version == committed.version  # applied once


async def test_a_retried_command_schedules_the_job_its_first_try_could_not(
    gameplay: Gameplay, queue: FlakyQueue
) -> None:
    game_id = (await gameplay.create_game("magnate", SOLO, seed=SEED)).game_id
    policy = RandomLegal(3)
    for _ in range(200):  # play the human seat until one of its moves makes a system job due
        loaded = await gameplay.load(game_id)
        due = GAME.pending(loaded.state)
        if due.system is not None:
            job = queue.jobs[-1]
            assert await gameplay.run_system(job.game_id, job.version, job.kind)
            continue
        (seat,) = due.seats
        command = policy(loaded.state, seat)
        after = GAME.step(loaded.state, seat, command, Chance(SEED, loaded.version + 1))[1]
        if GAME.pending(after).system is None:
            await gameplay.submit(game_id, int(seat), f"m{loaded.version}", command)
            continue
        queue.failures = 1
        with pytest.raises(StoreUnavailable):
            await gameplay.submit(game_id, int(seat), f"m{loaded.version}", command)
        head = await gameplay.store.head(game_id)
        assert head.system_job is not None and not [j for j in queue.jobs if j.version == head.version]

        await gameplay.submit(game_id, int(seat), f"m{loaded.version}", command)
        assert queue.jobs[-1] == Job(game_id, head.version, head.system_job)
        return
    pytest.fail("no seat move made a system job due")


async def test_a_creation_retried_with_its_key_returns_the_same_game_and_tokens(gameplay: Gameplay) -> None:
    first = await gameplay.create_game("magnate", THREE_SEATS, ["Ann", "Bo", "Cy"], idempotency_key=KEY)
    again = await gameplay.create_game("magnate", THREE_SEATS, ["Ann", "Bo", "Cy"], idempotency_key=KEY)
    assert again == first
    assert all(s.token for s in first.seats)
    for s in first.seats:
        assert s.token is not None
        assert await gameplay.queries.seat_for_token(first.game_id, s.token) == s.seat

    other = await gameplay.create_game("magnate", THREE_SEATS, ["Ann", "Bo", "Cy"], idempotency_key=KEY[::-1])
    assert other.game_id != first.game_id
    assert {s.token for s in other.seats}.isdisjoint({s.token for s in first.seats})


async def test_a_creation_key_with_another_request_is_refused(gameplay: Gameplay) -> None:
    await gameplay.create_game("magnate", THREE_SEATS, ["Ann", "Bo", "Cy"], idempotency_key=KEY)
    with pytest.raises(IdempotencyKeyReused):
        await gameplay.create_game("magnate", THREE_SEATS, ["Ann", "Bo", "Di"], idempotency_key=KEY)


@pytest.mark.parametrize("key", ["short", "x" * 129, "has space in it 123", "colon:colon:colon:"])
async def test_a_malformed_creation_key_is_refused(gameplay: Gameplay, key: str) -> None:
    with pytest.raises(InvalidIdempotencyKey):
        await gameplay.create_game("magnate", THREE_SEATS, idempotency_key=key)


async def test_a_creation_that_failed_behind_its_commit_is_found_and_scheduled_by_its_retry(
    gameplay: Gameplay, queue: FlakyQueue, notifier: FlakyNotifier
) -> None:
    queue.failures = notifier.failures = 1  # whichever the new game needs, it fails once
    with pytest.raises(StoreUnavailable):
        await gameplay.create_game("magnate", SOLO, seed=SEED, idempotency_key=KEY)
    again = await gameplay.create_game("magnate", SOLO, seed=SEED, idempotency_key=KEY)

    found = await gameplay.store.find_creation(key_hash(KEY))
    assert found is not None and found.game_id == again.game_id  # one game, not an orphan per retry
    head = await gameplay.store.head(again.game_id)
    due = [Job(again.game_id, head.version, head.system_job)] if head.system_job is not None else []
    assert queue.jobs == due
