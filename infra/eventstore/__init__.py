"""The event store: games as append-only streams of events in PostgreSQL (and an in-memory fake)."""

from .base import (
    CommandRecord,
    CreationKey,
    Decision,
    DuplicateCommand,
    DuplicateCreation,
    EventStore,
    GameHead,
    GameSummary,
    NewEvent,
    ReadModel,
    SeatRecord,
    SeatStore,
    SecretStore,
    Snapshot,
    StoredEvent,
    StreamStore,
)

__all__ = [
    "CommandRecord",
    "CreationKey",
    "Decision",
    "DuplicateCommand",
    "DuplicateCreation",
    "EventStore",
    "GameHead",
    "GameSummary",
    "NewEvent",
    "ReadModel",
    "SeatRecord",
    "SeatStore",
    "SecretStore",
    "Snapshot",
    "StoredEvent",
    "StreamStore",
]
