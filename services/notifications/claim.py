"""A delivery row's life: ``pending`` → ``sending`` (claimed under a lease) → ``sent``, ``skipped`` or ``failed``,
or back to ``pending`` with a later ``due_at`` after a transient failure.

The claim (:meth:`infra.notifications.Outbox.claim`): a pending delivery that is due, or a ``sending`` one whose
lease has expired (its worker died), becomes ``sending`` with ``attempts + 1`` and a lease of :data:`LEASE_S`,
which the living worker renews while it sends (:func:`extend`), so a slow receiver does not make it look
abandoned. Two workers cannot both claim it. A delivery that is not claimable says why (:class:`Busy`: not due
yet, or leased), so its job can wait for the right moment instead of giving up.
"""

from __future__ import annotations

from infra.notifications import Busy, Claimed, Outbox

LEASE_S = 10
"""How long a claimed delivery stays its worker's without a renewal: the longest a killed worker's delivery waits
before the sweep queues it again."""
RENEW_EVERY_S = LEASE_S / 3
"""How often a worker renews the lease of a delivery it is sending (three chances per lease)."""
MAX_ATTEMPTS = 8
"""Attempts of one delivery before it is ``failed`` (transient failures only; a permanent one fails at once)."""
BACKOFF_BASE_S = 5.0
BACKOFF_CAP_S = 3600.0

__all__ = ["BACKOFF_BASE_S", "BACKOFF_CAP_S", "LEASE_S", "MAX_ATTEMPTS", "RENEW_EVERY_S", "Busy", "Claimed",
           "backoff_s", "claim", "extend", "finish", "later"]


def backoff_s(attempts: int) -> float:
    """The wait after the ``attempts``-th failed attempt: 5 s, 10 s, 20 s ... capped at an hour."""
    return float(min(BACKOFF_CAP_S, BACKOFF_BASE_S * 2 ** max(0, attempts - 1)))


async def claim(store: Outbox, delivery_id: str, lease_s: float = LEASE_S) -> Claimed | Busy:
    return await store.claim(delivery_id, lease_s)


async def extend(store: Outbox, delivery_id: str, lease_s: float = LEASE_S) -> bool:
    """Renew the lease of a delivery being sent (False if it is not ``sending`` any more)."""
    return await store.extend(delivery_id, lease_s)


async def finish(store: Outbox, delivery_id: str, status: str, detail: str = "") -> bool:
    """Mark a claimed delivery ``sent``, ``skipped`` or ``failed`` (False if it was not ``sending`` any more)."""
    return await store.finish(delivery_id, status, detail)


async def later(store: Outbox, delivery_id: str, attempts: int, reason: str,
                wait_s: float | None = None) -> float | None:
    """After a transient failure: back to ``pending``, due after the back-off (or the receiver's ``wait_s`` if
    longer); ``failed`` once :data:`MAX_ATTEMPTS` are spent. Returns the wait, or None when it failed."""
    if attempts >= MAX_ATTEMPTS:
        await finish(store, delivery_id, "failed", f"gave up after {attempts} attempts: {reason}")
        return None
    wait = max(backoff_s(attempts), min(wait_s or 0.0, BACKOFF_CAP_S))
    await store.put_back(delivery_id, wait, f"attempt {attempts} failed: {reason}")
    return wait
