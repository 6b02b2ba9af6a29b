"""The story of each game this process was asked to tell, kept and told on as the game goes on.

The page asks for the history after every update; telling it from the first event each time meant reading
and narrating the whole log per request. A narrator is a fold (it names things from what it was told
before), so a story kept at version v is brought up to date by telling it only the events after v — which
the gameplay service usually holds in memory already. Lines of told events never change.

A story is told from the events its reader may see (:meth:`Gameplay.visible_events`): a game whose events
are all public has one story for everybody; a game with hidden information has one per viewer until it
ends, so nobody's history tells them a card drawn into another seat's hand.
"""

from __future__ import annotations

import asyncio

from cachetools import LRUCache

from domain.kernel import Narrator, Told, Viewer
from infra.errors import StreamNotFound

from .queries import GameQueries


class NoNarrator(StreamNotFound):
    """The game has no narrator (its module offers none)."""

    code = "history/unavailable"


class _Story:
    __slots__ = ("lock", "narrator", "told", "version")

    def __init__(self, narrator: Narrator) -> None:
        self.narrator = narrator
        self.told: list[Told] = []
        self.version = 0
        self.lock = asyncio.Lock()


class Stories:
    """Stories by game (and by viewer while a game with hidden events runs), the least recently asked for
    dropped beyond ``size``."""

    def __init__(self, size: int = 256) -> None:
        self._stories: LRUCache[tuple[str, str | None], _Story] = LRUCache(maxsize=size)

    async def told_after(
        self, queries: GameQueries, game_id: str, after: int, viewer: Viewer
    ) -> tuple[int, list[Told]]:
        """The current version and the lines telling the events after version ``after`` that ``viewer`` may
        see. NoNarrator for a game whose module tells no story; StreamNotFound for an unknown game."""
        game_type = await queries.loader.game_type(game_id)  # an unknown game: StreamNotFound, no story kept
        module = queries.loader.module(game_type)
        if module.narrator is None:
            raise NoNarrator(f"{game_type} games have no narrated history")
        public = module.events_public or (game_id, None) in self._stories
        key = (game_id, None if public else str(viewer))
        story = self._stories.get(key)
        if story is None:
            names = {s.seat: s.name for s in await queries.store.seats(game_id)}
            story = self._stories[key] = _Story(module.narrator(names))
        codec = queries.loader.codecs[game_type]
        async with story.lock:  # one request tells the new events; the others wait and read
            visible = await queries.visible_events(game_id, story.version, viewer)
            if not public and visible.over:
                # The game has ended and nothing is hidden any more: one whole story, the same for everybody.
                self._stories.pop(key, None)
                names = {s.seat: s.name for s in await queries.store.seats(game_id)}
                self._stories[(game_id, None)] = _Story(module.narrator(names))
                return await self.told_after(queries, game_id, after, viewer)
            for stored in visible.events:
                story.told.extend(story.narrator.tell(stored.version, stored.type, codec.decode_event(stored.payload)))
            story.version = max(story.version, visible.version)
            return story.version, [t for t in story.told if t.version > after]
