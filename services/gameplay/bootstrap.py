"""The composition root: build the gameplay service and its adapters from Settings (the only place
that connects to anything)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import cached_property
from typing import Protocol

import asyncpg
from arq.connections import ArqRedis
from litestar.stores.base import Store
from redis.asyncio import Redis

from infra.accounts import LinkLimits, Players, PlayerStore, PostgresSessionStore
from infra.accounts.erasure import PostgresErasure
from infra.accounts.vacations import Vacations, VacationStore
from infra.channels.mail import MailSender, mail_sender
from infra.chat import PostgresChatStore
from infra.config import Settings
from infra.counters import redis_counters
from infra.errors import StoreUnavailable
from infra.eventstore.postgres import PostgresEventStore
from infra.eventstore.tables import PostgresTables
from infra.migrate import migrate
from infra.news import RedisNews, news_channel
from infra.notes import PostgresNotes
from infra.notify import STREAMS_CLIENT, Notifier, RecordingNotifier, RedisBroadcast, RedisNotifier, Subscriber
from infra.plans import PostgresSeatPlans
from infra.presence import Presence, PresencePort
from infra.probes import database_ok, redis_ok
from infra.queue import (
    ArqAnnouncer,
    ArqJobClaims,
    ArqJobQueue,
    RecordingJobQueue,
    RedisPeriods,
    arq_pool,
    queue_depth,
)
from infra.ratings import PostgresRatings
from services.notifications.context import build as build_notifications
from services.ratings import RatingService

from .accounts import Accounts
from .advice import Advisor, advisor_of
from .chat import Chat
from .handler import Gameplay
from .health import Health
from .mine import MyGames
from .my_data import MyData
from .notes import PrivateNotes
from .plans import SeatPlanning
from .registry import games_of
from .seating import Seating
from .tables import Tables


class Announcements(Notifier, Subscriber, Protocol):
    """The announcements of new versions: published by appends, heard by event streams, closed with the runtime."""

    async def aclose(self) -> None: ...


class Runtime:
    """The live adapters of one process and the application services built once over them (what the API's
    controllers receive: ``gameplay``, ``accounts``, ``chat``, ``seating``, ``tables``, ``my_games``, ``health``);
    ``close()`` releases the adapters. :func:`services.gameplay.twins.in_memory` builds one of the same shape over
    in-memory twins (no ``pool``, ``redis`` or ``arq``)."""

    def __init__(self, gameplay: Gameplay, pool: asyncpg.Pool, redis: Redis, arq: ArqRedis,
                 notifier: RedisNotifier, settings: Settings) -> None:
        self.gameplay = gameplay
        self.pool = pool
        self.redis = redis
        self.arq = arq
        self.notifier: Announcements = notifier
        broadcast = RedisBroadcast(redis)
        self.players: Players = PlayerStore(pool)
        self.vacations: Vacations = VacationStore(pool)
        """Accounts and sign-in links."""
        self.presence: PresencePort = Presence(redis, settings.presence_s)
        """Which seats and players have a live page open."""
        self.mail: MailSender = mail_sender(settings, pool)
        """SMTP (``SMTP_URL``), or the development mailbox shown at /dev/mail."""
        self.notifications = build_notifications(settings, self, mail=self.mail)
        """What is told to players, and how (controllers, jobs and the worker's loops get it, never the pools)."""
        self.ratings = RatingService(gameplay, PostgresRatings(pool))
        """Ratings per game type, settled when the projector sees a rated game end (issue #29)."""
        self.notifications.projector.on_over = self.ratings.game_over
        self.seating = Seating(gameplay, broadcast)
        self.accounts = Accounts(gameplay, self.players, self.vacations, self.presence, self.mail,
                                 LinkLimits(redis, settings.queue_name))
        self.chat = Chat(gameplay, PostgresChatStore(pool), broadcast)
        self.tables = Tables(gameplay, self.seating, PostgresTables(pool))
        self.my_games = MyGames(gameplay, broadcast)
        self.notes = PrivateNotes(gameplay, PostgresNotes(pool))
        """A player's private notes on their games (issue #29)."""
        self.my_data = MyData(gameplay, self.notes.notes, self.vacations, self.notifications,
                              PostgresErasure(pool), lambda: getattr(self, "ratings", None))
        """The player's own data: its export and the account's erasure."""
        self.planning = SeatPlanning(gameplay, PostgresSeatPlans(pool), gameplay.queue)
        """The seats' planned moves, played by the workers at their turns (issue #29)."""
        self.health = Health(lambda: database_ok(pool), lambda: redis_ok(redis),
                             lambda: queue_depth(redis, settings.queue_name))
        self.news = RedisNews(redis, news_channel(settings.queue_name), f"magnate-news:{settings.queue_name}")
        """The deployment's news, every append's game (what the workers' notification projector listens to)."""
        self.job_claims = ArqJobClaims(redis, settings.queue_name)
        """The running jobs' claims (the workers' one lease, renewed by :mod:`services.ai_worker.upkeep`)."""
        self.periods = RedisPeriods(redis, settings.queue_name)
        """One worker of the deployment per period (the reconcile)."""

    advice: cached_property[Advisor] = cached_property(advisor_of)  # the seats' advice, built on first use (twins too)

    def session_store(self) -> Store:
        """A store of the signed-in pages' sessions (Litestar's server-side session store), one per application."""
        return PostgresSessionStore(self.pool)

    def counters(self, namespace: str) -> Store:
        """A store of counters shared by every process of the deployment (the request rates)."""
        return redis_counters(self.redis, namespace)

    async def close(self) -> None:
        await self.notifications.aclose()
        await self.notifier.aclose()
        await self.arq.aclose()
        await self.redis.aclose()
        await self.pool.close()


def redis_client(url: str) -> Redis:
    if url.startswith("unix://"):
        return Redis(unix_socket_path=url.removeprefix("unix://"))
    client: Redis = Redis.from_url(url)
    return client


async def _keep_session(conn: asyncpg.Connection) -> None:
    """Nothing to reset when a connection goes back to the pool: the store never changes session state (no SET,
    LISTEN, cursors or session advisory locks outside the migrator, which releases its own), and asyncpg still
    rolls back a transaction left open. asyncpg's default reset runs ``SELECT pg_advisory_unlock_all(); CLOSE
    ALL; UNLISTEN *; RESET ALL`` on every release: one more round trip per query."""


async def create_pool(database_url: str, size: int, server_settings: dict[str, str] | None = None) -> asyncpg.Pool:
    """The connection pool of one process (``server_settings``: session settings, for benchmarks)."""
    try:
        pool = await asyncpg.create_pool(database_url, min_size=1, max_size=size, reset=_keep_session,
                                         server_settings=server_settings)
    except (OSError, asyncpg.PostgresError) as exc:
        raise StoreUnavailable(f"cannot reach PostgreSQL at {database_url}: {exc}") from exc
    assert pool is not None
    return pool


@asynccontextmanager
async def reading(settings: Settings) -> AsyncIterator[Gameplay]:
    """The gameplay service over PostgreSQL alone, for the commands that only read (``magnate export``): nothing
    is appended, so nothing is enqueued or announced (the queue and notifier only record)."""
    if not settings.database_url:
        raise StoreUnavailable("DATABASE_URL must be set")
    pool = await create_pool(settings.database_url, 2)
    try:
        yield Gameplay(PostgresEventStore(pool), RecordingJobQueue(), RecordingNotifier(), games_of(settings))
    finally:
        await pool.close()


async def build(settings: Settings, *, run_migrations: bool = True) -> Runtime:
    """Connect to PostgreSQL and Redis, apply migrations, and compose the gameplay service."""
    if not settings.database_url or not settings.redis_url:
        raise StoreUnavailable("DATABASE_URL and REDIS_URL must be set (or use `magnate run` for embedded ones)")
    pool = await create_pool(settings.database_url, settings.db_pool_size)
    if run_migrations:
        async with pool.acquire() as conn:
            await migrate(conn)
    redis = redis_client(settings.redis_url)
    arq = await arq_pool(settings.redis_url, settings.queue_name)
    notifier = RedisNotifier(redis, f"{STREAMS_CLIENT}:{settings.queue_name}",  # a name per deployment
                             news=news_channel(settings.queue_name))  # every append also tells the workers
    queue = ArqJobQueue(arq)
    gameplay = Gameplay(
        PostgresEventStore(pool), queue, notifier, games_of(settings), snapshot_every=settings.snapshot_every,
        system_chain=settings.system_chain,
        announcer=ArqAnnouncer(queue, notifier),  # a version that makes a job due: announced by its enqueue
    )
    return Runtime(gameplay, pool, redis, arq, notifier, settings)
