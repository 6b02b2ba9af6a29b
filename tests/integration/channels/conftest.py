"""Real servers for the channel tests, all on loopback ports the system picks: an SMTP server (aiosmtpd, with a
handler each test chooses, optionally over TLS with a certificate made here), an HTTP receiver (uvicorn) that
records every request and answers with the status its path names, and a database of the module's own."""

from __future__ import annotations

import asyncio
import datetime as dt
import ipaddress
import socket
import ssl
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from aiosmtpd.smtp import SMTP, AuthResult, Envelope, LoginPassword, Session
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from bench.receivers import Receive, http_serving, read_request
from tests.conftest import own_database

# --- SMTP --------------------------------------------------------------------------------------------------------


class Inbox:
    """An aiosmtpd handler that keeps every message it accepts; ``rcpt_reply``/``data_reply`` make it refuse."""

    def __init__(self, rcpt_reply: str | None = None, data_reply: str | None = None) -> None:
        self.rcpt_reply = rcpt_reply
        self.data_reply = data_reply
        self.received: list[Envelope] = []

    async def handle_RCPT(self, server: SMTP, session: Session, envelope: Envelope, address: str,
                          rcpt_options: list[str]) -> str:
        if self.rcpt_reply is not None:
            return self.rcpt_reply
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        if self.data_reply is not None:
            return self.data_reply
        self.received.append(envelope)
        return "250 Message accepted for delivery"


USER, PASSWORD = "mailer", "s3cret:/@"


class Logins:
    """An aiosmtpd authenticator that knows one user and keeps every attempt (login, whether it succeeded)."""

    def __init__(self) -> None:
        self.attempts: list[tuple[str, bool]] = []

    def __call__(self, server: SMTP, session: Session, envelope: Envelope, mechanism: str,
                 auth_data: Any) -> AuthResult:
        assert isinstance(auth_data, LoginPassword)
        ok = (auth_data.login, auth_data.password) == (USER.encode(), PASSWORD.encode())
        self.attempts.append((auth_data.login.decode(), ok))
        return AuthResult(success=ok, handled=False)


SmtpServer = Callable[..., Awaitable[int]]


@pytest.fixture
async def smtp_server() -> AsyncIterator[SmtpServer]:
    """Start an SMTP server on 127.0.0.1 in the test's loop: ``await smtp_server(handler, **smtp_options)``
    returns its port (``ssl=context`` for TLS from the start); every server is closed when the test ends."""
    servers: list[asyncio.Server] = []

    async def start(handler: Inbox, *, ssl: ssl.SSLContext | None = None, **options: Any) -> int:
        loop = asyncio.get_running_loop()
        server = await loop.create_server(lambda: SMTP(handler, hostname="smtp.test", **options),
                                          "127.0.0.1", 0, ssl=ssl)
        servers.append(server)
        port: int = server.sockets[0].getsockname()[1]
        return port

    yield start
    for server in servers:
        server.close()
        await server.wait_closed()


@dataclass(frozen=True)
class Certificate:
    """A self-signed certificate for 127.0.0.1: the server's context, and a client context that trusts it."""

    server: ssl.SSLContext
    client: ssl.SSLContext


@pytest.fixture(scope="session")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> Certificate:
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = dt.datetime.now(dt.UTC)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - dt.timedelta(minutes=5))
            .not_valid_after(now + dt.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.IPv4Address("127.0.0.1"))]),
                           critical=False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    folder: Path = tmp_path_factory.mktemp("tls")
    (folder / "cert.pem").write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    (folder / "key.pem").write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                       serialization.NoEncryption()))
    server = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server.load_cert_chain(folder / "cert.pem", folder / "key.pem")
    client = ssl.create_default_context(cafile=str(folder / "cert.pem"))
    return Certificate(server=server, client=client)


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


# --- HTTP --------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Received:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    """A real HTTP server recording every request. ``/status/<code>`` answers that status (``Retry-After: 7``
    with a 429 or 503), ``/redirect`` a 302 to ``/status/200``, ``/slow`` after 1 s; any other path 200."""

    url: str = ""
    requests: list[Received] = field(default_factory=list)

    async def __call__(self, scope: dict[str, Any], receive: Receive,
                       send: Callable[[dict[str, Any]], Awaitable[None]]) -> None:
        assert scope["type"] == "http"
        headers, body = await read_request(scope, receive)
        path: str = scope["path"]
        self.requests.append(Received(scope["method"], path, headers, body))
        status, extra = 200, []
        if path.startswith("/status/"):
            status = int(path.removeprefix("/status/"))
            if status in (429, 503):
                extra.append((b"retry-after", b"7"))
        elif path == "/redirect":
            status, extra = 302, [(b"location", b"/status/200")]
        elif path == "/slow":
            await asyncio.sleep(1)
        answer = b"" if status < 300 else f"answer {status}".encode()
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"text/plain"), *extra]})
        await send({"type": "http.response.body", "body": answer})


@pytest.fixture
async def receiver() -> AsyncIterator[Receiver]:
    """A :class:`Receiver` served until the test ends."""
    receiver = Receiver()
    async with http_serving(receiver) as url:
        receiver.url = url
        yield receiver


# --- PostgreSQL --------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def channels_dsn(pg_dsn: str) -> Iterator[str]:
    """A migrated database of this module's own (the keys and mail tests start from empty tables). ``pg_dsn``
    is requested so an unreachable PostgreSQL fails with the command that starts it."""
    with own_database("magnate_channels") as dsn:
        yield dsn


@pytest.fixture
async def channels_pool(channels_dsn: str) -> AsyncIterator[asyncpg.Pool]:
    pool = await asyncpg.create_pool(channels_dsn, min_size=1, max_size=4)
    assert pool is not None
    try:
        yield pool
    finally:
        await pool.close()
