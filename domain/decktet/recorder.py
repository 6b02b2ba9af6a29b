"""Emitting events while deciding: a rule that produces several events in sequence (the roll, the end of a turn,
a whole submitted turn) sees the state as it is after each one."""

from __future__ import annotations

from collections.abc import Callable

from .events import DecktetEvent
from .state import DecktetState

Evolve = Callable[[DecktetState, DecktetEvent], DecktetState]


class Recorder:
    """The working state of one decision and the events emitted so far."""

    __slots__ = ("_evolve", "events", "state")

    def __init__(self, state: DecktetState, evolve: Evolve) -> None:
        self.state = state
        self.events: list[DecktetEvent] = []
        self._evolve = evolve

    def emit(self, *events: DecktetEvent) -> None:
        for event in events:
            self.state = self._evolve(self.state, event)
            self.events.append(event)
