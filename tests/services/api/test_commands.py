"""Submitting commands: success, idempotency, and every refusal leaving the log untouched."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import httpx
import pytest

from .table import Game, Table, bearer

PASS = {"type": "magnate.pass_bid"}


async def test_a_legal_command_advances_the_version(client: httpx.AsyncClient, table: Table) -> None:
    game = await table.create()
    before = await table.read(game)
    seat = before["on_turn"][0]
    response = await table.submit(game, seat, PASS, seat=seat, expected_version=before["version"])
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["duplicate"] is False
    assert body["version"] > before["version"]
    assert [e["version"] for e in body["events"]] == list(range(before["version"] + 1, body["version"] + 1))
    assert body["events"][0]["type"] == "magnate.bid_passed"
    assert body["events"][0]["actor"] == f"seat:{seat}"
    assert body["events"][0]["payload"] == {"type": "magnate.bid_passed", "seat": seat}
    assert (await table.log(game))[before["version"]:] == body["events"]
    assert (await table.read(game))["version"] == body["version"]


async def test_resubmitting_a_command_id_returns_the_first_result(table: Table) -> None:
    game = await table.create()
    seat = await table.seat_on_turn(game)
    first = await table.submit(game, seat, PASS, command_id="retry-me")
    log = await table.log(game)
    again = await table.submit(game, seat, PASS, command_id="retry-me")
    assert again.status_code == 200, again.text
    assert again.json()["duplicate"] is True
    assert again.json()["version"] == first.json()["version"]
    assert again.json()["events"] == first.json()["events"]
    assert await table.log(game) == log


async def test_a_command_id_reused_for_another_command_is_a_conflict(table: Table) -> None:
    game = await table.create()
    seat = await table.seat_on_turn(game)
    me = await table.me(game, seat)
    bid = next(t["command"] for t in me["legal"] if t["command"]["type"] == "magnate.place_bid")
    assert (await table.submit(game, seat, bid, command_id="once")).status_code == 200
    log = await table.log(game)
    response = await table.submit(game, seat, PASS, command_id="once")
    assert response.status_code == 409
    assert response.json()["code"] == "conflict/command_id_reused"
    assert await table.log(game) == log


async def test_the_expected_version_may_be_the_current_one(table: Table) -> None:
    game = await table.create()
    state = await table.read(game)
    response = await table.submit(game, state["on_turn"][0], PASS, expected_version=state["version"])
    assert response.status_code == 200, response.text


# -- refusals: each one leaves the event log exactly as it was -----------------------------------------

Send = Callable[[], Awaitable[httpx.Response]]
Refusal = Callable[[Table, Game], Awaitable[Send]]
"""Prepares the game (a prior move, another game...) and returns the request that must be refused."""


def _post(table: Table, game: Game, body: bytes, headers: dict[str, str]) -> Send:
    return lambda: table.client.post(f"/api/games/{game.id}/commands", content=body,
                                     headers={**headers, "Content-Type": "application/json"})


async def _no_token(table: Table, game: Game) -> Send:
    return _post(table, game, b'{"command_id": "x", "command": {"type": "magnate.pass_bid"}}', {})


async def _unknown_token(table: Table, game: Game) -> Send:
    return lambda: table.submit(game, 0, PASS, token="not-a-token")


async def _not_bearer(table: Table, game: Game) -> Send:
    body = b'{"command_id": "x", "command": {"type": "magnate.pass_bid"}}'
    return _post(table, game, body, {"Authorization": f"Basic {game.tokens[0]}"})


async def _token_of_another_game(table: Table, game: Game) -> Send:
    other = await table.create()
    seat = await table.seat_on_turn(game)
    return lambda: table.submit(game, seat, PASS, token=other.tokens[seat])


async def _wrong_seat_in_body(table: Table, game: Game) -> Send:
    seat = await table.seat_on_turn(game)
    return lambda: table.submit(game, seat, PASS, seat=1 - seat)


async def _raw_body(table: Table, game: Game, body: bytes) -> Send:
    seat = await table.seat_on_turn(game)
    return _post(table, game, body, bearer(game.tokens[seat]))


async def _malformed_json(table: Table, game: Game) -> Send:
    return await _raw_body(table, game, b'{"command_id": "x", "command": {"type": ')


async def _empty_body(table: Table, game: Game) -> Send:
    return await _raw_body(table, game, b"")


async def _missing_command_id(table: Table, game: Game) -> Send:
    return await _raw_body(table, game, b'{"command": {"type": "magnate.pass_bid"}}')


async def _command_not_an_object(table: Table, game: Game) -> Send:
    return await _raw_body(table, game, b'{"command_id": "x", "command": [1, 2]}')


async def _command_id_too_long(table: Table, game: Game) -> Send:
    seat = await table.seat_on_turn(game)
    return lambda: table.submit(game, seat, PASS, command_id="x" * 101)


async def _command_id_with_a_nul(table: Table, game: Game) -> Send:
    seat = await table.seat_on_turn(game)
    return lambda: table.submit(game, seat, PASS, command_id="a\u0000b")


async def _unknown_command_type(table: Table, game: Game) -> Send:
    seat = await table.seat_on_turn(game)
    return lambda: table.submit(game, seat, {"type": "magnate.win_the_game"})


async def _system_command(table: Table, game: Game) -> Send:
    seat = await table.seat_on_turn(game)
    return lambda: table.submit(game, seat, {"type": "magnate.process_market"})


async def _unknown_command_field(table: Table, game: Game) -> Send:
    seat = await table.seat_on_turn(game)
    return lambda: table.submit(game, seat, {"type": "magnate.pass_bid", "please": True})


async def _bid_above_cash(table: Table, game: Game) -> Send:
    seat = await table.seat_on_turn(game)
    me = await table.me(game, seat)
    bid = next(t for t in me["legal"] if t["command"]["type"] == "magnate.place_bid")
    amount = next(p for p in bid["params"] if p["field"] == "amount")
    too_much = amount["maximum"] + amount["step"]
    return lambda: table.submit(game, seat, {"type": "magnate.place_bid", "amount": too_much})


async def _out_of_turn(table: Table, game: Game) -> Send:
    seat = await table.seat_on_turn(game)
    return lambda: table.submit(game, 1 - seat, PASS)


async def _stale_expected_version(table: Table, game: Game) -> Send:
    await table.play_suggested(game)
    seat = await table.seat_on_turn(game)
    return lambda: table.submit(game, seat, PASS, expected_version=game.created["version"])


REFUSALS: list[tuple[Refusal, int, str]] = [
    (_no_token, 401, "auth/missing_token"),
    (_unknown_token, 401, "auth/invalid_token"),
    (_not_bearer, 401, "auth/invalid_token"),
    (_token_of_another_game, 401, "auth/invalid_token"),
    (_wrong_seat_in_body, 403, "auth/wrong_seat"),
    (_malformed_json, 400, "request/malformed"),
    (_empty_body, 400, "request/malformed"),
    (_missing_command_id, 400, "request/invalid"),
    (_command_not_an_object, 400, "request/invalid"),
    (_command_id_too_long, 400, "request/invalid"),
    (_command_id_with_a_nul, 400, "request/invalid"),
    (_unknown_command_type, 400, "request/invalid"),
    (_system_command, 400, "request/invalid"),
    (_unknown_command_field, 400, "request/invalid"),
    (_bid_above_cash, 422, "rule/insufficient_funds"),
    (_out_of_turn, 422, "rule/not_your_turn"),
    (_stale_expected_version, 409, "conflict/version"),
]


@pytest.mark.parametrize(("refusal", "status", "code"), REFUSALS, ids=[r[0].__name__.strip("_") for r in REFUSALS])
async def test_a_refused_command_changes_nothing(table: Table, refusal: Refusal, status: int, code: str) -> None:
    game = await table.create()
    send = await refusal(table, game)
    log = await table.log(game)
    response = await send()
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    assert set(body) == {"code", "message", "details"}
    assert body["code"] == code
    assert body["message"]
    assert await table.log(game) == log
    assert (await table.read(game))["version"] == log[-1]["version"]


async def test_a_conflict_says_the_client_may_retry(table: Table) -> None:
    game = await table.create()
    response = await (await _stale_expected_version(table, game))()
    assert response.json()["details"] == {"expected_version": game.created["version"], "retry": True}


async def test_a_rule_violation_carries_the_rules_details(table: Table) -> None:
    game = await table.create()
    response = await (await _bid_above_cash(table, game))()
    assert response.json()["details"]["amount"] > 0
