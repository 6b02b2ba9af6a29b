"""Planned moves (issue #29) over the real app on the twins: the seat's own routes (its token or its signed-in
player, CSRF for a session, the game's plan union with 4xx codes), the worker's part played by hand (the job a plan
queues, run twice: one move, the seat's, marked as planned in the history), a manual move cancelling the seat's
plans, and the attack: no other viewer (another seat, a guest of a seat, the public) finds a plan on any GET route of
the game or its event stream before it is played."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from litestar import Litestar

from domain.magnate.commands import PlaceBid
from services.gameplay.bootstrap import Runtime
from services.gameplay.plans import PLANNED_MOVE
from services.gameplay.queries import token_hash
from tests.integration.store_records import RUNNING, SEED, decision, new_id, seats

from .sse import EventStream
from .table import Game, Table, asgi_client, bearer
from .test_notes import game_get_routes, seated
from .test_players import csrf

PASS = {"type": "magnate.pass_auctions"}
SECRET_LIMIT = 987_600
"""A bid limit no page would show but a plan's."""


@pytest.fixture
async def other(app: Litestar) -> AsyncIterator[httpx.AsyncClient]:
    async with asgi_client(app) as c:
        yield c


def plans_url(game: Game) -> str:
    return f"/api/games/{game.id}/plans"


async def test_a_seat_sets_reads_and_clears_its_plans(client: httpx.AsyncClient, table: Table) -> None:
    game = await table.create(2)
    seat = await table.seat_on_turn(game)
    own = bearer(game.tokens[seat])
    empty = await client.get(plans_url(game), headers=own)
    assert empty.status_code == 200, empty.text
    assert empty.json()["plans"] == []
    assert [o["kind"] for o in empty.json()["offered"]] == ["magnate.pass_auctions", "magnate.bid_up_to"]
    assert "no-store" in empty.headers["cache-control"]
    set_ = await client.put(plans_url(game), json={"plan": {"type": "magnate.bid_up_to", "limit": 300}}, headers=own)
    assert set_.status_code == 200, set_.text
    assert [(p["kind"], p["plan"]) for p in set_.json()["plans"]] == [
        ("magnate.bid_up_to", {"type": "magnate.bid_up_to", "limit": 300, "round": 1})]
    assert set_.json()["plans"][0]["text"] == "Bid up to 300K in the auction for turn order of round 1, then pass"
    await client.put(plans_url(game), json={"plan": PASS}, headers=own)
    assert len((await client.get(plans_url(game), headers=own)).json()["plans"]) == 2
    russian = (await client.get(plans_url(game), headers={**own, "Accept-Language": "ru"})).json()
    assert russian["offered"][0]["title"] != "Pass when the auction for turn order reaches me"
    assert "300" in russian["plans"][0]["text"] and "round" not in russian["plans"][0]["text"]
    one = await client.delete(plans_url(game), params={"kind": "magnate.bid_up_to"}, headers=own)
    assert [p["kind"] for p in one.json()["plans"]] == ["magnate.pass_auctions"]
    assert (await client.delete(plans_url(game), headers=own)).json()["plans"] == []


@pytest.mark.parametrize(("body", "status", "code"), [
    ({"plan": {"type": "magnate.no_such_plan"}}, 400, "plan/invalid"),
    ({"plan": {"type": "magnate.bid_up_to"}}, 400, "plan/invalid"),
    ({"plan": {"type": "magnate.bid_up_to", "limit": -1}}, 400, "plan/invalid"),
    ({"plan": {"type": "magnate.pass_auctions", "extra": 1}}, 400, "plan/invalid"),
    ({"plan": {"type": "magnate.place_bid", "amount": 100}}, 400, "plan/invalid"),
    ({"plan": PASS, "more": 1}, 400, "request/invalid"),
    ({"plan": "pass"}, 400, "request/invalid"),
    ({"plan": {"type": "magnate.bid_up_to", "limit": 150}}, 422, "plan/refused"),
    ({"plan": {"type": "master_of_economy.pass_phase"}}, 422, "plan/other_games_plan"),
])
async def test_a_bad_plan_is_refused_with_a_code(client: httpx.AsyncClient, table: Table, body: object, status: int,
                                                 code: str) -> None:
    game = await table.create(2)
    answer = await client.put(plans_url(game), json=body, headers=bearer(game.tokens[0]))
    assert (answer.status_code, answer.json()["code"]) == (status, code), answer.text
    assert (await client.get(plans_url(game), headers=bearer(game.tokens[0]))).json()["plans"] == []


async def test_who_may_touch_a_seats_plans(client: httpx.AsyncClient, other: httpx.AsyncClient, runtime: Runtime,
                                           table: Table) -> None:
    game = await table.create(2)
    anonymous = await client.get(plans_url(game))
    assert (anonymous.status_code, anonymous.json()["code"]) == (401, "auth/missing_token")
    forged = await client.put(plans_url(game), json={"plan": PASS}, headers=bearer("not-a-token"))
    assert (forged.status_code, forged.json()["code"]) == (401, "auth/invalid_token")
    unknown = await client.get("/api/games/no-such-game/plans", headers=bearer(game.tokens[0]))
    assert unknown.status_code == 404
    await seated(other, runtime, game, 1, "planner@example.com")
    no_csrf = await other.put(plans_url(game), json={"plan": PASS})
    assert (no_csrf.status_code, no_csrf.json()["code"]) == (403, "auth/csrf")
    with_csrf = await other.put(plans_url(game), json={"plan": PASS}, headers=csrf(other))
    assert with_csrf.status_code == 200 and with_csrf.json()["seat"] == 1
    assert (await client.get(plans_url(game), headers=bearer(game.tokens[0]))).json()["plans"] == [], \
        "seat 0 reads its own plans, never seat 1's"
    decktet = await table.create(seats=[{"kind": "human"}, {"kind": "human"}], game="decktet")
    offers_none = await client.get(plans_url(decktet), headers=bearer(decktet.tokens[0]))
    assert (offers_none.status_code, offers_none.json()["code"]) == (404, "plan/unavailable")


async def test_the_server_passes_for_the_seat_once_and_marks_it_planned(client: httpx.AsyncClient, runtime: Runtime,
                                                                        table: Table) -> None:
    game = await table.create(2)
    seat = await table.seat_on_turn(game)
    version = (await table.read(game))["version"]
    await client.put(plans_url(game), json={"plan": PASS}, headers=bearer(game.tokens[seat]))
    assert any(j.game_id == game.id and j.kind == PLANNED_MOVE and j.version == version
               for j in runtime.queue.jobs), "setting a plan queues its job"  # type: ignore[attr-defined]
    assert await runtime.planning.play(game.id, version)
    assert not await runtime.planning.play(game.id, version), "a job run twice appends once"
    moved = [e for e in await table.log(game) if e["version"] > version]
    assert moved[0]["type"] == "magnate.bid_passed" and moved[0]["actor"] == f"seat:{seat}"
    assert moved[0]["command_id"] == f"plan:{version}:{seat}"
    history = (await client.get(f"/api/games/{game.id}/history")).json()["lines"]
    planned = [line["text"] for line in history if line["version"] == moved[0]["version"]]
    assert planned and planned[0].endswith("(planned)"), planned
    kept = (await client.get(plans_url(game), headers=bearer(game.tokens[seat]))).json()["plans"]
    assert [p["kind"] for p in kept] == ["magnate.pass_auctions"], "kept until this round's auction is over"


async def test_a_manual_move_cancels_the_seats_plans(client: httpx.AsyncClient, runtime: Runtime,
                                                     table: Table) -> None:
    game = await table.create(2)
    seat = await table.seat_on_turn(game)
    own = bearer(game.tokens[seat])
    await client.put(plans_url(game), json={"plan": {"type": "magnate.bid_up_to", "limit": 900}}, headers=own)
    version = (await table.read(game))["version"]
    moved = await table.submit(game, seat, {"type": "magnate.place_bid", "amount": 200})
    assert moved.status_code == 200, moved.text
    assert (await client.get(plans_url(game), headers=own)).json()["plans"] == []
    assert not await runtime.planning.play(game.id, version), "the game moved on: nothing is played"


async def test_nobody_else_ever_sees_a_plan(app: Litestar, client: httpx.AsyncClient, other: httpx.AsyncClient,
                                            live_url: str, runtime: Runtime, table: Table) -> None:
    game = await table.create(3)
    seat = await table.seat_on_turn(game)
    planner = (seat + 1) % 3
    answer = await client.put(plans_url(game), json={"plan": {"type": "magnate.bid_up_to", "limit": SECRET_LIMIT}},
                              headers=bearer(game.tokens[planner]))
    assert answer.status_code == 200, answer.text
    rival = (planner + 1) % 3
    await seated(other, runtime, game, rival, "rival@example.com")
    guest = bearer(game.tokens[seat if seat != rival else planner])
    secrets = (str(SECRET_LIMIT), "987,600", "987 600", "987.600", "bid_up_to", "pass_auctions")
    seen = 0
    for path in game_get_routes(app):
        if path.endswith("/plans"):
            continue  # each viewer's own seat's plans: below
        url = path.replace("{game_id:str}", game.id)
        for viewer, headers in ((other, {}), (client, guest), (client, {})):
            shown = await viewer.get(url, headers=headers)
            assert shown.status_code < 500, (url, shown.text)
            assert not [s for s in secrets if s in shown.text], (url, headers)
            seen += 1
    assert seen >= 3 * 4
    for viewer, headers in ((other, {}), (client, guest)):  # each reads its own seat's plans: none
        own = await viewer.get(plans_url(game), headers=headers)
        assert own.status_code == 200 and own.json()["plans"] == [] and own.json()["seat"] != planner
        assert str(SECRET_LIMIT) not in own.text
    assert (await client.get(plans_url(game))).status_code == 401, "the public has no seat's plans"
    for headers in ({}, guest):  # the event stream's first message: the whole view
        async with httpx.AsyncClient(base_url=live_url, timeout=10, headers=headers) as http, http.stream(
                "GET", f"/api/games/{game.id}/stream?after=0") as response:
            message = "\n".join((await EventStream(response).events()).data)
            assert str(SECRET_LIMIT) not in message and "bid_up_to" not in message


async def test_master_of_economy_passes_for_a_seat_in_its_phase(client: httpx.AsyncClient, runtime: Runtime,
                                                                table: Table) -> None:
    response = await client.post("/api/games", json={"game": "master_of_economy",
                                                     "options": {"players": 2, "assignment": "random"}})
    assert response.status_code == 201, response.text
    created = response.json()
    game = Game(created["game_id"], {s["seat"]: s["token"] for s in created["seats"] if s["token"]}, created)
    seat = await table.seat_on_turn(game)
    own = bearer(game.tokens[seat])
    offered = (await client.get(plans_url(game), headers=own)).json()["offered"]
    assert [o["kind"] for o in offered] == ["master_of_economy.pass_phase"]
    set_ = await client.put(plans_url(game), json={"plan": {"type": "master_of_economy.pass_phase"}}, headers=own)
    assert set_.status_code == 200, set_.text
    version = set_.json()["version"]
    assert await runtime.planning.play(game.id, version)
    moved = [e for e in await table.log(game) if e["version"] > version]
    assert moved[0]["actor"] == f"seat:{seat}" and moved[0]["command_id"] == f"plan:{version}:{seat}"


async def test_a_plan_does_not_pass_to_the_seats_next_holder(client: httpx.AsyncClient, other: httpx.AsyncClient,
                                                             runtime: Runtime, table: Table) -> None:
    game = await table.create(2)
    seat = await table.seat_on_turn(game)
    version = (await table.read(game))["version"]
    guest = await client.put(plans_url(game), json={"plan": PASS}, headers=bearer(game.tokens[seat]))
    assert guest.status_code == 200 and guest.json()["plans"]
    await seated(other, runtime, game, seat, "next-holder@example.com")  # the seat changes hands: claimed
    claimed = (await table.read(game))["version"]
    assert claimed > version
    assert not await runtime.planning.play(game.id, claimed), "the worker plays no plan of the seat's last holder"
    assert not [e for e in await table.log(game) if e["command_id"].startswith("plan:")]
    assert (await other.get(plans_url(game))).json()["plans"] == [], "the guest's plan is not the claimer's"


async def test_a_game_that_cannot_be_loaded_holds_up_no_other_games_plans(runtime: Runtime, table: Table) -> None:
    broken = new_id()  # a log the game cannot fold (as the store tests write): its plan must not stop the others
    await runtime.gameplay.store.create(broken, "magnate", seats(), SEED, [decision("start", b'{"n":1}',
                                                                                    actor="system")], RUNNING)
    await runtime.planning.plans.put(broken, 0, "magnate.pass_auctions", b'{"type":"magnate.pass_auctions"}')
    game = await table.create(2)
    seat = await table.seat_on_turn(game)
    await runtime.planning.plans.put(game.id, seat, "magnate.pass_auctions", b'{"type":"magnate.pass_auctions"}',
                                     f"/{token_hash(game.tokens[seat])}")
    assert await runtime.planning.reconcile() >= 0
    assert await runtime.planning.moved([broken, game.id]) >= 0
    version = (await table.read(game))["version"]
    assert any(j.game_id == game.id and j.kind == PLANNED_MOVE for j in runtime.queue.jobs)  # type: ignore[attr-defined]
    assert await runtime.planning.play(game.id, version)


async def test_a_move_whose_cancel_never_came_still_cancels_the_plan(client: httpx.AsyncClient, runtime: Runtime,
                                                                     table: Table) -> None:
    """The command route drops the plans after the seat's move is appended; had the process stopped in between, the
    job finds the seat's own move after the plan's version in the log and drops the plan instead of playing it."""
    game = await table.create(2)
    seat = await table.seat_on_turn(game)
    own = bearer(game.tokens[seat])
    await client.put(plans_url(game), json={"plan": {"type": "magnate.bid_up_to", "limit": 900}}, headers=own)
    before = (await table.read(game))["version"]
    # the seat's own bid, appended as the route would, but the route's cancel never runs
    await runtime.gameplay.submit(game.id, seat, new_id(), PlaceBid(amount=200))
    other = await table.seat_on_turn(game)
    assert other != seat
    assert (await table.submit(game, other, {"type": "magnate.place_bid", "amount": 300})).status_code == 200
    assert await table.seat_on_turn(game) == seat  # the plan would bid for the seat now
    now = (await table.read(game))["version"]
    assert now > before
    assert not await runtime.planning.play(game.id, now), "a cancelled plan is not played"
    assert (await client.get(plans_url(game), headers=own)).json()["plans"] == []
    assert [e for e in await table.log(game) if e["version"] > now] == []
