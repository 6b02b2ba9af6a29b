"""Fixtures shared by the integration tests."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from arq.connections import ArqRedis

from infra.queue import arq_pool
from tests.chaos.stores import Redis


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
