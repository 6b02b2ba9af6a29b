"""The messages of event streams are made once per (game, version, viewer, announcement) and shared, and a viewer
never gets another viewer's: in a game of hidden hands each seat's message is its own."""

from __future__ import annotations

import asyncio
from typing import Any

import msgspec

from domain import decktet
from domain.kernel import PUBLIC, Seat
from infra.eventstore import StoredEvent
from infra.eventstore.memory import InMemoryEventStore
from infra.notify import RecordingNotifier
from infra.queue import RecordingJobQueue
from services.api.controllers.stream import SharedPages
from services.api.pages import events_page
from services.gameplay import Gameplay


async def test_each_viewer_gets_its_own_message_and_the_same_viewer_the_same_bytes() -> None:
    gameplay = Gameplay(InMemoryEventStore(), RecordingJobQueue(), RecordingNotifier(), {"decktet": decktet.GAME})
    game_id = (await gameplay.create_game("decktet", decktet.GAME.options_type(), seed=b"shared-pages")).game_id
    head = (await gameplay.load(game_id)).version
    pages = SharedPages()
    messages = {}
    for viewer in (Seat(0), Seat(1), PUBLIC):
        found = await pages.new_events(gameplay, game_id, 0, viewer, head)
        assert found is not None
        message = found[1]
        own = await events_page(gameplay.queries, game_id, 0, viewer, head)
        assert message.encode() == (await pages.new_events(gameplay, game_id, 0, viewer, head) or found)[1].encode()
        assert msgspec.json.decode(str(message.data)) == msgspec.json.decode(msgspec.json.encode(own))
        messages[viewer] = message.encode()
    assert len(set(messages.values())) == 3  # the hands dealt differ by viewer: nothing shared across viewers


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
    pages = SharedPages()
    found = await asyncio.gather(*(pages.new_events(gameplay, game_id, 0, PUBLIC, head) for _ in range(50)))
    assert all(f is not None for f in found)
    assert len({id(f[1]) for f in found if f is not None}) == 1  # one message made, sent fifty times
