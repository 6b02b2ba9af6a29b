"""The game-agnostic kernel: messages, the decide/evolve contract, verifiable chance, errors, seats.

It also holds the scaffolding every game would otherwise copy, each in a module named for what it holds:
:mod:`.recording` (the Recorder a decision emits through), :mod:`.deciding` (``decide`` from ``step``, who may issue
a command), :mod:`.decider` (``evolve`` by event type, ``replay``), :mod:`.reveal` (the seed's reveal),
:mod:`.viewing` (the checks a view opens with), :mod:`.bots` (the random legal bot), :mod:`.datafiles` (the
``data/v<n>/*.toml`` reader), :mod:`.catalogs` (the public catalog), :mod:`.narration` (the narrator's lines) and
:func:`start_and_reveal` (the start and reveal commands, named as the service's own).
"""

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
    StartAndReveal,
    SubsetParam,
    every_event_public,
    start_and_reveal,
)
from .messages import Command, Event, SystemCommand, tag_of, tag_of_type
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
    "StartAndReveal",
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
    "start_and_reveal",
    "tag_of",
    "tag_of_type",
]
