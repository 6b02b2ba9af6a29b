"""Emitting events while deciding: a rule that produces several events in sequence sees the state as it is after
each one (the settle loop, the market's resolution, the meeting)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .state import State

Evolve = Callable[[State, Any], State]


class Recorder:
    """The working state of one decision and the events emitted so far."""

    __slots__ = ("_evolve", "events", "state")

    def __init__(self, state: State, evolve: Evolve) -> None:
        self.state = state
        self.events: list[Any] = []
        self._evolve = evolve

    def emit(self, *events: Any) -> None:
        for event in events:
            self.state = self._evolve(self.state, event)
            self.events.append(event)
