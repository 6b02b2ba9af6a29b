"""A game read once at one version: what every viewer's messages of that version are made from.

A new version of a game is told to every viewer class (the public and each seat) in every language the service
speaks: the story's new lines, the page's state, the events as that viewer may see them. Each of those used to read
the store on its own (the events, the state, the seats, once per viewer class and language: some fifty round trips
for one move of a two-seat game). A :class:`Moment` is the one read they now share: the events after a version as
stored (never handed out as they are: :meth:`Moment.visible` redacts them per viewer, in memory), the state they
lead to, and the seats. It holds nothing a viewer may not see until it is redacted, so it never leaves the service.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from domain.kernel import GameModule, Viewer
from infra.eventstore import SeatRecord, StoredEvent

from .cache import Loaded
from .queries import GameQueries, Visible

__all__ = ["Moment", "read_moment"]


@dataclass(frozen=True, slots=True)
class Moment:
    """Game ``game_id`` at ``loaded.version``: the events after ``after`` up to it (as stored), and its seats."""

    game_id: str
    after: int
    loaded: Loaded
    events: Sequence[StoredEvent]
    seats: Sequence[SeatRecord]
    module: GameModule[Any]
    over: bool

    @property
    def version(self) -> int:
        return self.loaded.version

    def covers(self, game_id: str, after: int) -> bool:
        """Whether the events after ``after`` are all here (a reader behind :attr:`after` must read the store)."""
        return game_id == self.game_id and self.after <= after

    def visible(self, queries: GameQueries, viewer: Viewer, after: int | None = None) -> Visible:
        """The events after ``after`` (default :attr:`after`) as ``viewer`` may see them."""
        events = self.events if after is None or after <= self.after else [e for e in self.events if e.version > after]
        return queries.redacted(self.loaded.game_type, self.version, events, viewer, self.over)

    def names(self) -> dict[int, str]:
        return {s.seat: s.name for s in self.seats}


async def read_moment(queries: GameQueries, game_id: str, after: int, announced: int | None = None) -> Moment:
    """The game as it is now (at least at ``announced`` when given: see :meth:`GameQueries.events_after`), with
    its events after ``after``: one read of the events (none for a game this process holds at that version) and one
    of the seats."""
    _, events, loaded = await queries.read_after(game_id, after, announced)
    module = queries.loader.module(loaded.game_type)
    return Moment(game_id, after, loaded, events, await queries.seats(game_id), module,
                  module.pending(loaded.state).finished)
