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
    SeatRecord,
    Snapshot,
    StoredEvent,
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
    "SeatRecord",
    "Snapshot",
    "StoredEvent",
]
