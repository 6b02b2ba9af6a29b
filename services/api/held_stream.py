"""What every Server-Sent Events route shares: the keep-alive and reconnection timings, and the stream that holds
its client's slot (:class:`..limits.StreamSlots`) while it runs."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

from litestar.response import ServerSentEventMessage

from .limits import StreamSlots

KEEP_ALIVE_S = 15.0
"""Silence after which a comment line is sent, so proxies keep the connection open."""
RETRY_MS = 2000
"""How long a browser waits before reconnecting after the stream ends."""


class HeldStream:
    """The messages of one stream, holding its client's slot until they end (or the stream is dropped)."""

    def __init__(self, slots: StreamSlots, client: str, inner: AsyncIterator[ServerSentEventMessage]) -> None:
        self._slots, self._client, self._inner = slots, client, inner
        slots.hold(client, self)

    def __aiter__(self) -> HeldStream:
        return self

    async def __anext__(self) -> ServerSentEventMessage:
        try:
            return await anext(self._inner)
        except BaseException:  # the end, a failure or a cancellation (the client left): the slot is free
            self._slots.release(self._client, self)
            raise


class Merged:
    """Several async iterators heard as one: :meth:`next` answers ``(name, item)`` of whichever yields first, so a
    stream waits on its game, its chat and its player at once, in one task. :meth:`aclose` stops them all."""

    def __init__(self, sources: dict[str, AsyncIterator[Any]]) -> None:
        self._sources = sources
        self._waiting: dict[str, asyncio.Future[Any]] = {}

    async def next(self) -> tuple[str, Any]:
        """The next item of any source; StopAsyncIteration (or its error) when one of them ends."""
        for name, source in self._sources.items():
            if name not in self._waiting:
                self._waiting[name] = asyncio.ensure_future(anext(source))
        done, _ = await asyncio.wait(self._waiting.values(), return_when=asyncio.FIRST_COMPLETED)
        name = next(n for n, f in self._waiting.items() if f in done)
        return name, self._waiting.pop(name).result()

    async def aclose(self) -> None:
        for waiting in self._waiting.values():
            waiting.cancel()
        for waiting in self._waiting.values():
            with contextlib.suppress(BaseException):
                await waiting
        self._waiting.clear()
        for source in self._sources.values():
            close = getattr(source, "aclose", None)
            if close is not None:
                with contextlib.suppress(Exception):
                    await close()
