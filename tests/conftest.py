"""Shared fixtures. Integration tests talk to the REAL PostgreSQL and Redis (never mocks): each test
session gets its own fresh database and its own Redis queue name, and an unreachable service fails
loudly with the command that starts it."""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator, Iterator

import asyncpg
import pytest
import redis

PG_ADMIN_DSN = os.environ.get("MAGNATE_TEST_PG_DSN", "postgresql://postgres@127.0.0.1:5432/postgres")
REDIS_TEST_URL = os.environ.get("MAGNATE_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")

START_PG = "pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start"
START_REDIS = ('redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no '
               "--dir /var/lib/redis --logfile /var/log/redis/ci.log")


def _dsn_with_db(dsn: str, database: str) -> str:
    base, _, _ = dsn.rpartition("/")
    return f"{base}/{database}"


@pytest.fixture(scope="session")
def pg_dsn() -> Iterator[str]:
    """A fresh, migrated database for this test session (dropped afterwards)."""
    import asyncio

    from infra.migrate import migrate

    name = f"magnate_test_{uuid.uuid4().hex[:10]}"

    async def setup() -> None:
        try:
            admin = await asyncpg.connect(PG_ADMIN_DSN, timeout=5)
        except (OSError, asyncpg.PostgresError) as exc:
            pytest.fail(f"PostgreSQL is not reachable at {PG_ADMIN_DSN} ({exc}). Start it with: {START_PG}",
                        pytrace=False)
        try:
            await admin.execute(f'CREATE DATABASE "{name}"')
        finally:
            await admin.close()
        conn = await asyncpg.connect(_dsn_with_db(PG_ADMIN_DSN, name))
        try:
            await migrate(conn)
        finally:
            await conn.close()

    async def teardown() -> None:
        admin = await asyncpg.connect(PG_ADMIN_DSN, timeout=5)
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()

    asyncio.run(setup())
    yield _dsn_with_db(PG_ADMIN_DSN, name)
    asyncio.run(teardown())


@pytest.fixture
async def pg_pool(pg_dsn: str) -> AsyncIterator[asyncpg.Pool]:
    pool = await asyncpg.create_pool(pg_dsn, min_size=1, max_size=10)
    assert pool is not None
    try:
        yield pool
    finally:
        await pool.close()


@pytest.fixture(scope="session")
def redis_url() -> str:
    client = redis.Redis.from_url(REDIS_TEST_URL, socket_connect_timeout=3)
    try:
        client.ping()
    except redis.exceptions.ConnectionError as exc:
        pytest.fail(f"Redis is not reachable at {REDIS_TEST_URL} ({exc}). Start it with: {START_REDIS}",
                    pytrace=False)
    finally:
        client.close()
    return REDIS_TEST_URL


@pytest.fixture
def queue_name(redis_url: str) -> Iterator[str]:
    """A queue of this test's own, so tests (and a running dev server) never see each other's jobs."""
    name = f"magnate:test:{uuid.uuid4().hex[:10]}"
    yield name
    drop_queue(redis_url, name)


def drop_queue(redis_url: str, name: str) -> None:
    """Delete a test queue and every key named after it."""
    client = redis.Redis.from_url(redis_url)
    try:
        keys = list(client.scan_iter(f"{name}*"))
        if keys:
            client.delete(*keys)
    finally:
        client.close()
