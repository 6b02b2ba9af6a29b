"""The fixtures every API test directory shares, over whatever ``runtime`` and ``settings`` its conftest gives:
the app, an in-process client (httpx's ASGI transport, the test's own event loop), the table helper and the app
served with uvicorn on a free port (Server-Sent Events are streamed; in-process transports buffer whole responses).
A conftest imports them by name."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager

import httpx
import pytest
from litestar import Litestar

from bench.receivers import http_serving
from infra.config import Settings
from services.api import create_app
from services.gameplay.bootstrap import Runtime

from .table import Table, asgi_client

__all__ = ["app", "attacker", "client", "live_url", "serve", "table"]


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


def serve(app: Litestar) -> AbstractAsyncContextManager[str]:
    """Serve ``app`` (its lifespan included) with uvicorn on a free port of 127.0.0.1; yields its base URL."""
    return http_serving(app, lifespan="on", graceful_s=2)


@pytest.fixture
async def live_url(app: Litestar) -> AsyncIterator[str]:
    async with serve(app) as url:
        yield url
