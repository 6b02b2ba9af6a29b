"""Litestar's session store on PostgreSQL (``web_sessions``): a restart, a second API process or a lost Redis
signs nobody out, and signing out deletes the row.

It implements Litestar's public :class:`litestar.stores.base.Store` interface, which its server-side session
backend (``ServerSideSessionConfig``) reads and writes; expired rows are ignored on read and swept now and then.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import asyncpg
from litestar.stores.base import Store

SWEEP_ONE_IN = 200
"""About one write in this many also deletes the expired sessions (no clock-driven job for so little)."""


def _seconds(expires_in: int | timedelta | None) -> int | None:
    if expires_in is None:
        return None
    return int(expires_in.total_seconds()) if isinstance(expires_in, timedelta) else int(expires_in)


class PostgresSessionStore(Store):
    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    async def set(self, key: str, value: str | bytes, expires_in: int | timedelta | None = None) -> None:
        data = value.encode() if isinstance(value, str) else value
        seconds = _seconds(expires_in)
        expires = None if seconds is None else datetime.now(UTC) + timedelta(seconds=seconds)
        async with self._pool.acquire() as conn:
            await conn.execute(
                "INSERT INTO web_sessions (key, value, expires_at) VALUES ($1, $2, $3)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at",
                key, data, expires)
            if random.randrange(SWEEP_ONE_IN) == 0:  # spreading the sweep, not a secret
                await conn.execute("DELETE FROM web_sessions WHERE expires_at < now()")

    async def get(self, key: str, renew_for: int | timedelta | None = None) -> bytes | None:
        seconds = _seconds(renew_for)
        async with self._pool.acquire() as conn:
            if seconds:
                value = await conn.fetchval(
                    "UPDATE web_sessions SET expires_at = now() + make_interval(secs => $2)"
                    " WHERE key = $1 AND (expires_at IS NULL OR expires_at > now()) RETURNING value", key, seconds)
            else:
                value = await conn.fetchval(
                    "SELECT value FROM web_sessions WHERE key = $1 AND (expires_at IS NULL OR expires_at > now())",
                    key)
        return None if value is None else bytes(value)

    async def delete(self, key: str) -> None:
        async with self._pool.acquire() as conn:
            await conn.execute("DELETE FROM web_sessions WHERE key = $1", key)

    async def delete_all(self) -> None:
        async with self._pool.acquire() as conn:
            await conn.execute("DELETE FROM web_sessions")

    async def exists(self, key: str) -> bool:
        return await self.get(key) is not None

    async def expires_in(self, key: str) -> int | None:
        async with self._pool.acquire() as conn:
            expires = await conn.fetchval(
                "SELECT expires_at FROM web_sessions WHERE key = $1 AND (expires_at IS NULL OR expires_at > now())",
                key)
        return None if expires is None else int((expires - datetime.now(UTC)).total_seconds())
