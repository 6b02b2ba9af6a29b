"""Loading games: the folded state of a game from this process's cache, its latest snapshot and the events after
it. Both sides of the service use it: commands decide on what it loads, queries show it.

Loading a game this process holds costs one read, of the events it has not seen (none if it is current); any
other game costs two: its head (its type) with its latest snapshot, and the events after the snapshot.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

from cachetools import LRUCache

from domain.kernel import SYSTEM, Actor, GameModule, Seat
from domain.kernel.table import Entry, Rewound, fold_log
from infra.codec import GameCodec
from infra.errors import StreamNotFound
from infra.eventstore import EventStore, StoredEvent

from .cache import GameCache, Loaded
from .inflight import InFlight

SEEDS_KEPT = 20_000
"""Games whose secret seed this process remembers (a seed never changes)."""


class GameLoader:
    def __init__(self, store: EventStore, games: Mapping[str, GameModule[Any]], cache_size: int = 2048) -> None:
        self.store = store
        self.games = dict(games)
        self.codecs = {name: GameCodec(game) for name, game in games.items()}
        self.cache = GameCache(cache_size)
        self._seeds: LRUCache[str, bytes] = LRUCache(maxsize=SEEDS_KEPT)
        self._reading: InFlight[str, Loaded] = InFlight()
        """The shared read under way per game (:meth:`load_shared`)."""

    def module(self, game_type: str) -> GameModule[Any]:
        try:
            return self.games[game_type]
        except KeyError:
            raise StreamNotFound(f"unknown game type {game_type!r}") from None

    async def load(self, game_id: str) -> Loaded:
        """The current state (see the module docstring for what it costs)."""
        cached = self.cache.get(game_id)
        if cached is None:
            head, snapshot = await self.store.head_with_snapshot(game_id)
            game, codec = self.module(head.game_type), self.codecs[head.game_type]
            if snapshot is None:
                cached = Loaded(head.game_type, 0, game.initial_state())
            elif snapshot.schema == codec.state_schema:
                cached = Loaded(head.game_type, snapshot.version, codec.decode_state(snapshot.state))
            else:  # the latest snapshot is of an older state layout: the latest of this one, if any
                cached = await self.base(game_id, head.game_type, at_most=None)
        return await self.fold(game_id, cached, until=None)

    async def load_shared(self, game_id: str, at_least: int) -> Loaded:
        """The current state, as :meth:`load`, once the store holds version ``at_least``, with one read shared by
        every concurrent caller: the event streams of a game all wake at one announcement, and without this each
        would read the same events (a hundred streams, a hundred reads queued for the pool). A read already under
        way when the caller came may have begun before ``at_least`` was committed; then the caller shares (or
        starts) one more, which began after it heard of ``at_least``."""
        loaded, joined = await self._reading.run(game_id, partial(self.load, game_id))
        if joined and loaded.version < at_least:
            loaded, _ = await self._reading.run(game_id, partial(self.load, game_id))
        return loaded

    async def game_type(self, game_id: str) -> str:
        """The type of a game (StreamNotFound for an unknown one); no I/O for a game this process holds."""
        cached = self.cache.get(game_id)
        return cached.game_type if cached is not None else (await self.store.head(game_id)).game_type

    async def load_until(self, game_id: str, version: int) -> Loaded:
        """The state at ``version`` (or the latest one before it) for a job due there, without reading the head:
        the cached state, plus the events up to ``version`` if it is behind. A game that has moved past
        ``version`` in another process is caught by the append's expected version, as any race is."""
        cached = self.cache.get(game_id)
        if cached is None:
            return await self.load(game_id)  # the head tells the game's type
        if cached.version >= version:
            return cached  # at that version as far as we know, or a stale job
        return await self.fold(game_id, cached, until=version)

    async def fold(self, game_id: str, base: Loaded, until: int | None) -> Loaded:
        """``base`` (a state this process holds or has just read) plus the events after it up to ``until``; the
        result is remembered. The game is known to exist, so reading no events is no error."""
        loaded, stored = await self.folded_from(game_id, base, until)
        self.cache.remember(game_id, loaded, stored)
        return loaded

    async def folded_from(
        self, game_id: str, base: Loaded, until: int | None
    ) -> tuple[Loaded, Sequence[StoredEvent]]:
        """``base`` plus the events after it up to ``until`` (and those events). A takeback among them that reaches
        back to ``base`` or before (``table.moves_undone``) is folded from the latest snapshot before the moves
        it takes back, else from the start (:func:`~domain.kernel.table.fold_log`)."""
        while True:
            stored = await self.store.read(game_id, after=base.version, until=until, known=True)
            try:
                return self.folded(base, stored), stored
            except Rewound as rewound:
                base = await self.base(game_id, base.game_type, at_most=rewound.back_to - 1)

    async def state_at(self, game_id: str, game_type: str, version: int) -> Loaded:
        """The state after event ``version`` (at most the head), folded from the latest snapshot at or before it."""
        base = await self.base(game_id, game_type, at_most=version)
        loaded, _ = await self.folded_from(game_id, base, version)
        return loaded

    async def log(self, game_id: str, game_type: str, until: int) -> list[Entry]:
        """The whole log up to ``until``, each event with what caused it: what a takeback request is judged on."""
        codec = self.codecs[game_type]
        return [Entry(e.version, actor_of(e.actor), e.command_id, codec.decode_event(e.payload))
                for e in await self.store.read(game_id, after=0, until=until, known=True)]

    async def base(self, game_id: str, game_type: str, at_most: int | None) -> Loaded:
        """The latest snapshot at or before ``at_most``, else the initial state."""
        codec = self.codecs[game_type]
        snapshot = await self.store.latest_snapshot(game_id, codec.state_schema, at_most=at_most)
        if snapshot is None:
            return Loaded(game_type, 0, self.module(game_type).initial_state())
        return Loaded(game_type, snapshot.version, codec.decode_state(snapshot.state))

    def folded(self, base: Loaded, stored: Sequence[StoredEvent]) -> Loaded:
        if not stored:
            return base
        game, codec = self.module(base.game_type), self.codecs[base.game_type]
        state = fold_log(game.evolve, base.state, ((e.version, codec.decode_event(e.payload)) for e in stored),
                         base.version)
        return Loaded(base.game_type, stored[-1].version, state)

    async def seed(self, game_id: str) -> bytes:
        seed = self._seeds.get(game_id)
        if seed is None:
            seed = self._seeds[game_id] = await self.store.seed(game_id)
        return seed

    def remember_seed(self, game_id: str, seed: bytes) -> None:
        self._seeds[game_id] = seed


def actor_of(text: str) -> Actor:
    """A stored actor (``system`` or ``seat:<n>``) as the rules know it."""
    return SYSTEM if text == "system" else Seat(int(text.removeprefix("seat:")))
