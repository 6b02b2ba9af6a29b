"""Private notes on games: the :class:`Notes` port, its PostgreSQL adapter and its in-memory twin."""

from .base import TEXT_MAX, Note, Notes
from .memory import InMemoryNotes
from .postgres import PostgresNotes

__all__ = ["TEXT_MAX", "InMemoryNotes", "Note", "Notes", "PostgresNotes"]
