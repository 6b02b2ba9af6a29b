"""The messages of event streams are made once per (game, version, viewer, announcement) and shared, and a viewer
never gets another viewer's: in a game of hidden hands each seat's message is its own."""

from __future__ import annotations

import msgspec

from domain import decktet
from domain.kernel import PUBLIC, Seat
from infra.eventstore.memory import InMemoryEventStore
from infra.notify import RecordingNotifier
from infra.queue import RecordingJobQueue
from services.api.controllers.games import events_page
from services.api.controllers.stream import SharedPages
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
