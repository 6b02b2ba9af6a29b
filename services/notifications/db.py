"""What the notification modules run their statements on: a pool (one statement, autocommit) or a connection
(inside a transaction, acquired from a pool or not)."""

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
