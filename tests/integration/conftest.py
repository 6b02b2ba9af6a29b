"""Fixtures shared by the integration tests."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from arq.connections import ArqRedis

from infra.queue import arq_pool


@pytest.fixture
async def arq_redis(redis_url: str, queue_name: str) -> AsyncIterator[ArqRedis]:
    """An arq pool on the real Redis whose default queue is this test's own."""
    pool = await arq_pool(redis_url, queue_name)
    try:
        yield pool
    finally:
        await pool.aclose()
