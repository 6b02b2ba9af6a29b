"""Response bodies of the table around the games: the public lists of open games and games to watch, a join, and a
rematch. Nothing here carries a token but the rematch's, to the seat that asked for it."""

from __future__ import annotations

import msgspec

from .schemas import GameCreatedOut


class TableSeatOut(msgspec.Struct, frozen=True):
    seat: int
    kind: str
    """"human" or "ai"."""
    name: str
    taken: bool
    """A person's seat that is held: a signed-in player claimed it, or it is the creator's (an AI's seat is never
    free)."""


class TableOut(msgspec.Struct, frozen=True):
    """A game listed publicly."""

    game_id: str
    game_type: str
    title: str
    created_at: str
    updated_at: str
    seats: tuple[TableSeatOut, ...]
    seats_taken: int
    seats_free: int
    """People's seats nobody holds yet (a signed-in player may join one)."""
    url: str
    """The game's page (anyone may watch it there)."""


class TablesOut(msgspec.Struct, frozen=True):
    games: tuple[TableOut, ...]
    next_before: int | None = None
    """Games to watch: the ``before`` of the next page (None: this is the last page)."""


class JoinedOut(msgspec.Struct, frozen=True):
    game_id: str
    seat: int
    version: int
    url: str
    """The game's page: the player's session opens their seat there."""


class RematchOut(GameCreatedOut, frozen=True):
    """The rematch, as the create response shows a game: a seat's ``token`` and ``invite_url`` only where this caller
    may have them (the first request: every seat nobody holds; a later one: the caller's own seat, if a guest's);
    a seat a player held is claimed again by that player (``claimed``)."""

    url: str = ""
    first: bool = False
    """True for the request that set the rematch up."""
    claimed: tuple[int, ...] = ()
    """The seats a player holds in the rematch (as they did in the finished game)."""
