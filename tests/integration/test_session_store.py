"""The session store on PostgreSQL: a signed-in page's requests do not write their unchanged session back every
time, a sign-out in another API process is seen within the trust window, and a session never outlives its row."""

from __future__ import annotations

import asyncio
import secrets
from datetime import datetime

import asyncpg

from infra.accounts import PostgresSessionStore


async def expiry(pool: asyncpg.Pool, key: str) -> datetime | None:
    async with pool.acquire() as conn:
        found: datetime | None = await conn.fetchval("SELECT expires_at FROM web_sessions WHERE key = $1", key)
        return found


async def test_an_unchanged_session_is_written_once_and_a_changed_one_at_once(pg_pool: asyncpg.Pool) -> None:
    store, key = PostgresSessionStore(pg_pool), secrets.token_hex(16)
    await store.set(key, b'{"player_id": "p1"}', 86400)
    first = await expiry(pg_pool, key)
    await asyncio.sleep(0.05)
    for _ in range(5):  # a page's requests: each reads the session and writes it back unchanged
        assert await store.get(key) == b'{"player_id": "p1"}'
        await store.set(key, b'{"player_id": "p1"}', 86400)
    assert await expiry(pg_pool, key) == first  # nothing written: the expiry did not slide
    await store.set(key, b'{"player_id": "p2"}', 86400)
    assert await PostgresSessionStore(pg_pool).get(key) == b'{"player_id": "p2"}'  # another process sees it
    changed = await expiry(pg_pool, key)
    assert first is not None and changed is not None and changed > first
    refreshing = PostgresSessionStore(pg_pool, refresh_expiry_s=0.0)
    await refreshing.set(key, b'{"player_id": "p2"}', 86400)
    before = await expiry(pg_pool, key)
    await asyncio.sleep(0.05)
    await refreshing.set(key, b'{"player_id": "p2"}', 86400)  # its hour is up: the expiry is pushed out again
    after = await expiry(pg_pool, key)
    assert before is not None and after is not None and after > before


async def test_a_sign_out_elsewhere_is_seen_within_the_trust_window_and_at_once_here(pg_pool: asyncpg.Pool) -> None:
    here, elsewhere, key = PostgresSessionStore(pg_pool, trusted_for_s=0.3), PostgresSessionStore(pg_pool), \
        secrets.token_hex(16)
    await here.set(key, b'{"player_id": "p1"}', 86400)
    assert await elsewhere.get(key) == b'{"player_id": "p1"}'
    await elsewhere.delete(key)  # signed out through another API process
    assert await elsewhere.get(key) is None
    await asyncio.sleep(0.35)
    assert await here.get(key) is None
    again = secrets.token_hex(16)
    await here.set(again, b'{"player_id": "p1"}', 86400)
    assert await here.get(again) is not None
    await here.delete(again)
    assert await here.get(again) is None  # signed out through this process: at once


async def test_a_session_written_back_unchanged_is_not_resurrected_after_a_sign_out_elsewhere(
    pg_pool: asyncpg.Pool,
) -> None:
    here, elsewhere, key = PostgresSessionStore(pg_pool), PostgresSessionStore(pg_pool), secrets.token_hex(16)
    await here.set(key, b'{"player_id": "p1"}', 86400)
    assert await here.get(key) == b'{"player_id": "p1"}'  # a request here begins...
    await elsewhere.delete(key)  # ...the player signs out on another process meanwhile...
    await here.set(key, b'{"player_id": "p1"}', 86400)  # ...and the request ends, writing its session back
    assert await elsewhere.get(key) is None


async def test_an_expired_session_is_not_answered_from_memory(pg_pool: asyncpg.Pool) -> None:
    store, key = PostgresSessionStore(pg_pool, trusted_for_s=60.0), secrets.token_hex(16)
    await store.set(key, b'{"player_id": "p1"}', 1)
    assert await store.get(key) is not None
    await asyncio.sleep(1.1)
    assert await store.get(key) is None
