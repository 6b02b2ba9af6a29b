"""What the PostgreSQL adapters run their statements on: a pool (one statement, autocommit) or a connection
(inside a transaction)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeAlias

import asyncpg
from asyncpg.pool import PoolConnectionProxy

if TYPE_CHECKING:
    Conn: TypeAlias = asyncpg.Connection | PoolConnectionProxy[Any]
    """A connection (a transaction's)."""
    Executor: TypeAlias = asyncpg.Pool | Conn
    """A pool or a connection."""
else:  # asyncpg's classes are generic only in its stubs
    Conn = asyncpg.Connection | PoolConnectionProxy
    Executor = asyncpg.Pool | Conn


class OnExecutor:
    """Statements over a pool or a transaction's connection."""

    def __init__(self, db: Executor) -> None:
        self._db = db
