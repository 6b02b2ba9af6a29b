"""Fixtures for the HTTP API tests: the real app over the REAL PostgreSQL and Redis (tests/conftest.py).

``client`` speaks to the app in-process (httpx's ASGI transport, the test's own event loop);
``live_url`` serves the same app with uvicorn on a free port, for what needs a real connection
(Server-Sent Events are streamed, and in-process transports buffer whole responses).

Every test here is an integration test (``-m integration``, ``-m "not integration"``): it runs the real app
against the real PostgreSQL and Redis, so :func:`pytest_collection_modifyitems` marks the whole directory.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager
from pathlib import Path

import httpx
import pytest
from litestar import Litestar

from bench.receivers import http_serving
from infra.config import Settings
from services.api import create_app
from services.gameplay.bootstrap import Runtime, build

from .table import Table, asgi_client

HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test of this directory ``integration`` (a conftest's hook sees the whole session's items)."""
    for item in items:
        if item.path.is_relative_to(HERE):
            item.add_marker(pytest.mark.integration)


@pytest.fixture
def settings(pg_dsn: str, redis_url: str, queue_name: str) -> Settings:
    return Settings(database_url=pg_dsn, redis_url=redis_url, queue_name=queue_name, sandbox=True, dev_mailbox=True)


@pytest.fixture
async def runtime(settings: Settings) -> AsyncIterator[Runtime]:
    built = await build(settings, run_migrations=False)  # the pg_dsn fixture migrated the database
    try:
        yield built
    finally:
        await built.close()


@pytest.fixture
def app(settings: Settings, runtime: Runtime) -> Litestar:
    return create_app(settings, runtime)


@pytest.fixture
async def client(app: Litestar) -> AsyncIterator[httpx.AsyncClient]:
    async with asgi_client(app) as c:
        yield c


@pytest.fixture
def table(client: httpx.AsyncClient, runtime: Runtime) -> Table:
    return Table(client, runtime)


def serve(app: Litestar) -> AbstractAsyncContextManager[str]:
    """Serve ``app`` (its lifespan included) with uvicorn on a free port of 127.0.0.1; yields its base URL."""
    return http_serving(app, lifespan="on", graceful_s=2)


@pytest.fixture
async def live_url(app: Litestar) -> AsyncIterator[str]:
    async with serve(app) as url:
        yield url
