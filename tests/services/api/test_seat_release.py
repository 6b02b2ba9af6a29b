"""A seat a guest plays by its invite link is not free (issue #24, item 6): a signed-in stranger cannot join it
away; the guest may release it, and then it is free for joining. The store decides each race (two joins at once,
a join racing the guest's first use of the link) — over the real app on in-memory twins (the races themselves
are held by the table store's contract, tests/integration/test_tables_store.py)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import httpx
import msgspec
import pytest
from litestar import Litestar

from infra.config import Settings
from services.gameplay.bootstrap import Runtime

from .table import Game, Table, asgi_client, bearer
from .test_players import csrf, sign_in
from .test_tables import join, listed

SEATS = [{"kind": "human", "name": "Host"}, {"kind": "human"}, {"kind": "ai"}]


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """Sign-in links are read from the development mailbox."""
    return msgspec.structs.replace(settings, dev_mailbox=True)


@pytest.fixture
async def eve(app: Litestar, runtime: Runtime) -> AsyncIterator[httpx.AsyncClient]:
    """A signed-in stranger."""
    async with asgi_client(app) as c:
        await sign_in(c, runtime, "eve@example.com")
        yield c


@pytest.fixture
async def guest(app: Litestar) -> AsyncIterator[httpx.AsyncClient]:
    """The guest's browser: no account, the invite link's token."""
    async with asgi_client(app) as c:
        yield c


def open_entry(body: dict[str, object], game: Game) -> dict[str, object] | None:
    games = body["games"]
    assert isinstance(games, list)
    return next((g for g in games if g["game_id"] == game.id), None)


async def test_a_seat_a_guest_plays_by_its_link_cannot_be_joined_away(
    table: Table, eve: httpx.AsyncClient, guest: httpx.AsyncClient
) -> None:
    game = await listed(table, SEATS)
    assert (await guest.get(f"/api/games/{game.id}/me", headers=bearer(game.tokens[1]))).status_code == 200
    assert open_entry((await table.client.get("/api/tables/open")).json(), game) is None  # no seat is free
    refused = await join(eve, game)
    assert (refused.status_code, refused.json()["code"]) == (409, "seat/in_use"), refused.text
    me = await guest.get(f"/api/games/{game.id}/me", headers=bearer(game.tokens[1]))
    assert me.status_code == 200 and me.json()["seat"] == 1  # the guest keeps the seat and its hand
    assert all(e["type"] != "table.seat_claimed" for e in await table.log(game))


async def test_a_seat_that_has_moved_cannot_be_joined_away(table: Table, eve: httpx.AsyncClient) -> None:
    game = await listed(table, [{"kind": "human", "name": "Host"}, {"kind": "human"}])
    await table.play_suggested(game)  # the seats play by their tokens
    await table.play_suggested(game)
    refused = await join(eve, game)
    assert (refused.status_code, refused.json()["code"]) == (409, "seat/in_use"), refused.text


async def test_the_guest_releases_the_seat_and_then_it_can_be_joined(
    table: Table, eve: httpx.AsyncClient, guest: httpx.AsyncClient
) -> None:
    game = await listed(table, SEATS)
    link = bearer(game.tokens[1])
    assert (await guest.get(f"/api/games/{game.id}/me", headers=link)).status_code == 200
    released = await guest.post(f"/api/games/{game.id}/release", headers=link)
    assert released.status_code == 204, released.text
    dead = await guest.get(f"/api/games/{game.id}/me", headers=link)
    assert (dead.status_code, dead.json()["code"]) == (401, "auth/invalid_token")
    again = await guest.post(f"/api/games/{game.id}/release", headers=link)
    assert (again.status_code, again.json()["code"]) == (401, "auth/invalid_token")
    assert open_entry((await table.client.get("/api/tables/open")).json(), game) is not None
    joined = await join(eve, game)
    assert joined.status_code == 200 and joined.json()["seat"] == 1, joined.text


async def test_only_a_guests_own_seat_can_be_released(
    table: Table, eve: httpx.AsyncClient, guest: httpx.AsyncClient
) -> None:
    game = await listed(table, SEATS)
    host = await guest.post(f"/api/games/{game.id}/release", headers=bearer(game.tokens[0]))
    assert (host.status_code, host.json()["code"]) == (409, "seat/host")
    nothing = await guest.post(f"/api/games/{game.id}/release")
    assert (nothing.status_code, nothing.json()["code"]) == (401, "auth/missing_token")
    joined = await join(eve, game)  # the link was never used: the first to come takes the seat
    assert joined.status_code == 200, joined.text
    claimed = await guest.post(f"/api/games/{game.id}/release", headers=bearer(game.tokens[1]))
    assert (claimed.status_code, claimed.json()["code"]) == (403, "seat/claimed")
    by_session = await eve.post(f"/api/games/{game.id}/release", headers=csrf(eve))
    assert (by_session.status_code, by_session.json()["code"]) == (401, "auth/missing_token")
    assert (await eve.get(f"/api/games/{game.id}/me")).json()["seat"] == 1


async def test_the_hosts_new_invite_frees_the_seat(
    table: Table, eve: httpx.AsyncClient, guest: httpx.AsyncClient
) -> None:
    """The host may replace a guest's link (as before): the new link is unused, so the seat is free again."""
    game = await listed(table, SEATS)
    assert (await guest.get(f"/api/games/{game.id}/me", headers=bearer(game.tokens[1]))).status_code == 200
    reissued = await table.client.post(f"/api/games/{game.id}/seats/1/invite", headers=bearer(game.tokens[0]))
    assert reissued.status_code == 201, reissued.text
    joined = await join(eve, game)
    assert joined.status_code == 200 and joined.json()["seat"] == 1, joined.text


async def test_a_join_racing_the_guests_first_use_one_of_them_wins(
    app: Litestar, runtime: Runtime, table: Table
) -> None:
    rounds = 8
    async with asgi_client(app) as eve, asgi_client(app) as guest:
        await sign_in(eve, runtime, "racer@example.com")
        outcomes = set()
        for _ in range(rounds):
            game = await listed(table, SEATS)
            joined, used = await asyncio.gather(
                join(eve, game), guest.get(f"/api/games/{game.id}/me", headers=bearer(game.tokens[1])))
            log = [e for e in await table.log(game) if e["type"] == "table.seat_claimed"]
            if joined.status_code == 200:  # the join came first: the link no longer opens the seat
                assert used.status_code in (401, 403), used.text
                assert len(log) == 1
                after = await guest.get(f"/api/games/{game.id}/me", headers=bearer(game.tokens[1]))
                assert after.status_code in (401, 403)
                outcomes.add("join")
            else:  # the guest came first: the seat stays theirs
                assert (joined.status_code, joined.json()["code"]) == (409, "seat/in_use"), joined.text
                assert used.status_code == 200 and not log
                outcomes.add("guest")
        assert outcomes  # either, never both


async def test_two_joins_at_once_take_two_seats_or_one_is_told_the_table_is_full(
    app: Litestar, runtime: Runtime, table: Table
) -> None:
    async with asgi_client(app) as one, asgi_client(app) as two:
        await sign_in(one, runtime, "one@example.com")
        await sign_in(two, runtime, "two@example.com")
        game = await listed(table, SEATS)
        first, second = await asyncio.gather(join(one, game), join(two, game))
        assert sorted([first.status_code, second.status_code]) == [200, 409]
        loser = first if first.status_code == 409 else second
        assert loser.json()["code"] == "seat/full"
        assert len([e for e in await table.log(game) if e["type"] == "table.seat_claimed"]) == 1


async def test_an_invite_for_a_seat_that_is_no_persons_is_a_404(table: Table) -> None:
    """The host asking for the invite of the computer's seat, or of a seat the game does not have, is told so (it
    was 401 auth/invalid_token, as if the host's own token were wrong)."""
    game = await listed(table, SEATS)
    for seat in (2, 9):
        for method in ("POST", "DELETE"):
            answer = await table.client.request(method, f"/api/games/{game.id}/seats/{seat}/invite",
                                                headers=bearer(game.tokens[0]))
            assert (answer.status_code, answer.json()["code"]) == (404, "seat/not_found"), (seat, method)
