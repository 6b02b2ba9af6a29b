"""The :class:`SeatPlans` port: each seat's planned moves in a game, at most one of each kind, kept beside the log
(never in it) until the server plays them, they expire or the seat moves itself. Nothing here decides who may read a
plan: the application service (:mod:`services.gameplay.plans`) reads and writes only the caller's own seat's."""

from __future__ import annotations

from collections.abc import Collection
from typing import Protocol

import msgspec


class PlanRecord(msgspec.Struct, frozen=True):
    game_id: str
    seat: int
    kind: str
    """The plan's type tag (``magnate.pass_auctions``)."""
    body: bytes
    """The plan as kept: the game's plan struct in canonical JSON, its scope fixed when it was set."""
    set_at: str
    """When it was set (ISO 8601, UTC)."""
    holder: str = ""
    """Who held the seat when the plan was set (the service's fingerprint of the seat's claim and invite): a plan
    whose seat has changed hands since is not its new holder's."""
    since: int = 0
    """The game's version when the plan was set: a move the seat made itself after it cancels the plan."""


class SeatPlans(Protocol):
    async def of_seat(self, game_id: str, seat: int) -> list[PlanRecord]:
        """The seat's plans in the game, by kind."""
        ...

    async def put(self, game_id: str, seat: int, kind: str, body: bytes, holder: str = "", since: int = 0
                  ) -> PlanRecord:
        """Keep ``body`` as the seat's plan of ``kind`` (replacing one of the same kind), set at the game's version
        ``since``. StreamNotFound for an unknown game."""
        ...

    async def drop(self, game_id: str, seat: int, kinds: Collection[str] | None = None) -> int:
        """Delete the seat's plans of ``kinds`` (None: all of them); how many there were."""
        ...

    async def of_games(self, game_ids: Collection[str]) -> list[PlanRecord]:
        """Every plan in these games (the worker's one read for a gathering of news), by game, seat and kind."""
        ...

    async def planned_games(self) -> list[str]:
        """Every game that has a plan (the reconcile's read)."""
        ...
