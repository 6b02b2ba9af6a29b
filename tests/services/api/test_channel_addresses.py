"""Registering a webhook or a push device resolves its host as a delivery does (issue #24, item 10): a name that
resolves to a loopback or private address is refused at once (``400 request/unsafe_url``), not stored to be refused
at every delivery — on a production server (no sandbox, no ``MAGNATE_ALLOW_PRIVATE_WEBHOOKS``)."""

from __future__ import annotations

import base64
import os

import httpx
import msgspec
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from infra.config import Settings
from services.gameplay.bootstrap import Runtime
from tests.resolving import loopback_name

from .test_players import csrf, sign_in


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """A production server (private addresses refused) whose sign-in links are read from the development mailbox."""
    return msgspec.structs.replace(settings, sandbox=False, allow_private_webhooks=False, dev_mailbox=True)


def push_keys() -> dict[str, str]:
    point = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return {"p256dh": base64.urlsafe_b64encode(point).rstrip(b"=").decode(),
            "auth": base64.urlsafe_b64encode(os.urandom(16)).rstrip(b"=").decode()}


async def test_a_webhook_whose_name_resolves_to_loopback_is_refused(client: httpx.AsyncClient,
                                                                    runtime: Runtime) -> None:
    await sign_in(client, runtime, "rebind@example.com")
    name = loopback_name()
    for url in (f"http://{name}:18399/hook", f"https://{name}/hook", f"http://{name.upper()}./hook",
                "https://no-such-host.invalid/hook"):
        refused = await client.post("/api/me/webhooks", json={"url": url}, headers=csrf(client))
        assert (refused.status_code, refused.json()["code"]) == (400, "request/unsafe_url"), (url, refused.text)
    assert (await client.get("/api/me/webhooks")).json()["webhooks"] == []


async def test_a_push_endpoint_whose_name_resolves_to_loopback_is_refused(client: httpx.AsyncClient,
                                                                          runtime: Runtime) -> None:
    await sign_in(client, runtime, "rebind-push@example.com")
    for endpoint in (f"https://{loopback_name()}/push/1", "https://push.invalid/send/1"):
        refused = await client.post("/api/me/push", json={"endpoint": endpoint, "keys": push_keys()},
                                    headers=csrf(client))
        assert (refused.status_code, refused.json()["code"]) == (400, "request/unsafe_url"), refused.text
