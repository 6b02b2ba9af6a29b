"""Publishing the pages' messages to nchan: one POST per (channel, message) to the publisher location of one nginx
box (``infra/nchan/nginx.conf.template``); in Redis mode every box on the same Redis delivers it to its own
subscribers. :class:`MemoryPush` is its in-memory twin (the same contract, ``tests/integration/test_nchan.py``).

Channels are named per (game, viewer class, language): :func:`public_channel` (what anyone may read) and
:func:`seat_channel` (what one seat may read), each in one of the service's languages (the story's lines are
words). The message's SSE event name travels in nchan's
``X-EventSource-Event`` header; nchan gives each message its own id (``<time>:<tag>``), which a reconnecting
EventSource sends back as ``Last-Event-ID`` and nchan resumes after."""

from __future__ import annotations

import asyncio
import itertools
from collections import defaultdict
from collections.abc import AsyncGenerator, Sequence
from dataclasses import dataclass
from typing import Protocol

import aiohttp

from infra.errors import InfraError

__all__ = ["MANY", "MemoryPush", "NchanPush", "Push", "PushUnavailable", "Pushed", "public_channel", "seat_channel"]


MANY = 255
"""The most channels one message is posted to at once (nchan's multiplexing limit)."""


def public_channel(game_id: str, language: str) -> str:
    return f"games/{game_id}/public/{language}"


def seat_channel(game_id: str, seat: int, language: str) -> str:
    return f"games/{game_id}/seat/{seat}/{language}"


class PushUnavailable(InfraError):
    """The push server did not take a message (down, or answered an error)."""


class Push(Protocol):
    async def publish(self, channel: str, data: str, event: str) -> None:
        """Deliver ``data`` as one SSE message named ``event`` to every subscriber of ``channel``, and keep it for
        a subscriber that resumes; raises :class:`PushUnavailable` when the push server does not take it."""
        ...

    async def publish_to(self, channels: Sequence[str], data: str, event: str) -> None:
        """:meth:`publish` to each of ``channels`` (at most :data:`MANY`), sent once."""
        ...

    async def aclose(self) -> None: ...


class NchanPush:
    """:class:`Push` on nchan's publisher location: ``url`` is its prefix (``http://127.0.0.1:8082/publish``), over
    aiohttp's pooled, kept-alive connections. aiohttp rather than httpx (the service's other HTTP client): a POST
    costs the pusher about a fifth of the CPU (0.25 ms against 1.3 ms on the benchmark machine,
    docs/BENCHMARKS.md "The pusher's cost per version"), and the pusher posts several per version of every game."""

    def __init__(self, url: str, timeout_s: float = 5.0, connections: int = 16) -> None:
        self._url = url.rstrip("/")
        self._timeout = aiohttp.ClientTimeout(total=timeout_s)
        self._connections = connections
        self._http: aiohttp.ClientSession | None = None

    def _session(self) -> aiohttp.ClientSession:
        if self._http is None:  # made in the running loop, as aiohttp asks
            self._http = aiohttp.ClientSession(timeout=self._timeout,
                                               connector=aiohttp.TCPConnector(limit=self._connections))
        return self._http

    async def publish(self, channel: str, data: str, event: str) -> None:
        await self.publish_to((channel,), data, event)

    async def publish_to(self, channels: Sequence[str], data: str, event: str) -> None:
        channel = ",".join(channels)  # nchan_channel_id_split_delimiter: one POST, every channel
        if not channels or len(channels) > MANY:
            raise ValueError(f"a message goes to 1 to {MANY} channels, not {len(channels)}")
        try:
            async with self._session().post(f"{self._url}/{channel}", data=data.encode(), headers={
                    "X-EventSource-Event": event, "Content-Type": "application/json"}) as response:
                await response.read()
                status = response.status
        except (aiohttp.ClientError, TimeoutError) as exc:
            raise PushUnavailable(f"nchan at {self._url} is unavailable: {exc!r}") from exc
        if status not in (200, 201, 202):
            raise PushUnavailable(f"nchan at {self._url} refused a message to {channel}: {status}")

    async def aclose(self) -> None:
        if self._http is not None:
            await self._http.close()
            self._http = None


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

    async def publish_to(self, channels: Sequence[str], data: str, event: str) -> None:
        if not channels or len(channels) > MANY:
            raise ValueError(f"a message goes to 1 to {MANY} channels, not {len(channels)}")
        for channel in channels:
            await self.publish(channel, data, event)

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
