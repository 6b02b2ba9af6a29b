"""The sweep: every delivery that is ``pending`` and due, or ``sending`` with an expired lease (its worker was
killed), is queued again. arq refuses a job whose id is queued or running, so a delivery whose job is alive
(waiting out a back-off, or running) is not queued twice. This is what makes a lost Redis queue, a kill between
a commit and its enqueue, or a job arq gave up on lose nothing: the rows are the truth."""

from __future__ import annotations

import asyncpg
from arq.connections import ArqRedis

from . import dispatch

SWEPT = 2000
"""Deliveries queued again per sweep, oldest due first (the rest at the next)."""


async def sweep(pool: asyncpg.Pool, arq: ArqRedis, limit: int = SWEPT) -> int:
    """Queue every due or abandoned delivery again; returns how many jobs were new."""
    rows = await pool.fetch(
        "SELECT delivery_id, due_at FROM deliveries"
        " WHERE status IN ('pending', 'sending') AND due_at <= now()"
        "   AND (status = 'pending' OR lease_until < now())"
        " ORDER BY due_at LIMIT $1", limit)
    return await dispatch.enqueue(arq, ((r["delivery_id"], r["due_at"]) for r in rows))
