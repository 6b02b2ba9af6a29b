"""Litestar's session store on PostgreSQL (``web_sessions``): a restart, a second API process or a lost Redis
signs nobody out, and signing out deletes the row.

It implements Litestar's public :class:`litestar.stores.base.Store` interface, which its server-side session
backend (``ServerSideSessionConfig``) reads and writes; expired rows are ignored on read and swept now and then.

That backend reads the session at the start of every request that carries its cookie and writes it back at the end,
unchanged or not: two statements per request of a signed-in page (a tenth of the API's time in the capacity run,
where each update makes a page read three times). So this store remembers what it read and wrote: a session read
here within :data:`TRUSTED_FOR_S` is answered from memory (a sign-out through another API process is seen within that
time, as a revoked invite is, ``services.gameplay.queries.TOKEN_TTL_S``; through this one at once), and writing back
the value this process last wrote is skipped unless its expiry was last pushed out :data:`REFRESH_EXPIRY_S` ago (a
30-day session slides by the hour rather than by the request). A skipped write also never resurrects a session that
another process deleted meanwhile.
"""

from __future__ import annotations

import random
import time
from datetime import UTC, datetime, timedelta

import asyncpg
from cachetools import LRUCache, TTLCache
from litestar.stores.base import Store

SWEEP_ONE_IN = 200
"""About one write in this many also deletes the expired sessions (no clock-driven job for so little)."""
TRUSTED_FOR_S = 2.0
"""How long a session read from the database is answered from this process's memory."""
REFRESH_EXPIRY_S = 3600.0
"""How often an unchanged session's expiry is written again."""
KEPT = 20_000
"""Sessions remembered per process (least recently used forgotten first)."""


def _seconds(expires_in: int | timedelta | None) -> int | None:
    if expires_in is None:
        return None
    return int(expires_in.total_seconds()) if isinstance(expires_in, timedelta) else int(expires_in)


class PostgresSessionStore(Store):
    def __init__(self, pool: asyncpg.Pool, trusted_for_s: float = TRUSTED_FOR_S,
                 refresh_expiry_s: float = REFRESH_EXPIRY_S) -> None:
        self._pool = pool
        self._read: TTLCache[str, tuple[bytes, datetime | None]] = TTLCache(maxsize=KEPT, ttl=trusted_for_s)
        """Sessions read or written here lately: value and expiry."""
        self._written: LRUCache[str, tuple[bytes, float]] = LRUCache(maxsize=KEPT)
        """The value this process last wrote per session, and when (monotonic)."""
        self._refresh_expiry_s = refresh_expiry_s

    async def set(self, key: str, value: str | bytes, expires_in: int | timedelta | None = None) -> None:
        data = value.encode() if isinstance(value, str) else value
        seconds = _seconds(expires_in)
        expires = None if seconds is None else datetime.now(UTC) + timedelta(seconds=seconds)
        written = self._written.get(key)
        if written is not None and written[0] == data and time.monotonic() - written[1] < self._refresh_expiry_s:
            return  # the database holds this value, with an expiry at most an hour short of this one
        async with self._pool.acquire() as conn:
            await conn.execute(
                "INSERT INTO web_sessions (key, value, expires_at) VALUES ($1, $2, $3)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at",
                key, data, expires)
            self._written[key] = (data, time.monotonic())  # only once stored: a failed write is tried again
            self._read[key] = (data, expires)
            if random.randrange(SWEEP_ONE_IN) == 0:  # spreading the sweep, not a secret
                await conn.execute("DELETE FROM web_sessions WHERE expires_at < now()")

    async def get(self, key: str, renew_for: int | timedelta | None = None) -> bytes | None:
        seconds = _seconds(renew_for)
        if not seconds and (known := self._read.get(key)) is not None:
            value, expires = known
            if expires is None or expires > datetime.now(UTC):
                return value
        async with self._pool.acquire() as conn:
            if seconds:
                row = await conn.fetchrow(
                    "UPDATE web_sessions SET expires_at = now() + make_interval(secs => $2)"
                    " WHERE key = $1 AND (expires_at IS NULL OR expires_at > now()) RETURNING value, expires_at",
                    key, seconds)
            else:
                row = await conn.fetchrow(
                    "SELECT value, expires_at FROM web_sessions"
                    " WHERE key = $1 AND (expires_at IS NULL OR expires_at > now())", key)
        if row is None:
            self._forget(key)
            return None
        value = bytes(row["value"])
        self._read[key] = (value, row["expires_at"])
        return value

    def _forget(self, key: str) -> None:
        self._read.pop(key, None)
        self._written.pop(key, None)

    async def delete(self, key: str) -> None:
        self._forget(key)
        async with self._pool.acquire() as conn:
            await conn.execute("DELETE FROM web_sessions WHERE key = $1", key)

    async def delete_all(self) -> None:
        self._read.clear()
        self._written.clear()
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
