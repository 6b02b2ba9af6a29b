"""Fixtures for the HTTP API tests: the real app over a runtime of in-memory twins
(:func:`services.gameplay.twins.in_memory`): no PostgreSQL, no Redis. Each twin passes its real adapter's contract
suite (tests/integration), and what is about the real servers (outages, statement counts, the real session store,
Redis connections) is tested there, on the real app over the real servers.

``client`` speaks to the app in-process (httpx's ASGI transport, the test's own event loop);
``live_url`` serves the same app with uvicorn on a free port, for what needs a real connection
(Server-Sent Events are streamed, and in-process transports buffer whole responses).

The guard: the fixtures of the real servers (``pg_dsn``, ``pg_pool``, ``redis_url``) fail here, and so does any
attempt to connect to PostgreSQL (asyncpg) or Redis (redis-py) from a test of this directory, so none comes to need
them again unnoticed.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Callable
from typing import Any

import asyncpg
import pytest
from redis.asyncio.connection import AbstractConnection

from infra.config import Settings
from services.gameplay.bootstrap import Runtime
from services.gameplay.twins import in_memory

from .app_fixtures import app, client, live_url, serve, table  # noqa: F401 (fixtures, found by name)

REAL_SERVERS = "tests/services/api runs on in-memory twins: a test of the real {} belongs in tests/integration"


def _refused(server: str) -> Callable[..., Any]:
    def connect(*_: Any, **__: Any) -> Any:
        raise AssertionError(REAL_SERVERS.format(server))

    return connect


@pytest.fixture(autouse=True)
def no_real_servers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing here connects to PostgreSQL or Redis: a connection attempt fails the test, saying where it belongs."""
    monkeypatch.setattr(asyncpg, "connect", _refused("PostgreSQL"))
    monkeypatch.setattr(asyncpg, "create_pool", _refused("PostgreSQL"))
    monkeypatch.setattr(AbstractConnection, "connect", _refused("Redis"))


@pytest.fixture(scope="session")
def pg_dsn() -> str:
    pytest.fail(REAL_SERVERS.format("PostgreSQL"), pytrace=False)


@pytest.fixture
def pg_pool() -> None:
    pytest.fail(REAL_SERVERS.format("PostgreSQL"), pytrace=False)


@pytest.fixture(scope="session")
def redis_url() -> str:
    pytest.fail(REAL_SERVERS.format("Redis"), pytrace=False)


@pytest.fixture
def queue_name() -> str:
    """The queue's name of this test (it names the queue's metrics; nothing is in Redis)."""
    return f"magnate:test:{uuid.uuid4().hex[:10]}"


@pytest.fixture
def settings(queue_name: str) -> Settings:
    return Settings(queue_name=queue_name, sandbox=True, dev_mailbox=True)


@pytest.fixture
async def runtime(settings: Settings) -> AsyncIterator[Runtime]:
    built = in_memory(settings)
    try:
        yield built
    finally:
        await built.close()
