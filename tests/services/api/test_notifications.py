"""The notification routes (docs/PLAYERS.md, "API (notifications)") over the real app on in-memory twins, with a
player signed in as a person would: settings, notices, webhooks, push devices, the delivery log and one-click
unsubscribe; every bad input is a 4xx with a machine-readable code."""

from __future__ import annotations

import base64
import os
from typing import Any

import httpx
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from litestar import Litestar

from infra.config import Settings
from services.api.controllers.notification_channels import NotificationChannelController, push_key
from services.api.controllers.notifications import NotificationController
from services.api.controllers.unsubscribe import unsubscribe_now, unsubscribe_page
from services.gameplay.bootstrap import Runtime
from services.notifications import context

from .table import asgi_client
from .test_players import csrf, sign_in


@pytest.fixture
def app(settings: Settings, runtime: Runtime) -> Litestar:
    from services.api import create_app

    made = create_app(settings, runtime)
    paths = {route.path for route in made.routes}
    if "/api/me/settings" not in paths:  # until app.py registers them
        for handler in (NotificationController, NotificationChannelController, push_key):
            made.register(handler)
    if "/unsubscribe" not in paths:
        made.register(unsubscribe_page)
        made.register(unsubscribe_now)
    return made


@pytest.fixture
async def client(app: Litestar) -> Any:
    async with asgi_client(app) as c:
        yield c


async def signed_in(client: httpx.AsyncClient, runtime: Runtime, email: str) -> str:
    me = await sign_in(client, runtime, email)
    player_id: str = me["player_id"]
    return player_id


async def test_every_route_needs_a_signed_in_player(client: httpx.AsyncClient) -> None:
    for method, path in (("GET", "/api/me/settings"), ("GET", "/api/me/notices"), ("GET", "/api/me/webhooks"),
                         ("GET", "/api/me/deliveries"), ("POST", "/api/me/webhooks")):
        answer = await client.request(method, path, json={"url": "https://example.com/x"})
        assert (answer.status_code, answer.json()["code"]) == (401, "auth/signed_out"), path


async def test_settings_are_read_and_changed_and_bad_values_are_refused(
        client: httpx.AsyncClient, runtime: Runtime) -> None:
    await signed_in(client, runtime, "set@example.com")
    first = (await client.get("/api/me/settings")).json()
    assert first["email_mode"] == "each"
    assert first["kinds"] == ["your_turn", "outbid", "market", "game_over", "deadline", "undo_asked",
                              "undo_answered"], "every kind a player may choose, takebacks included, is on at first"

    wanted = {"email_mode": "digest", "digest_hours": 24, "push": False, "webhooks": True,
              "kinds": ["your_turn", "game_over", "undo_answered"], "muted_games": ["abc"]}
    changed = await client.put("/api/me/settings", json=wanted, headers=csrf(client))
    assert changed.status_code == 200, changed.text
    assert (await client.get("/api/me/settings")).json() == wanted

    no_csrf = await client.put("/api/me/settings", json=wanted)
    assert (no_csrf.status_code, no_csrf.json()["code"]) == (403, "auth/csrf")
    for bad in ({"email_mode": "weekly"}, {"digest_hours": 5}, {"digest_hours": 10**9}, {"kinds": ["gossip"]},
                {"kinds": ["channel_disabled"]},
                {"muted_games": ["g"] * 201}, {"muted_games": ["x" * 101]}, {"surprise": 1}):
        refused = await client.put("/api/me/settings", json={**wanted, **bad}, headers=csrf(client))
        assert (refused.status_code, refused.json()["code"]) == (400, "request/invalid"), bad


async def _game(runtime: Runtime) -> str:
    from domain.magnate import GameOptions, SeatSpec

    created = await runtime.gameplay.create_game("magnate", GameOptions(seats=(SeatSpec(), SeatSpec())))
    return created.game_id


async def test_webhooks_are_checked_limited_and_their_secret_shown_once(
        client: httpx.AsyncClient, runtime: Runtime, settings: Settings) -> None:
    await signed_in(client, runtime, "hooks@example.com")
    for url, code in (("ftp://example.com/hook", "request/unsafe_url"), ("javascript:alert(1)", "request/unsafe_url"),
                      ("https://" + "a" * 2000 + ".com/", "request/invalid")):
        refused = await client.post("/api/me/webhooks", json={"url": url}, headers=csrf(client))
        assert (refused.status_code, refused.json()["code"]) == (400, code), url
    bad_shape = await client.post("/api/me/webhooks", json={"url": "https://example.com/h", "shape": "teams"},
                                  headers=csrf(client))
    assert (bad_shape.status_code, bad_shape.json()["code"]) == (400, "request/invalid")

    made = [await client.post("/api/me/webhooks", json={"url": f"https://example.com/h{i}", "shape": "discord"},
                              headers=csrf(client)) for i in range(5)]
    assert [m.status_code for m in made] == [201] * 5
    assert made[0].json()["secret"].startswith("whsec_")
    sixth = await client.post("/api/me/webhooks", json={"url": "https://example.com/h6"}, headers=csrf(client))
    assert (sixth.status_code, sixth.json()["code"]) == (409, "request/too_many_webhooks")
    listed = (await client.get("/api/me/webhooks")).json()["webhooks"]
    assert len(listed) == 5 and all("secret" not in w for w in listed)

    first = made[0].json()["webhook"]["webhook_id"]
    assert (await client.delete(f"/api/me/webhooks/{first}", headers=csrf(client))).status_code == 204
    again = await client.delete(f"/api/me/webhooks/{first}", headers=csrf(client))
    assert (again.status_code, again.json()["code"]) == (404, "webhook/not_found")
    assert context.allow_private(settings)  # this app is a sandbox: loopback URLs are allowed here


async def test_push_devices_and_the_servers_key(client: httpx.AsyncClient, runtime: Runtime) -> None:
    key = (await client.get("/api/push/key")).json()["key"]
    assert len(base64.urlsafe_b64decode(key + "==")) == 65
    await signed_in(client, runtime, "push@example.com")
    point = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    keys = {"p256dh": base64.urlsafe_b64encode(point).rstrip(b"=").decode(),
            "auth": base64.urlsafe_b64encode(os.urandom(16)).rstrip(b"=").decode()}
    endpoint = "https://push.example.com/send/device-1"

    added = await client.post("/api/me/push", json={"endpoint": endpoint, "keys": keys}, headers=csrf(client))
    assert added.status_code == 201, added.text
    bad = await client.post("/api/me/push", json={"endpoint": endpoint, "keys": {**keys, "auth": "short"}},
                            headers=csrf(client))
    assert (bad.status_code, bad.json()["code"]) == (400, "request/invalid")
    unsafe = await client.post("/api/me/push", json={"endpoint": "file:///etc/passwd", "keys": keys},
                               headers=csrf(client))
    assert (unsafe.status_code, unsafe.json()["code"]) == (400, "request/unsafe_url")
    gone = await client.request("DELETE", "/api/me/push", json={"endpoint": endpoint}, headers=csrf(client))
    assert gone.status_code == 204
    again = await client.request("DELETE", "/api/me/push", json={"endpoint": endpoint}, headers=csrf(client))
    assert (again.status_code, again.json()["code"]) == (404, "push/not_found")




def test_the_api_accepts_exactly_the_kinds_the_service_tells() -> None:
    from services.api.notification_schemas import KINDS as OFFERED
    from services.notifications.preferences import KINDS

    assert OFFERED == KINDS
