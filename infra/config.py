"""Settings from the environment, read once at start-up (only entry points call :func:`load`)."""

from __future__ import annotations

import ipaddress
import os
import re
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
    system_chain: int = 16
    """How many more system commands due one after another (AI turns, dice, markets) a system job decides in its
    own append before leaving the rest to the next job (``services.gameplay.follow_on``; 0: one job per command)."""
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
    trusted_proxies: tuple[str, ...] = ()
    """The proxies (addresses or CIDR networks) whose ``X-Forwarded-For`` names the client: the client address is
    the right-most one in that header that is not a trusted proxy. Empty: the connection's peer is the client, and
    the header is ignored (``MAGNATE_TRUSTED_PROXIES``, comma-separated; put HAProxy's address here)."""
    smtp_url: str | None = None
    """Where mail goes (smtp://user:pass@host:port, smtps://... for TLS; ?starttls=1). Unset: mail is kept in the
    database and shown at /dev/mail, but only with ``dev_mailbox``; without either no mail is sent at all."""
    dev_mailbox: bool = False
    """Keep mail in the database and show it at /dev/mail and /api/dev/mail, sign-in links included, to anyone
    (``make run`` turns it on). Never on a server others can reach: whoever reads the mailbox signs in as anyone."""
    mail_from: str = "Magnate Server <magnate@localhost>"
    secret_key: str | None = None
    """Signs the CSRF tokens of signed-in pages. Unset: one is made on first start and kept in the database."""
    secure_cookies: bool = False
    """Mark session cookies Secure (implied when ``PUBLIC_URL`` is https)."""
    sign_in_minutes: int = 15
    """How long an emailed sign-in link works (once)."""
    presence_s: int = 45
    """A seat with no live page for this long is away: email and push reach only players who are away."""
    webhook_failures_max: int = 8
    """A webhook failing this many deliveries in a row is disabled (and its player told)."""
    vacation_days: int = 30
    """Days of vacation a player may take per calendar year (clocks paused in every game they sit at)."""
    allow_private_webhooks: bool = False
    """Let webhook and push URLs point at loopback and private addresses (tests; a sandbox allows them too)."""
    log_format: str | None = None
    """``json`` (one object per line) or ``console``; unset: JSON unless standard error is a terminal."""
    log_level: str = "INFO"
    games: str = "domain.games:GAMES"
    """The registry of games this server serves, as ``package.module:attribute`` (``MAGNATE_GAMES``): the games
    offered to players unless a test names its own (:mod:`services.gameplay.registry`)."""
    languages: tuple[str, ...] = ("en", "ru", "de")
    """The languages the service speaks (``MAGNATE_LANGUAGES``, comma-separated), the first being the default:
    each needs its catalogs (``locale/<code>/LC_MESSAGES/<domain>.po`` beside every domain's code; docs/I18N.md)."""
    pseudo_locale: bool = False
    """Also offer the pseudo-locale ``en-XA`` (every string bracketed and accented, made from the English
    templates): for finding text that escapes the catalogs (``MAGNATE_PSEUDO_LOCALE``; tests and development)."""
    worker_metrics_port: int | None = None
    """Where a worker serves its Prometheus metrics (``http://HOST:port/metrics``); unset: nowhere. `magnate run`
    gives its worker ``PORT + 1`` unless this is set."""

    push: str = "python"
    """Who holds the pages' event streams (``MAGNATE_PUSH``): ``python`` (the API's own stream, ``make run``'s) or
    ``nchan`` (nginx with nchan: ``magnate run`` starts it and the pusher; docs/SCALING.md, "A push server")."""
    nchan_port: int | None = None
    """Where ``magnate run`` serves the site through nginx with nchan (the pages' port); unset: ``PORT + 2``, and the
    publisher location on the next port."""
    nchan_publish_url: str | None = None
    """nchan's publisher location, where the pusher POSTs (``MAGNATE_NCHAN_PUBLISH_URL``, e.g.
    ``http://127.0.0.1:8083/publish``); ``magnate run`` sets it for the nginx it starts."""
    nchan_subscription_s: int = 100
    """How long a page holds one nchan subscription before it renews it itself (``MAGNATE_NCHAN_SUBSCRIPTION_S``),
    resuming after the last message it saw: each subscription marks its seat present for two minutes
    (``services.api.controllers.push_auth.PRESENT_S``). nginx never ends one itself: in nchan 1.3.6's Redis mode a
    subscription ended by ``nchan_subscriber_timeout`` leaves its channel deaf on that box (docs/SCALING.md)."""

    def __post_init__(self) -> None:
        if self.push not in ("python", "nchan"):
            raise ValueError(f"MAGNATE_PUSH: {self.push!r} is neither 'python' nor 'nchan'")
        if not 0 <= self.system_chain <= 256:
            raise ValueError(f"MAGNATE_SYSTEM_CHAIN: {self.system_chain} is not within 0..256")
        if not 1 <= self.nchan_subscription_s <= 600:
            raise ValueError(f"MAGNATE_NCHAN_SUBSCRIPTION_S: {self.nchan_subscription_s} is not within 1..600")
        for proxy in self.trusted_proxies:
            try:
                ipaddress.ip_network(proxy, strict=False)
            except ValueError:
                raise ValueError(f"MAGNATE_TRUSTED_PROXIES: {proxy!r} is not an IP address or network") from None


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
    "system_chain": "MAGNATE_SYSTEM_CHAIN",
    "worker_health_check_s": "MAGNATE_WORKER_HEALTH_CHECK_S",
    "reconcile_every_s": "MAGNATE_RECONCILE_EVERY_S",
    "db_pool_size": "MAGNATE_DB_POOL_SIZE",
    "max_body_bytes": "MAGNATE_MAX_BODY_BYTES",
    "rate_create_per_min": "MAGNATE_RATE_CREATE_PER_MIN",
    "rate_commands_per_min": "MAGNATE_RATE_COMMANDS_PER_MIN",
    "rate_reads_per_min": "MAGNATE_RATE_READS_PER_MIN",
    "max_streams_per_client": "MAGNATE_MAX_STREAMS_PER_CLIENT",
    "trusted_proxies": "MAGNATE_TRUSTED_PROXIES",
    "smtp_url": "SMTP_URL",
    "dev_mailbox": "MAGNATE_DEV_MAILBOX",
    "mail_from": "MAIL_FROM",
    "secret_key": "MAGNATE_SECRET_KEY",
    "secure_cookies": "MAGNATE_SECURE_COOKIES",
    "sign_in_minutes": "MAGNATE_SIGN_IN_MINUTES",
    "presence_s": "MAGNATE_PRESENCE_S",
    "webhook_failures_max": "MAGNATE_WEBHOOK_FAILURES_MAX",
    "allow_private_webhooks": "MAGNATE_ALLOW_PRIVATE_WEBHOOKS",
    "vacation_days": "MAGNATE_VACATION_DAYS",
    "log_format": "MAGNATE_LOG_FORMAT",
    "log_level": "MAGNATE_LOG_LEVEL",
    "worker_metrics_port": "MAGNATE_WORKER_METRICS_PORT",
    "games": "MAGNATE_GAMES",
    "languages": "MAGNATE_LANGUAGES",
    "pseudo_locale": "MAGNATE_PSEUDO_LOCALE",
    "push": "MAGNATE_PUSH",
    "nchan_port": "MAGNATE_NCHAN_PORT",
    "nchan_publish_url": "MAGNATE_NCHAN_PUBLISH_URL",
    "nchan_subscription_s": "MAGNATE_NCHAN_SUBSCRIPTION_S",
}


_LISTS = ("trusted_proxies", "languages")
"""Settings written as comma- (or space-) separated lists in the environment."""


def load(environ: Mapping[str, str] | None = None, **overrides: object) -> Settings:
    """Settings from environment variables (names in ``_ENV``), then explicit overrides."""
    env = os.environ if environ is None else environ
    raw: dict[str, object] = {field: env[name] for field, name in _ENV.items() if env.get(name)}
    for field in _LISTS:
        if isinstance(raw.get(field), str):
            raw[field] = [item for item in re.split(r"[\s,]+", str(raw[field])) if item]
    raw.update({k: v for k, v in overrides.items() if v is not None})
    return msgspec.convert(raw, Settings, strict=False)
