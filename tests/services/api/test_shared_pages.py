"""The messages of the page's stream are made once per (game, version, viewer, language, announcement) and shared,
and a viewer never gets another viewer's: in a game of hidden hands each seat's messages are its own."""

from __future__ import annotations

import asyncio
from typing import Any

import msgspec

from domain import decktet
from domain.kernel import PUBLIC, Seat
from infra.eventstore import StoredEvent
from infra.eventstore.memory import InMemoryEventStore
from infra.eventstore.memory_tables import InMemoryTables
from infra.notify import RecordingNotifier
from infra.queue import RecordingJobQueue
from services.api.page_stream import SharedPages, Sources
from services.api.pages import events_page
from services.gameplay import Gameplay
from services.gameplay.seating import Seating
from services.gameplay.story import Stories
from services.gameplay.tables import Tables
from services.language.catalogs import Catalogs
from services.language.domains import all_domains

WORDS = Catalogs(all_domains({"decktet": decktet.GAME}, {}), ("en", "de"))


def sources(gameplay: Gameplay, store: InMemoryEventStore) -> Sources:
    return Sources(gameplay, Stories(), WORDS, Tables(gameplay, Seating(gameplay), InMemoryTables(store)))


async def test_each_viewer_gets_its_own_message_and_the_same_viewer_the_same_bytes() -> None:
    store = InMemoryEventStore()
    gameplay = Gameplay(store, RecordingJobQueue(), RecordingNotifier(), {"decktet": decktet.GAME})
    game_id = (await gameplay.create_game("decktet", decktet.GAME.options_type(), seed=b"shared-pages")).game_id
    head = (await gameplay.load(game_id)).version
    pages, made = SharedPages(), sources(gameplay, store)
    messages = {}
    for viewer in (Seat(0), Seat(1), PUBLIC):
        for language in ("en", "de"):
            built = await pages.new_messages(made, game_id, 0, viewer, language, head)
            assert built is not None and built.version == head
            assert [p.event for p in built.parts] == ["history", "state", "events"]
            assert await pages.new_messages(made, game_id, 0, viewer, language, head) is built  # shared
            own = await events_page(gameplay.queries, game_id, 0, viewer, head)
            assert msgspec.json.decode(built.parts[-1].data) == msgspec.json.decode(msgspec.json.encode(own))
            messages[viewer, language] = b"".join(p.encoded for p in built.parts)
    assert len(set(messages.values())) == 6  # hands differ by viewer, the story by language: nothing shared


class SlowStore(InMemoryEventStore):
    """Reads take a turn of the loop, as a round trip does."""

    async def read(self, *args: Any, **kwargs: Any) -> list[StoredEvent]:
        await asyncio.sleep(0)
        return await super().read(*args, **kwargs)


async def test_streams_that_wake_together_wait_for_one_message() -> None:
    store = SlowStore()
    creator = Gameplay(store, RecordingJobQueue(), RecordingNotifier(), {"decktet": decktet.GAME})
    game_id = (await creator.create_game("decktet", decktet.GAME.options_type(), seed=b"shared-pages")).game_id
    head = (await creator.load(game_id)).version
    # the streams' process has not seen the game: the message needs a read of the store
    gameplay = Gameplay(store, RecordingJobQueue(), RecordingNotifier(), {"decktet": decktet.GAME})
    pages, made = SharedPages(), sources(gameplay, store)
    found = await asyncio.gather(*(pages.new_messages(made, game_id, 0, PUBLIC, "en", head) for _ in range(50)))
    assert all(f is not None for f in found)
    assert len({id(f) for f in found}) == 1  # one message made, sent fifty times
