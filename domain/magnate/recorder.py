"""Emitting events while deciding: a rule that produces several events in sequence (the market, the
crash, automatic turn advances) sees the state as it is after each one."""

from __future__ import annotations

from collections.abc import Callable

from .events import MagnateEvent
from .state import MagnateState

Evolve = Callable[[MagnateState, MagnateEvent], MagnateState]


class Recorder:
    """Holds the working state of one decision and the events emitted so far."""

    __slots__ = ("_evolve", "events", "state")

    def __init__(self, state: MagnateState, evolve: Evolve) -> None:
        self.state = state
        self.events: list[MagnateEvent] = []
        self._evolve = evolve

    def emit(self, *events: MagnateEvent) -> None:
        for event in events:
            self.state = self._evolve(self.state, event)
            self.events.append(event)
