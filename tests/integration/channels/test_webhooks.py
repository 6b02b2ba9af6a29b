"""Webhooks to a real HTTP receiver (uvicorn on loopback): verified with the Standard Webhooks library as a
receiver would, each shape's body, and what each answer means for the delivery."""

from __future__ import annotations

import base64
import json
import time
from collections.abc import AsyncIterator

import httpx
import pytest
from standardwebhooks import Webhook, WebhookVerificationError

from infra.channels import SHAPES, DeliveryFailed, WebhookMessage, WebhookSender, body_for, new_secret
from infra.channels.webhooks import post_once
from tests.integration.channels.conftest import Receiver, closed_port

pytestmark = pytest.mark.integration

MESSAGE = WebhookMessage(kind="your_turn", game_id="g-7f3a", game_title="Harbour <City> & Sons",
                         text="It is your turn in Harbour <City> & Sons (round 3).",
                         url="https://games.example/play/g-7f3a", version=41, created_at="2026-05-01T12:00:00Z")


@pytest.fixture
async def client() -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient() as client:
        yield client


@pytest.fixture
def sender(client: httpx.AsyncClient) -> WebhookSender:
    return WebhookSender(client, allow_private=True)  # the receiver is on loopback


def test_a_secret_is_in_the_standard_webhooks_format() -> None:
    secret = new_secret()
    assert secret.startswith("whsec_") and len(base64.b64decode(secret.removeprefix("whsec_"))) >= 24
    assert secret != new_secret()


async def test_a_webhook_is_signed_as_standard_webhooks(sender: WebhookSender, receiver: Receiver) -> None:
    secret = new_secret()
    await sender.send(f"{receiver.url}/hooks/ada", secret, "json", "dlv-9", MESSAGE)
    [request] = receiver.requests
    assert (request.method, request.path) == ("POST", "/hooks/ada")
    assert request.headers["content-type"] == "application/json"
    assert request.headers["webhook-id"] == "dlv-9"
    assert abs(int(request.headers["webhook-timestamp"]) - time.time()) < 60
    payload = Webhook(secret).verify(request.body, request.headers)
    assert payload == {
        "type": "magnate.your_turn",
        "timestamp": "2026-05-01T12:00:00Z",
        "data": {"kind": "your_turn", "game_id": "g-7f3a", "game_title": "Harbour <City> & Sons",
                 "text": MESSAGE.text, "url": MESSAGE.url, "version": 41, "created_at": "2026-05-01T12:00:00Z"},
    }
    with pytest.raises(WebhookVerificationError):
        Webhook(new_secret()).verify(request.body, request.headers)
    with pytest.raises(WebhookVerificationError):
        Webhook(secret).verify(request.body.replace(b"41", b"42"), request.headers)


@pytest.mark.parametrize("shape", SHAPES)
async def test_every_shape_arrives_signed_and_names_the_game(sender: WebhookSender, receiver: Receiver,
                                                             shape: str) -> None:
    secret = new_secret()
    await sender.send(f"{receiver.url}/{shape}", secret, shape, f"dlv-{shape}", MESSAGE)
    [request] = receiver.requests
    assert request.body == body_for(shape, MESSAGE)
    body = Webhook(secret).verify(request.body, request.headers)
    assert MESSAGE.url in json.dumps(body)
    if shape == "discord":
        assert body["content"] == f"{MESSAGE.text} {MESSAGE.url}"
        assert body["embeds"] == [{"title": "Harbour <City> & Sons", "url": MESSAGE.url, "description": MESSAGE.text,
                                   "timestamp": "2026-05-01T12:00:00Z"}]
        assert body["allowed_mentions"] == {"parse": []}
    elif shape == "slack":
        title = "Harbour &lt;City&gt; &amp; Sons"
        assert body["text"].startswith(f"{title}: It is your turn in {title}")
        [block] = body["blocks"]
        assert block["type"] == "section" and block["text"]["type"] == "mrkdwn"
        assert block["text"]["text"].startswith(f"*<{MESSAGE.url}|{title}>*\n")
    else:
        assert body["data"]["game_title"] == MESSAGE.game_title


def test_an_unknown_shape_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown webhook shape"):
        body_for("teams", MESSAGE)


@pytest.mark.parametrize(("path", "permanent"), [
    ("/status/500", False), ("/status/503", False), ("/status/502", False), ("/status/408", False),
    ("/status/429", False), ("/status/400", True), ("/status/404", True), ("/status/410", True),
    ("/status/401", True), ("/redirect", True),
])
async def test_what_an_answer_means(sender: WebhookSender, receiver: Receiver, path: str, permanent: bool) -> None:
    with pytest.raises(DeliveryFailed) as failed:
        await sender.send(receiver.url + path, new_secret(), "json", "dlv-1", MESSAGE)
    assert failed.value.permanent is permanent and not failed.value.expired
    status = path.removeprefix("/status/") if path.startswith("/status/") else "302"
    assert failed.value.reason.startswith(f"HTTP {status}")
    assert failed.value.retry_after_s == (7.0 if path in ("/status/429", "/status/503") else None)
    assert [r.path for r in receiver.requests] == [path]  # one attempt; a redirect is not followed


async def test_2xx_answers_are_deliveries(sender: WebhookSender, receiver: Receiver) -> None:
    for path in ("/status/200", "/status/201", "/status/204", "/status/202"):
        await sender.send(receiver.url + path, new_secret(), "slack", "dlv-2", MESSAGE)
    assert len(receiver.requests) == 4


async def test_no_answer_or_no_server_is_transient(client: httpx.AsyncClient, receiver: Receiver) -> None:
    with pytest.raises(DeliveryFailed) as slow:
        await post_once(client, f"{receiver.url}/slow", b"{}", {}, allow_private=True, timeout_s=0.3)
    assert not slow.value.permanent and "no answer" in slow.value.reason
    with pytest.raises(DeliveryFailed) as refused:
        await WebhookSender(client, allow_private=True).send(f"http://127.0.0.1:{closed_port()}/", new_secret(),
                                                              "json", "dlv-3", MESSAGE)
    assert not refused.value.permanent and "connection failed" in refused.value.reason


async def test_a_private_address_is_refused_before_anything_is_sent(client: httpx.AsyncClient,
                                                                    receiver: Receiver) -> None:
    """Without ``allow_private`` the loopback receiver is never called: the address is refused for good."""
    strict = WebhookSender(client, allow_private=False)
    port = receiver.url.rsplit(":", 1)[1]
    for url in (receiver.url + "/hook", f"http://localhost:{port}/hook", f"http://[::ffff:127.0.0.1]:{port}/h"):
        with pytest.raises(DeliveryFailed) as failed:
            await strict.send(url, new_secret(), "json", "dlv-4", MESSAGE)
        assert failed.value.permanent and "unsafe address" in failed.value.reason
    with pytest.raises(DeliveryFailed) as unresolvable:
        await strict.send("https://no-such-host.invalid/hook", new_secret(), "json", "dlv-5", MESSAGE)
    assert unresolvable.value.permanent
    assert receiver.requests == []
