"""Fixtures shared by the integration tests."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from arq.connections import ArqRedis

from infra.config import Settings
from infra.queue import arq_pool
from services.gameplay.bootstrap import Runtime, build
from services.supervisor import Services
from tests.chaos.stores import Redis
from tests.conftest import own_database


@pytest.fixture
async def arq_redis(redis_url: str, queue_name: str) -> AsyncIterator[ArqRedis]:
    """An arq pool on the real Redis whose default queue is this test's own."""
    pool = await arq_pool(redis_url, queue_name)
    try:
        yield pool
    finally:
        await pool.aclose()


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[Redis]:
    """A Redis server of this test's own, to kill, restart or fill (the shared one is never touched)."""
    server = Redis(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.close()


@pytest.fixture(scope="module")
def own_dsn(pg_dsn: str) -> Iterator[str]:
    """A database of this module's own: a worker's reconciler enqueues the due jobs of *every* game in
    its database, and the session database holds other tests' (sometimes hand-crafted) games. Not migrated
    here: the runtime migrates it, as a worker does."""
    with own_database("magnate_worker", migrated=False) as dsn:
        yield dsn


@pytest.fixture
async def runtime(settings: Settings) -> AsyncIterator[Runtime]:
    """The runtime of the module's ``settings`` (its own database and queue), built as a worker builds it."""
    runtime = await build(settings)
    try:
        yield runtime
    finally:
        await runtime.close()


@pytest.fixture
def services(pg_dsn: str, redis_url: str, queue_name: str) -> Iterator[Services]:
    """The API and one worker as processes of their own (as ``magnate run`` starts them) on the test session's
    database and this test's queue."""
    running = Services.start(pg_dsn, redis_url, queue_name, workers=1)
    try:
        yield running
    finally:
        running.stop()
