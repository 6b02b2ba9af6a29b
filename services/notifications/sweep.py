"""The sweep: every delivery that is ``pending`` and due, or ``sending``, is queued again. arq refuses a job whose id
is queued or running, so a delivery whose job is alive (waiting out a back-off, running, or waiting for the lease
of a killed worker's run to end) is not queued twice; a ``sending`` one whose job is gone gets a new one.
This is what makes a lost Redis queue, a kill between a commit and its enqueue, or a job arq gave up on lose
nothing: the rows are the truth."""

from __future__ import annotations

from infra.notifications import Outbox
from infra.notifications.dispatch import Dispatch

SWEPT = 2000
"""Deliveries queued again per sweep, oldest due first (the rest at the next)."""


async def sweep(store: Outbox, dispatch: Dispatch, limit: int = SWEPT) -> int:
    """Queue every due or abandoned delivery again; returns how many jobs were new."""
    return await dispatch.enqueue(await store.due(limit))
