"""The in-game chat (issue #13): kept beside the log (no version moves, no pending move conflicts), its limits and
bad input, the host's muting, and the export that carries it — over the real app on in-memory twins."""

from __future__ import annotations

from typing import Any

import httpx
import msgspec
from litestar import Litestar

from domain.games import GAMES
from infra.config import Settings
from services.api import create_app
from services.gameplay.audit_verify import verify
from services.gameplay.bootstrap import Runtime

from .table import Game, Table, asgi_client, bearer


async def say(client: httpx.AsyncClient, game: Game, seat: int, text: Any) -> httpx.Response:
    return await client.post(f"/api/games/{game.id}/chat", json={"text": text}, headers=bearer(game.tokens[seat]))


def refused(response: httpx.Response, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    assert response.json()["code"] == code, response.text


async def test_seats_chat_and_anyone_reads_it_without_moving_the_game(client: httpx.AsyncClient, table: Table) -> None:
    game = await table.create()
    seat = await table.seat_on_turn(game)
    me = await table.me(game, seat)
    html = '<script>alert(1)</script><img src=x onerror="alert(2)">'
    first = await say(client, game, 0, "  hello, table  ")
    assert first.status_code == 201, first.text
    assert first.json()["lines"][0] | {"posted_at": None} == {
        "seq": 1, "seat": 0, "name": first.json()["lines"][0]["name"], "text": "hello, table", "posted_at": None,
        "hidden": False}
    assert (await say(client, game, 1, html)).status_code == 201
    read = (await client.get(f"/api/games/{game.id}/chat")).json()  # no token: a spectator
    assert [(line["seq"], line["seat"], line["text"]) for line in read["lines"]] == [(1, 0, "hello, table"),
                                                                                    (2, 1, html)]
    assert read["host_seat"] == 0 and read["muted"] == []
    after = (await client.get(f"/api/games/{game.id}/chat", params={"after": 1})).json()
    assert [line["seq"] for line in after["lines"]] == [2]

    # the chat moved no version: the move prepared before it still applies at its expected version
    assert (await table.read(game))["version"] == me["version"]
    moved = await table.submit(game, seat, me["legal"][0]["command"], expected_version=me["version"])
    assert moved.status_code == 200, moved.text


async def test_bad_lines_are_refused_with_clear_errors(client: httpx.AsyncClient, table: Table,
                                                       settings: Settings) -> None:
    game = await table.create()
    refused(await say(client, game, 0, "   \n "), 422, "chat/empty")
    refused(await say(client, game, 0, "x" * 501), 422, "chat/too_long")
    assert (await say(client, game, 0, "é" * 500)).status_code == 201
    refused(await say(client, game, 0, "nul\x00here"), 400, "request/invalid")
    refused(await say(client, game, 0, 42), 400, "request/invalid")
    big = b'{"text": "' + b"x" * (100 * 1024) + b'"}'
    refused(await client.post(f"/api/games/{game.id}/chat", content=big, headers={
        **bearer(game.tokens[0]), "Content-Type": "application/json"}), 413, "request/too_large")
    refused(await client.post(f"/api/games/{game.id}/chat", json={"text": "hi"}), 401, "auth/missing_token")
    refused(await client.post(f"/api/games/{game.id}/chat", json={"text": "hi"}, headers=bearer("not-a-seat")),
            401, "auth/invalid_token")
    refused(await client.post("/api/games/no-such-game/chat", json={"text": "hi"}, headers=bearer("x")), 404,
            "game/not_found")
    refused(await client.get("/api/games/no-such-game/chat"), 404, "game/not_found")
    assert [line["seq"] for line in (await client.get(f"/api/games/{game.id}/chat")).json()["lines"]] == [1]


async def test_the_host_mutes_and_unmutes_a_seat(client: httpx.AsyncClient, table: Table) -> None:
    game = await table.create()
    assert (await say(client, game, 1, "spam")).status_code == 201
    mute = f"/api/games/{game.id}/seats/1/mute"
    refused(await client.post(f"/api/games/{game.id}/seats/0/mute", headers=bearer(game.tokens[1])), 403,
            "seat/not_host")
    refused(await client.post(f"/api/games/{game.id}/seats/0/mute", headers=bearer(game.tokens[0])), 422,
            "chat/own_seat")
    refused(await client.post(f"/api/games/{game.id}/seats/9/mute", headers=bearer(game.tokens[0])), 404,
            "seat/not_found")
    assert (await client.post(mute, headers=bearer(game.tokens[0]))).status_code == 204
    refused(await say(client, game, 1, "more spam"), 403, "chat/muted")
    assert (await client.get(f"/api/games/{game.id}/chat")).json()["lines"] == []  # hidden from spectators
    hidden = (await client.get(f"/api/games/{game.id}/chat", headers=bearer(game.tokens[1]))).json()
    assert hidden["lines"] == [] and hidden["muted"] == [1]
    host = (await client.get(f"/api/games/{game.id}/chat", headers=bearer(game.tokens[0]))).json()
    assert [(line["text"], line["hidden"]) for line in host["lines"]] == [("spam", True)]
    assert (await client.delete(mute, headers=bearer(game.tokens[0]))).status_code == 204
    assert (await say(client, game, 1, "sorry")).status_code == 201
    texts = [line["text"] for line in (await client.get(f"/api/games/{game.id}/chat")).json()["lines"]]
    assert texts == ["spam", "sorry"]


async def test_a_seat_posting_too_fast_is_told_when_to_come_back(settings: Settings, runtime: Runtime) -> None:
    app: Litestar = create_app(msgspec.structs.replace(settings, sandbox=False), runtime)
    async with asgi_client(app) as client:
        game = await Table(client, runtime).create()
        for n in range(20):
            assert (await say(client, game, 0, f"line {n}")).status_code == 201
        limited = await say(client, game, 0, "one too many")
        refused(limited, 429, "rate/limited")
        assert 1 <= int(limited.headers["Retry-After"]) <= 61
        assert (await say(client, game, 1, "another seat")).status_code == 201  # the rate is per seat


async def test_the_export_carries_the_chat_and_still_verifies(client: httpx.AsyncClient, table: Table) -> None:
    game = await table.create()
    await table.play_suggested(game)
    for seat, text in ((0, "good luck"), (1, '<b>"quoted"</b>'), (0, "gg")):
        assert (await say(client, game, seat, text)).status_code == 201
    lines = (await client.get(f"/api/games/{game.id}/export")).content.splitlines()
    chat = [msgspec.json.decode(line) for line in lines if line.startswith(b'{"kind":"chat"')]
    assert [(c["seq"], c["seat"], c["text"]) for c in chat] == [(1, 0, "good luck"), (2, 1, '<b>"quoted"</b>'),
                                                                (3, 0, "gg")]
    assert lines[-3:] == [msgspec.json.encode({"kind": "chat", **{k: v for k, v in c.items() if k != "kind"}})
                          for c in chat]
    verdict = verify(lines, GAMES)
    assert verdict.ok, verdict.problems
    assert verdict.events == (await table.read(game))["version"]

    def tampered(at: int, line: dict[str, Any]) -> list[bytes]:
        return [*lines[:at], msgspec.json.encode(line), *lines[at + 1:]]

    out_of_order = tampered(len(lines) - 1, chat[-1] | {"seq": 5})
    assert any("seq is 5, expected 3" in p for p in verify(out_of_order, GAMES).problems)
    no_such_seat = tampered(len(lines) - 1, chat[-1] | {"seat": 7})
    assert any("seat is 7" in p for p in verify(no_such_seat, GAMES).problems)
    log_after_chat = [*lines[:-3], lines[-3], lines[2], *lines[-2:]]
    assert not verify(log_after_chat, GAMES).ok
    event = msgspec.json.decode(lines[2])
    assert event["kind"] == "event"
    forged = tampered(2, event | {"actor": "seat:1"})
    assert not verify(forged, GAMES).ok  # the log is still checked, chat or not
