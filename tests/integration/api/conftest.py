"""The API over the REAL PostgreSQL and Redis, for what is about the real servers: outages, the real session store,
rows and Redis connections the tests look at (the rest of the API's tests run on twins, tests/services/api).

``client`` speaks to the app in-process (httpx's ASGI transport); ``live_url`` serves the same app with uvicorn on a
free port (Server-Sent Events are streamed). Every test here is marked ``integration``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from litestar import Litestar

from infra.config import Settings
from services.api import create_app
from services.gameplay.bootstrap import Runtime, build
from tests.services.api.conftest import serve
from tests.services.api.table import Table, asgi_client

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
async def attacker(app: Litestar) -> AsyncIterator[httpx.AsyncClient]:
    """A second browser (its own cookies): the attacker's."""
    async with asgi_client(app) as c:
        yield c


@pytest.fixture
def table(client: httpx.AsyncClient, runtime: Runtime) -> Table:
    return Table(client, runtime)


@pytest.fixture
async def live_url(app: Litestar) -> AsyncIterator[str]:
    async with serve(app) as url:
        yield url
