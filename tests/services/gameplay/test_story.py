"""The kept stories: told on as a game goes on, they say exactly what telling the whole log again says, to
every reader, whatever version each last asked from; with several requests at once each event is told once."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

from domain.kernel import PUBLIC, Told
from domain.magnate import GAME, GameOptions, SeatSpec
from domain.magnate.bots import RandomLegal
from domain.magnate.narrate import history
from infra.eventstore import StoredEvent
from infra.eventstore.memory import InMemoryEventStore
from infra.notify import RecordingNotifier
from infra.queue import RecordingJobQueue
from services.gameplay import Gameplay
from services.gameplay.story import Stories

SOLO = GameOptions(seats=(SeatSpec(), SeatSpec(kind="ai")), difficulty="generalised_ai")


async def whole_story(gameplay: Gameplay, game_id: str, after: int) -> list[Told]:
    codec = gameplay.codecs["magnate"]
    stored = await gameplay.store.read(game_id)
    return history(((e.version, e.type, codec.decode_event(e.payload)) for e in stored), after)


async def move(gameplay: Gameplay, game_id: str, bot: RandomLegal) -> bool:
    """One move by whoever must act (a job runs at once); False once the game is over."""
    loaded = await gameplay.load(game_id)
    due = GAME.pending(loaded.state)
    if due.finished:
        return False
    if due.system is not None:
        assert isinstance(gameplay.queue, RecordingJobQueue)
        job = gameplay.queue.jobs[-1]
        assert await gameplay.run_system(job.game_id, job.version, job.kind)
    else:
        await gameplay.submit(game_id, int(due.seats[0]), uuid.uuid4().hex, bot(loaded.state, due.seats[0]))
    return True


async def test_a_story_told_on_says_what_the_whole_log_says() -> None:
    gameplay = Gameplay(InMemoryEventStore(), RecordingJobQueue(), RecordingNotifier(), {"magnate": GAME})
    game_id = (await gameplay.create_game("magnate", SOLO, seed=b"story")).game_id
    stories, bot = Stories(), RandomLegal(3)
    seen = 0
    for turn in range(400):
        if turn % 7 == 0:
            version, lines = await stories.told_after(gameplay.queries, game_id, seen, PUBLIC)
            assert lines == await whole_story(gameplay, game_id, seen)
            assert version == (await gameplay.store.head(game_id)).version
            seen = version
        if not await move(gameplay, game_id, bot):
            break
    # a reader who never asked before, and one asking from the start, get the same as a fresh telling
    fresh = Stories()
    for after in (0, seen // 2, seen):
        whole = await whole_story(gameplay, game_id, after)
        assert (await fresh.told_after(gameplay.queries, game_id, after, PUBLIC))[1] == whole
        assert (await stories.told_after(gameplay.queries, game_id, after, PUBLIC))[1] == whole


class YieldingStore(InMemoryEventStore):
    """Reads that let other requests run meanwhile, as a real database's do."""

    async def read(self, *args: Any, **kwargs: Any) -> list[StoredEvent]:
        await asyncio.sleep(0)
        return await super().read(*args, **kwargs)


async def test_requests_at_once_tell_each_event_once() -> None:
    gameplay = Gameplay(YieldingStore(), RecordingJobQueue(), RecordingNotifier(), {"magnate": GAME})
    game_id = (await gameplay.create_game("magnate", SOLO, seed=b"story-2")).game_id
    bot, stories = RandomLegal(5), Stories()
    for _ in range(30):
        await move(gameplay, game_id, bot)
    answers = await asyncio.gather(*(stories.told_after(gameplay.queries, game_id, 0, PUBLIC) for _ in range(5)))
    whole = await whole_story(gameplay, game_id, 0)
    assert all(lines == whole for _, lines in answers)
