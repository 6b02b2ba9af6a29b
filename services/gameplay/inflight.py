"""One run at a time per key: callers that come while a run is under way share its result.

The event streams of a game wake together at each announcement; without this, each would read the store (and make
its message) alone. Used by :meth:`.loader.GameLoader.load_shared` and the event streams' shared messages
(``services/api/controllers/stream.py``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable
from functools import partial
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class InFlight(Generic[K, V]):
    def __init__(self) -> None:
        self._running: dict[K, asyncio.Future[V]] = {}

    async def run(self, key: K, make: Callable[[], Awaitable[V]]) -> tuple[V, bool]:
        """The result of the run of ``key`` under way, or of a new one started with ``make``; and whether the caller
        joined a run that was already under way (it may have begun before what the caller knows happened). Its
        error is every caller's; a caller that is cancelled (its client left) leaves the run to the others."""
        running = self._running.get(key)
        joined = running is not None
        if running is None:
            running = self._running[key] = asyncio.ensure_future(make())
            running.add_done_callback(partial(self._done, key))
        return await asyncio.shield(running), joined

    def _done(self, key: K, done: asyncio.Future[V]) -> None:
        if self._running.get(key) is done:
            del self._running[key]
        if not done.cancelled():
            done.exception()  # retrieved here: every caller may have left before it failed
