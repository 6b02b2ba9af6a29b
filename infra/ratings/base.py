"""The :class:`Ratings` port: each player's rating per game type (openskill's ``mu`` and ``sigma``, the games played
and the rating shown), the rated games settled once each, and the reads of the leaderboard and the open tables.

The store decides nothing about skill: :meth:`Ratings.settle` hands the players' current ratings to the service's
pure ``update`` (:mod:`services.ratings.skill`) inside the one transaction that records the game as settled, so a
game's ratings change exactly once however often it is settled (a replayed job, a projector restarted)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal, Protocol

import msgspec

PAGE_MAX = 100
"""A leaderboard page holds at most this many rows."""

Result = Literal["open", "rated", "guest_seat", "too_few_players"]
"""A rated table's state: still running (``open``), rated at its end, or ended without a change to anyone's
rating: a person's seat was not a signed-in player's (a guest's), or fewer than two players' seats were left."""


class Skill(msgspec.Struct, frozen=True):
    """One player's rating in one game type."""

    mu: float
    sigma: float
    games: int
    shown: int
    """The rating pages show (:func:`services.ratings.skill.shown`)."""


class PlayerRating(msgspec.Struct, frozen=True):
    """A player's rating in one game type, as the player's page and the export show it."""

    game_type: str
    mu: float
    sigma: float
    games: int
    shown: int
    updated_at: str


class BoardRow(msgspec.Struct, frozen=True):
    """A leaderboard row: its ``position`` from 1 (players with the same shown rating share one)."""

    position: int
    player_id: str
    name: str
    shown: int
    mu: float
    sigma: float
    games: int


class HostRating(msgspec.Struct, frozen=True):
    """A rated table's host's rating in its game type (``shown`` None: the host has played no rated game of it, or
    nobody signed in holds the host's seat)."""

    game_id: str
    game_type: str
    shown: int | None
    games: int


Update = Callable[[Sequence[tuple[str, Skill]]], Sequence[Skill]]
"""The service's pure computation: the players' (id, rating) before the game, in the order given, to their ratings
after, in the same order."""


class Ratings(Protocol):
    async def open(self, game_id: str, game_type: str) -> None:
        """Record that a game is rated (at its creation; a retried creation records nothing new)."""
        ...

    async def settle(self, game_id: str, game_type: str, players: Sequence[str], fresh: Skill,
                     update: Update | None, result: Result) -> tuple[Skill, ...] | None:
        """Settle the game once: in one transaction, unless it was settled before (then None and nothing changes),
        record it as settled with ``result`` and, when ``update`` is given, replace each of ``players``' ratings in
        ``game_type`` (``fresh`` for a player without one) with ``update``'s; returns the ratings after (empty when
        nothing was rated). A player whose account is gone by then is left out of the update; with fewer than two
        left the game is settled ``too_few_players`` and nobody's rating changes."""
        ...

    async def result(self, game_id: str) -> Result | None:
        """A rated game's state (None: the game is not rated)."""
        ...

    async def of_player(self, player_id: str) -> list[PlayerRating]:
        """The player's ratings, by game type."""
        ...

    async def leaderboard(self, game_type: str, limit: int, offset: int) -> list[BoardRow]:
        """The players rated in ``game_type``, the highest shown rating first (then more games, then id)."""
        ...

    async def hosts(self, game_ids: Sequence[str]) -> list[HostRating]:
        """Of these games, the rated ones with their host's rating in the game's type."""
        ...
