"""Who holds a seat, on PostgreSQL: claims, the host, invites and "My games" (the OwnershipStore port). A seat whose
invite link was used (``link_used``, set by ``seat_for_token``) is a guest's: not free to join.

A mixin of :class:`~infra.eventstore.postgres.PostgresEventStore`: a claim is an append (the ``table.seat_claimed``
event) and the seat's binding in one transaction, under the game row's lock that every append takes.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

from infra.errors import AlreadySeated, ConcurrencyConflict, InviteInvalid, SeatInUse, SeatTaken, StreamNotFound

from .base import Decision, DuplicateCommand, GameSummary, PlayerGame, StoredEvent, timestamp

_PLAYER_GAMES = """
SELECT g.game_id, g.game_type, g.status, g.version, g.on_turn, g.updated_at, mine.seat,
       (SELECT array_agg(s.name ORDER BY s.seat) FROM seats s WHERE s.game_id = g.game_id) AS names
FROM seats mine JOIN games g USING (game_id)
WHERE mine.player_id = $1
ORDER BY g.updated_at DESC
LIMIT 500
"""


class PostgresOwnership:
    """The OwnershipStore half of the PostgreSQL store (the store's own helpers are declared here for the types)."""

    _connection: Callable[[], AbstractAsyncContextManager[Any]]
    _tip: Callable[[str, int, str, int], None]
    _find_command: Callable[[Any, str, str], Awaitable[Any]]
    _write: Callable[..., Awaitable[list[StoredEvent]]]

    async def claim_seat(
        self, game_id: str, expected_version: int, decision: Decision, summary: GameSummary, seat: int,
        token_hash: str | None, player_id: str, name: str | None = None,
    ) -> list[StoredEvent]:
        async with self._connection() as conn, conn.transaction():
            row = await conn.fetchrow(
                "SELECT version, last_hash, chain, listed, host_seat FROM games WHERE game_id = $1 FOR UPDATE", game_id)
            if row is None:
                raise StreamNotFound(f"no game {game_id}")
            first = await self._find_command(conn, game_id, decision.command_id)
            if first is not None:
                raise DuplicateCommand(first)
            held = await conn.fetchrow(  # locked: a guest's first use of the link (seat_for_token) waits, or wins
                "SELECT kind, player_id, token_hash, link_used FROM seats WHERE game_id = $1 AND seat = $2 FOR UPDATE",
                game_id, seat)
            if token_hash is None:  # joining a listed game: any free person's seat
                if held is None or held["kind"] != "human" or not row["listed"] or seat == row["host_seat"]:
                    raise InviteInvalid("only a free person's seat of a game listed publicly can be joined")
            elif held is None or (held["player_id"] is None and held["token_hash"] != token_hash):
                raise InviteInvalid("this invite does not open this seat (it was revoked or replaced)")
            if held["player_id"] is not None:
                raise SeatTaken("this seat was claimed by a signed-in player")
            if token_hash is None and held["link_used"]:
                raise SeatInUse("a guest plays this seat by its invite link")
            if await conn.fetchval("SELECT seat FROM seats WHERE game_id = $1 AND player_id = $2",
                                   game_id, player_id) is not None:
                raise AlreadySeated("you already hold another seat of this game")
            if row["version"] != expected_version:
                raise ConcurrencyConflict(game_id, expected_version)
            await conn.execute(
                "UPDATE seats SET player_id = $3, claimed_token_hash = token_hash, token_hash = NULL,"
                " name = coalesce($4, name) WHERE game_id = $1 AND seat = $2", game_id, seat, player_id, name)
            await conn.execute(
                "INSERT INTO notice_cursors (game_id, version) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                game_id, expected_version)
            stored = await self._write(conn, game_id, expected_version, row["last_hash"], row["chain"], [decision],
                                       summary, None)
        if stored:
            self._tip(game_id, stored[-1].version, stored[-1].hash, row["chain"])
        return stored

    async def claimed_by_token(self, game_id: str, token_hash: str) -> int | None:
        async with self._connection() as conn:
            seat: int | None = await conn.fetchval(
                "SELECT seat FROM seats WHERE game_id = $1 AND claimed_token_hash = $2", game_id, token_hash)
        return seat

    async def seat_of_player(self, game_id: str, player_id: str) -> int | None:
        async with self._connection() as conn:
            seat: int | None = await conn.fetchval(
                "SELECT seat FROM seats WHERE game_id = $1 AND player_id = $2", game_id, player_id)
        return seat

    async def host_seat(self, game_id: str) -> int | None:
        async with self._connection() as conn:
            row = await conn.fetchrow("SELECT host_seat FROM games WHERE game_id = $1", game_id)
        if row is None:
            raise StreamNotFound(f"no game {game_id}")
        host: int | None = row["host_seat"]
        return host

    async def set_invite(self, game_id: str, seat: int, token_hash: str | None) -> None:
        async with self._connection() as conn, conn.transaction():
            held = await conn.fetchrow(
                "SELECT kind, player_id FROM seats WHERE game_id = $1 AND seat = $2 FOR UPDATE", game_id, seat)
            if held is None or held["kind"] != "human":
                raise InviteInvalid(f"seat {seat + 1} is not a person's seat of this game")
            if held["player_id"] is not None:
                raise SeatTaken("this seat was claimed by a signed-in player: its invite cannot change")
            await conn.execute("UPDATE seats SET token_hash = $3, link_used = false WHERE game_id = $1 AND seat = $2",
                               game_id, seat, token_hash)

    async def player_games(self, player_id: str) -> list[PlayerGame]:
        async with self._connection() as conn:
            rows = await conn.fetch(_PLAYER_GAMES, player_id)
        return [PlayerGame(r["game_id"], r["game_type"], r["status"], r["version"], tuple(r["on_turn"]),
                           timestamp(r["updated_at"]), r["seat"], tuple(r["names"] or ())) for r in rows]
