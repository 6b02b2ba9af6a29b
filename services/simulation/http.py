"""The bot clients' HTTP: an ``httpx.AsyncClient`` for each game a bot plays (its runner), kept alive.

A game keeps at most two connections open: its event stream, and its commands (one at a time), so that is the
size of its client's pool. One client shared by many games would be simpler but costs far more: httpcore's
pool scans every connection for every request and again for each of its idle ones, so with one pool of 120
connections the bot clients of 60 games played to the end used 13 CPU seconds, against 2.3 s with a client per
game (and 0.8 s with the hand-written HTTP/1.1 client this replaced: httpx costs about 0.3 ms of CPU per
request). The clients share one TLS context (building one per client costs about 13 ms), so a client costs
almost nothing to make.

Idle connections are dropped after :data:`KEEPALIVE_S`, before the server's own keep-alive timeout (uvicorn:
5 s) would close them under a request; a request that still finds its kept-alive connection closed by the
server (or that loses it before the answer) is sent once more. That is safe for what the bots send: a command
is applied once per ``command_id``, however often it is sent. Server-Sent Events are read with
``client.stream`` and ``aiter_lines`` and parsed here: the bots need only each message's ``data``, which is
not worth a dependency (``httpx-sse``).

``http://`` and ``https://`` URLs both work; proxies and ``.netrc`` from the environment are ignored (the bots
talk to the server they test, usually on this machine).
"""

from __future__ import annotations

import functools
import ssl
from collections.abc import AsyncGenerator, Mapping
from dataclasses import dataclass, field
from types import TracebackType

import httpx
import msgspec
from httpx_sse import aconnect_sse

TIMEOUT_S = 60.0
"""The longest a request waits to connect, to send, for each read and for a free connection of the pool."""
KEEPALIVE_S = 4.0
"""How long an idle connection is kept (less than uvicorn's 5 s keep-alive timeout)."""


class HttpError(Exception):
    """The connection failed, timed out or the server broke the protocol (a status code is not an error here,
    except on an event stream, which must answer 200)."""


@dataclass(frozen=True, slots=True)
class Response:
    status: int
    body: bytes
    headers: Mapping[str, str] = field(default_factory=dict)
    """Case-insensitive (``headers["retry-after"]``)."""

    def json(self) -> object:
        return msgspec.json.decode(self.body)


@functools.cache
def _tls() -> ssl.SSLContext:
    return ssl.create_default_context()


class Connection:
    """One game's client to the API at ``url`` (its base, ``http://host:port``): at most ``connections``
    connections, kept alive."""

    def __init__(self, url: str, connections: int = 2, timeout_s: float = TIMEOUT_S,
                 transport: httpx.AsyncBaseTransport | None = None) -> None:
        """``transport``: instead of the network (a test's ``httpx.MockTransport``)."""
        self.url = url.rstrip("/")
        self.timeout_s = timeout_s
        self.client = httpx.AsyncClient(
            base_url=self.url, timeout=httpx.Timeout(timeout_s), trust_env=False, verify=_tls(), transport=transport,
            limits=httpx.Limits(max_connections=connections, max_keepalive_connections=connections,
                                keepalive_expiry=KEEPALIVE_S),
        )

    async def request(self, method: str, path: str, body: bytes | None = None,
                      headers: Mapping[str, str] | None = None) -> Response:
        """``method path`` with a JSON ``body``; the answer whatever its status. Raises :class:`HttpError` when
        there is none (after one more try if the connection broke)."""
        sent = dict(headers or {})
        if body is not None:
            sent["Content-Type"] = "application/json"
        for attempt in (1, 2):
            try:
                response = await self.client.request(method, path, content=body, headers=sent)
                return Response(response.status_code, response.content, response.headers)
            except httpx.TimeoutException as exc:
                raise HttpError(f"{method} {path}: no answer within {self.timeout_s:.0f} s ({exc!r})") from exc
            except httpx.TransportError as exc:
                if attempt == 2:
                    raise HttpError(f"{method} {path}: {exc!r}") from exc
        raise AssertionError("unreachable")

    async def events(self, path: str, silence_s: float, headers: Mapping[str, str] | None = None,
                     kinds: tuple[str, ...] = ("events", "message")) -> AsyncGenerator[str, None]:
        """The ``data`` of each Server-Sent Events message of ``GET path`` whose event name is one of ``kinds``
        (the game's ``events``, or unnamed ones; the page's other messages, such as ``history`` and ``state``, and
        keep-alive comments are skipped) until the server ends the stream; parsed by httpx-sse. Raises
        TimeoutError when nothing at all arrives for ``silence_s`` (the server sends keep-alives),
        :class:`HttpError` when the answer is not 200 or the connection breaks. Close it (``aclose``) when done:
        that closes its connection."""
        timeout = httpx.Timeout(self.timeout_s, read=silence_s)
        sent = {"Accept": "text/event-stream", **(headers or {})}
        try:
            async with aconnect_sse(self.client, "GET", path, headers=sent, timeout=timeout) as source:
                response = source.response
                if response.status_code != 200:
                    await response.aread()
                    raise HttpError(f"GET {path}: {response.status_code} {response.text[:200]}")
                async for message in source.aiter_sse():
                    if message.data and message.event in kinds:
                        yield message.data
        except httpx.ReadTimeout as exc:
            raise TimeoutError(f"GET {path}: nothing for {silence_s:.0f} s") from exc
        except httpx.HTTPError as exc:
            raise HttpError(f"GET {path}: {exc!r}") from exc

    async def close(self) -> None:
        await self.client.aclose()

    async def __aenter__(self) -> Connection:
        return self

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        traceback: TracebackType | None) -> None:
        await self.close()
