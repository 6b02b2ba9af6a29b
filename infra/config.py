"""Settings from the environment, read once at start-up (only entry points call :func:`load`)."""

from __future__ import annotations

import os
from collections.abc import Mapping

import msgspec


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    database_url: str | None = None
    """PostgreSQL DSN; unset means `magnate run` starts an embedded PostgreSQL."""
    redis_url: str | None = None
    """Redis URL (redis:// or unix://); unset means `magnate run` starts an embedded Redis."""
    host: str = "127.0.0.1"
    port: int = 8000
    public_url: str | None = None
    """Base URL for invite links (default http://HOST:PORT)."""
    data_dir: str = "var"
    """Where the embedded PostgreSQL and Redis keep their data."""
    snapshot_every: int = 100
    """Write a state snapshot whenever the stream crosses a multiple of this many events."""
    sandbox: bool = False
    """Allow clients to choose a game's seed (tests and simulations only; never in production)."""
    queue_name: str = "magnate:queue"
    """The Redis list the API enqueues system jobs on and the workers poll."""
    worker_max_jobs: int = 64
    worker_poll_delay_s: float = 0.05
    worker_job_timeout_s: int = 60
    reconcile_every_s: int = 30
    db_pool_size: int = 10


_ENV = {
    "database_url": "DATABASE_URL",
    "redis_url": "REDIS_URL",
    "host": "HOST",
    "port": "PORT",
    "public_url": "PUBLIC_URL",
    "data_dir": "MAGNATE_DATA_DIR",
    "snapshot_every": "MAGNATE_SNAPSHOT_EVERY",
    "sandbox": "MAGNATE_SANDBOX",
    "queue_name": "MAGNATE_QUEUE_NAME",
    "worker_max_jobs": "MAGNATE_WORKER_MAX_JOBS",
    "worker_poll_delay_s": "MAGNATE_WORKER_POLL_DELAY_S",
    "worker_job_timeout_s": "MAGNATE_WORKER_JOB_TIMEOUT_S",
    "reconcile_every_s": "MAGNATE_RECONCILE_EVERY_S",
    "db_pool_size": "MAGNATE_DB_POOL_SIZE",
}


def load(environ: Mapping[str, str] | None = None, **overrides: object) -> Settings:
    """Settings from environment variables (names in ``_ENV``), then explicit overrides."""
    env = os.environ if environ is None else environ
    raw: dict[str, object] = {field: env[name] for field, name in _ENV.items() if env.get(name)}
    raw.update({k: v for k, v in overrides.items() if v is not None})
    return msgspec.convert(raw, Settings, strict=False)
