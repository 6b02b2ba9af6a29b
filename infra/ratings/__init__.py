"""Ratings per game type (issue #29): the :class:`Ratings` port, its PostgreSQL adapter and its in-memory twin, held
to one contract (tests/integration/test_ratings_store.py)."""

from .base import PAGE_MAX, BoardRow, HostRating, PlayerRating, Ratings, Result, Skill, Update
from .memory import InMemoryRatings
from .postgres import PostgresRatings

__all__ = ["PAGE_MAX", "BoardRow", "HostRating", "InMemoryRatings", "PlayerRating", "PostgresRatings", "Ratings",
           "Result", "Skill", "Update"]
