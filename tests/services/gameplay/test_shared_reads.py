"""The event streams of a game wake together at an announcement: one read of the store serves them all, and a read
that began before the announced version was stored is never taken for it."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

from domain.kernel import tag_of
from domain.magnate import GAME, GameOptions, SeatSpec
from domain.magnate.bots import RandomLegal
from infra.eventstore import StoredEvent
from infra.eventstore.memory import InMemoryEventStore
from infra.notify import RecordingNotifier
from infra.queue import RecordingJobQueue
from services.gameplay import Gameplay
from services.gameplay.cache import Loaded


class CountingStore(InMemoryEventStore):
    """Counts reads of events. With ``stall`` set, the next read takes what the store holds and then waits for it
    before answering (a round trip under way while another process appends)."""

    def __init__(self) -> None:
        super().__init__()
        self.reads = 0
        self.stall: asyncio.Event | None = None

    def stall_pending(self) -> bool:
        return self.stall is not None

    async def read(self, *args: Any, **kwargs: Any) -> list[StoredEvent]:
        self.reads += 1
        held = await super().read(*args, **kwargs)
        stall, self.stall = self.stall, None
        if stall is not None:
            await stall.wait()
        await asyncio.sleep(0)
        return held


def service(store: CountingStore) -> Gameplay:
    return Gameplay(store, RecordingJobQueue(), RecordingNotifier(), {"magnate": GAME})


async def a_game() -> tuple[Gameplay, CountingStore, str]:
    store = CountingStore()
    gameplay = service(store)
    game_id = (await gameplay.create_game("magnate", GameOptions(seats=(SeatSpec(), SeatSpec())))).game_id
    gameplay.loader.cache.remember(game_id, Loaded("magnate", 0, GAME.initial_state()))  # this process is behind
    return gameplay, store, game_id


async def move(gameplay: Gameplay, game_id: str) -> int:
    """One move by whoever must act (the service or the first seat); the game's new version."""
    loaded = await gameplay.load(game_id)
    due = GAME.pending(loaded.state)
    if due.system is not None:
        assert await gameplay.run_system(game_id, loaded.version, tag_of(due.system))
    else:
        seat = due.seats[0]
        await gameplay.submit(game_id, int(seat), uuid.uuid4().hex, RandomLegal(1)(loaded.state, seat))
    return (await gameplay.load(game_id)).version


async def test_a_hundred_waiting_streams_share_one_read() -> None:
    gameplay, store, game_id = await a_game()
    head = (await store.head(game_id)).version
    store.reads = 0
    loaded = await asyncio.gather(*(gameplay.loader.load_shared(game_id, head) for _ in range(100)))
    assert store.reads == 1
    assert {x.version for x in loaded} == {head}


async def test_a_read_begun_before_the_announced_version_is_not_taken_for_it() -> None:
    gameplay, store, game_id = await a_game()
    head = (await store.head(game_id)).version
    store.stall = asyncio.Event()
    stalled = store.stall
    early = asyncio.create_task(gameplay.loader.load_shared(game_id, head))  # its read holds the game at head
    while store.stall_pending():  # until that read is under way
        await asyncio.sleep(0)
    newer = await move(service(store), game_id)  # meanwhile another process moves the game on, and announces it
    assert newer > head
    late = asyncio.create_task(gameplay.loader.load_shared(game_id, newer))  # a stream woken by that announcement
    await asyncio.sleep(0)
    stalled.set()
    first, second = await asyncio.gather(early, late)
    assert first.version == head
    assert second.version == newer  # it did not settle for the read under way when it came
