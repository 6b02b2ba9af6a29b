"""Creating games and reading them: tokens, invite links, views and the log."""

from __future__ import annotations

import msgspec
import pytest
from httpx import AsyncClient

from domain.games import GAMES
from infra.config import Settings
from services.api import create_app
from services.gameplay.audit import verify
from services.gameplay.bootstrap import Runtime

from .table import Table, asgi_client, bearer, game_body

AI_DIFFICULTY = "digital_assistant"


async def test_creating_a_game_returns_a_token_and_an_invite_link_per_human_seat(table: Table) -> None:
    game = await table.create(
        seats=[{"kind": "human", "name": "Ada"}, {"kind": "human"}, {"kind": "ai"}], difficulty=AI_DIFFICULTY
    )
    created = game.created
    assert created["game_type"] == "magnate" and created["version"] >= 1
    humans = [s for s in created["seats"] if s["kind"] == "human"]
    ai = [s for s in created["seats"] if s["kind"] == "ai"]
    assert [s["seat"] for s in created["seats"]] == [0, 1, 2]
    assert len(humans) == 2 and len(ai) == 1
    assert len({s["token"] for s in humans}) == 2
    for seat in humans:
        assert seat["invite_url"] == f"http://127.0.0.1:8000/play/{game.id}#token={seat['token']}"
    assert ai[0]["token"] is None and ai[0]["invite_url"] is None
    assert humans[0]["name"] == "Ada"
    assert humans[1]["payload"] == {"company": "urhme"}
    assert humans[1]["name"] == "UrHme"  # the default name is the company's


async def test_invite_links_use_the_public_url(settings: Settings, runtime: Runtime) -> None:
    app = create_app(msgspec.structs.replace(settings, public_url="https://magnate.example/"), runtime)
    async with asgi_client(app) as client:
        game = await Table(client, runtime).create()
    for seat in game.created["seats"]:
        assert seat["invite_url"] == f"https://magnate.example/play/{game.id}#token={seat['token']}"


async def test_a_seed_is_refused_unless_the_server_is_a_sandbox(settings: Settings, runtime: Runtime) -> None:
    app = create_app(msgspec.structs.replace(settings, sandbox=False), runtime)
    async with asgi_client(app) as client:
        response = await client.post("/api/games", json=game_body([{}, {}], seed="00ff"))
    assert response.status_code == 400
    assert response.json()["code"] == "request/invalid"


async def test_a_sandbox_seed_makes_the_setup_reproducible(table: Table) -> None:
    first = await table.create(seed="c0ffee")
    second = await table.create(seed="c0ffee")
    first_log, second_log = await table.log(first), await table.log(second)
    assert [e["payload"] for e in first_log] == [e["payload"] for e in second_log]


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"options": {"seats": []}}, 422, "rule/invalid_value"),
        (game_body([{"kind": "robot"}]), 422, "rule/invalid_value"),
        (game_body([{}, {}], game="chess"), 400, "request/invalid"),
        ({**game_body([{}, {}]), "colour": "red"}, 400, "request/invalid"),
        (game_body([{}, {}], colour="red"), 400, "request/invalid"),
        (game_body([{}, {}], seed="not hex"), 400, "request/invalid"),
        ({"game": "magnate"}, 400, "request/invalid"),
        (game_body([{}, {"kind": "ai"}]), 422, "rule/invalid_value"),  # an AI needs a difficulty
        (game_body([{}, {}], dataset=""), 400, "request/invalid"),  # read data/*.toml: a 503 under fuzzing
        (game_body([{}, {}], dataset="../data"), 400, "request/invalid"),
        (game_body([{}, {}], dataset="v9"), 422, "rule/invalid_value"),
    ],
)
async def test_impossible_games_are_refused(
    client: AsyncClient, body: dict[str, object], status: int, code: str
) -> None:
    response = await client.post("/api/games", json=body)
    assert response.status_code == status, response.text
    assert response.json()["code"] == code
    assert set(response.json()) == {"code", "message", "details"}


async def test_malformed_json_is_a_400(client: AsyncClient) -> None:
    response = await client.post("/api/games", content=b'{"seats": [', headers={"Content-Type": "application/json"})
    assert response.status_code == 400
    assert response.json()["code"] == "request/malformed"


async def test_the_game_shows_its_public_view(table: Table) -> None:
    game = await table.create()
    state = await table.read(game)
    assert state["game_id"] == game.id and state["game_type"] == "magnate"
    assert state["status"] == "running" and state["version"] == game.created["version"]
    assert state["view"]["viewer"] == "public"
    assert state["on_turn"] == state["view"]["on_turn"]
    assert [s["cash"] for s in state["view"]["seats"]] == [None, None]


async def test_me_shows_the_seats_own_cash_and_legal_moves_but_not_the_others_cash(table: Table) -> None:
    game = await table.create()
    on_turn = await table.seat_on_turn(game)
    for seat in (0, 1):
        me = await table.me(game, seat)
        assert me["seat"] == seat and me["view"]["viewer"] == str(seat)
        cash = {s["seat"]: s["cash"] for s in me["view"]["seats"]}
        assert isinstance(cash[seat], int) and cash[seat] > 0
        assert cash[1 - seat] is None
        if seat == on_turn:
            assert {t["command"]["type"] for t in me["legal"]} >= {"magnate.pass_bid"}
        else:
            assert me["legal"] == []


async def test_an_unknown_game_is_a_404(client: AsyncClient, table: Table) -> None:
    game = await table.create()
    token = bearer(game.tokens[0])
    for path in ("", "/events", "/state", "/export", "/stream"):
        response = await client.get(f"/api/games/unknown{path}")
        assert response.status_code == 404, path
        assert response.json()["code"] == "game/not_found"
    response = await client.get("/api/games/unknown/me", headers=token)
    assert response.status_code == 404
    assert response.json()["code"] == "game/not_found"


async def test_the_log_is_readable_after_any_version(client: AsyncClient, table: Table) -> None:
    game = await table.create()
    await table.play_suggested(game)
    response = await client.get(f"/api/games/{game.id}/events")
    page = response.json()
    versions = [e["version"] for e in page["events"]]
    assert versions == list(range(1, page["version"] + 1))
    first = page["events"][0]
    assert first["type"] == "magnate.game_started" and first["payload"]["type"] == "magnate.game_started"
    assert first["actor"] == "system" and first["prev_hash"] and first["hash"]
    later = (await client.get(f"/api/games/{game.id}/events", params={"after": 2})).json()
    assert later["version"] == page["version"]
    assert later["events"] == page["events"][2:]
    assert (await client.get(f"/api/games/{game.id}/events", params={"after": -1})).status_code == 400


async def test_the_state_at_a_version_is_the_callers_view_of_it(client: AsyncClient, table: Table) -> None:
    game = await table.create()
    start = game.created["version"]
    await table.play_suggested(game)
    now = (await table.read(game))["version"]
    assert now > start
    public = (await client.get(f"/api/games/{game.id}/state", params={"at": start})).json()
    assert public["version"] == start and public["viewer"] == "public"
    assert public["view"] == (await client.get(f"/api/games/{game.id}/state", params={"at": start})).json()["view"]
    mine = await client.get(f"/api/games/{game.id}/state", params={"at": start}, headers=bearer(game.tokens[1]))
    assert mine.json()["viewer"] == "1"
    assert [s["cash"] is not None for s in mine.json()["view"]["seats"]] == [False, True]
    latest = (await client.get(f"/api/games/{game.id}/state")).json()
    assert latest["version"] == now


async def test_the_auditor_view_is_closed_while_the_game_runs(client: AsyncClient, table: Table) -> None:
    game = await table.create()
    response = await client.get(f"/api/games/{game.id}/state", params={"viewer": "auditor"})
    assert response.status_code == 403
    assert response.json()["code"] == "view/unavailable"


async def test_the_export_is_verifiable_json_lines_without_the_seed_while_running(
    client: AsyncClient, table: Table
) -> None:
    game = await table.create()
    await table.play_suggested(game)
    response = await client.get(f"/api/games/{game.id}/export")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/x-ndjson")
    lines = response.content.splitlines()
    header = msgspec.json.decode(lines[0])
    assert header["kind"] == "game" and header["game_id"] == game.id and header["seed"] is None
    verdict = verify(lines, GAMES)
    assert verdict.ok, verdict.problems
    assert verdict.events == (await table.read(game))["version"]



async def test_ids_the_database_cannot_hold_are_unknown_games_not_errors(table: Table, client: AsyncClient) -> None:
    game = await table.create()
    for game_id in ("%00", "x%00y", "x" * 101):
        response = await client.get(f"/api/games/{game_id}/me", headers=bearer(game.tokens[0]))
        assert response.status_code == 404, response.text
        assert response.json()["code"] == "game/not_found"


@pytest.mark.parametrize(("seat", "status"), [({"name": "A\u0000B"}, 400), ({"company": "\u0000"}, 400),
                                              ({"name": "x" * 41}, 400)])
async def test_seat_names_are_checked_before_they_are_stored(
    client: AsyncClient, seat: dict[str, str], status: int
) -> None:
    response = await client.post("/api/games", json=game_body([seat, {}]))
    assert response.status_code == status, response.text
    named = "\u0000" in seat.get("name", "")  # a control character: the names' own code (services/api/names.py)
    assert response.json()["code"] == ("request/invalid_name" if named else "request/invalid" if status == 400
                                       else "rule/invalid_value")
