"""A delivery connects to the address it checked (issue #24, item 10): the host name is resolved once, checked, and
the connection goes to that address with the name in ``Host`` (and as TLS SNI, verified against the certificate),
so a name re-pointed at an internal address between the check and the connection (DNS rebinding) is never
followed. Against a real HTTP receiver and a real TLS one (uvicorn on loopback)."""

from __future__ import annotations

import asyncio
import datetime as dt
import ipaddress
import ssl
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
import uvicorn
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from infra.channels import DeliveryFailed
from infra.channels.addresses import check_resolved
from infra.channels.webhooks import post_once, post_pinned
from tests.integration.channels.conftest import Receiver
from tests.resolving import loopback_name

pytestmark = pytest.mark.integration

LOOPBACK = ipaddress.IPv4Address("127.0.0.1")
TLS_PORT = 18331
"""The TLS receiver's port (this work's range, 18300-18399)."""
NAME = "rebound.invalid"
"""A name no resolver answers (RFC 6761 reserves .invalid): a request that reaches the receiver by it was sent to the
pinned address, never to what the name resolves to."""


@pytest.fixture
async def client() -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient() as client:
        yield client


async def test_a_delivery_connects_to_the_checked_address_with_the_name_as_host(
    client: httpx.AsyncClient, receiver: Receiver
) -> None:
    port = int(receiver.url.rsplit(":", 1)[1])
    outcome = await post_pinned(client, f"http://{NAME}:{port}/hook?x=1", [LOOPBACK], b"{}",
                                {"content-type": "application/json"})
    assert outcome.ok, outcome.reason
    [request] = receiver.requests
    assert (request.path, request.headers["host"]) == ("/hook", f"{NAME}:{port}")


async def test_the_checked_addresses_are_tried_in_turn(client: httpx.AsyncClient, receiver: Receiver) -> None:
    """A name's first address may not take the connection (an IPv6 address without a route): the next is tried,
    and only those."""
    port = int(receiver.url.rsplit(":", 1)[1])  # the receiver listens on 127.0.0.1 only
    outcome = await post_pinned(client, f"http://{NAME}:{port}/hook", [ipaddress.IPv4Address("127.0.0.2"), LOOPBACK],
                                b"{}", {})
    assert outcome.ok and len(receiver.requests) == 1
    with pytest.raises(DeliveryFailed) as refused:
        await post_pinned(client, f"http://{NAME}:{port}/hook", [ipaddress.IPv4Address("127.0.0.2")], b"{}", {})
    assert not refused.value.permanent and "connection failed" in refused.value.reason


async def test_a_name_is_resolved_once_and_that_address_is_called(client: httpx.AsyncClient,
                                                                   receiver: Receiver) -> None:
    name, port = loopback_name(), int(receiver.url.rsplit(":", 1)[1])
    assert all(a.is_loopback for a in await check_resolved(f"http://{name}:{port}/", allow_private=True))
    outcome = await post_once(client, f"http://{name}:{port}/hook", b"{}", {}, allow_private=True)
    assert outcome.ok and receiver.requests[0].headers["host"] == f"{name}:{port}"


async def test_a_name_that_resolves_to_loopback_is_refused_before_anything_is_sent(
    client: httpx.AsyncClient, receiver: Receiver
) -> None:
    name, port = loopback_name(), int(receiver.url.rsplit(":", 1)[1])
    with pytest.raises(DeliveryFailed) as refused:
        await post_once(client, f"http://{name}:{port}/hook", b"{}", {}, allow_private=False)
    assert refused.value.permanent and "not a public address" in refused.value.reason
    assert receiver.requests == []


# --- TLS: the name is the SNI and the name the certificate is checked against ---------------------------------


def certificate_for(name: str, folder: Path) -> tuple[Path, Path]:
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = dt.datetime.now(dt.UTC)
    cert = (x509.CertificateBuilder().subject_name(subject).issuer_name(subject).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - dt.timedelta(minutes=5))
            .not_valid_after(now + dt.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]), critical=False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    cert_file, key_file = folder / "cert.pem", folder / "key.pem"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_file, key_file


@pytest.fixture
async def tls_receiver(tmp_path: Path) -> AsyncIterator[tuple[Receiver, ssl.SSLContext]]:
    """A :class:`Receiver` over TLS on 127.0.0.1 with a certificate for :data:`NAME` only, and a client context
    that trusts that certificate."""
    cert_file, key_file = certificate_for(NAME, tmp_path)
    receiver = Receiver(url=f"https://{NAME}:{TLS_PORT}")
    server = uvicorn.Server(uvicorn.Config(receiver, host="127.0.0.1", port=TLS_PORT, lifespan="off",
                                           log_level="warning", ws="none", ssl_certfile=str(cert_file),
                                           ssl_keyfile=str(key_file)))
    task = asyncio.create_task(server.serve())
    try:
        async with asyncio.timeout(10):
            while not server.started:
                if task.done():
                    task.result()
                await asyncio.sleep(0.01)
        yield receiver, ssl.create_default_context(cafile=str(cert_file))
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, timeout=10)


async def test_over_tls_the_name_is_sent_as_sni_and_verified(
    tls_receiver: tuple[Receiver, ssl.SSLContext]
) -> None:
    receiver, trust = tls_receiver
    async with httpx.AsyncClient(verify=trust) as client:
        outcome = await post_pinned(client, f"{receiver.url}/hook", [LOOPBACK], b"{}", {})
        assert outcome.ok, outcome.reason
        # an answer read to its end would leave the connection reusable by the client's pool, which knows it by
        # its address only: it must not carry a request for another name
        outcome = await post_pinned(client, f"{receiver.url}/status/404", [LOOPBACK], b"{}", {})
        assert outcome.status == 404 and outcome.reason == "HTTP 404: answer 404"
        assert [r.headers["host"] for r in receiver.requests] == [f"{NAME}:{TLS_PORT}"] * 2
        with pytest.raises(DeliveryFailed) as mismatch:  # another name at the same address: its certificate fails
            await post_pinned(client, f"https://other.invalid:{TLS_PORT}/hook", [LOOPBACK], b"{}", {})
        assert not mismatch.value.permanent and "connection failed" in mismatch.value.reason
    assert len(receiver.requests) == 2
