"""Ratings (issue #29) over the real app on in-memory twins: a rated table between signed-in players changes their
ratings once when it ends, as openskill computes for the table's ranks (a replayed settling or a second projector
round changes nothing), the open-games list shows the host's rating, a seat a guest played leaves the game unrated,
the table refuses `rated` without two people's seats, and the leaderboard and a player's ratings are public routes
of the OpenAPI document."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from litestar import Litestar
from openskill.models import PlackettLuce

from domain.games import GAMES
from domain.magnate.bots import RandomLegal
from services.gameplay.bootstrap import Runtime

from .table import Game, Table, asgi_client, bearer, game_body
from .test_players import csrf, sign_in

TWO = [{"kind": "human", "name": "Bea"}, {"kind": "human", "name": "Cal"}]


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


async def rated_table(table: Table, seats: list[dict[str, Any]]) -> Game:
    body = {**game_body(seats, difficulty="digital_assistant"), "listed": True, "table": {"rated": True}}
    response = await table.client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    created = response.json()
    return Game(created["game_id"], {s["seat"]: s["token"] for s in created["seats"] if s["token"]}, created)


async def player_id(client: httpx.AsyncClient) -> str:
    return str((await client.get("/api/me")).json()["player_id"])


async def finish(runtime: Runtime, game_id: str) -> None:
    """Play the game to its end in the service (random legal moves, system jobs run as a worker would)."""
    gameplay, bot = runtime.gameplay, RandomLegal(7)
    for _ in range(3000):
        head = await gameplay.store.head(game_id)
        if head.status == "finished":
            return
        if head.system_job is not None:
            assert await gameplay.run_system(game_id, head.version, head.system_job)
            continue
        loaded = await gameplay.load(game_id)
        seat = GAMES["magnate"].pending(loaded.state).seats[0]
        await gameplay.submit(game_id, int(seat), uuid.uuid4().hex, bot(loaded.state, seat))
    raise AssertionError("the game did not finish")


async def test_a_rated_game_changes_its_players_ratings_once_as_openskill_computes(
    table: Table, runtime: Runtime, bea: httpx.AsyncClient, cal: httpx.AsyncClient
) -> None:
    game = await rated_table(table, TWO)
    claimed = await bea.post(f"/api/games/{game.id}/claim", headers={**bearer(game.tokens[0]), **csrf(bea)})
    assert claimed.status_code == 200, claimed.text
    joined = await cal.post(f"/api/games/{game.id}/join", headers=csrf(cal))
    assert joined.status_code == 200, joined.text
    rated = (await table.client.get("/api/ratings/tables", params={"game": [game.id, "0" * 32]})).json()
    assert rated == {"tables": [{"game_id": game.id, "game_type": "magnate", "rating": None, "games": 0}]}

    await finish(runtime, game.id)
    ranks = {s["seat"]: s["rank"] for s in (await table.read(game))["outcome"]["standings"]}
    settled = await runtime.ratings.game_over(game.id)  # what the worker's projector does when it sees the end
    assert settled is not None and settled.result == "rated"  # (on PostgreSQL: tests/integration/test_ratings_settle)
    ids = [await player_id(bea), await player_id(cal)]
    model = PlackettLuce()
    expected = model.rate([[model.rating()], [model.rating()]], ranks=[ranks[0], ranks[1]])
    for pid, name, [want] in zip(ids, ["bea", "cal"], expected, strict=True):
        page = (await table.client.get(f"/api/players/{pid}/ratings")).json()
        assert page["name"] == name
        (mine,) = page["ratings"]
        assert (mine["game_type"], mine["title"], mine["games"]) == ("magnate", GAMES["magnate"].title, 1)
        assert (mine["mu"], mine["sigma"]) == (want.mu, want.sigma)
        assert mine["rating"] == round(1000 + 20 * (want.mu - 3 * want.sigma))
    if ranks[0] != ranks[1]:
        assert {mine["rating"] for mine in [(await table.client.get(f"/api/players/{p}/ratings")).json()
                                            ["ratings"][0] for p in ids]} == {1069, 963}

    assert await runtime.ratings.game_over(game.id) is None  # replayed: already settled
    board = (await table.client.get("/api/ratings/magnate/leaderboard")).json()
    assert [r["games"] for r in board["rows"]] == [1, 1]
    assert board["next_offset"] is None and board["title"] == GAMES["magnate"].title
    assert {r["player_id"] for r in board["rows"]} == set(ids)
    assert board["rows"][0]["rating"] >= board["rows"][1]["rating"]
    page = (await table.client.get("/api/ratings/magnate/leaderboard", params={"limit": 1})).json()
    assert len(page["rows"]) == 1 and page["next_offset"] == 1
    assert (await table.client.get("/api/ratings/magnate/leaderboard?limit=1&offset=1")).json()["next_offset"] == 2

    exported = (await bea.get("/api/me/export")).json()  # the player's data holds their ratings
    assert [(r["game_type"], r["games"], r["shown"]) for r in exported["ratings"]] == [
        ("magnate", 1, round(1000 + 20 * (expected[0][0].mu - 3 * expected[0][0].sigma)))]

    again = await rated_table(table, TWO)  # the host's rating shows on their next rated table
    await bea.post(f"/api/games/{again.id}/claim", headers={**bearer(again.tokens[0]), **csrf(bea)})
    (host,) = (await table.client.get("/api/ratings/tables", params={"game": again.id})).json()["tables"]
    assert (host["rating"], host["games"]) == (round(1000 + 20 * (expected[0][0].mu - 3 * expected[0][0].sigma)), 1)


async def test_a_seat_a_guest_played_leaves_the_game_unrated(
    table: Table, runtime: Runtime, bea: httpx.AsyncClient
) -> None:
    game = await rated_table(table, TWO)
    await bea.post(f"/api/games/{game.id}/claim", headers={**bearer(game.tokens[0]), **csrf(bea)})
    assert await runtime.ratings.store.result(game.id) == "open"
    await finish(runtime, game.id)
    settled = await runtime.ratings.game_over(game.id)
    assert settled is not None and settled.result == "guest_seat"
    assert await runtime.ratings.store.result(game.id) == "guest_seat"
    assert (await table.client.get(f"/api/players/{await player_id(bea)}/ratings")).json()["ratings"] == []


async def test_a_rated_table_needs_two_seats_people_play(table: Table) -> None:
    body = {**game_body([{"kind": "human"}, {"kind": "ai"}], difficulty="digital_assistant"),
            "table": {"rated": True}}
    refused = await table.client.post("/api/games", json=body)
    assert refused.status_code == 422, refused.text
    assert refused.json()["code"] == "rule/invalid_value", refused.json()
    assert "rated" in refused.json()["message"]
    stand_in = {**game_body(TWO), "table": {"rated": True, "stand_ins": [1]}}
    assert (await table.client.post("/api/games", json=stand_in)).status_code == 422


async def test_the_routes_refuse_what_they_cannot_answer_and_are_documented(table: Table) -> None:
    unknown = await table.client.get("/api/ratings/chess/leaderboard")
    assert (unknown.status_code, unknown.json()["code"]) == (404, "ratings/unknown_game")
    assert (await table.client.get("/api/ratings/magnate/leaderboard?limit=0")).status_code == 400
    assert (await table.client.get("/api/ratings/magnate/leaderboard?offset=-1")).status_code == 400
    nobody = await table.client.get("/api/players/p000/ratings")
    assert (nobody.status_code, nobody.json()["code"]) == (404, "player/not_found")
    assert (await table.client.get("/api/ratings/tables", params={"game": ["x" * 65]})).status_code == 400
    assert (await table.client.get("/api/ratings/tables")).status_code == 400
    paths = (await table.client.get("/schema/openapi.json")).json()["paths"]
    board = paths["/api/ratings/{game_type}/leaderboard"]["get"]
    assert {p["name"] for p in board["parameters"]} >= {"game_type", "limit", "offset"}
    assert "200" in board["responses"] and "404" in board["responses"]
    assert "get" in paths["/api/players/{player_id}/ratings"]
