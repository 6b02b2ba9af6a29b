"""What every game's ``decide`` and ``step`` share: ``decide`` is ``step`` without the state it folded, and the
checks of who issues a command (the system, or a seat).

A game writes ``step(state, actor, command, chance) -> (events, state after)`` (its rules emit through a
:class:`~domain.kernel.recording.Recorder`, so the state after is at hand) and takes ``decide = decide_from(step)``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from .chance import Chance
from .errors import ActorNotAllowed
from .phrases import say
from .seats import SYSTEM, Actor, Seat

S = TypeVar("S")
C = TypeVar("C")
E = TypeVar("E")


def decide_from(
    step: Callable[[S, Actor, C, Chance], tuple[list[E], S]],
) -> Callable[[S, Actor, C, Chance], list[E]]:
    """The game's ``decide``: its ``step``'s events."""

    def decide(state: S, actor: Actor, command: C, chance: Chance) -> list[E]:
        """Validate ``command`` from ``actor`` and return every event it causes (or raise a RuleViolation)."""
        return step(state, actor, command, chance)[0]

    return decide


def system_only(actor: Actor) -> None:
    """ActorNotAllowed unless the system issues the command."""
    if actor != SYSTEM:
        raise ActorNotAllowed(phrase=say("only the system may issue this command"))


def seat_of(actor: Actor) -> Seat:
    """The seat issuing a player command (ActorNotAllowed for the system)."""
    if actor == SYSTEM:
        raise ActorNotAllowed(phrase=say("a player command needs a seat"))
    return Seat(actor)
