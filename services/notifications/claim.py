"""A delivery row's life: ``pending`` → ``sending`` (claimed by its job's run) → ``sent``, ``skipped`` or
``failed``, or back to ``pending`` with a later ``due_at`` after a transient failure.

The claim (:meth:`infra.notifications.Outbox.claim`): a delivery that is due, ``pending`` or ``sending`` (the run of
its job that was sending it died), becomes ``sending`` with ``attempts + 1``. It has no lease of its own: a delivery
is sent only by its job (whose id is the delivery's), arq runs one job id once at a time, and the job's lease
(:mod:`services.ai_worker.leases`: seconds, renewed while its worker lives) is the one lease that makes it one
worker's and another's soon after that worker dies. A delivery that is not claimable says why (:class:`Busy`: not
due yet, or finished), so its job can wait for the right moment instead of giving up.
"""

from __future__ import annotations

from infra.notifications import Busy, Claimed, Outbox

MAX_ATTEMPTS = 8
"""Attempts of one delivery before it is ``failed`` (transient failures only; a permanent one fails at once)."""
BACKOFF_BASE_S = 5.0
BACKOFF_CAP_S = 3600.0

__all__ = ["BACKOFF_BASE_S", "BACKOFF_CAP_S", "MAX_ATTEMPTS", "Busy", "Claimed", "backoff_s", "claim", "finish",
           "later"]


def backoff_s(attempts: int) -> float:
    """The wait after the ``attempts``-th failed attempt: 5 s, 10 s, 20 s ... capped at an hour."""
    return float(min(BACKOFF_CAP_S, BACKOFF_BASE_S * 2 ** max(0, attempts - 1)))


async def claim(store: Outbox, delivery_id: str) -> Claimed | Busy:
    return await store.claim(delivery_id)


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
