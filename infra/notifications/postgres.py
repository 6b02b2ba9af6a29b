"""The notification store over PostgreSQL: the four ports (:mod:`.base`) on one pool, and transactions over them
(a connection of the pool; a transaction inside one is a savepoint)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import asyncpg

from .executor import Executor
from .postgres_channels import PostgresChannels
from .postgres_inbox import PostgresInbox
from .postgres_outbox import PostgresOutbox
from .postgres_watch import PostgresWatch


class PostgresNotificationStore(PostgresInbox, PostgresOutbox, PostgresChannels, PostgresWatch):
    """Every statement of the notifications context. Over a pool each call is its own transaction; over the
    connection :meth:`transaction` yields, the calls commit together."""

    def __init__(self, db: Executor) -> None:
        super().__init__(db)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[PostgresNotificationStore]:
        if isinstance(self._db, asyncpg.Pool):
            async with self._db.acquire() as conn, conn.transaction():
                yield PostgresNotificationStore(conn)
        else:
            async with self._db.transaction():
                yield self
