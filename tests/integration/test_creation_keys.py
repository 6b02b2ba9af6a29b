"""Idempotent game creation on the REAL PostgreSQL: retries, racing retries from several processes, and a
key reused for another request."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from infra.errors import IdempotencyKeyReused

from .harness import THREE_SEATS, make

KEY = "b8a4e7c2-1f3d-4e5a-9c6b-7d8e9f0a1b2c"
NAMES = ["Ada", "Bob", "Cyd"]


async def test_racing_retries_of_one_creation_make_one_game(pg_pool: asyncpg.Pool) -> None:
    processes = [make(pg_pool) for _ in range(4)]  # four API processes, each with its own cache
    created = await asyncio.gather(*(p.create_game("magnate", THREE_SEATS, NAMES, idempotency_key=KEY)
                                     for p in processes))

    assert len({c.game_id for c in created}) == 1
    assert all(c == created[0] for c in created)  # the same seats and tokens for every retry
    games = await pg_pool.fetchval("SELECT count(*) FROM games WHERE game_id = $1", created[0].game_id)
    keys = await pg_pool.fetchval("SELECT count(*) FROM game_creations WHERE game_id = $1", created[0].game_id)
    assert (games, keys) == (1, 1)
    for seat in created[0].seats:
        assert seat.token is not None
        assert await processes[0].queries.seat_for_token(created[0].game_id, seat.token) == seat.seat


async def test_the_key_itself_is_not_stored_and_another_request_with_it_is_refused(pg_pool: asyncpg.Pool) -> None:
    gameplay = make(pg_pool)
    key = KEY.replace("b8", "c9")
    created = await gameplay.create_game("magnate", THREE_SEATS, NAMES, idempotency_key=key)
    stored = await pg_pool.fetchrow("SELECT * FROM game_creations WHERE game_id = $1", created.game_id)
    assert stored is not None and key not in str(dict(stored))

    with pytest.raises(IdempotencyKeyReused):
        await make(pg_pool).create_game("magnate", THREE_SEATS, ["Ada", "Bob", "Dee"], idempotency_key=key)
    assert await pg_pool.fetchval("SELECT count(*) FROM game_creations WHERE key_hash = $1",
                                  stored["key_hash"]) == 1
