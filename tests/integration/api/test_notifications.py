"""The notification routes over the real app, PostgreSQL and Redis, for what reads rows the test writes itself (the
notices and the delivery log; the other routes: tests/services/api/test_notifications.py, on twins)."""

from __future__ import annotations

import httpx
from litestar import Litestar

from infra.config import Settings
from services.gameplay.bootstrap import Runtime
from services.notifications import context
from tests.services.api.table import asgi_client
from tests.services.api.test_notifications import _game, signed_in
from tests.services.api.test_players import csrf


async def test_notices_are_listed_newest_first_and_marked_read(client: httpx.AsyncClient, runtime: Runtime) -> None:
    player = await signed_in(client, runtime, "news@example.com")
    game_id = await _game(runtime)
    for version in (3, 5):
        await runtime.pool.execute(
            "INSERT INTO notices (notice_id, player_id, game_id, seat, version, kind, text, created_at)"
            " VALUES ($1, $2, $3, 0, $4, 'your_turn', 'Your turn in Magnate: The First City',"
            " now() + make_interval(secs => $5))", f"{game_id}.{version}.0.your_turn", player, game_id, version,
            float(version))

    listed = (await client.get("/api/me/notices")).json()
    assert listed["unread"] == 2
    assert [n["version"] for n in listed["notices"]] == [5, 3]
    read = await client.post("/api/me/notices/read", json={"notice_ids": [listed["notices"][0]["notice_id"]]},
                             headers=csrf(client))
    assert read.json() == {"unread": 1}
    assert (await client.post("/api/me/notices/read", json={}, headers=csrf(client))).json() == {"unread": 0}
    too_many = await client.post("/api/me/notices/read", json={"notice_ids": ["n"] * 501}, headers=csrf(client))
    assert (too_many.status_code, too_many.json()["code"]) == (400, "request/invalid")


async def test_the_delivery_log_and_one_click_unsubscribe_without_cookie_or_csrf(
        app: Litestar, client: httpx.AsyncClient, runtime: Runtime, settings: Settings) -> None:
    player = await signed_in(client, runtime, "log@example.com")
    await runtime.pool.execute(
        "INSERT INTO deliveries (delivery_id, player_id, channel, target, status, detail)"
        " VALUES ('d1', $1, 'email', 'log@example.com', 'skipped', 'at the page')", player)
    [entry] = (await client.get("/api/me/deliveries")).json()["deliveries"]
    assert (entry["channel"], entry["status"], entry["detail"]) == ("email", "skipped", "at the page")

    notifications = context.build(settings, runtime)
    try:
        token = await notifications.unsubscribe_token(player)
    finally:
        await notifications.aclose()
    async with asgi_client(app) as mail_client:  # a mail client: no cookie, no CSRF token
        page = await mail_client.get(f"/unsubscribe?token={token}")
        assert page.status_code == 200 and "Stop the mails" in page.text
        assert (await client.get("/api/me/settings")).json()["email_mode"] == "each"  # a GET changes nothing
        done = await mail_client.post(f"/unsubscribe?token={token}", content="List-Unsubscribe=One-Click",
                                      headers={"content-type": "application/x-www-form-urlencoded"})
        assert done.status_code == 200, done.text
        unknown = await mail_client.post("/unsubscribe?token=nope", content="List-Unsubscribe=One-Click",
                                         headers={"content-type": "application/x-www-form-urlencoded"})
        assert unknown.status_code == 404
    assert (await client.get("/api/me/settings")).json()["email_mode"] == "off"
    # the page's button, pressed by the signed-in player (session cookie, no CSRF header): one-click still works
    pressed = await client.post(f"/unsubscribe?token={token}", content="List-Unsubscribe=One-Click",
                                headers={"content-type": "application/x-www-form-urlencoded"})
    assert pressed.status_code == 200, pressed.text
