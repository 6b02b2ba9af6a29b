"""A small HTTP/1.1 client for the bot clients: one keep-alive connection per use, plain asyncio streams.

Thousands of bot clients share the machine with the server they load, so their cost counts against the
server's: a general-purpose client (httpx) spent as much CPU per request as the API spent answering it. This
one does only what the bots need — ``http://`` URLs, JSON bodies with ``Content-Length``, chunked responses
(Server-Sent Events) — and nothing else (no TLS, redirects, cookies, proxies or pipelining).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator, AsyncIterator
from urllib.parse import urlsplit

import msgspec

TIMEOUT_S = 60.0


class HttpError(Exception):
    """The connection failed or the server broke the protocol (a status code is not an error here)."""


class Response(msgspec.Struct, frozen=True):
    status: int
    body: bytes

    def json(self) -> object:
        return msgspec.json.decode(self.body)


def address(url: str) -> tuple[str, int]:
    parts = urlsplit(url)
    if parts.scheme != "http" or parts.hostname is None:
        raise ValueError(f"only http:// URLs are supported, not {url!r}")
    return parts.hostname, parts.port or 80


async def _head(reader: asyncio.StreamReader) -> tuple[int, dict[str, str]]:
    raw = await reader.readuntil(b"\r\n\r\n")
    lines = raw.decode("latin-1").split("\r\n")
    try:
        status = int(lines[0].split(" ", 2)[1])
    except (IndexError, ValueError) as exc:
        raise HttpError(f"bad status line {lines[0]!r}") from exc
    headers = {}
    for line in lines[1:]:
        name, sep, value = line.partition(":")
        if sep:
            headers[name.strip().lower()] = value.strip()
    return status, headers


async def _chunks(reader: asyncio.StreamReader) -> AsyncIterator[bytes]:
    while True:
        size = int((await reader.readuntil(b"\r\n")).split(b";", 1)[0], 16)
        if size == 0:
            await reader.readuntil(b"\r\n")
            return
        data = await reader.readexactly(size + 2)
        yield data[:-2]


class Connection:
    """One persistent connection; ``request`` reconnects once if the server had closed it."""

    def __init__(self, host: str, port: int, timeout_s: float = TIMEOUT_S) -> None:
        self.host, self.port, self.timeout_s = host, port, timeout_s
        self._streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def _open(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        if self._streams is None:
            self._streams = await asyncio.open_connection(self.host, self.port)
        return self._streams

    def _request_bytes(self, method: str, path: str, body: bytes | None, headers: dict[str, str]) -> bytes:
        head = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}"]
        head += [f"{k}: {v}" for k, v in headers.items()]
        if body is not None:
            head += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
        return ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + (body or b"")

    async def request(self, method: str, path: str, body: bytes | None = None,
                      headers: dict[str, str] | None = None) -> Response:
        data = self._request_bytes(method, path, body, headers or {})
        for attempt in (1, 2):
            fresh = self._streams is None
            try:
                async with asyncio.timeout(self.timeout_s):
                    reader, writer = await self._open()
                    writer.write(data)
                    status, response_headers = await _head(reader)
                    if response_headers.get("transfer-encoding", "").lower() == "chunked":
                        content = b"".join([chunk async for chunk in _chunks(reader)])
                    else:
                        content = await reader.readexactly(int(response_headers.get("content-length", "0")))
                    if response_headers.get("connection", "").lower() == "close":
                        await self.close()
                    return Response(status, content)
            except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError) as exc:
                await self.close()
                if fresh or attempt == 2:  # a kept-alive connection the server closed gets one more try
                    raise HttpError(f"{method} {path}: {exc!r}") from exc
            except TimeoutError as exc:
                await self.close()
                raise HttpError(f"{method} {path}: no answer within {self.timeout_s:.0f} s") from exc
        raise AssertionError("unreachable")

    async def close(self) -> None:
        if self._streams is not None:
            writer = self._streams[1]
            self._streams = None
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()


async def event_stream(host: str, port: int, path: str, timeout_s: float) -> AsyncGenerator[bytes, None]:
    """The ``data`` of each Server-Sent Events message of ``GET path`` (comment-only messages are skipped).
    Raises TimeoutError when nothing at all arrives for ``timeout_s`` (the server sends keep-alives)."""
    reader, writer = await asyncio.open_connection(host, port)
    try:
        writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nAccept: text/event-stream\r\n\r\n".encode())
        async with asyncio.timeout(timeout_s):
            status, headers = await _head(reader)
        if status != 200:
            raise HttpError(f"GET {path}: {status}")
        chunked = headers.get("transfer-encoding", "").lower() == "chunked"
        source = _chunks(reader) if chunked else _raw(reader)
        buffer = b""
        while True:
            async with asyncio.timeout(timeout_s):
                chunk = await anext(source, None)
            if chunk is None:
                return
            buffer = (buffer + chunk).replace(b"\r\n", b"\n")
            while True:
                end = buffer.find(b"\n\n")
                if end < 0:
                    break
                message, buffer = buffer[:end], buffer[end + 2:]
                data = [line[5:].removeprefix(b" ") for line in message.split(b"\n") if line.startswith(b"data:")]
                if data:
                    yield b"\n".join(data)
    finally:
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()


async def _raw(reader: asyncio.StreamReader) -> AsyncIterator[bytes]:
    while data := await reader.read(65536):
        yield data
