"""What every Server-Sent Events route shares: the keep-alive and reconnection timings, and the stream that holds
its client's slot (:class:`..limits.StreamSlots`) while it runs."""

from __future__ import annotations

from collections.abc import AsyncIterator

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
