"""The rules as two pure functions, and the fold that turns an event log into state.

``decide(state, actor, command, chance) -> list[Event]`` validates a command and returns every
consequence (raising a RuleViolation instead when it is illegal); ``evolve(state, event) -> state``
applies one fact and never validates, rolls or reads a table to decide anything. State is the fold
of the log: nothing else is authoritative.

A game writes ``evolve`` as a table from event type to the rule's evolve half (:func:`evolve_by_type`) and takes
its ``replay`` from it (:func:`replay_of`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

S = TypeVar("S")
E = TypeVar("E")


def fold(evolve: Callable[[S, E], S], events: Iterable[E], state: S) -> S:
    """Apply ``events`` in order to ``state``."""
    for event in events:
        state = evolve(state, event)
    return state


def evolve_by_type(apply: Mapping[type, Callable[[S, Any], S]]) -> Callable[[S, Any], S]:
    """``evolve`` as a lookup of the event's type in ``apply`` (folding is the hot path of every read, and a lookup
    beats trying each class in turn); the game's tests check that every member of its event union has an entry."""

    def evolve(state: S, event: Any) -> S:
        """Apply one event; total for every valid history, and never draws or validates."""
        return apply[type(event)](state, event)

    return evolve


def replay_of(evolve: Callable[[S, E], S], initial_state: Callable[[], S]) -> Callable[[Iterable[E]], S]:
    """The game's ``replay``: the state after a whole log, from its initial state."""

    def replay(events: Iterable[E]) -> S:
        """The state after a whole log."""
        return fold(evolve, events, initial_state())

    return replay


def unchanged(state: S, event: Any) -> S:
    """The evolve half of an event that changes no state (a recorded explanation, a die shown)."""
    return state
