"""Real receivers on loopback for the browser tests of notifications, served from an asyncio loop in a thread of
their own (Playwright's sync API holds this thread's loop): an SMTP server (aiosmtpd) the API and the worker mail
to, a webhook receiver, and a push service that keeps what it is sent (a device's endpoint), all from
:mod:`bench.receivers`. The test reads what arrived from the main thread, polling."""

from __future__ import annotations

import asyncio
import re
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import AsyncExitStack, asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from email.message import EmailMessage
from typing import Any, TypeVar

from bench.receivers import MailInbox, Receive, WebhookReceiver, http_serving, read_request, smtp_serving

T = TypeVar("T")


@dataclass(frozen=True)
class Pushed:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class PushService:
    """An ASGI app acting as a browser vendor's push service: it keeps every message (path, headers, encrypted body)
    and answers 201 Created, as RFC 8030 says."""

    url: str = ""
    received: list[Pushed] = field(default_factory=list)

    async def __call__(self, scope: dict[str, Any], receive: Receive,
                       send: Callable[[dict[str, Any]], Awaitable[None]]) -> None:
        if scope["type"] != "http":
            return
        headers, body = await read_request(scope, receive)
        self.received.append(Pushed(scope["path"], headers, body))
        await send({"type": "http.response.start", "status": 201, "headers": [(b"content-type", b"text/plain")]})
        await send({"type": "http.response.body", "body": b""})


@dataclass
class Receivers:
    smtp_url: str
    mail: MailInbox
    hooks: WebhookReceiver
    push: PushService

    def mails_to(self, address: str, subject: str | None = None) -> list[EmailMessage]:
        return [m for m in list(self.mail.mails) if address in str(m["To"])
                and (subject is None or subject in str(m["Subject"]))]

    def sign_in_link(self, address: str, after: int = 0) -> str:
        """The link of the newest sign-in mail to ``address`` among those beyond the first ``after`` (waits)."""
        def newest() -> str | None:
            mails = self.mails_to(address, "Sign in")[after:]
            if not mails:
                return None
            body = mails[-1].get_body(preferencelist=("plain",))
            assert body is not None
            found = re.search(r"https?://\S+/signin#token=\S+", body.get_content())
            return found.group() if found else None
        return wait_for(newest, "a sign-in mail")


def wait_for(probe: Callable[[], T | None], what: str, timeout_s: float = 20.0, every_s: float = 0.05) -> T:
    """Poll ``probe`` until it returns something truthy (that is returned); fail with ``what`` after the timeout."""
    deadline = time.monotonic() + timeout_s
    while True:
        got = probe()
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout_s:.0f} s for {what}")
        time.sleep(every_s)


@asynccontextmanager
async def _serving() -> AsyncIterator[Receivers]:
    async with AsyncExitStack() as stack:
        mail = MailInbox()
        smtp_url = await stack.enter_async_context(smtp_serving(mail))
        hooks = WebhookReceiver()
        hooks.url = await stack.enter_async_context(http_serving(hooks))
        push = PushService()
        push.url = await stack.enter_async_context(http_serving(push))
        yield Receivers(smtp_url, mail, hooks, push)


@contextmanager
def receivers() -> Iterator[Receivers]:
    """Start the receivers in a thread's own event loop; stop them when the block ends."""
    ready: dict[str, Any] = {}
    started = threading.Event()
    stopping: asyncio.Event | None = None
    loop = asyncio.new_event_loop()

    async def main() -> None:
        nonlocal stopping
        stopping = asyncio.Event()
        try:
            async with _serving() as running:
                ready["receivers"] = running
                started.set()
                await stopping.wait()
        except BaseException as exc:
            ready["error"] = exc
            started.set()
            raise

    thread = threading.Thread(target=loop.run_until_complete, args=(main(),), name="receivers", daemon=True)
    thread.start()
    started.wait(20)
    if "receivers" not in ready:
        raise RuntimeError(f"the receivers did not start: {ready.get('error')!r}")
    try:
        yield ready["receivers"]
    finally:
        assert stopping is not None
        loop.call_soon_threadsafe(stopping.set)
        thread.join(20)
        loop.close()
