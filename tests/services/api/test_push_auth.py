"""nchan's subscription check (``/internal/push-auth``, services/api/controllers/push_auth.py), as nginx asks it: the
address the page asked for in ``X-Original-URI`` with the page's own cookie. A seat's channel opens for that seat's
token or the signed-in player who claimed it, for no one else; the public channel for anyone, of a game that
exists. (The whole path through nginx: tests/integration/test_nchan.py.)"""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from litestar import Litestar

from infra.config import Settings
from infra.presence import seat_key
from services.api.seat_access import SEAT_COOKIE
from services.gameplay.bootstrap import Runtime

from .table import Table, asgi_client, bearer
from .test_players import csrf, sign_in


async def asks(client: httpx.AsyncClient, uri: str) -> int:
    """What nchan hears when it asks for ``uri`` with this client's cookies."""
    return (await client.get("/internal/push-auth", headers={"X-Original-URI": uri})).status_code


@pytest.fixture
def settings(queue_name: str) -> Settings:
    """A deployment whose pages' streams are nchan's (MAGNATE_PUSH=nchan)."""
    return Settings(queue_name=queue_name, sandbox=True, dev_mailbox=True, push="nchan")


THROUGH_NGINX = {"X-Magnate-Push": "nchan"}
"""What nginx with nchan adds to every request it passes to the API (infra/nchan/nginx.conf.template)."""


@pytest.fixture
async def other(app: Litestar) -> AsyncIterator[httpx.AsyncClient]:
    async with asgi_client(app) as c:
        yield c


async def test_a_seats_channel_opens_only_for_its_token_or_its_player(
    client: httpx.AsyncClient, other: httpx.AsyncClient, runtime: Runtime, table: Table
) -> None:
    game = await table.create(humans=2)
    seat0, seat1 = f"/push/games/{game.id}/seat/0/en", f"/push/games/{game.id}/seat/1/en"
    assert await asks(client, f"{seat0}?token={game.tokens[0]}") == 200
    assert await asks(client, f"{seat1}?token={game.tokens[0]}") == 403  # another seat's token
    assert await asks(client, seat0) == 403  # nobody
    assert await asks(client, f"{seat0}?token=forged") == 403
    assert await asks(client, f"/push/games/{game.id}/seat/7/en?token={game.tokens[0]}") == 403
    assert await asks(client, f"/push/games/{game.id}/seat/0/ru?token={game.tokens[0]}") == 200  # its language
    assert await asks(client, f"/push/games/{game.id}/seat/0/xx?token={game.tokens[0]}") == 403  # not spoken
    assert await asks(client, f"/push/games/{game.id}/seat/0?token={game.tokens[0]}") == 403  # no language
    kept = {"X-Original-URI": seat0, "Cookie": f"{SEAT_COOKIE}={game.tokens[0]}"}  # the stream's seat cookie
    assert (await client.get("/internal/push-auth", headers=kept)).status_code == 200
    kept["X-Original-URI"] = seat1
    assert (await client.get("/internal/push-auth", headers=kept)).status_code == 403

    await sign_in(other, runtime, "bea@example.com")
    claimed = await other.post(f"/api/games/{game.id}/claim", headers={**bearer(game.tokens[1]), **csrf(other)})
    assert claimed.status_code == 200, claimed.text
    assert await asks(other, seat1) == 200  # the player's session, no token
    assert await asks(other, seat0) == 403
    me = (await other.get("/api/me")).json()["player_id"]
    assert await asks(other, f"{seat1}/player/{me}") == 200  # with the player's own channel beside it
    assert await asks(other, f"/push/games/{game.id}/public/en/player/{me}") == 200
    assert await asks(other, f"{seat1}/player/someone-else") == 403  # another player's own channel
    assert await asks(client, f"/push/games/{game.id}/public/en/player/{me}") == 403  # not that player's session
    address = await other.get(f"/api/games/{game.id}/stream/address", headers=THROUGH_NGINX)
    assert address.json()["url"] == f"{seat1}/player/{me}"  # the page hears its player's games and notices too
    assert await asks(client, f"{seat1}?token={game.tokens[1]}") == 403  # the claimed seat's dead invite


async def test_the_public_channel_is_open_and_nothing_else_is(client: httpx.AsyncClient, table: Table) -> None:
    game = await table.create(humans=2)
    assert await asks(client, f"/push/games/{game.id}/public/en") == 200
    assert await asks(client, f"/push/games/{game.id}/public/de") == 200
    assert await asks(client, "/push/games/no-such-game/public/en") == 403
    for uri in ("", "/push/games", f"/api/games/{game.id}/stream", f"/push/games/{game.id}/public/../seat/0/en",
                f"/push/games/{game.id}/public", f"/push/games/{game.id}/public/xx",
                f"/push/games/{game.id}/seat/-1/en?token={game.tokens[0]}"):
        assert await asks(client, uri) == 403, uri


async def test_the_page_learns_its_stream_address_and_its_seat_cookie_reaches_the_push_location(
    client: httpx.AsyncClient, other: httpx.AsyncClient, table: Table
) -> None:
    game = await table.create(humans=2)
    address = f"/api/games/{game.id}/stream/address"
    assert (await client.get(address)).json() == {  # direct: the API's stream, held for as long as the page is open
        "kind": "python", "url": f"/api/games/{game.id}/stream", "renew_s": 0}
    assert (await client.get(address, headers=THROUGH_NGINX)).json() == {  # the page renews its subscription itself
        "kind": "nchan", "url": f"/push/games/{game.id}/public/en", "renew_s": 100}
    german = await client.get(address, headers={**THROUGH_NGINX, "Accept-Language": "de"})
    assert german.json()["url"] == f"/push/games/{game.id}/public/de"

    kept = await client.post(f"/api/games/{game.id}/stream/seat", headers=bearer(game.tokens[1]))
    assert kept.status_code == 204, kept.text
    paths = sorted(c.split("Path=")[1].split(";")[0] for c in kept.headers.get_list("set-cookie")
                   if c.startswith(f"{SEAT_COOKIE}="))
    assert paths == [f"/api/games/{game.id}/stream", f"/push/games/{game.id}/"]
    seat_cookie = {"Cookie": f"{SEAT_COOKIE}={game.tokens[1]}"}
    answer = await other.get(address, headers={**THROUGH_NGINX, **seat_cookie})
    assert answer.json() == {"kind": "nchan", "url": f"/push/games/{game.id}/seat/1/en", "renew_s": 100}
    forged = await other.get(address, headers={**THROUGH_NGINX, "Cookie": f"{SEAT_COOKIE}=forged"})
    assert forged.json()["url"] == f"/push/games/{game.id}/public/en"  # a cookie that opens no seat: the public's
    assert (await other.get("/api/games/no-such-game/stream/address")).status_code == 404


async def test_a_subscription_keeps_its_seat_present_only_with_the_seats_own_credentials(
    client: httpx.AsyncClient, runtime: Runtime, table: Table
) -> None:
    game = await table.create(humans=2)
    seat0 = f"/push/games/{game.id}/seat/0/en"

    async def came(uri: str, connection: str = "box:1:7") -> int:
        """nchan's subscribe call, as nginx makes it with the subscriber's address and its connection's name."""
        return (await client.get("/internal/push-presence", headers={
            "X-Original-URI": uri, "X-Push-Connection": connection})).status_code

    assert await came(f"{seat0}?token={game.tokens[1]}") == 403  # another seat's token marks no one
    assert await came(seat0) == 403
    assert not await runtime.accounts.presence.present(seat_key(game.id, 0))
    assert await came(f"{seat0}?token={game.tokens[0]}", "bad id!") == 400
    assert await came(f"{seat0}?token={game.tokens[0]}") == 204
    assert await runtime.accounts.presence.present(seat_key(game.id, 0))
    assert not await runtime.accounts.presence.present(seat_key(game.id, 1))
