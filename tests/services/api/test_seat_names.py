"""A signed-in player's name is the seat's once they claim it (issue #26, point 6): on the board (the game's
players), in "My games", the history, the chat and the final standings, and recorded in the claim's event; a name
cannot pass for another seat's or for the computer, and the player's email is shown to nobody else — over the real
app on in-memory twins."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from litestar import Litestar

from infra.accounts.players import default_name
from services.gameplay.bootstrap import Runtime
from services.gameplay.seat_names import name_key, reads_as_computer, seat_name

from .table import Table, asgi_client, bearer
from .test_players import csrf, sign_in
from .test_tables import join, listed, play_out

BEA = "bea.mail@example.com"


@pytest.fixture
async def bea(app: Litestar, runtime: Runtime) -> AsyncIterator[httpx.AsyncClient]:
    async with asgi_client(app) as c:
        await sign_in(c, runtime, BEA)
        yield c


def test_the_rule_of_a_seats_name() -> None:
    assert seat_name("Bea", 1, ["Ada", "Player 3"]) == "Bea"
    assert seat_name(" ada. ", 1, ["Ada", "Player 3"]) == "ada. (seat 2)"
    assert seat_name("A\u200bda", 2, ["ADA"]) == "A\u200bda (seat 3)"  # an invisible character changes nothing
    assert seat_name("Player 1", 1, ["Player 1"]) == "Player 1 (seat 2)"
    assert seat_name("x" * 40, 0, ["X" * 40]) == "x" * 31 + " (seat 1)"
    assert len(seat_name("x" * 40, 12, ["x" * 40])) == 40
    for computer in ("the computer", "The Computer", "THE  COMPUTER (hard)", "the-computer", "Computer"):
        assert reads_as_computer(computer), computer
        assert seat_name(computer, 1, ["Ada"]) == "Player 2"
    assert not reads_as_computer("Computa") and not reads_as_computer("Ada the computer")
    assert name_key("🎲") != name_key("🎯")  # names of symbols only compare by their symbols
    assert default_name("ada.l@example.com") == "ada.l"
    assert default_name("the.computer@example.com") == "player"


async def test_a_claimed_seat_shows_the_players_name_everywhere_and_never_their_email(
    bea: httpx.AsyncClient, table: Table
) -> None:
    game = await listed(table, [{"kind": "human", "name": "Ada"}, {"kind": "human"}, {"kind": "ai"}])
    before = (await table.read(game))["players"]
    assert before[1]["name"] != "bea.mail"
    joined = await join(bea, game)
    assert joined.status_code == 200, joined.text

    players = (await table.read(game))["players"]
    assert [p["name"] for p in players[:2]] == ["Ada", "bea.mail"]  # the part of the email before "@"
    claims = [e for e in await table.log(game) if e["type"] == "table.seat_claimed"]
    # the log records which seat was claimed, never by whom: the name lives in the seats table only
    assert [(c["payload"]["seat"], c["payload"].get("name", "")) for c in claims] == [(1, "")]
    mine = (await bea.get("/api/me/games")).json()["games"]
    assert [g["names"][:2] for g in mine if g["game_id"] == game.id] == [["Ada", "bea.mail"]]
    said = await bea.post(f"/api/games/{game.id}/chat", json={"text": "hello"}, headers=csrf(bea))
    assert said.status_code in (200, 201), said.text
    chat = (await table.client.get(f"/api/games/{game.id}/chat", headers=bearer(game.tokens[0]))).json()
    assert [line["name"] for line in chat["lines"]] == ["bea.mail"]

    await play_out(table, game, {1: bea})
    final = await table.read(game)
    assert final["status"] == "finished" and final["players"][1]["name"] == "bea.mail"
    history = (await table.client.get(f"/api/games/{game.id}/history")).json()
    assert any(line["text"] == "bea.mail claimed seat 2." for line in history["lines"])
    # what anybody else reads of the game names Bea but never shows her address
    for path in ("", "/events", "/history", "/export", "/chat"):
        seen = await table.client.get(f"/api/games/{game.id}{path}", headers=bearer(game.tokens[0]))
        assert seen.status_code == 200, (path, seen.text)
        assert BEA not in seen.text and "example.com" not in seen.text, path
    listed_now = await table.client.get("/api/tables/live?limit=100")
    assert BEA not in listed_now.text


async def test_a_name_cannot_pass_for_another_seat_or_for_the_computer(
    bea: httpx.AsyncClient, table: Table
) -> None:
    refused = await bea.patch("/api/me", json={"name": "The Computer"}, headers=csrf(bea))
    assert (refused.status_code, refused.json()["code"]) == (400, "request/reserved_name")
    assert "computer" in refused.json()["message"]
    assert (await bea.get("/api/me")).json()["name"] == "bea.mail"

    renamed = await bea.patch("/api/me", json={"name": "ada"}, headers=csrf(bea))
    assert renamed.status_code == 200 and renamed.json()["name"] == "ada"
    game = await listed(table, [{"kind": "human", "name": "Ada"}, {"kind": "human"}, {"kind": "ai"}])
    assert (await join(bea, game)).status_code == 200
    players = (await table.read(game))["players"]
    assert [p["name"] for p in players[:2]] == ["Ada", "ada (seat 2)"]
    claims = [e for e in await table.log(game) if e["type"] == "table.seat_claimed"]
    assert claims[0]["payload"].get("name", "") == "", "the log records no name"

    # a seat claimed before keeps the name it was given at the claim; the next claim shows the new name
    assert (await bea.patch("/api/me", json={"name": "Bea"}, headers=csrf(bea))).status_code == 200
    assert (await table.read(game))["players"][1]["name"] == "ada (seat 2)"
    other = await listed(table, [{"kind": "human"}, {"kind": "human"}])
    assert (await join(bea, other)).status_code == 200
    assert (await table.read(other))["players"][1]["name"] == "Bea"
