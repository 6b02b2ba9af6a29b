"""Client command ids stay out of the service's namespace, and game creation is safe to retry with an
``Idempotency-Key``, both through HTTP."""

from __future__ import annotations

import json
import uuid

import pytest

from domain.games import GAMES
from domain.magnate.bots import RandomLegal

from .table import Game, Table, bearer, game_body

PASS = {"type": "magnate.pass_bid"}


def new_key() -> str:
    """A fresh key (the database lives for the whole session, and a key for good)."""
    return str(uuid.uuid4())

RESERVED = ["start", "reveal:{game}", "system:{version}:magnate.roll_dice", "system:1:magnate.process_market",
            "my:id", ":"]


@pytest.mark.parametrize("command_id", RESERVED)
async def test_a_command_id_of_the_services_own_is_a_400_and_changes_nothing(table: Table, command_id: str) -> None:
    game = await table.create()
    seat = await table.seat_on_turn(game)
    log = await table.log(game)
    version = log[-1]["version"]
    response = await table.submit(game, seat, PASS, command_id=command_id.format(game=game.id, version=version + 1))
    assert response.status_code == 400, response.text
    body = response.json()
    assert body["code"] == "request/reserved_command_id"
    assert "service's own" in body["message"]
    assert await table.log(game) == log


@pytest.mark.parametrize("command_id", ["a b", "naïve", "x" * 101, "a\u0000b"])
async def test_a_command_id_outside_the_client_alphabet_is_a_400(table: Table, command_id: str) -> None:
    game = await table.create()
    seat = await table.seat_on_turn(game)
    response = await table.submit(game, seat, PASS, command_id=command_id)
    assert response.status_code == 400, response.text
    assert response.json()["code"] == "request/invalid"


async def play_to_the_end(table: Table, game: Game) -> None:
    """Random legal moves for every seat, system jobs run inline (as a worker would), until the game is over."""
    gameplay = table.runtime.gameplay
    bot = RandomLegal(5)
    for _ in range(3000):
        head = await gameplay.store.head(game.id)
        if head.status == "finished":
            return
        if head.system_job is not None:
            assert await gameplay.run_system(game.id, head.version, head.system_job)
            continue
        loaded = await gameplay.load(game.id)
        seat = GAMES["magnate"].pending(loaded.state).seats[0]
        await gameplay.submit(game.id, int(seat), uuid.uuid4().hex, bot(loaded.state, seat))
    raise AssertionError("the game did not finish")


async def test_a_hostile_seat_cannot_block_the_reveal_or_a_system_job(table: Table) -> None:
    game = await table.create()
    seat = await table.seat_on_turn(game)
    version = (await table.read(game))["version"]
    attempts = [f"reveal:{game.id}", "start"] + [
        f"system:{v}:{kind}" for v in range(version, version + 20)
        for kind in ("magnate.roll_dice", "magnate.process_market", "magnate.ai_turn")
    ]
    for command_id in attempts:
        response = await table.submit(game, seat, PASS, command_id=command_id)
        assert response.status_code == 400 and response.json()["code"] == "request/reserved_command_id", command_id

    await play_to_the_end(table, game)

    log = await table.log(game)
    assert log[-1]["type"] == "magnate.seed_revealed"
    export = await table.client.get(f"/api/games/{game.id}/export")
    header = json.loads(export.content.splitlines()[0])
    assert header["seed"] is not None


# -- idempotent creation --------------------------------------------------------------------------------


async def test_a_creation_retried_with_its_key_is_the_same_game_with_the_same_tokens(table: Table) -> None:
    body = game_body([{"name": "Ada"}, {}, {"kind": "ai"}], difficulty="digital_assistant")
    key = new_key()
    first = await table.client.post("/api/games", json=body, headers={"Idempotency-Key": key})
    again = await table.client.post("/api/games", json=body, headers={"Idempotency-Key": key})
    assert first.status_code == again.status_code == 201, (first.text, again.text)
    assert again.json() == first.json()
    game_id = first.json()["game_id"]
    token = first.json()["seats"][0]["token"]
    me = await table.client.get(f"/api/games/{game_id}/me", headers=bearer(token))
    assert me.status_code == 200 and me.json()["seat"] == 0


async def test_without_a_key_every_creation_is_a_new_game(table: Table) -> None:
    first, second = await table.create(), await table.create()
    assert first.id != second.id


async def test_a_key_with_another_request_is_a_409(table: Table) -> None:
    key = new_key()
    created = await table.client.post("/api/games", json=game_body([{}, {}]), headers={"Idempotency-Key": key})
    assert created.status_code == 201, created.text
    other = await table.client.post("/api/games", json=game_body([{}, {}, {}]), headers={"Idempotency-Key": key})
    assert other.status_code == 409, other.text
    assert other.json()["code"] == "conflict/idempotency_key_reused"
    assert set(other.json()) == {"code", "message", "details"}


@pytest.mark.parametrize("key", ["short", "x" * 129, "has a space in it ok", "colon:colon:colon:1"])
async def test_a_malformed_key_is_a_400(table: Table, key: str) -> None:
    response = await table.client.post("/api/games", json=game_body([{}, {}]), headers={"Idempotency-Key": key})
    assert response.status_code == 400, response.text
    assert response.json()["code"] == "request/invalid"
