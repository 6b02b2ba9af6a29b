"""Receivers on loopback for the notification fan-out benchmark and tests: an SMTP server (aiosmtpd) and a webhook
receiver (an ASGI app served by uvicorn). Each counts every message it accepts (``raw``) and, as Standard Webhooks
tells a receiver to, each distinct message by its id (``webhook-id``; a mail's ``Message-ID``), so a repeat of a
message already accepted is seen for what it is."""

from __future__ import annotations

import asyncio
import email
import email.policy
import socket
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import uvicorn
from aiosmtpd.smtp import SMTP, Envelope, Session
from uvicorn.config import LifespanType

Receive = Callable[[], Awaitable[dict[str, Any]]]


async def read_request(scope: dict[str, Any], receive: Receive) -> tuple[dict[str, str], bytes]:
    """An ASGI HTTP request's headers (names lower-case, as ASGI gives them) and its whole body."""
    body = b""
    while True:
        event = await receive()
        body += event.get("body", b"")
        if not event.get("more_body"):
            break
    return {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}, body


class Tally:
    """Messages accepted, by id: ``raw`` counts every acceptance, ``by_id`` each id's acceptances."""

    def __init__(self) -> None:
        self.by_id: Counter[str] = Counter()
        self.arrived = asyncio.Event()

    def accept(self, message_id: str) -> None:
        self.by_id[message_id] += 1
        self.arrived.set()

    @property
    def raw(self) -> int:
        return sum(self.by_id.values())

    @property
    def repeats(self) -> int:
        """Acceptances beyond the first of an id: messages sent again after the receiver took them."""
        return self.raw - len(self.by_id)

    async def wait_for(self, count: int, timeout_s: float) -> bool:
        """Wait until ``count`` distinct ids arrived (False after ``timeout_s``)."""
        async with asyncio.timeout(timeout_s):
            while len(self.by_id) < count:
                self.arrived.clear()
                await self.arrived.wait()
        return True


class MailInbox(Tally):
    """An aiosmtpd handler keeping every accepted mail (its parsed message) and tallying Message-IDs."""

    def __init__(self) -> None:
        super().__init__()
        self.mails: list[email.message.EmailMessage] = []

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        raw = envelope.original_content or b""
        message = email.message_from_bytes(raw, policy=email.policy.default)
        assert isinstance(message, email.message.EmailMessage)
        self.mails.append(message)
        self.accept(str(message["Message-ID"]))
        return "250 Message accepted for delivery"


class WebhookReceiver(Tally):
    """An ASGI app that accepts every POST (``status`` decides the answer: 200 by default) and tallies
    ``webhook-id``s; ``bodies`` keeps the last body and headers of each id."""

    def __init__(self) -> None:
        super().__init__()
        self.status = 200
        self.seen: dict[str, tuple[dict[str, str], bytes]] = {}
        self.url = ""

    async def __call__(self, scope: dict[str, Any], receive: Receive,
                       send: Callable[[dict[str, Any]], Awaitable[None]]) -> None:
        if scope["type"] != "http":
            return
        headers, body = await read_request(scope, receive)
        status = self.status
        path: str = scope["path"]
        if path.startswith("/status/"):
            status = int(path.removeprefix("/status/"))
        if 200 <= status < 300:
            message_id = headers.get("webhook-id", "")
            self.seen[message_id] = (headers, body)
            self.accept(message_id)
        await send({"type": "http.response.start", "status": status, "headers": [(b"content-type", b"text/plain")]})
        await send({"type": "http.response.body", "body": b""})


@asynccontextmanager
async def smtp_serving(inbox: MailInbox) -> AsyncIterator[str]:
    """Serve ``inbox`` as an SMTP server on a free port of 127.0.0.1; yields its ``smtp://`` URL."""
    loop = asyncio.get_running_loop()
    server = await loop.create_server(lambda: SMTP(inbox, hostname="smtp.test"), "127.0.0.1", 0)
    try:
        yield f"smtp://127.0.0.1:{server.sockets[0].getsockname()[1]}?starttls=0"
    finally:
        server.close()
        await server.wait_closed()


@asynccontextmanager
async def http_serving(app: Any, *, lifespan: LifespanType = "off", graceful_s: int = 1) -> AsyncIterator[str]:
    """Serve an ASGI app with uvicorn on a free port of 127.0.0.1 until the block ends; yields its base URL.

    Args:
        app: The ASGI app.
        lifespan: ``"on"`` runs the app's lifespan (startup before the URL is yielded, shutdown after).
        graceful_s: How long open connections may finish when the block ends.
    """
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(app, lifespan=lifespan, log_level="warning", ws="none",
                                           timeout_graceful_shutdown=graceful_s, backlog=2048))
    task = asyncio.create_task(server.serve(sockets=[sock]))
    try:
        async with asyncio.timeout(10):
            while not server.started:
                if task.done():
                    task.result()
                await asyncio.sleep(0.01)
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, timeout=10)
        sock.close()
