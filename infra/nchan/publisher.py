"""Publishing the pages' messages to nchan: one POST per (channel, message) to the publisher location of one nginx
box (``infra/nchan/nginx.conf.template``); in Redis mode every box on the same Redis delivers it to its own
subscribers. :class:`MemoryPush` is its in-memory twin (the same contract, ``tests/integration/test_nchan.py``).

Channels are named per (game, viewer class): :func:`public_channel` (what anyone may read) and
:func:`seat_channel` (what one seat may read). The message's SSE event name travels in nchan's
``X-EventSource-Event`` header; nchan gives each message its own id (``<time>:<tag>``), which a reconnecting
EventSource sends back as ``Last-Event-ID`` and nchan resumes after."""

from __future__ import annotations

import asyncio
import itertools
from collections import defaultdict
from collections.abc import AsyncGenerator
from dataclasses import dataclass
from typing import Protocol
from urllib.parse import urlsplit

from infra.errors import InfraError

__all__ = ["MemoryPush", "NchanPush", "Push", "PushUnavailable", "Pushed", "public_channel", "seat_channel"]


def public_channel(game_id: str) -> str:
    return f"games/{game_id}/public"


def seat_channel(game_id: str, seat: int) -> str:
    return f"games/{game_id}/seat/{seat}"


class PushUnavailable(InfraError):
    """The push server did not take a message (down, or answered an error)."""


class Push(Protocol):
    async def publish(self, channel: str, data: str, event: str) -> None:
        """Deliver ``data`` as one SSE message named ``event`` to every subscriber of ``channel``, and keep it for
        a subscriber that resumes; raises :class:`PushUnavailable` when the push server does not take it."""
        ...

    async def aclose(self) -> None: ...


class NchanPush:
    """:class:`Push` on nchan's publisher location: ``url`` is its prefix (``http://127.0.0.1:8082/publish``).

    HTTP/1.1 on up to ``connections`` kept-alive connections, written and read here: a message is one small POST, and
    a general client (httpx: 0.85 ms of CPU a request here) cost more than the rest of a version's publishing."""

    def __init__(self, url: str, timeout_s: float = 5.0, connections: int = 8) -> None:
        parts = urlsplit(url)
        if parts.scheme != "http" or not parts.hostname:
            raise ValueError(f"nchan's publisher location must be an http:// URL on a private network, not {url!r}")
        self._url = url.rstrip("/")
        self._host, self._port = parts.hostname, parts.port or 80
        self._prefix = parts.path.rstrip("/")
        self._timeout_s = timeout_s
        self._idle: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
        self._slots = asyncio.Semaphore(connections)

    async def publish(self, channel: str, data: str, event: str) -> None:
        body = data.encode()
        request = (f"POST {self._prefix}/{channel} HTTP/1.1\r\nHost: {self._host}\r\nX-EventSource-Event: {event}\r\n"
                   f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n").encode() + body
        async with self._slots:
            try:
                status = await asyncio.wait_for(self._exchange(request), self._timeout_s)
            except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError, IndexError) as exc:
                raise PushUnavailable(f"nchan at {self._url} is unavailable: {exc!r}") from exc
        if status not in (200, 201, 202):
            raise PushUnavailable(f"nchan at {self._url} refused a message to {channel}: {status}")

    async def _exchange(self, request: bytes) -> int:
        if self._idle:  # a kept connection nginx may have closed meanwhile (its keepalive_timeout): then a new one
            reader, writer = self._idle.pop()
            writer.write(request)
            try:
                first = await reader.readline()
            except OSError:  # reset: as closed
                first = b""
            except BaseException:
                writer.close()
                raise
            if first:
                return await self._answer(reader, writer, first)
            writer.close()
        reader, writer = await asyncio.open_connection(self._host, self._port)
        writer.write(request)
        return await self._answer(reader, writer, None)

    async def _answer(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, first: bytes | None) -> int:
        try:
            status = int((first or await reader.readline()).split(b" ", 2)[1])
            length, chunked, keep = 0, False, True
            while (line := await reader.readline()) not in (b"\r\n", b"\n", b""):
                name, _, value = line.decode("latin-1").partition(":")
                name, value = name.strip().lower(), value.strip().lower()
                if name == "content-length":
                    length = int(value)
                elif name == "transfer-encoding":
                    chunked = "chunked" in value
                elif name == "connection":
                    keep = value != "close"
            if chunked:
                while (size := int((await reader.readline()).split(b";")[0], 16)) > 0:
                    await reader.readexactly(size + 2)
                await reader.readline()
            elif length:
                await reader.readexactly(length)
        except BaseException:
            writer.close()
            raise
        if keep:
            self._idle.append((reader, writer))
        else:
            writer.close()
        return status

    async def aclose(self) -> None:
        idle, self._idle = self._idle, []
        for _, writer in idle:
            writer.close()


@dataclass(frozen=True)
class Pushed:
    id: str
    event: str
    data: str


class MemoryPush:
    """:class:`Push` in memory: a channel keeps its last ``kept`` messages, each with an id; :meth:`subscribe`
    yields them as nchan's EventSource subscriber does with ``nchan_subscriber_first_message newest`` (the kept ones
    after ``last_event_id``; none of them when it is None; then each new one). ``failing``: refuse every
    publish (a push server that is down)."""

    def __init__(self, kept: int = 32) -> None:
        self._kept = kept
        self._messages: dict[str, list[Pushed]] = defaultdict(list)
        self._changed: dict[str, asyncio.Condition] = defaultdict(asyncio.Condition)
        self._ids = itertools.count(1)
        self.failing = False

    async def publish(self, channel: str, data: str, event: str) -> None:
        if self.failing:
            raise PushUnavailable("the push server is down")
        kept = self._messages[channel]
        kept.append(Pushed(f"{next(self._ids)}:0", event, data))
        del kept[:-self._kept]
        async with self._changed[channel]:
            self._changed[channel].notify_all()

    async def subscribe(self, channel: str, last_event_id: str | None = None) -> AsyncGenerator[Pushed, None]:
        kept = self._messages[channel]
        newest = int(kept[-1].id.partition(":")[0]) if kept else 0
        sent = newest if last_event_id is None else int(last_event_id.partition(":")[0])
        while True:
            for message in list(self._messages[channel]):
                number = int(message.id.partition(":")[0])
                if number > sent:
                    sent = number
                    yield message
            async with self._changed[channel]:
                if all(int(m.id.partition(":")[0]) <= sent for m in self._messages[channel]):
                    await self._changed[channel].wait()

    def messages(self, channel: str) -> list[Pushed]:
        return list(self._messages[channel])

    async def aclose(self) -> None:
        return None
