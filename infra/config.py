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
    worker_health_check_s: int = 10
    """How often a worker records its health key in Redis."""
    reconcile_every_s: int = 10
    """How often (one worker of all) re-enqueues every due job: the longest a job lost with Redis waits."""
    db_pool_size: int = 10
    max_body_bytes: int = 64 * 1024
    """The largest request body the API reads (413 beyond it)."""
    rate_create_per_min: int = 20
    """Games one client address may create per minute (429 beyond it; 0: no limit; none in a sandbox)."""
    rate_commands_per_min: int = 600
    """Commands one client address may submit per minute (429 beyond it; 0: no limit; none in a sandbox)."""
    rate_reads_per_min: int = 1200
    """Other API requests one client address may make per minute (429 beyond; 0: no limit; none in a sandbox)."""
    max_streams_per_client: int = 50
    """Event streams one client address may hold open at once, per API process (429 beyond; 0: no limit)."""


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
    "worker_health_check_s": "MAGNATE_WORKER_HEALTH_CHECK_S",
    "reconcile_every_s": "MAGNATE_RECONCILE_EVERY_S",
    "db_pool_size": "MAGNATE_DB_POOL_SIZE",
    "max_body_bytes": "MAGNATE_MAX_BODY_BYTES",
    "rate_create_per_min": "MAGNATE_RATE_CREATE_PER_MIN",
    "rate_commands_per_min": "MAGNATE_RATE_COMMANDS_PER_MIN",
    "rate_reads_per_min": "MAGNATE_RATE_READS_PER_MIN",
    "max_streams_per_client": "MAGNATE_MAX_STREAMS_PER_CLIENT",
}


def load(environ: Mapping[str, str] | None = None, **overrides: object) -> Settings:
    """Settings from environment variables (names in ``_ENV``), then explicit overrides."""
    env = os.environ if environ is None else environ
    raw: dict[str, object] = {field: env[name] for field, name in _ENV.items() if env.get(name)}
    raw.update({k: v for k, v in overrides.items() if v is not None})
    return msgspec.convert(raw, Settings, strict=False)
