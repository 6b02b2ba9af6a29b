"""The world the notification store reads but does not own (players, games, seats, a claim's cursor), made the same
way for both stores of the contract suites: rows in the REAL PostgreSQL for :class:`PostgresNotificationStore`,
the feeding methods of :class:`InMemoryNotificationStore` for the twin."""

from __future__ import annotations

import uuid
from collections.abc import Iterable

import asyncpg
import pytest

from infra.notifications import NotificationStore
from infra.notifications.memory import InMemoryNotificationStore
from infra.notifications.postgres import PostgresNotificationStore


def new_id() -> str:
    return uuid.uuid4().hex


class World:
    """A store and the facts around it."""

    def __init__(self, store: NotificationStore, pool: asyncpg.Pool | None = None) -> None:
        self.store = store
        self._pool = pool
        self._memory = store if isinstance(store, InMemoryNotificationStore) else None

    async def player(self, language: str | None = None) -> str:
        """A player (``language``: the one they chose for their account)."""
        player_id = new_id()
        email = f"p-{player_id[:10]}@example.test"
        if self._memory is not None:
            self._memory.add_player(player_id, email, language)
        else:
            assert self._pool is not None
            await self._pool.execute("INSERT INTO players (player_id, email, language) VALUES ($1, $2, $3)",
                                     player_id, email, language)
        return player_id

    async def email(self, player_id: str) -> str:
        return f"p-{player_id[:10]}@example.test"

    async def game(self, version: int = 1, status: str = "running", on_turn: Iterable[int] = (),
                   game_type: str = "magnate") -> str:
        game_id = new_id()
        if self._memory is not None:
            self._memory.put_game(game_id, game_type, version, status, on_turn)
        else:
            assert self._pool is not None
            await self._pool.execute("INSERT INTO games (game_id, game_type, status, version, last_hash, on_turn)"
                                     " VALUES ($1, $2, $3, $4, '', $5)", game_id, game_type, status, version,
                                     list(on_turn))
        return game_id

    async def move(self, game_id: str, version: int, status: str = "running", on_turn: Iterable[int] = ()) -> None:
        """The game's head moves (its ``updated_at`` is now)."""
        if self._memory is not None:
            self._memory.put_game(game_id, "magnate", version, status, on_turn)
        else:
            assert self._pool is not None
            await self._pool.execute("UPDATE games SET version = $2, status = $3, on_turn = $4, updated_at = now()"
                                     " WHERE game_id = $1", game_id, version, status, list(on_turn))

    async def seat(self, game_id: str, seat: int, player_id: str | None, name: str = "") -> None:
        name = name or f"Seat {seat}"
        if self._memory is not None:
            self._memory.put_seat(game_id, seat, player_id, name)
        else:
            assert self._pool is not None
            await self._pool.execute("INSERT INTO seats (game_id, seat, kind, name, player_id)"
                                     " VALUES ($1, $2, 'human', $3, $4) ON CONFLICT (game_id, seat)"
                                     " DO UPDATE SET player_id = EXCLUDED.player_id, name = EXCLUDED.name",
                                     game_id, seat, name, player_id)

    async def watch(self, game_id: str, version: int) -> None:
        """What a claim does: the projector watches the game from ``version``."""
        if self._memory is not None:
            self._memory.watch(game_id, version)
        else:
            assert self._pool is not None
            await self._pool.execute("INSERT INTO notice_cursors (game_id, version) VALUES ($1, $2)"
                                     " ON CONFLICT (game_id) DO NOTHING", game_id, version)


@pytest.fixture(params=["memory", "postgres"])
def world(request: pytest.FixtureRequest) -> World:
    """Each contract test runs twice: over the twin, and over the REAL PostgreSQL (the session's database)."""
    if request.param == "memory":
        return World(InMemoryNotificationStore())
    pool: asyncpg.Pool = request.getfixturevalue("pg_pool")
    return World(PostgresNotificationStore(pool), pool)
