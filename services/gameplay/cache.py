"""What one process remembers of the games it served: the folded state at a version and the last events.

Nothing here is truth: every entry is the fold of a prefix of a game's log (read from the store or just
appended by this process), so a stale entry only costs a refused append (the expected version no longer
matches) and a re-read. Entries are kept per game in least-recently-used order and never move backwards:
a slower reader that folded an older version does not replace a newer state.

It also knows when an entry is current without asking the store: while an event stream of this process
follows a game (:meth:`GameCache.follow`), every version any process appends to it is announced to that
stream (:meth:`GameCache.heard`), so an entry at the highest version heard is current but for an append
whose announcement is still on the way — which the append's expected version catches.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Any

import msgspec
from cachetools import LRUCache

from infra.eventstore import StoredEvent

RECENT_EVENTS = 32
"""Events kept per game: enough for the event streams, which usually want the last command's events."""


class Loaded(msgspec.Struct, frozen=True):
    game_type: str
    version: int
    state: Any


class _Entry:
    __slots__ = ("loaded", "recent")

    def __init__(self, loaded: Loaded) -> None:
        self.loaded = loaded
        self.recent: deque[StoredEvent] = deque(maxlen=RECENT_EVENTS)
        """The last events up to ``loaded.version``, contiguous (possibly none)."""


class GameCache:
    def __init__(self, size: int) -> None:
        self._entries: LRUCache[str, _Entry] = LRUCache(maxsize=size)
        self._followers: dict[str, int] = {}
        """Games an event stream of this process follows (how many streams)."""
        self._heard: dict[str, int] = {}
        """The highest version announced to those streams, per followed game."""

    def follow(self, game_id: str) -> None:
        self._followers[game_id] = self._followers.get(game_id, 0) + 1

    def unfollow(self, game_id: str) -> None:
        left = self._followers.get(game_id, 0) - 1
        if left > 0:
            self._followers[game_id] = left
        else:
            self._followers.pop(game_id, None)
            self._heard.pop(game_id, None)

    def heard(self, game_id: str, version: int) -> None:
        """A stream of this process heard that some process appended ``version``."""
        if game_id in self._followers:
            self._heard[game_id] = max(version, self._heard.get(game_id, 0))

    def known_current(self, game_id: str) -> Loaded | None:
        """The kept state, if a stream follows the game and no version heard is ahead of it."""
        if game_id not in self._followers:
            return None
        loaded = self.get(game_id)
        if loaded is None or loaded.version < self._heard.get(game_id, 0):
            return None
        return loaded

    def get(self, game_id: str) -> Loaded | None:
        entry = self._entries.get(game_id)  # a hit makes it the most recently used
        return None if entry is None else entry.loaded

    def remember(self, game_id: str, loaded: Loaded, events: Sequence[StoredEvent] = ()) -> None:
        """Keep ``loaded`` unless a newer version is already kept; ``events`` are the events that lead up to
        it (the last of them is at ``loaded.version``), kept as the recent ones when they join on."""
        entry = self._entries.get(game_id)
        if entry is None:
            entry = self._entries[game_id] = _Entry(loaded)
        elif entry.loaded.version > loaded.version:
            return
        if events and events[-1].version == loaded.version:
            top = entry.recent[-1].version if entry.recent else None
            if top is not None and top >= events[0].version - 1:
                entry.recent.extend(e for e in events if e.version > top)
            else:
                entry.recent.clear()
                entry.recent.extend(events)
        elif loaded.version != entry.loaded.version:
            entry.recent.clear()  # a state without the events that led to it: the recent ones no longer join
        entry.loaded = loaded

    def events_after(self, game_id: str, after: int) -> list[StoredEvent] | None:
        """The kept events after version ``after`` up to the kept state, or None if they are not all kept."""
        entry = self._entries.get(game_id)
        if entry is None:
            return None
        version = entry.loaded.version
        if after >= version:
            return []
        recent = entry.recent
        if not recent or recent[-1].version != version or recent[0].version > after + 1:
            return None
        return [e for e in recent if e.version > after]
