"""The story of each game this process was asked to tell, kept and told on as the game goes on.

The page asks for the history after every update; telling it from the first event each time meant reading
and narrating the whole log per request. The narrator is a fold (it names things from what it was told
before), so a story kept at version v is brought up to date by telling it only the events after v — which
the gameplay service usually holds in memory already. Lines of told events never change.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict

from .handler import Gameplay
from .narrate import Narrator, Told, tell

NARRATED = frozenset({"magnate"})
"""Game types this module can tell."""


class _Story:
    __slots__ = ("lock", "narrator", "told", "version")

    def __init__(self) -> None:
        self.narrator = Narrator()
        self.told: list[Told] = []
        self.version = 0
        self.lock = asyncio.Lock()


class Stories:
    """Stories by game, the least recently asked for dropped beyond ``size``."""

    def __init__(self, size: int = 256) -> None:
        self._stories: OrderedDict[str, _Story] = OrderedDict()
        self._size = size

    async def told_after(self, gameplay: Gameplay, game_id: str, after: int) -> tuple[int, list[Told]]:
        """The current version and the lines telling the events after version ``after``."""
        game_type = await gameplay.game_type(game_id)  # an unknown game: StreamNotFound, and no story kept
        story = self._stories.get(game_id)
        if story is None:
            story = self._stories[game_id] = _Story()
            while len(self._stories) > self._size:
                self._stories.popitem(last=False)
        self._stories.move_to_end(game_id)
        async with story.lock:  # one request tells the new events; the others wait and read
            version, events = await gameplay.events_after(game_id, story.version)
            codec = gameplay.codecs[game_type]
            for stored in events:
                story.told.extend(tell(story.narrator, stored.version, stored.type, codec.decode_event(stored.payload)))
            story.version = max(story.version, version)
            return story.version, [t for t in story.told if t.version > after]
