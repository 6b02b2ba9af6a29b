"""The service as real processes for the end-to-end and the browser tests: the API server and a worker
(:class:`services.supervisor.Services`) over the real PostgreSQL and Redis of the test session, on a free
port, with a sandbox server (so a test may choose the seed)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from services.supervisor import Services

ROOT = Path(__file__).resolve().parents[1]

__all__ = ["DEV_MAILBOX", "ROOT", "Services", "running_services", "services"]

DEV_MAILBOX = {"MAGNATE_DEV_MAILBOX": "1"}
"""The tests read sign-in links from the development mailbox, which a server keeps only when asked."""


@contextmanager
def running_services(pg_dsn: str, redis_url: str, queue_name: str) -> Iterator[Services]:
    """Start the API server and one worker; stop them (SIGTERM, then kill) when the block ends."""
    running = Services.start(pg_dsn, redis_url, queue_name, workers=1, env=DEV_MAILBOX)
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def services(pg_dsn: str, redis_url: str, queue_name: str) -> Iterator[Services]:
    """The API server and one worker, running until the test ends."""
    with running_services(pg_dsn, redis_url, queue_name) as running:
        yield running
