"""Playing a game in-process: the pure loop the simulations, benchmarks and property tests use.

It does what the service does for a live game, minus storage: ask ``pending``; run the due system
command with the chance source of the next stream version, or ask the seat's policy for a command;
``decide``; fold the events. The stream version of an event is its 1-based position in the log, and a
decision draws from ``Chance(seed, version of its first event)``, exactly as in the service.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from .chance import Chance
from .game import GameModule
from .seats import SYSTEM, Seat

S = TypeVar("S")

Policy = Callable[[S, Seat], Any]
"""Chooses a command for a seat from the state (a bot reads only what ``view`` shows it)."""


class Played(Generic[S]):
    """The outcome of a played game: its final state and the whole log, with the commands issued."""

    def __init__(self, state: S, events: list[Any], commands: list[tuple[int, Any, Any]]) -> None:
        self.state = state
        self.events = events
        self.commands = commands
        """(version of the first event, actor, command) for every command that produced events."""


def play(
    game: GameModule[S],
    start: Any,
    seed: bytes,
    policy: Policy[S],
    max_commands: int = 100_000,
) -> Played[S]:
    """Play from ``start`` (the game's start system command) until the game is finished."""
    state = game.initial_state()
    events: list[Any] = []
    commands: list[tuple[int, Any, Any]] = []
    actor: Any = SYSTEM
    command: Any = start
    for _ in range(max_commands):
        version = len(events) + 1
        new, state = game.step(state, actor, command, Chance(seed, version))
        commands.append((version, actor, command))
        events.extend(new)
        due = game.pending(state)
        if due.finished:
            return Played(state, events, commands)
        if due.system is not None:
            actor, command = SYSTEM, due.system
        else:
            actor = due.seats[0]
            command = policy(state, actor)
    raise RuntimeError(f"the game did not finish within {max_commands} commands")
