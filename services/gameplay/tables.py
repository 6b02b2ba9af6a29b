"""The table around the games (issue #13): joining a free seat of a game its creator listed publicly, and a
finished game's rematch with the same options, seat order, names and players (docs/PLAYERS.md).

Joining is a claim without an invite (:meth:`Seating.claim` with no token): the same ``table.seat_claimed`` event and
the same one-transaction binding, under the game row's lock, so two players racing for the last seat cannot both
win. A rematch is created with an idempotency key kept for the finished game (``game_secrets.rematch_key``): every
request for it, however many race, makes or finds the same one game, whose seats' tokens derive from that key.
"""

from __future__ import annotations

import secrets
from typing import Any

import msgspec

from domain.kernel import GameAlreadyOver
from domain.kernel.phrases import Phrase, plain, say
from infra.errors import AlreadySeated, SeatTaken
from infra.eventstore import SeatRecord
from infra.eventstore.tables import TableOf, TableRow, TableStore

from .handler import Gameplay
from .queries import token_hash
from .results import Applied, Created
from .seating import Seating

JOIN_TRIES = 16
"""How many times a join looks for another free seat after losing one to a faster player."""


class TableRefused(Exception):
    """A table request the service refuses: an HTTP ``status`` and a stable ``code``."""

    def __init__(self, status: int, code: str, message: Phrase) -> None:
        super().__init__(plain(message))
        self.status, self.code, self.message = status, code, message


class Joined(msgspec.Struct, frozen=True):
    seat: int
    applied: Applied


class Rematched(msgspec.Struct, frozen=True):
    created: Created
    first: bool
    """True for the request that linked the finished game to this rematch (it hands out the invites)."""
    seats: tuple[SeatRecord, ...]
    """The rematch's seats as they are now (its players' seats claimed again)."""


class Tables:
    def __init__(self, gameplay: Gameplay, seating: Seating, store: TableStore) -> None:
        self.gameplay = gameplay
        self.seating = seating
        self.store = store

    async def open_tables(self, limit: int) -> list[TableRow]:
        """Running listed games with a person's seat nobody holds, newest first."""
        return await self.store.open_tables(limit)

    async def live_tables(self, limit: int, before_us: int | None) -> list[TableRow]:
        """Running listed games, the most recently moved first, moved before ``before_us`` if given."""
        return await self.store.live_tables(limit, before_us)

    async def table_of(self, game_id: str) -> TableOf:
        """The game's table: listed, options, rematch and host (StreamNotFound: no such game)."""
        return await self.store.table_of(game_id)

    async def created(self, game_id: str, options: Any, listed: bool) -> None:
        """Record a new game's options (for its rematch) and whether it is listed publicly."""
        await self.store.set_table(game_id, listed, msgspec.json.encode(options))

    async def join(self, game_id: str, player_id: str, name: str) -> Joined:
        """Seat ``player_id`` at the first free person's seat of a listed running game: not the creator's, and not
        one a guest plays by its invite link (its link was used). TableRefused (unlisted: 403 ``table/unlisted``; no
        seat free: 409 ``seat/in_use`` when guests play the unclaimed seats, else ``seat/full``), AlreadySeated,
        GameAlreadyOver."""
        table = await self.store.table_of(game_id)  # StreamNotFound first: an unknown game is a 404
        if not table.listed:
            raise TableRefused(403, "table/unlisted",
                               say("this game is not listed publicly: join it by its invite link"))
        loaded = await self.gameplay.load(game_id)
        if self.gameplay.module(loaded.game_type).pending(loaded.state).finished:
            raise GameAlreadyOver(phrase=say("the game has ended: its seats can no longer be joined"))
        if await self.gameplay.queries.seat_of_player(game_id, player_id) is not None:
            raise AlreadySeated("you already hold a seat of this game")
        in_use: list[int] = []
        for _ in range(JOIN_TRIES):
            free, in_use = await self.store.unclaimed(game_id)  # never the creator's, nor a seat a guest plays
            if not free:
                break
            try:
                return Joined(free[0], await self.seating.claim(game_id, free[0], None, player_id, name))
            except SeatTaken:  # another player was faster, or the seat's guest used its link first (SeatInUse)
                continue
        if in_use:
            raise TableRefused(409, "seat/in_use", say("every seat nobody claimed is played by a guest by its invite "
                                                       "link (the guest may release it): look for another open game"))
        raise TableRefused(409, "seat/full", say("every seat of this game is taken: look for another open game"))

    async def release(self, game_id: str, token: str) -> int:
        """The guest holding a seat by its invite ``token`` gives it up (not the creator's seat: TableRefused 409
        ``seat/host``): the link stops opening it at once here (within ``TOKEN_TTL_S`` in other API processes) and
        the seat is free to join. InviteInvalid if the token opens no unclaimed seat."""
        seat = await self.gameplay.queries.seat_for_token(game_id, token)
        if seat is not None and seat == await self.gameplay.queries.host_seat(game_id):
            raise TableRefused(409, "seat/host", say("the creator's seat stays theirs: it cannot be released"))
        released = await self.store.release_seat(game_id, token_hash(token))
        self.gameplay.queries.forget_token(game_id, token_hash(token))
        return released

    async def rematch(self, game_id: str) -> Rematched:
        """The finished game's rematch, made by the first request and found by every later one: the same game type,
        options, seat order and names, and every seat a player had claimed claimed again by that player (TableRefused
        409 ``table/not_finished`` while the game runs; 422 ``table/no_options`` for a game made before options were
        recorded)."""
        gameplay = self.gameplay
        loaded = await gameplay.load(game_id)
        game = gameplay.module(loaded.game_type)
        if not game.pending(loaded.state).finished:
            raise TableRefused(409, "table/not_finished", say("a rematch can be set up once the game is over"))
        table = await self.store.table_of(game_id)
        if table.options is None:
            raise TableRefused(422, "table/no_options", say("this game's options were not recorded: set a new game up"))
        options = msgspec.json.decode(table.options, type=game.options_type)
        old = await gameplay.queries.seats(game_id)
        key = await self.store.rematch_key(game_id, secrets.token_urlsafe(32))
        created = await gameplay.create_game(loaded.game_type, options, [s.name for s in old], idempotency_key=key,
                                             host_seat=await gameplay.queries.host_seat(game_id))
        await self.store.set_table(created.game_id, False, table.options)
        first = await self.store.set_rematch(game_id, created.game_id)
        for before, now in zip(old, created.seats, strict=False):
            if before.player_id is not None and now.kind == "human" and now.token is not None:
                await self.seating.claim(created.game_id, now.seat, now.token, before.player_id, before.name)
        return Rematched(created, first, tuple(await gameplay.queries.seats(created.game_id)))

