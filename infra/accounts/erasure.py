"""Erasing an account (issue #29): :class:`Erasure`, on PostgreSQL (:class:`PostgresErasure`) and in memory
(:class:`InMemoryErasure`).

An account's own rows go (the player, their sign-in links and sessions, notes, notices, deliveries, notification
settings, webhooks, push devices and vacations); the seats the player held stay in their games, unlinked from the
player and named "Player N" (the seat's number from 1), and so do their chat lines (under the same name). The games'
logs are not touched: an event is never rewritten, so every export verifies as before (docs/PLAYERS.md, "Deleting
an account", says what the log keeps)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

import asyncpg
import msgspec

if TYPE_CHECKING:
    from infra.chat import InMemoryChatStore
    from infra.eventstore.memory import InMemoryEventStore
    from infra.notes import InMemoryNotes
    from infra.notifications.memory import InMemoryNotificationStore

    from .players import InMemoryPlayerStore
    from .vacations import InMemoryVacations


def anonymous_name(seat: int) -> str:
    """What an erased player's seat is called from then on (``seat`` from 0)."""
    return f"Player {seat + 1}"


class Erased(msgspec.Struct, frozen=True):
    """What an erasure did: the seats it made anonymous, as (game id, seat)."""

    seats: tuple[tuple[str, int], ...]


class Erasure(Protocol):
    async def created_at(self, player_id: str) -> str | None:
        """When the account was made (ISO 8601, UTC); None for an unknown player."""
        ...

    async def erase(self, player_id: str) -> Erased | None:
        """Delete the account and everything kept for it, and make its seats anonymous, in one go; None for an
        unknown player (nothing changes)."""
        ...


OWN_ROWS = """
SELECT cl.relname AS table_name, att.attname AS column_name
FROM pg_constraint c
JOIN pg_class cl ON cl.oid = c.conrelid
JOIN pg_attribute att ON att.attrelid = c.conrelid AND att.attnum = ANY (c.conkey)
WHERE c.contype = 'f' AND c.confrelid = 'players'::regclass AND cl.relname <> 'seats'
ORDER BY 1, 2
"""
"""Every table whose rows are the player's (a foreign key to ``players``): notes, notices, deliveries, notification
settings, webhooks, push devices, vacations, and whatever table a later migration keys by the player (ratings). The
seats are not among them: they stay, unlinked."""


def _ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


class PostgresErasure:
    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    async def created_at(self, player_id: str) -> str | None:
        at = await self._pool.fetchval("SELECT created_at FROM players WHERE player_id = $1", player_id)
        return None if at is None else at.isoformat()

    async def erase(self, player_id: str) -> Erased | None:
        async with self._pool.acquire() as conn, conn.transaction():
            email = await conn.fetchval("SELECT email FROM players WHERE player_id = $1 FOR UPDATE", player_id)
            if email is None:
                return None
            seats = await conn.fetch(
                "UPDATE seats SET player_id = NULL, name = 'Player ' || (seat + 1) WHERE player_id = $1"
                " RETURNING game_id, seat", player_id)
            await conn.execute("UPDATE chat_lines SET player_id = NULL, name = 'Player ' || (seat + 1)"
                               " WHERE player_id = $1", player_id)
            for row in await conn.fetch(OWN_ROWS):
                await conn.execute(f"DELETE FROM {_ident(row['table_name'])} WHERE {_ident(row['column_name'])} = $1",
                                   player_id)
            await conn.execute("DELETE FROM sign_in_links WHERE email = $1", email)
            # A session's value is Litestar's JSON of {"player_id": ..., "csrf": ...}: every device is signed out.
            await conn.execute("DELETE FROM web_sessions WHERE position(convert_to($1, 'UTF8') IN value) > 0",
                               f'"{player_id}"')
            await conn.execute("DELETE FROM players WHERE player_id = $1", player_id)
        return Erased(tuple(sorted((r["game_id"], r["seat"]) for r in seats)))


class InMemoryErasure:
    """The twin over the other twins: the player, their vacations and notes, the seats the event store twin keeps,
    and, when given, the chat twin's lines (under "Player N", linked to nobody) and the notification twin's rows
    (gone), as PostgreSQL's erasure leaves them (tests/integration/test_erasure_store.py holds both to it). The
    sessions' store is not reached: Litestar's memory store is keyed by session, not by player."""

    def __init__(self, players: InMemoryPlayerStore, events: InMemoryEventStore, vacations: InMemoryVacations,
                 notes: InMemoryNotes, chat: InMemoryChatStore | None = None,
                 notifications: InMemoryNotificationStore | None = None) -> None:
        self._players, self._events, self._vacations, self._notes = players, events, vacations, notes
        self._chat, self._notifications = chat, notifications

    async def created_at(self, player_id: str) -> str | None:
        return self._players.created_at(player_id)

    async def erase(self, player_id: str) -> Erased | None:
        if await self._players.get(player_id) is None:
            return None
        erased: list[tuple[str, int]] = []
        for game_id, game in self._events.records().items():
            if any(s.player_id == player_id for s in game.seats):
                erased += [(game_id, s.seat) for s in game.seats if s.player_id == player_id]
                game.seats = [msgspec.structs.replace(s, player_id=None, name=anonymous_name(s.seat))
                              if s.player_id == player_id else s for s in game.seats]
        await self._notes.forget_player(player_id)
        if self._chat is not None:
            self._chat.forget_player(player_id)
        if self._notifications is not None:
            self._notifications.forget_player(player_id)
        self._vacations.forget(player_id)
        self._players.forget(player_id)
        return Erased(tuple(sorted(erased)))
