"""Web Push to a real HTTP receiver acting as the push service: it gets a body the browser's keys decrypt (RFC
8291, by http_ece as a browser would) and a VAPID token signed by the server's key (RFC 8292, checked here
with cryptography alone); the push service's answers; the server's VAPID keys, made once in a real database."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import time
from collections.abc import AsyncIterator

import asyncpg
import http_ece
import httpx
import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

from infra.channels import (
    DeliveryFailed,
    PushSender,
    PushSubscription,
    UnsafeAddress,
    VapidKeys,
    check_subscription,
    vapid_keys,
)
from infra.notifications.postgres import PostgresNotificationStore
from tests.integration.channels.conftest import Receiver

pytestmark = pytest.mark.integration

SUBJECT = "mailto:admin@games.example"


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Browser:
    """What a browser makes when it subscribes: a P-256 key pair and a 16-byte authentication secret."""

    def __init__(self) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)

    def subscription(self, endpoint: str) -> PushSubscription:
        public = self.key.public_key().public_bytes(serialization.Encoding.X962,
                                                    serialization.PublicFormat.UncompressedPoint)
        return PushSubscription(endpoint=endpoint, p256dh=b64url(public), auth=b64url(self.auth))

    def decrypt(self, body: bytes) -> bytes:
        plain: bytes = http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth, version="aes128gcm")
        return plain


def vapid_claims(authorization: str, application_server_key: str) -> dict[str, object]:
    """Check ``vapid t=<JWT>,k=<key>`` as a push service does: the key is the server's, the JWT is ES256 and its
    signature verifies with that key. Returns the claims."""
    scheme, _, params = authorization.partition(" ")
    assert scheme == "vapid"
    fields = dict(part.strip().split("=", 1) for part in params.split(","))
    assert fields["k"] == application_server_key
    header, claims, signature = fields["t"].split(".")
    assert json.loads(unb64url(header)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64url(signature)
    assert len(raw) == 64
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(fields["k"]))
    public.verify(encode_dss_signature(int.from_bytes(raw[:32]), int.from_bytes(raw[32:])),
                  f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises InvalidSignature
    decoded: dict[str, object] = json.loads(unb64url(claims))
    return decoded


@pytest.fixture
async def client() -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient() as client:
        yield client


@pytest.fixture
def keys() -> VapidKeys:
    return VapidKeys.generate()


@pytest.fixture
def sender(client: httpx.AsyncClient, keys: VapidKeys) -> PushSender:
    return PushSender(client, keys, SUBJECT, allow_private=True)  # the push service is on loopback


async def test_the_push_service_gets_what_only_the_browser_can_read(sender: PushSender, keys: VapidKeys,
                                                                    receiver: Receiver) -> None:
    browser = Browser()
    payload = json.dumps({"title": "Your turn", "url": "https://games.example/play/g1"}).encode()
    await sender.send(browser.subscription(f"{receiver.url}/push/sub-1"), payload, ttl=600, topic="g1-turn")
    [request] = receiver.requests
    assert (request.method, request.path) == ("POST", "/push/sub-1")
    assert request.headers["content-encoding"] == "aes128gcm"
    assert request.headers["ttl"] == "600" and request.headers["topic"] == "g1-turn"
    assert request.headers["urgency"] == "normal"
    assert payload not in request.body
    assert browser.decrypt(request.body) == payload
    with pytest.raises(http_ece.ECEException):
        Browser().decrypt(request.body)  # another browser's keys read nothing
    claims = vapid_claims(request.headers["authorization"], keys.application_server_key)
    assert claims["aud"] == receiver.url and claims["sub"] == SUBJECT
    assert isinstance(claims["exp"], int) and time.time() < claims["exp"] <= time.time() + 24 * 3600


async def test_each_push_is_encrypted_afresh(sender: PushSender, receiver: Receiver) -> None:
    browser = Browser()
    sub = browser.subscription(f"{receiver.url}/push/sub-2")
    await sender.send(sub, b"same", urgency="high")
    await sender.send(sub, b"same")
    first, second = receiver.requests
    assert first.body != second.body  # a salt and a key pair of each message's own
    assert browser.decrypt(first.body) == browser.decrypt(second.body) == b"same"
    assert first.headers["urgency"] == "high" and "topic" not in first.headers


@pytest.mark.parametrize(("status", "permanent", "expired"), [
    (410, True, True), (404, True, True), (413, True, False), (400, True, False), (403, True, False),
    (429, False, False), (500, False, False), (503, False, False),
])
async def test_what_the_push_service_answers(sender: PushSender, receiver: Receiver, status: int, permanent: bool,
                                             expired: bool) -> None:
    with pytest.raises(DeliveryFailed) as failed:
        await sender.send(Browser().subscription(f"{receiver.url}/status/{status}"), b"hello")
    assert (failed.value.permanent, failed.value.expired) == (permanent, expired)
    assert failed.value.reason.startswith(f"HTTP {status}")


async def test_201_is_a_delivery(sender: PushSender, receiver: Receiver) -> None:
    await sender.send(Browser().subscription(f"{receiver.url}/status/201"), b"x" * 3000)
    assert len(receiver.requests) == 1


async def test_what_is_refused_before_sending(client: httpx.AsyncClient, keys: VapidKeys, sender: PushSender,
                                              receiver: Receiver) -> None:
    sub = Browser().subscription(f"{receiver.url}/push/sub-3")
    with pytest.raises(ValueError, match="at most 3000 bytes"):
        await sender.send(sub, b"x" * 3001)
    with pytest.raises(ValueError, match="topic"):
        await sender.send(sub, b"x", topic="not a topic!")
    with pytest.raises(DeliveryFailed) as unsafe:  # a loopback push service, for a server that allows none
        await PushSender(client, keys, SUBJECT, allow_private=False).send(sub, b"x")
    assert unsafe.value.permanent and not unsafe.value.expired
    with pytest.raises(DeliveryFailed) as bad_keys:
        await sender.send(PushSubscription(sub.endpoint, p256dh=b64url(b"\x04" + b"\x01" * 64), auth=sub.auth), b"x")
    assert bad_keys.value.permanent and "P-256" in bad_keys.value.reason
    assert receiver.requests == []
    with pytest.raises(ValueError, match="VAPID subject"):
        PushSender(client, keys, "admin@games.example", allow_private=True)


def test_subscriptions_are_checked() -> None:
    browser = Browser()
    good = browser.subscription("https://fcm.googleapis.com/fcm/send/abc:def")
    assert check_subscription(good, allow_private=False) == good
    padded = PushSubscription(good.endpoint, good.p256dh + "=", base64.urlsafe_b64encode(browser.auth).decode())
    assert check_subscription(padded, allow_private=False) == padded
    with pytest.raises(UnsafeAddress, match="https"):
        check_subscription(browser.subscription("http://push.example.com/x"), allow_private=False)
    for endpoint in ("http://127.0.0.1:8080/push", "https://10.1.2.3/push", "https://localhost/push"):
        with pytest.raises(UnsafeAddress):
            check_subscription(browser.subscription(endpoint), allow_private=False)
        assert check_subscription(browser.subscription(endpoint), allow_private=True).endpoint == endpoint
    with pytest.raises(UnsafeAddress):
        check_subscription(browser.subscription("file:///etc/passwd"), allow_private=True)
    bad = [
        PushSubscription(good.endpoint, p256dh=good.p256dh[:-4], auth=good.auth),
        PushSubscription(good.endpoint, p256dh=b64url(b"\x04" + b"\x00" * 64), auth=good.auth),
        PushSubscription(good.endpoint, p256dh="!!not base64!!", auth=good.auth),
        PushSubscription(good.endpoint, p256dh=good.p256dh, auth=b64url(b"short")),
    ]
    for sub in bad:
        with pytest.raises(ValueError, match="keys"):
            check_subscription(sub, allow_private=False)


async def test_the_server_makes_its_vapid_keys_once(channels_dsn: str, channels_pool: asyncpg.Pool) -> None:
    await channels_pool.execute("DELETE FROM server_keys WHERE name = 'vapid'")
    pools = [await asyncpg.create_pool(channels_dsn, min_size=1, max_size=2) for _ in range(4)]
    try:  # four processes starting together
        made = await asyncio.gather(*(vapid_keys(PostgresNotificationStore(pool)) for pool in pools))
    finally:
        for pool in pools:
            await pool.close()
    assert len({k.application_server_key for k in made}) == 1
    again = await vapid_keys(PostgresNotificationStore(channels_pool))
    assert again.application_server_key == made[0].application_server_key
    assert len(unb64url(again.application_server_key)) == 65 and unb64url(again.application_server_key)[0] == 4
    assert await channels_pool.fetchval("SELECT count(*) FROM server_keys WHERE name = 'vapid'") == 1
    assert VapidKeys.from_pem(again.pem()).application_server_key == again.application_server_key
