"""A delivery row's life: ``pending`` → ``sending`` (claimed under a lease) → ``sent``, ``skipped`` or ``failed``,
or back to ``pending`` with a later ``due_at`` after a transient failure.

The claim is one ``UPDATE ... RETURNING``: a pending delivery that is due, or a ``sending`` one whose lease has
expired (its worker died), becomes ``sending`` with ``attempts + 1`` and a lease of :data:`LEASE_S`, which the
living worker renews while it sends (:func:`extend`), so a slow receiver does not make it look abandoned. Two
workers cannot both claim it. A delivery that is not claimable says why (:class:`Busy`: not due yet, or leased), so its
job can wait for the right moment instead of giving up.
"""

from __future__ import annotations

from datetime import datetime

import msgspec

from .db import Executor

LEASE_S = 10
"""How long a claimed delivery stays its worker's without a renewal: the longest a killed worker's delivery waits
before the sweep queues it again."""
RENEW_EVERY_S = LEASE_S / 3
"""How often a worker renews the lease of a delivery it is sending (three chances per lease)."""
MAX_ATTEMPTS = 8
"""Attempts of one delivery before it is ``failed`` (transient failures only; a permanent one fails at once)."""
BACKOFF_BASE_S = 5.0
BACKOFF_CAP_S = 3600.0


class Claimed(msgspec.Struct, frozen=True):
    delivery_id: str
    player_id: str
    channel: str
    target: str
    notice_id: str | None
    attempts: int
    created_at: datetime


class Busy(msgspec.Struct, frozen=True):
    """Not claimable now: ``status`` and when to look again (``wait_s``; None: never, it is finished)."""

    status: str
    wait_s: float | None


_CLAIM = """
UPDATE deliveries SET status = 'sending', attempts = attempts + 1,
       lease_until = now() + make_interval(secs => $2)
WHERE delivery_id = $1 AND due_at <= now()
  AND (status = 'pending' OR (status = 'sending' AND lease_until < now()))
RETURNING delivery_id, player_id, channel, target, notice_id, attempts, created_at
"""
_STATE = """
SELECT status, extract(epoch FROM (CASE WHEN status = 'pending' THEN due_at ELSE lease_until END) - now()) AS wait_s
FROM deliveries WHERE delivery_id = $1
"""


def backoff_s(attempts: int) -> float:
    """The wait after the ``attempts``-th failed attempt: 5 s, 10 s, 20 s ... capped at an hour."""
    return float(min(BACKOFF_CAP_S, BACKOFF_BASE_S * 2 ** max(0, attempts - 1)))


async def claim(conn: Executor, delivery_id: str,
                lease_s: float = LEASE_S) -> Claimed | Busy:
    row = await conn.fetchrow(_CLAIM, delivery_id, float(lease_s))
    if row is not None:
        return Claimed(**dict(row))
    state = await conn.fetchrow(_STATE, delivery_id)
    if state is None:
        return Busy("gone", None)
    if state["status"] in ("pending", "sending"):
        return Busy(state["status"], max(0.0, float(state["wait_s"] or 0.0)))
    return Busy(state["status"], None)


async def extend(db: Executor, delivery_id: str, lease_s: float = LEASE_S) -> bool:
    """Renew the lease of a delivery being sent (False if it is not ``sending`` any more)."""
    done = await db.fetchval(
        "UPDATE deliveries SET lease_until = now() + make_interval(secs => $2)"
        " WHERE delivery_id = $1 AND status = 'sending' RETURNING 1", delivery_id, float(lease_s))
    return done is not None


async def finish(conn: Executor, delivery_id: str, status: str, detail: str = "") -> bool:
    """Mark a claimed delivery ``sent``, ``skipped`` or ``failed`` (False if it was not ``sending`` any more)."""
    done = await conn.fetchval(
        "UPDATE deliveries SET status = $2, detail = $3, lease_until = NULL,"
        " sent_at = CASE WHEN $2 = 'sent' THEN now() ELSE sent_at END"
        " WHERE delivery_id = $1 AND status = 'sending' RETURNING 1", delivery_id, status, detail[:500])
    return done is not None


async def later(conn: Executor, delivery_id: str, attempts: int, reason: str,
                wait_s: float | None = None) -> float | None:
    """After a transient failure: back to ``pending``, due after the back-off (or the receiver's ``wait_s`` if
    longer); ``failed`` once :data:`MAX_ATTEMPTS` are spent. Returns the wait, or None when it failed."""
    if attempts >= MAX_ATTEMPTS:
        await finish(conn, delivery_id, "failed", f"gave up after {attempts} attempts: {reason}")
        return None
    wait = max(backoff_s(attempts), min(wait_s or 0.0, BACKOFF_CAP_S))
    await conn.execute(
        "UPDATE deliveries SET status = 'pending', lease_until = NULL, detail = $3,"
        " due_at = now() + make_interval(secs => $2) WHERE delivery_id = $1 AND status = 'sending'",
        delivery_id, wait, f"attempt {attempts} failed: {reason}"[:500])
    return wait
