"""Plain-SQL migrations applied in file-name order, each once, under an advisory lock (so several
processes starting together do not race)."""

from __future__ import annotations

from importlib import resources

import asyncpg
from asyncpg.pool import PoolConnectionProxy

_LOCK_KEY = 0x6D61676E  # "magn": one advisory lock for every migrator


def migration_files() -> list[tuple[str, str]]:
    folder = resources.files("infra").joinpath("migrations")
    names = sorted(p.name for p in folder.iterdir() if p.name.endswith(".sql"))
    return [(name, folder.joinpath(name).read_text(encoding="utf-8")) for name in names]


async def migrate(conn: asyncpg.Connection | PoolConnectionProxy) -> list[str]:
    """Apply pending migrations; returns the names applied now."""
    applied_now: list[str] = []
    await conn.execute("SELECT pg_advisory_lock($1)", _LOCK_KEY)
    try:
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())"
        )
        done = {r["name"] for r in await conn.fetch("SELECT name FROM schema_migrations")}
        for name, sql in migration_files():
            if name in done:
                continue
            async with conn.transaction():
                await conn.execute(sql)
                await conn.execute("INSERT INTO schema_migrations (name) VALUES ($1)", name)
            applied_now.append(name)
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1)", _LOCK_KEY)
    return applied_now
