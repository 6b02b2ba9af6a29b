"""Planned moves kept beside a game's log (issue #29): the :class:`SeatPlans` port, its PostgreSQL adapter and its
in-memory twin."""

from .base import PlanRecord, SeatPlans
from .memory import InMemorySeatPlans
from .postgres import PostgresSeatPlans

__all__ = ["InMemorySeatPlans", "PlanRecord", "PostgresSeatPlans", "SeatPlans"]
