"""What a run asked of PostgreSQL and Redis: the transactions of its own database and the commands Redis ran.

PostgreSQL: ``pg_stat_database`` of the run's database (fresh for each run, so nobody else's), read after the
services stopped (a backend reports its counts when it ends): transactions committed and rolled back. Outside a
transaction block every statement is a transaction of its own, so on the service's paths (an append is one
statement, a read is one) this is the statements sent, one round trip each.

Redis: ``INFO commandstats`` before and after, by command. Meaningful on a Redis server the run has to itself
(``MAGNATE_BENCH_REDIS_URL``); on a shared one other clients' commands are counted too. Commands a script runs are
counted besides the script's own ``evalsha``, and a pipeline's commands each count though they make one round
trip: the table names both, and the round trips are counted by command in the text (bench/ANALYSIS.md).
"""

from __future__ import annotations

import asyncpg
import redis.asyncio

from .common import ADMIN_DSN


async def database_transactions(dsn: str) -> int:
    """Transactions (committed and rolled back) of the database ``dsn`` names, as its statistics say now."""
    database = dsn.rpartition("/")[2]
    conn = await asyncpg.connect(ADMIN_DSN, timeout=10)
    try:
        await conn.execute("SELECT pg_stat_clear_snapshot()")
        value = await conn.fetchval(
            "SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = $1", database)
    finally:
        await conn.close()
    return int(value or 0)


async def redis_commands(url: str) -> dict[str, int]:
    """Calls of each command the Redis server at ``url`` has run since it started (``INFO commandstats``)."""
    client = redis.asyncio.Redis.from_url(url)
    try:
        info = await client.info("commandstats")
    finally:
        await client.aclose()
    return {name.removeprefix("cmdstat_"): int(stats["calls"]) for name, stats in info.items()
            if isinstance(stats, dict)}


def delta(after: dict[str, int], before: dict[str, int]) -> dict[str, int]:
    """Calls of each command between two readings of :func:`redis_commands`, busiest first."""
    calls = {name: after[name] - before.get(name, 0) for name in after}
    return dict(sorted(((n, c) for n, c in calls.items() if c > 0), key=lambda item: -item[1]))


def per_unit(counts: dict[str, int], units: int) -> str:
    """``counts`` per unit of work (a command or a job), as text."""
    if not units:
        return ""
    return ", ".join(f"{name} {count / units:.2f}" for name, count in counts.items())
