"""The API over the REAL PostgreSQL and Redis, for what is about the real servers: outages, the real session store,
rows and Redis connections the tests look at (the rest of the API's tests run on twins, tests/services/api).

``client`` speaks to the app in-process (httpx's ASGI transport); ``live_url`` serves the same app with uvicorn on a
free port (Server-Sent Events are streamed). Every test here is marked ``integration``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from infra.config import Settings
from services.gameplay.bootstrap import Runtime, build
from tests.services.api.app_fixtures import (  # noqa: F401 (fixtures: pytest finds them by name)
    app,
    attacker,
    client,
    live_url,
    table,
)

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
