"""The story of each game this process was asked to tell, kept and told on as the game goes on.

The page asks for the history after every update; telling it from the first event each time meant reading
and narrating the whole log per request. A narrator is a fold (it names things from what it was told
before), so a story kept at version v is brought up to date by telling it only the events after v — which
the gameplay service usually holds in memory already. Lines of told events never change, but for the mark of a
takeback (:mod:`.story_undone`: "(taken back)").

A story is told from the events its reader may see (:meth:`Gameplay.visible_events`): a game whose events
are all public has one story for everybody; a game with hidden information has one per viewer until it
ends, so nobody's history tells them a card drawn into another seat's hand.

A story is kept in no language (its lines are phrases); :meth:`Stories.told_in` renders it in the reader's, the
seats named as the seats table names them (the players' chosen names, else "Player 2" in that language: the log's
claims record no name). The lines rendered in each language are kept with the story, so a language's reader renders
only the new ones; a story whose seats' names changed since (a claim, a deleted account) is told again.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec
from cachetools import LRUCache

from domain.kernel import GameModule, Narrator, Told, Viewer
from domain.kernel.narration import seat_phrase
from domain.kernel.phrases import Phrase, plain, say
from domain.kernel.table import MovesUndone, SeatClaimed
from infra.errors import StreamNotFound
from services.language.catalogs import Catalogs
from services.language.render import Renderer

from .command_ids import PLANNED
from .moment import Moment
from .queries import GameQueries
from .story_undone import taken_back

KERNEL = "kernel"
"""The words every game shares (a game without catalogs of its own is told in them)."""


class NoNarrator(StreamNotFound):
    """The game has no narrator (its module offers none)."""

    code = "history/unavailable"

    def __init__(self, game_type: str) -> None:
        super().__init__(f"{game_type} games have no narrated history")
        self.game_type = game_type


class _Story:
    __slots__ = ("game_type", "labels", "lock", "names", "narrator", "planned", "rendered", "told", "version",
                 "words")

    def __init__(self, game_type: str, narrator: Narrator, seats: tuple[dict[int, str], dict[int, Phrase]]) -> None:
        self.game_type = game_type
        self.narrator = narrator
        self.names, self.labels = seats
        self.told: list[Told] = []
        self.version = 0
        self.lock = asyncio.Lock()
        self.rendered: dict[str, list[Told]] = {}
        """The first lines of :attr:`told`, rendered, by language."""
        self.words: dict[str, Renderer] = {}
        """The renderer of each language (its names: :attr:`names`, :attr:`labels`)."""
        self.planned = ""
        """The id of the last planned move told (its first line says so)."""

    def forget_rendered(self) -> None:
        """The lines told changed (a takeback) or the seats' names did: render them again."""
        self.rendered.clear()
        self.words.clear()


def renderer(catalogs: Catalogs, game_type: str, language: str, names: Mapping[int, str],
             labels: Mapping[int, Phrase] | None = None) -> Renderer:
    """Renders ``game_type``'s phrases in ``language``, a seat named by its player's name, else by its label
    (``labels``: the game's label in no language, for a seat still called by it: "Computer (easy)"), else
    "Player 2", each in that language (a seat whose stored name is the English "Player 2" is unnamed)."""
    domain = game_type if game_type in catalogs.domains else KERNEL
    translations = catalogs.translations(domain, language)
    unnamed = Renderer(translations, language, lambda seat: "")
    said = dict(labels or {})

    def name(seat: int) -> str:
        if seat in said:
            return unnamed.text(said[seat])
        chosen = names.get(seat, "")
        if not chosen or chosen == plain(seat_phrase(seat)):  # the game's default: "Player 2", in the language
            return unnamed.text(seat_phrase(seat))
        return chosen

    return Renderer(translations, language, name)


def marked_planned(lines: list[Told], command_id: str, last: str) -> tuple[list[Told], str]:
    """The lines of an event of the decision ``command_id``, the first one saying "(planned)" if the decision is a
    move the server played from the seat's plan (:mod:`.plans`) and ``last`` (the last planned move marked) is not
    it; and the planned move now last marked."""
    if not lines or not command_id.startswith(PLANNED) or command_id == last:
        return lines, last
    first = lines[0]
    if first.phrase is None:
        first = msgspec.structs.replace(first, text=f"{first.text} (planned)")
    else:
        first = msgspec.structs.replace(first, phrase=say("{line} (planned)", line=first.phrase))
    return [first, *lines[1:]], command_id


def rendered(lines: Sequence[Told], words: Renderer) -> list[Told]:
    """``lines`` with their text and named seats in ``words``' language (a line told in English stays as it
    was)."""
    out = []
    for line in lines:
        if line.phrase is None:
            out.append(line)
        else:
            text, seats = words.render(line.phrase)
            out.append(msgspec.structs.replace(line, text=text, seats=seats))
    return out


async def seats_of(queries: GameQueries, game_id: str, module: GameModule[Any], moment: Moment | None = None
                   ) -> tuple[dict[int, str], dict[int, Phrase]]:
    """The seats' names (as stored: chosen, else the game's label), and the label in no language of each seat
    still called by its label (from ``moment`` when it is of this game: no read)."""
    if moment is not None and moment.game_id == game_id:
        names, state = moment.names(), moment.loaded.state
    else:
        names = {s.seat: s.name for s in await queries.store.seats(game_id)}
        state = (await queries.loader.load(game_id)).state
    infos = module.seats(state)
    labels = {seat: info.phrase for seat, info in enumerate(infos)
              if info.phrase is not None and names.get(seat) == info.label}
    return names, labels


class Stories:
    """Stories by game (and by viewer while a game with hidden events runs), the least recently asked for
    dropped beyond ``size``."""

    def __init__(self, size: int = 256) -> None:
        self._stories: LRUCache[tuple[str, str | None], _Story] = LRUCache(maxsize=size)

    async def told_after(
        self, queries: GameQueries, game_id: str, after: int, viewer: Viewer, moment: Moment | None = None
    ) -> tuple[int, list[Told]]:
        """The current version and the lines telling the events after version ``after`` that ``viewer`` may
        see. NoNarrator for a game whose module tells no story; StreamNotFound for an unknown game. ``moment``: the
        game as just read (:mod:`.moment`), used instead of the store when it holds what the story has not told."""
        if moment is not None and moment.game_id == game_id:
            game_type = moment.loaded.game_type
        else:
            moment = None
            game_type = await queries.loader.game_type(game_id)  # an unknown game: StreamNotFound, no story kept
        module = queries.loader.module(game_type)
        if module.narrator is None:
            raise NoNarrator(game_type)
        public = module.events_public or (game_id, None) in self._stories
        key = (game_id, None if public else str(viewer))
        story = self._stories.get(key)
        names = moment.names() if moment is not None else {s.seat: s.name for s in await queries.store.seats(game_id)}
        if story is not None and story.names != names:
            # A seat was claimed or renamed since (a deleted account's seat is "Player N" now): the story is told
            # again, so no line, rendered or not, keeps the name it had.
            self._stories.pop(key, None)
            story = None
        if story is None:
            seats = await seats_of(queries, game_id, module, moment)
            story = self._stories[key] = _Story(game_type, module.narrator(seats[0]), seats)
        codec = queries.loader.codecs[game_type]
        async with story.lock:  # one request tells the new events; the others wait and read
            if moment is not None and moment.covers(game_id, story.version) and moment.version >= story.version:
                visible = moment.visible(queries, viewer, story.version)
            else:
                visible = await queries.visible_events(game_id, story.version, viewer)
            if not public and visible.over:
                # The game has ended and nothing is hidden any more: one whole story, the same for everybody.
                self._stories.pop(key, None)
                seats = await seats_of(queries, game_id, module, moment)
                self._stories[(game_id, None)] = _Story(game_type, module.narrator(seats[0]), seats)
                return await self.told_after(queries, game_id, after, viewer, moment)
            claimed = False
            for stored in visible.events:
                event = codec.decode_event(stored.payload)
                claimed = claimed or isinstance(event, SeatClaimed)
                lines, story.planned = marked_planned(story.narrator.tell(stored.version, stored.type, event),
                                                      stored.command_id, story.planned)
                story.told.extend(lines)
                if isinstance(event, MovesUndone):  # the lines already told of the moves taken back say so
                    story.told = taken_back(story.told, event.back_to, stored.version)
                    story.forget_rendered()
            if claimed:  # a player named their seat: the lines already told name it too
                story.names, story.labels = await seats_of(queries, game_id, module, moment)
                story.forget_rendered()
            story.version = max(story.version, visible.version)
            return story.version, [t for t in story.told if t.version > after]

    async def told_in(
        self, queries: GameQueries, game_id: str, after: int, viewer: Viewer, catalogs: Catalogs, language: str
    ) -> tuple[int, list[Told]]:
        """:meth:`told_after` rendered in ``language``."""
        version, told = await self.told_in_each(queries, game_id, after, viewer, catalogs, (language,))
        return version, told[language]

    async def told_in_each(
        self, queries: GameQueries, game_id: str, after: int, viewer: Viewer, catalogs: Catalogs,
        languages: Sequence[str], moment: Moment | None = None,
    ) -> tuple[int, dict[str, list[Told]]]:
        """:meth:`told_after` (told once) rendered in each of ``languages`` (each language's lines rendered once)."""
        await self.told_after(queries, game_id, after, viewer, moment)
        game_type = await queries.loader.game_type(game_id)
        public = (game_id, None) in self._stories
        story = self._stories.get((game_id, None if public else str(viewer)))
        if story is None:  # dropped by the cache in between: told again
            return await self.told_in_each(queries, game_id, after, viewer, catalogs, languages, moment)
        told: dict[str, list[Told]] = {}
        async with story.lock:
            for language in languages:
                words = story.words.get(language)
                if words is None:
                    words = story.words[language] = renderer(catalogs, game_type, language, story.names, story.labels)
                done = story.rendered.setdefault(language, [])
                done.extend(rendered(story.told[len(done):], words))
                told[language] = [t for t in done if t.version > after]
            return story.version, told
