"""The table over HTTP (issue #13): a game created with a time control shows each seat's clock; a seat resigns or
leaves and a stand-in plays it; a seat that timed out cannot move until it takes the seat back; the tutorial is
played alone against stand-ins; a vacation beyond the allowance and impossible table options are refused with a
code; the export of a game with all of it verifies."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from litestar import Litestar

from domain.games import GAMES
from services.gameplay.audit_verify import verify
from services.gameplay.bootstrap import Runtime
from services.gameplay.timekeeper import time_out

from .table import Game, Table, asgi_client, game_body
from .test_players import csrf, sign_in

pytestmark = pytest.mark.integration

HOUR_CLOCK = {"clock": {"kind": "per_move", "seconds": 3600}}


async def create(client: httpx.AsyncClient, table: dict[str, Any], seats: int = 2, **options: Any) -> Game:
    body = {**game_body([{"kind": "human"} for _ in range(seats)], **options), "table": table}
    signed = {"X-CSRFToken": client.cookies["csrftoken"]} if "csrftoken" in client.cookies else {}
    response = await client.post("/api/games", json=body, headers=signed)
    assert response.status_code == 201, response.text
    created = response.json()
    return Game(created["game_id"], {s["seat"]: s["token"] for s in created["seats"] if s["token"]}, created)


async def test_a_timed_game_shows_the_clock_of_the_seat_on_turn_in_words_and_numbers(
        client: httpx.AsyncClient, table: Table) -> None:
    game = await create(client, HOUR_CLOCK)
    state = await table.read(game)
    clocks = state["table"]
    assert clocks["clock_text"] == "1 hour per move"
    (seat,) = state["on_turn"]
    running = clocks["seats"][seat]
    assert running["deadline"] - clocks["now"] == pytest.approx(3600_000, abs=5_000)
    assert clocks["seats"][1 - seat]["deadline"] is None
    untimed = await table.create()
    assert (await table.read(untimed))["table"]["clock_text"] == "no time limit"


async def test_a_seat_that_timed_out_is_played_by_a_stand_in_until_it_takes_it_back(
        client: httpx.AsyncClient, table: Table, runtime: Runtime) -> None:
    game = await create(client, HOUR_CLOCK)
    state = await table.read(game)
    (seat,) = state["on_turn"]
    deadline = state["table"]["seats"][seat]["deadline"]
    runtime.gameplay.now_ms = lambda: deadline + 1  # the hour is over by the service's clock
    assert await time_out(runtime.gameplay, game.id, seat, deadline) is None
    me = await table.me(game, seat)
    assert me["legal"] == [] and me["table"]["seats"][seat]["reason"] == "timeout"
    refused = await table.submit(game, seat, {"type": "magnate.pass_bid"})
    assert refused.status_code == 422 and refused.json()["code"] == "table/stand_in"
    await table.run_system_jobs(game)  # the stand-in plays the seat's turn
    assert any(e["type"] == "table.stood_in" for e in await table.log(game))
    back = await table.submit(game, seat, {"type": "table.take_back"})
    assert back.status_code == 200, back.text
    assert (await table.me(game, seat))["table"]["seats"][seat]["stand_in"] is None


async def test_resigning_and_leaving_are_moves_of_the_log_and_the_standings_say_so(
        client: httpx.AsyncClient, table: Table) -> None:
    game = await table.create(humans=3)
    assert (await table.submit(game, 0, {"type": "table.resign"})).status_code == 200
    again = await table.submit(game, 0, {"type": "table.leave"})
    assert again.status_code == 422 and again.json()["code"] == "table/already_gone"
    assert (await table.submit(game, 2, {"type": "table.leave"})).status_code == 200
    while (await table.run_system_jobs(game))["status"] == "running":
        await table.play_suggested(game)
    outcome = (await table.read(game))["outcome"]
    assert outcome["standings"][-1]["seat"] == 0 and outcome["standings"][-1]["note"] == "resigned"
    assert {s["seat"]: s["note"] for s in outcome["standings"]}[2] == "left"
    exported = await client.get(f"/api/games/{game.id}/export")
    verdict = verify(exported.content.splitlines(), GAMES)
    assert verdict.ok, verdict


async def test_the_tutorial_is_played_alone_against_stand_ins(client: httpx.AsyncClient, table: Table) -> None:
    game = await create(client, {"stand_ins": [1, 2, 3, 4]}, seats=5, tutorial=True)
    assert [s["kind"] for s in game.created["seats"]] == ["human"] + ["stand_in"] * 4
    assert list(game.tokens) == [0], "only the person's seat has an invite"
    for _ in range(3):
        state = await table.run_system_jobs(game)  # the stand-ins move by themselves
        assert state["on_turn"] == [0]
        await table.play_suggested(game)


@pytest.mark.parametrize(("table_options", "code"), [
    ({"stand_ins": [9]}, "rule/invalid_value"),
    ({"stand_in": "grandmaster"}, "rule/invalid_value"),
    ({"clock": {"kind": "per_move", "seconds": 5}}, "request/invalid"),
    ({"clock": {"kind": "hourglass", "seconds": 60}}, "request/invalid"),
])
async def test_impossible_table_options_are_refused_with_a_code(
        client: httpx.AsyncClient, table_options: dict[str, Any], code: str) -> None:
    body = {**game_body([{"kind": "human"}, {"kind": "human"}]), "table": table_options}
    response = await client.post("/api/games", json=body)
    assert response.status_code in (400, 422), response.text
    assert response.json()["code"] == code


async def test_a_vacation_pauses_my_clocks_and_cannot_exceed_the_allowance(
        client: httpx.AsyncClient, runtime: Runtime, table: Table) -> None:
    await sign_in(client, runtime, "vera@example.com")
    game = await create(client, HOUR_CLOCK)
    (seat,) = (await table.read(game))["on_turn"]
    claimed = await client.post(f"/api/games/{game.id}/claim", headers={"Authorization": f"Bearer "
                                                                         f"{game.tokens[seat]}", **csrf(client)})
    assert claimed.status_code == 200, claimed.text
    before = (await table.read(game))["table"]["seats"][seat]["deadline"]

    too_long = await client.post("/api/me/vacation", json={"days": 45}, headers=csrf(client))
    assert too_long.status_code == 422 and too_long.json()["code"] == "vacation/too_long"
    assert "30 days" in too_long.json()["message"]
    taken = await client.post("/api/me/vacation", json={"days": 7}, headers=csrf(client))
    assert taken.status_code == 201, taken.text
    assert taken.json()["games"] == 1 and taken.json()["left_days"] == 23
    again = await client.post("/api/me/vacation", json={"days": 1}, headers=csrf(client))
    assert again.status_code == 409 and again.json()["code"] == "vacation/away"
    seat_table = (await table.read(game))["table"]["seats"][seat]
    assert seat_table["away_until"] is not None
    assert seat_table["deadline"] >= before + 7 * 86_400_000 - 60_000
    assert (await client.post("/api/me/vacation", json={"days": 0}, headers=csrf(client))).status_code == 400


async def test_a_vacation_ended_early_lets_my_clocks_run_again(
        client: httpx.AsyncClient, runtime: Runtime, table: Table, app: Litestar) -> None:
    await sign_in(client, runtime, "wes@example.com")
    game = await create(client, HOUR_CLOCK)
    (seat,) = (await table.read(game))["on_turn"]
    claimed = await client.post(f"/api/games/{game.id}/claim", headers={"Authorization": f"Bearer "
                                                                         f"{game.tokens[seat]}", **csrf(client)})
    assert claimed.status_code == 200, claimed.text
    not_away = await client.delete("/api/me/vacation", headers=csrf(client))
    assert not_away.status_code == 409 and not_away.json()["code"] == "vacation/not_away"
    assert (await client.post("/api/me/vacation", json={"days": 7}, headers=csrf(client))).status_code == 201
    forged = await client.delete("/api/me/vacation")  # another site's request: the session cookie, no CSRF token
    assert forged.status_code == 403
    async with asgi_client(app) as stranger:  # not signed in
        assert (await stranger.delete("/api/me/vacation")).status_code in (401, 403)
    assert (await table.read(game))["table"]["seats"][seat]["away_until"] is not None  # still away

    ended = await client.delete("/api/me/vacation", headers=csrf(client))
    assert ended.status_code == 200, ended.text
    assert ended.json()["games"] == 1 and ended.json()["away_until"] is None
    assert ended.json()["used_days"] <= 1  # the days it started, not the week asked for
    seat_table = (await table.read(game))["table"]["seats"][seat]
    assert seat_table["away_until"] is None
    assert seat_table["deadline"] <= runtime.gameplay.now_ms() + 3_600_000  # an hour from now at most, not a week
    assert (await client.post("/api/me/vacation", json={"days": 1}, headers=csrf(client))).status_code == 201
