"""The game-agnostic kernel: messages, the decide/evolve contract, verifiable chance, errors, seats."""

from .chance import Chance, commitment_of
from .decider import fold
from .errors import (
    ActorNotAllowed,
    GameAlreadyOver,
    GameError,
    InvalidValue,
    NothingPending,
    NotYourTurn,
    RuleViolation,
    ViewUnavailable,
    WrongPhase,
)
from .game import (
    CommandTemplate,
    GameModule,
    IntParam,
    Outcome,
    Param,
    Pending,
    Policy,
    SeatInfo,
    Standing,
    SubsetParam,
    every_event_public,
)
from .messages import Command, Event, SystemCommand, tag_of
from .narration import Named, Narrator, Told
from .seats import AUDITOR, PUBLIC, SYSTEM, Actor, Seat, Viewer, clockwise

__all__ = [
    "AUDITOR",
    "PUBLIC",
    "SYSTEM",
    "Actor",
    "ActorNotAllowed",
    "Chance",
    "Command",
    "CommandTemplate",
    "Event",
    "GameAlreadyOver",
    "GameError",
    "GameModule",
    "IntParam",
    "InvalidValue",
    "Named",
    "Narrator",
    "NotYourTurn",
    "NothingPending",
    "Outcome",
    "Param",
    "Pending",
    "Policy",
    "RuleViolation",
    "Seat",
    "SeatInfo",
    "Standing",
    "SubsetParam",
    "SystemCommand",
    "Told",
    "ViewUnavailable",
    "Viewer",
    "WrongPhase",
    "clockwise",
    "commitment_of",
    "every_event_public",
    "fold",
    "tag_of",
]
