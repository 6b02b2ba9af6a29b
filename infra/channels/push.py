"""Web Push: a browser's subscription (:class:`PushSubscription`, checked by :func:`check_subscription`), the
server's VAPID key pair (:func:`vapid_keys`, made once and kept by the notification store), and :class:`PushSender`,
which encrypts a payload for one subscription (RFC 8291, ``aes128gcm``, by ``http_ece``), signs the request for
the push service (RFC 8292 VAPID, by ``py_vapid``) and posts it with httpx."""

from __future__ import annotations

import base64
import binascii
import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import http_ece
import httpx
import msgspec
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02, VapidException

from infra.channels.addresses import check_url
from infra.channels.errors import DeliveryFailed, UnsafeAddress
from infra.channels.webhooks import post_once

PAYLOAD_MAX = 3000
"""The largest payload sent (RFC 8291 allows 3,993 bytes in one 4,096-byte record; push services vary)."""
VAPID_TTL_S = 12 * 3600
"""How long a VAPID token is valid (RFC 8292: at most 24 hours)."""
URGENCIES = ("very-low", "low", "normal", "high")
_TOPIC = re.compile(r"[A-Za-z0-9_-]{1,32}")
"""RFC 8030 §5.4: a topic is at most 32 characters of the URL-safe base64 alphabet."""
KEY_NAME = "vapid"


class PushSubscription(msgspec.Struct, frozen=True):
    """A browser's subscription as ``PushSubscription.toJSON()`` gives it: the push service's endpoint, the
    browser's P-256 public key and its 16-byte authentication secret (both base64url)."""

    endpoint: str
    p256dh: str
    auth: str


def b64url_decode(text: str, what: str = "the value") -> bytes:
    """Decode base64url, with or without its padding (browsers send none); ValueError naming ``what`` if it is
    not (any character outside the alphabet included)."""
    standard = text.rstrip("=").replace("-", "+").replace("_", "/")
    try:
        return base64.b64decode(standard + "=" * (-len(standard) % 4), validate=True)
    except (binascii.Error, ValueError):
        raise ValueError(f"{what} is not base64url") from None


def b64url_encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def check_subscription(sub: PushSubscription, *, allow_private: bool) -> PushSubscription:
    """The subscription with its endpoint as it will be called, or :class:`UnsafeAddress` (an endpoint that is
    not https — http only with ``allow_private`` — or not a safe address) or ValueError (keys that are not a
    P-256 point and a 16-byte secret)."""
    endpoint = check_url(sub.endpoint, allow_private=allow_private)
    if not endpoint.startswith("https://") and not allow_private:
        raise UnsafeAddress("a push endpoint is an https URL")
    receiver_key(sub)
    if len(b64url_decode(sub.auth, "keys.auth")) != 16:
        raise ValueError("keys.auth is not a 16-byte secret")
    return PushSubscription(endpoint=endpoint, p256dh=sub.p256dh, auth=sub.auth)


def receiver_key(sub: PushSubscription) -> bytes:
    """The browser's public key, an uncompressed P-256 point (65 bytes), or ValueError."""
    key = b64url_decode(sub.p256dh, "keys.p256dh")
    if len(key) != 65 or key[0] != 4:
        raise ValueError("keys.p256dh is not an uncompressed P-256 public key")
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), key)
    except ValueError:
        raise ValueError("keys.p256dh is not a point on P-256") from None
    return key


@dataclass(frozen=True)
class VapidKeys:
    """The server's VAPID key pair: ``private_key`` signs every push request, and ``application_server_key``
    (the base64url uncompressed public key) is what a page passes to ``pushManager.subscribe``."""

    private_key: ec.EllipticCurvePrivateKey

    @property
    def application_server_key(self) -> str:
        return b64url_encode(self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint))

    @classmethod
    def generate(cls) -> VapidKeys:
        return cls(ec.generate_private_key(ec.SECP256R1()))

    @classmethod
    def from_pem(cls, pem: str) -> VapidKeys:
        key = serialization.load_pem_private_key(pem.encode("ascii"), password=None)
        if not isinstance(key, ec.EllipticCurvePrivateKey) or not isinstance(key.curve, ec.SECP256R1):
            raise ValueError("the VAPID key is not a P-256 private key")
        return cls(key)

    def pem(self) -> str:
        """The private key as PKCS#8 PEM (how ``server_keys`` keeps it)."""
        return self.private_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                              serialization.NoEncryption()).decode("ascii")


class KeyStore(Protocol):
    """Where the server keeps its own keys (:meth:`infra.notifications.Channels.server_key`)."""

    async def server_key(self, name: str, make: Callable[[], str]) -> str: ...


async def vapid_keys(keys: KeyStore) -> VapidKeys:
    """The server's VAPID keys, made on first use. Processes starting together agree: each offers a pair, the
    first kept wins, and every process reads back the one kept."""
    return VapidKeys.from_pem(await keys.server_key(KEY_NAME, lambda: VapidKeys.generate().pem()))


class PushSender:
    """Sends Web Push messages with the server's VAPID keys; ``subject`` is the contact the push service may
    write to (``mailto:...`` or ``https://...``, RFC 8292 §2.1)."""

    def __init__(self, client: httpx.AsyncClient, keys: VapidKeys, subject: str, *, allow_private: bool) -> None:
        self._client = client
        self._vapid = Vapid02(keys.private_key)
        self._subject = subject
        self._allow_private = allow_private
        try:  # py_vapid checks the subject only when signing: learn of a bad one at start-up, not at each push
            self._authorization("https://push.invalid")
        except VapidException as exc:
            raise ValueError(f"the VAPID subject must be a mailto: or https: URI, not {subject!r}") from exc

    async def send(self, sub: PushSubscription, payload: bytes, *, ttl: int = 86400, topic: str | None = None,
                   urgency: str = "normal") -> None:
        """Push one payload (at most 3,000 bytes; ValueError beyond) to one subscription. ``ttl``: how long the
        push service keeps it for an offline browser; ``topic``: a newer message with the same topic replaces
        an undelivered one. Raises :class:`DeliveryFailed`: expired (and permanent) for 404/410, permanent for
        413, other 4xx, an unsafe endpoint or bad keys; transient for 408, 429, 5xx and network errors."""
        if len(payload) > PAYLOAD_MAX:
            raise ValueError(f"a push payload has at most {PAYLOAD_MAX} bytes, not {len(payload)}")
        if topic is not None and not _TOPIC.fullmatch(topic):
            raise ValueError("a push topic is 1 to 32 characters of A-Z, a-z, 0-9, '-' and '_'")
        if urgency not in URGENCIES:
            raise ValueError(f"urgency is one of {', '.join(URGENCIES)}")
        try:
            sub = check_subscription(sub, allow_private=self._allow_private)
            body = encrypt(sub, payload)
        except ValueError as exc:  # UnsafeAddress too
            raise DeliveryFailed(f"bad subscription: {exc}", permanent=True) from exc
        url = httpx.URL(sub.endpoint)
        origin = f"{url.scheme}://{url.netloc.decode('ascii')}"
        try:
            authorization = self._authorization(origin)
        except VapidException as exc:
            raise DeliveryFailed(f"cannot sign for {origin}: {exc}", permanent=True) from exc
        headers = {
            "authorization": authorization,
            "content-encoding": "aes128gcm",
            "content-type": "application/octet-stream",
            "ttl": str(max(0, ttl)),
            "urgency": urgency,
        }
        if topic is not None:
            headers["topic"] = topic
        outcome = await post_once(self._client, sub.endpoint, body, headers, allow_private=self._allow_private)
        if outcome.ok:
            return
        expired = outcome.status in (404, 410)
        raise DeliveryFailed(outcome.reason, permanent=expired or not outcome.retryable, expired=expired,
                             retry_after_s=outcome.retry_after_s)

    def _authorization(self, audience: str) -> str:
        """``vapid t=<JWT>,k=<public key>`` for one push service's origin (RFC 8292 §3)."""
        claims = {"aud": audience, "sub": self._subject, "exp": int(time.time()) + VAPID_TTL_S}
        headers: dict[str, str] = self._vapid.sign(claims)
        return headers["Authorization"]


def encrypt(sub: PushSubscription, payload: bytes) -> bytes:
    """The payload encrypted for one subscription (RFC 8291): an ECDH with a key pair of this message's own
    and the browser's key, mixed with its auth secret, as one ``aes128gcm`` record (RFC 8188) whose header
    carries the salt and the message's public key."""
    body: bytes = http_ece.encrypt(
        payload,
        salt=os.urandom(16),
        private_key=ec.generate_private_key(ec.SECP256R1()),
        dh=receiver_key(sub),
        auth_secret=b64url_decode(sub.auth),
        version="aes128gcm",
    )
    return body
