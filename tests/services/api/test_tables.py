"""The table around the games (issue #13): games listed publicly that seek players and that anyone may watch,
joining a free seat with an account, and the rematch of a finished game — over the real app on in-memory twins."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from litestar import Litestar

from services.gameplay.bootstrap import Runtime

from .table import Game, Table, asgi_client, bearer, game_body
from .test_players import csrf, sign_in


@pytest.fixture
async def bea(app: Litestar, runtime: Runtime) -> AsyncIterator[httpx.AsyncClient]:
    async with asgi_client(app) as c:
        await sign_in(c, runtime, "bea@example.com")
        yield c


@pytest.fixture
async def cal(app: Litestar, runtime: Runtime) -> AsyncIterator[httpx.AsyncClient]:
    async with asgi_client(app) as c:
        await sign_in(c, runtime, "cal@example.com")
        yield c


async def listed(table: Table, seats: list[dict[str, Any]], *, is_listed: bool = True, **options: Any) -> Game:
    options.setdefault("difficulty", "digital_assistant")
    body = {**game_body(seats, **options), "listed": is_listed}
    response = await table.client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    created = response.json()
    return Game(created["game_id"], {s["seat"]: s["token"] for s in created["seats"] if s["token"]}, created)


def ids(body: dict[str, Any]) -> list[str]:
    return [g["game_id"] for g in body["games"]]


async def join(client: httpx.AsyncClient, game: Game) -> httpx.Response:
    return await client.post(f"/api/games/{game.id}/join", headers=csrf(client))


async def test_a_player_joins_a_free_seat_of_a_listed_game(
    bea: httpx.AsyncClient, table: Table
) -> None:
    game = await listed(table, [{"kind": "human", "name": "Ada"}, {"kind": "human"}, {"kind": "human"},
                                {"kind": "ai"}])
    opened = (await table.client.get("/api/tables/open")).json()
    mine = next(g for g in opened["games"] if g["game_id"] == game.id)
    assert (mine["seats_taken"], mine["seats_free"]) == (1, 2)  # the creator's seat is theirs
    assert mine["seats"][0] == {"seat": 0, "kind": "human", "name": "Ada", "taken": True}
    assert mine["url"].endswith(f"/play/{game.id}")
    joined = await join(bea, game)
    assert joined.status_code == 200, joined.text
    assert joined.json()["seat"] == 1
    log = await table.log(game)
    assert log[-1]["type"] == "table.seat_claimed" and log[-1]["payload"]["seat"] == 1
    assert (await bea.get(f"/api/games/{game.id}/me")).json()["seat"] == 1  # the session plays it
    again = await join(bea, game)
    assert (again.status_code, again.json()["code"]) == (409, "seat/already_seated")
    stale = await table.client.get(f"/api/games/{game.id}/me", headers=bearer(game.tokens[1]))
    assert stale.status_code in (401, 403)  # the seat's invite link no longer opens it
    mine = next(g for g in (await table.client.get("/api/tables/open")).json()["games"] if g["game_id"] == game.id)
    assert (mine["seats_taken"], mine["seats_free"]) == (2, 1)


async def test_joining_needs_a_session_and_its_csrf_header(table: Table, bea: httpx.AsyncClient) -> None:
    game = await listed(table, [{"kind": "human"}, {"kind": "human"}])
    anonymous = await table.client.post(f"/api/games/{game.id}/join")
    assert (anonymous.status_code, anonymous.json()["code"]) == (401, "auth/signed_out")
    forged = await bea.post(f"/api/games/{game.id}/join")
    assert (forged.status_code, forged.json()["code"]) == (403, "auth/csrf")


async def test_a_full_or_unlisted_or_unknown_game_cannot_be_joined(
    bea: httpx.AsyncClient, cal: httpx.AsyncClient, table: Table
) -> None:
    full = await listed(table, [{"kind": "human"}, {"kind": "human"}, {"kind": "ai"}])
    assert (await join(bea, full)).json()["seat"] == 1
    refused = await join(cal, full)
    assert (refused.status_code, refused.json()["code"]) == (409, "seat/full")
    assert "taken" in refused.json()["message"]
    private = await listed(table, [{"kind": "human"}, {"kind": "human"}], is_listed=False)
    unlisted = await join(cal, private)
    assert (unlisted.status_code, unlisted.json()["code"]) == (403, "table/unlisted")
    unknown = await cal.post("/api/games/0123456789abcdef0123456789abcdef/join", headers=csrf(cal))
    assert unknown.status_code == 404
    opened = ids((await table.client.get("/api/tables/open")).json())
    assert full.id not in opened and private.id not in opened


async def test_two_players_racing_for_the_last_seat_one_wins(
    bea: httpx.AsyncClient, cal: httpx.AsyncClient, table: Table
) -> None:
    game = await listed(table, [{"kind": "human"}, {"kind": "human"}])
    first, second = await asyncio.gather(join(bea, game), join(cal, game))
    assert sorted([first.status_code, second.status_code]) == [200, 409], (first.text, second.text)
    loser = first if first.status_code == 409 else second
    assert loser.json()["code"] == "seat/full"
    claims = [e for e in await table.log(game) if e["type"] == "table.seat_claimed"]
    assert len(claims) == 1


async def play_out(table: Table, game: Game, sessions: dict[int, httpx.AsyncClient]) -> None:
    """Play the game to its end: a seat a player claimed plays by its session, the others by their tokens."""
    moves = 0
    while (state := await table.run_system_jobs(game))["status"] == "running":
        seat = int(state["on_turn"][0])
        client = sessions.get(seat)
        if client is None:
            await table.play_suggested(game)
            continue
        me = (await client.get(f"/api/games/{game.id}/me")).json()
        body = {"command_id": f"m{moves}", "command": me["legal"][0]["command"], "expected_version": me["version"]}
        played = await client.post(f"/api/games/{game.id}/commands", json=body, headers=csrf(client))
        assert played.status_code == 200, played.text
        moves += 1


async def test_a_rematch_seats_the_same_players_once_however_often_it_is_asked(
    bea: httpx.AsyncClient, table: Table
) -> None:
    game = await listed(table, [{"kind": "human", "name": "Guest"}, {"kind": "human"}, {"kind": "ai"}])
    early = await table.client.post(f"/api/games/{game.id}/rematch", headers=bearer(game.tokens[0]))
    assert (early.status_code, early.json()["code"]) == (409, "table/not_finished")
    joined = await join(bea, game)
    assert joined.json()["seat"] == 1
    await play_out(table, game, {1: bea})
    assert game.id not in ids((await table.client.get("/api/tables/open")).json())
    assert game.id not in ids((await table.client.get("/api/tables/live?limit=100")).json())

    guest = game.tokens[0]
    first = await table.client.post(f"/api/games/{game.id}/rematch", headers=bearer(guest))
    assert first.status_code == 200, first.text
    body = first.json()
    assert body["first"] and body["claimed"] == [1]
    seats = body["seats"]
    assert [s["kind"] for s in seats] == ["human", "human", "ai"]
    created = [s["name"] for s in game.created["seats"]]
    assert [s["name"] for s in seats] == [created[0], "bea", created[2]]  # the names the seats showed: Bea's own
    assert seats[1]["token"] is None and seats[0]["token"]  # the player's seat is theirs again; the guest's token
    new = Game(body["game_id"], {0: seats[0]["token"]}, body)
    claims = [e for e in await table.log(new) if e["type"] == "table.seat_claimed"]
    assert [c["payload"]["seat"] for c in claims] == [1]
    assert (await bea.get(f"/api/games/{new.id}/me")).json()["seat"] == 1
    assert (await table.me(new, 0))["seat"] == 0
    assert (await table.read(game))["rematch_id"] == new.id

    again = await bea.post(f"/api/games/{game.id}/rematch", headers=csrf(bea))
    assert again.status_code == 200, again.text
    assert again.json()["game_id"] == new.id and not again.json()["first"]
    assert all(s["token"] is None for s in again.json()["seats"])  # nobody else's seat's access
    by_guest = await table.client.post(f"/api/games/{game.id}/rematch", headers=bearer(guest))
    assert [s["token"] for s in by_guest.json()["seats"]] == [seats[0]["token"], None, None]
    assert len([e for e in await table.log(new) if e["type"] == "table.seat_claimed"]) == 1
    stranger = await table.client.post(f"/api/games/{game.id}/rematch")
    assert stranger.status_code == 401


async def test_games_to_watch_are_listed_running_games_a_page_at_a_time(table: Table) -> None:
    games = [await listed(table, [{"kind": "human"}, {"kind": "ai"}]) for _ in range(3)]
    private = await listed(table, [{"kind": "human"}, {"kind": "ai"}], is_listed=False)
    first = (await table.client.get("/api/tables/live", params={"limit": 2})).json()
    assert ids(first) == [games[2].id, games[1].id]
    assert first["next_before"] is not None
    second = (await table.client.get("/api/tables/live", params={"limit": 2, "before": first["next_before"]})).json()
    assert ids(second)[0] == games[0].id
    everything = (await table.client.get("/api/tables/live", params={"limit": 100})).json()
    assert private.id not in ids(everything)
    text = (await table.client.get("/api/tables/open")).text + str(everything)
    assert all(token not in text for g in [*games, private] for token in g.tokens.values())
    assert "token" not in text
    for bad in ({"limit": 0}, {"limit": 101}, {"before": -1}, {"limit": "x"}):
        assert (await table.client.get("/api/tables/live", params=bad)).status_code == 400
