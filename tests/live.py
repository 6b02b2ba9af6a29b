"""The service as real processes: the API server and a worker (``python -m services.cli serve|worker``)
over the real PostgreSQL and Redis of the test session, on a free port, with a sandbox server (so a test may
choose the seed). Used by the end-to-end and the browser tests."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from services.simulation.live import free_port, spawn

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Services:
    url: str
    env: dict[str, str]
    server: subprocess.Popen[bytes]
    worker: subprocess.Popen[bytes] | None

    def start_worker(self) -> None:
        self.worker = spawn("worker", self.env)

    def stop_worker(self) -> None:
        assert self.worker is not None
        self.worker.send_signal(signal.SIGTERM)
        self.worker.wait(timeout=20)
        self.worker = None


@contextmanager
def running_services(pg_dsn: str, redis_url: str, queue_name: str) -> Iterator[Services]:
    """Start the API server and one worker; stop them (SIGTERM, then kill) when the block ends."""
    port = free_port()
    env = {**os.environ, "DATABASE_URL": pg_dsn, "REDIS_URL": redis_url, "MAGNATE_QUEUE_NAME": queue_name,
           "HOST": "127.0.0.1", "PORT": str(port), "MAGNATE_SANDBOX": "true"}
    running = Services(f"http://127.0.0.1:{port}", env, spawn("serve", env), None)
    running.start_worker()
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{running.url}/health", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "the API server did not come up"
            assert running.server.poll() is None, "the API server exited"
            time.sleep(0.2)
        yield running
    finally:
        for process in (running.server, running.worker):
            if process is not None and process.poll() is None:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    process.kill()


@pytest.fixture
def services(pg_dsn: str, redis_url: str, queue_name: str) -> Iterator[Services]:
    """The API server and one worker, running until the test ends."""
    with running_services(pg_dsn, redis_url, queue_name) as running:
        yield running
