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
from .game import CommandTemplate, GameModule, IntParam, Param, Pending, SeatInfo, SubsetParam
from .messages import Command, Event, SystemCommand, tag_of
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
    "NotYourTurn",
    "NothingPending",
    "Param",
    "Pending",
    "RuleViolation",
    "Seat",
    "SeatInfo",
    "SubsetParam",
    "SystemCommand",
    "ViewUnavailable",
    "Viewer",
    "WrongPhase",
    "clockwise",
    "commitment_of",
    "fold",
    "tag_of",
]
