"""Shared fixtures. Integration tests talk to the REAL PostgreSQL and Redis (never mocks): each test
session gets its own fresh database and its own Redis queue name, and an unreachable service fails
loudly with the command that starts it."""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from pathlib import Path

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


@contextmanager
def own_database(prefix: str, *, migrated: bool = True) -> Iterator[str]:
    """A database of the caller's own, ``<prefix>_<random>``: created (and migrated unless ``migrated=False``) on
    entry, dropped on exit; yields its DSN. Each step runs in an event loop of its own, so session- and
    module-scoped fixtures (which outlive a test's loop) can hold one. An unreachable PostgreSQL fails the test
    with the command that starts it."""
    from infra.migrate import migrate

    name = f"{prefix}_{uuid.uuid4().hex[:10]}"
    dsn = _dsn_with_db(PG_ADMIN_DSN, name)

    async def admin(sql: str) -> None:
        try:
            conn = await asyncpg.connect(PG_ADMIN_DSN, timeout=5)
        except (OSError, asyncpg.PostgresError) as exc:
            pytest.fail(f"PostgreSQL is not reachable at {PG_ADMIN_DSN} ({exc}). Start it with: {START_PG}",
                        pytrace=False)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    async def create() -> None:
        await admin(f'CREATE DATABASE "{name}"')
        # A test database need not survive a crash of the shared server, so its commits do not wait for the WAL
        # flush (about 5 ms each on this machine's disk, 0.3 ms without): the suite runs in minutes, not tens of
        # them. Nothing else changes (isolation, constraints and locks are the same), and the fault tests, which
        # kill PostgreSQL, run a server of their own with the durable default.
        await admin(f'ALTER DATABASE "{name}" SET synchronous_commit = off')
        if migrated:
            conn = await asyncpg.connect(dsn)
            try:
                await migrate(conn)
            finally:
                await conn.close()

    asyncio.run(create())
    try:
        yield dsn
    finally:
        asyncio.run(admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture(scope="session")
def pg_dsn() -> Iterator[str]:
    """A fresh, migrated database for this test session (dropped afterwards)."""
    with own_database("magnate_test") as dsn:
        yield dsn


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


LONGEST_FIRST = ("chaos", "integration", "browser", "services", "games", "domain")
"""The suite's folders, those whose files run longest first: end-to-end files take tens of seconds each (servers
started, outages waited out, browsers driven), unit files a fraction of one."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Order the files longest first. ``make test`` hands whole files to its workers in collection order
    (``--dist loadfile --no-loadscope-reorder``); a long file handed out last keeps one worker busy after the
    others ran dry, so the many short unit files go at the end, where they fill the gaps. The sort is stable: the
    tests of a file keep their order and stay together."""
    tests = Path(__file__).resolve().parent

    def rank(item: pytest.Item) -> int:
        parts = item.path.relative_to(tests).parts if item.path.is_relative_to(tests) else ()
        return LONGEST_FIRST.index(parts[0]) if parts and parts[0] in LONGEST_FIRST else len(LONGEST_FIRST)

    items.sort(key=rank)
