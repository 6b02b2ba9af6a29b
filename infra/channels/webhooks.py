"""Webhooks: a player's URL told of a notice, in one of three bodies (:func:`body_for`: generic JSON, Discord,
Slack), signed as Standard Webhooks (the ``standardwebhooks`` library: ``webhook-id``, ``webhook-timestamp``,
``webhook-signature``) and posted with httpx by :class:`WebhookSender`, which checks the address again before
every delivery and connects to the very address it checked. :func:`post_once` is the one bounded POST both webhooks
and Web Push make."""

from __future__ import annotations

import asyncio
import base64
import email.utils
import math
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import httpx
import msgspec
from standardwebhooks import Webhook

from infra.channels.addresses import IPAddress, check_resolved
from infra.channels.errors import DeliveryFailed, UnsafeAddress

SHAPES = ("json", "discord", "slack")
TIMEOUT_S = 10.0
"""The longest a delivery may take, from connecting to the answer's status."""
SNIPPET_BYTES = 512
"""How much of a failed answer's body is kept in the failure's reason."""
USER_AGENT = "Magnate-Server-Webhooks/1"

DISCORD_CONTENT_MAX = 2000
DISCORD_TITLE_MAX = 256


class WebhookMessage(msgspec.Struct, frozen=True):
    """What a webhook tells: a notice of ``kind`` in a game (its id, title and direct ``url``), at the game's
    ``version``; ``created_at`` is the notice's time (ISO 8601)."""

    kind: str
    game_id: str
    game_title: str
    text: str
    url: str
    version: int
    created_at: str


def new_secret() -> str:
    """A signing secret in the Standard Webhooks format: ``whsec_`` and the base64 of 32 random bytes."""
    return "whsec_" + base64.b64encode(secrets.token_bytes(32)).decode("ascii")


def body_for(shape: str, message: WebhookMessage) -> bytes:
    """The JSON body of a message in one of :data:`SHAPES`; each names the game and links to it."""
    if shape == "json":
        return msgspec.json.encode({
            "type": f"magnate.{message.kind}",
            "timestamp": message.created_at,
            "data": msgspec.structs.asdict(message),
        })
    if shape == "discord":
        return msgspec.json.encode(_discord(message))
    if shape == "slack":
        return msgspec.json.encode(_slack(message))
    raise ValueError(f"unknown webhook shape {shape!r} (one of {', '.join(SHAPES)})")


def _discord(message: WebhookMessage) -> dict[str, Any]:
    """Discord's execute-webhook body: the text, and an embed titled with the game and linking to it. No
    mention is ever parsed, so a game's title cannot ping a server (``allowed_mentions``)."""
    return {
        "content": _clip(f"{message.text} {message.url}", DISCORD_CONTENT_MAX),
        "embeds": [{
            "title": _clip(message.game_title, DISCORD_TITLE_MAX),
            "url": message.url,
            "description": _clip(message.text, 4096),
            "timestamp": message.created_at,
        }],
        "allowed_mentions": {"parse": []},
    }


def _slack(message: WebhookMessage) -> dict[str, Any]:
    """Slack's incoming-webhook body: ``text`` (the notification's fallback) and a section block linking the
    game's title; ``&``, ``<`` and ``>`` are escaped as Slack's mrkdwn requires."""
    title, text = _slack_escape(message.game_title).replace("|", "¦"), _slack_escape(message.text)
    return {
        "text": f"{title}: {text}",
        "blocks": [{"type": "section", "text": {"type": "mrkdwn", "text": f"*<{message.url}|{title}>*\n{text}"}}],
    }


def _slack_escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


class WebhookSender:
    """Posts signed webhooks. Each delivery resolves the URL's host first and refuses a non-public address
    (unless ``allow_private``), so a name re-pointed at an internal address after it was registered is
    refused; redirects are not followed (a redirect could lead anywhere)."""

    def __init__(self, client: httpx.AsyncClient, *, allow_private: bool) -> None:
        self._client = client
        self._allow_private = allow_private

    async def send(self, url: str, secret: str, shape: str, message_id: str, message: WebhookMessage) -> None:
        """Deliver one message; ``message_id`` (the delivery's id) is the ``webhook-id``, the same at every
        attempt, so the receiver can drop a repeat. Raises :class:`DeliveryFailed`: permanent for a 3xx or a
        4xx other than 408 and 429, and for an unsafe address; transient for 408, 429, 5xx, time-outs and
        connection errors."""
        body = body_for(shape, message)
        now = datetime.now(UTC)
        signature = Webhook(secret).sign(message_id, now, body.decode())
        headers = {
            "content-type": "application/json",
            "user-agent": USER_AGENT,
            "webhook-id": message_id,
            "webhook-timestamp": str(math.floor(now.timestamp())),
            "webhook-signature": signature,
        }
        outcome = await post_once(self._client, url, body, headers, allow_private=self._allow_private)
        if outcome.ok:
            return
        raise DeliveryFailed(outcome.reason, permanent=not outcome.retryable, retry_after_s=outcome.retry_after_s)


@dataclass(frozen=True, slots=True)
class PostOutcome:
    """What became of one POST: the answer's status, and what a failure means."""

    status: int
    reason: str
    retry_after_s: float | None = None

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300

    @property
    def retryable(self) -> bool:
        """408, 429 and 5xx: the receiver may take the same request later."""
        return self.status in (408, 429) or self.status >= 500


async def post_once(client: httpx.AsyncClient, url: str, body: bytes, headers: dict[str, str], *,
                    allow_private: bool, timeout_s: float = TIMEOUT_S) -> PostOutcome:
    """POST ``body`` to ``url`` once, after checking where its host resolves now, to the address checked (pinned:
    :func:`pinned`); at most ``timeout_s`` in all,
    no redirect followed, the answer's body read only as far as :data:`SNIPPET_BYTES` (for the reason).
    Raises :class:`DeliveryFailed` for an unsafe address (permanent unless the resolver only failed for now),
    a time-out or a connection error (transient); any answer is returned as a :class:`PostOutcome`."""
    try:
        addresses = await check_resolved(url, allow_private=allow_private)
    except UnsafeAddress as exc:
        raise DeliveryFailed(f"unsafe address: {exc.message}", permanent=not exc.temporary) from exc
    return await post_pinned(client, url, addresses, body, headers, timeout_s=timeout_s)


def pinned(client: httpx.AsyncClient, url: str, address: IPAddress, body: bytes, headers: dict[str, str],
           timeout_s: float) -> httpx.Request:
    """A POST of ``body`` to ``url`` that connects to ``address`` and to nothing the host name resolves to later:
    the request's URL names the address, the ``Host`` header the host (and its port), and over TLS the
    ``sni_hostname`` extension gives the name to send as SNI and to verify the certificate against. An https
    connection is not kept for another request (``Connection: close``): the client's pool knows a connection by its
    address, and one made for a name must not carry a request for another name served at the same address."""
    target = httpx.URL(url)
    extensions: dict[str, Any] = {}
    pinned_headers = {**headers, "host": target.netloc.decode("ascii")}
    if target.scheme == "https":
        extensions["sni_hostname"] = target.raw_host.decode("ascii")
        pinned_headers["connection"] = "close"
    return client.build_request("POST", target.copy_with(host=str(address)), content=body, headers=pinned_headers,
                                timeout=httpx.Timeout(timeout_s), extensions=extensions)


async def post_pinned(client: httpx.AsyncClient, url: str, addresses: Sequence[IPAddress], body: bytes,
                      headers: dict[str, str], *, timeout_s: float = TIMEOUT_S) -> PostOutcome:
    """:func:`post_once` after the address check: POST to ``url`` connecting to the first of ``addresses`` (checked,
    in the resolver's order) that takes the connection (:func:`pinned`), as a client tries a name's IPv6 and IPv4
    addresses in turn."""
    try:
        async with asyncio.timeout(timeout_s):
            for address in addresses[:-1]:
                try:
                    response = await client.send(pinned(client, url, address, body, headers, timeout_s),
                                                 stream=True, follow_redirects=False)
                    break
                except httpx.ConnectError:
                    continue
            else:
                response = await client.send(pinned(client, url, addresses[-1], body, headers, timeout_s),
                                             stream=True, follow_redirects=False)
            try:
                snippet = b""
                if not 200 <= response.status_code < 300:
                    async for chunk in response.aiter_raw():
                        snippet += chunk
                        if len(snippet) >= SNIPPET_BYTES:
                            break
            finally:
                await response.aclose()
    except (TimeoutError, httpx.TimeoutException) as exc:
        raise DeliveryFailed(f"no answer within {timeout_s:g} s", permanent=False) from exc
    except (httpx.InvalidURL, httpx.UnsupportedProtocol) as exc:
        raise DeliveryFailed(f"cannot be called: {exc}", permanent=True) from exc
    except httpx.TransportError as exc:
        raise DeliveryFailed(f"connection failed: {type(exc).__name__}: {exc}", permanent=False) from exc
    status = response.status_code
    text = snippet[:SNIPPET_BYTES].decode("utf-8", "replace").strip()
    reason = f"HTTP {status}" + (f": {text}" if text else "")
    return PostOutcome(status, reason, _retry_after(response.headers.get("retry-after")))


def _retry_after(value: str | None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (delay-seconds or an HTTP date), or None."""
    if not value:
        return None
    if value.strip().isdigit():
        return float(value.strip())
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        return None
    return max(0.0, (when - datetime.now(UTC)).total_seconds())
