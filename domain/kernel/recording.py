"""Emitting events while deciding: a rule that produces several events in sequence (a roll, the end of a turn, a
market's resolution) sees the state as it is after each one.

A game's rules take a :class:`Recorder` over its own state and event types (``Recorder[MagnateState,
MagnateEvent]``); ``step`` returns its ``events`` and ``state`` at the end of the decision.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

S = TypeVar("S")
E = TypeVar("E")


class Recorder(Generic[S, E]):
    """The working state of one decision and the events emitted so far."""

    __slots__ = ("_evolve", "events", "state")

    def __init__(self, state: S, evolve: Callable[[S, E], S]) -> None:
        self.state = state
        self.events: list[E] = []
        self._evolve = evolve

    def emit(self, *events: E) -> None:
        """Record ``events`` in order, folding each onto the working state before the next."""
        for event in events:
            self.state = self._evolve(self.state, event)
            self.events.append(event)
