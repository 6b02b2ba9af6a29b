"""The event store: games as append-only streams of events in PostgreSQL (and an in-memory fake)."""

from .base import (
    CommandRecord,
    Decision,
    DuplicateCommand,
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
    "Decision",
    "DuplicateCommand",
    "EventStore",
    "GameHead",
    "GameSummary",
    "NewEvent",
    "SeatRecord",
    "Snapshot",
    "StoredEvent",
]
