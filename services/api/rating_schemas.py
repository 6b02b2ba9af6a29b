"""The shapes of the ratings' routes (issue #29, docs/PLAYERS.md "Ratings")."""

from __future__ import annotations

import msgspec


class BoardRowOut(msgspec.Struct, frozen=True):
    position: int
    """From 1; players with the same rating share a position."""
    player_id: str
    """The player's public id (their page: ``/api/players/{player_id}/ratings``)."""
    name: str
    rating: int
    """The rating shown: 1000 + 20 × (mu − 3 sigma), rounded (a newcomer shows 1000)."""
    games: int
    """Rated games of this type played."""
    mu: float
    sigma: float


class LeaderboardOut(msgspec.Struct, frozen=True):
    game_type: str
    title: str
    rows: tuple[BoardRowOut, ...]
    next_offset: int | None
    """The ``offset`` of the next page (null: this is the last)."""


class PlayerRatingOut(msgspec.Struct, frozen=True):
    game_type: str
    title: str
    rating: int
    games: int
    mu: float
    sigma: float
    updated_at: str


class PlayerRatingsOut(msgspec.Struct, frozen=True):
    player_id: str
    name: str
    ratings: tuple[PlayerRatingOut, ...]
    """One per game type the player has played rated games of."""


class HostRatingOut(msgspec.Struct, frozen=True):
    game_id: str
    game_type: str
    rating: int | None
    """The host's rating in the game's type (null: no rated game of it played yet)."""
    games: int


class RatedTablesOut(msgspec.Struct, frozen=True):
    tables: tuple[HostRatingOut, ...]
    """The rated ones among the games asked about."""
