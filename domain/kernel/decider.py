"""The rules as two pure functions, and the fold that turns an event log into state.

``decide(state, actor, command, chance) -> list[Event]`` validates a command and returns every
consequence (raising a RuleViolation instead when it is illegal); ``evolve(state, event) -> state``
applies one fact and never validates, rolls or reads a table to decide anything. State is the fold
of the log: nothing else is authoritative.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

S = TypeVar("S")
E = TypeVar("E")


def fold(evolve: Callable[[S, E], S], events: Iterable[E], state: S) -> S:
    """Apply ``events`` in order to ``state``."""
    for event in events:
        state = evolve(state, event)
    return state
