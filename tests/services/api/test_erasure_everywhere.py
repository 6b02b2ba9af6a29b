"""A deleted account's name and address leave its games (issue #29): a claim records no name in the log (the seat's
name lives in the seats table, as the chat's names do), so after the deletion neither the game's export bytes nor
any answer of the game's API (the board, its state and events, the history in every language, the chat, the open
and live tables, the page) holds them, while the export verifies before and after. A vacation running at the
deletion ends in the game's log before the seat leaves."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from litestar import Litestar

from domain.games import GAMES
from services.gameplay.audit_verify import verify
from services.gameplay.bootstrap import Runtime

from .table import Table, asgi_client, bearer
from .test_players import csrf, sign_in

NAME = "Wilhelmina Fotheringay"
EMAIL = "w.fotheringay@example.com"
SECRETS = (NAME, EMAIL, "fotheringay")
"""What no answer may hold after the deletion (the address's own part too: the name a new account starts with)."""


@pytest.fixture
async def wilma(app: Litestar) -> AsyncIterator[httpx.AsyncClient]:
    async with asgi_client(app) as c:
        yield c


async def answers(client: httpx.AsyncClient, game_id: str) -> dict[str, str]:
    """Every answer of the game a visitor can read, by path (the history in each language)."""
    out = {}
    for path in ("", "/state", "/events", "/history", "/chat", "/export"):
        response = await client.get(f"/api/games/{game_id}{path}")
        assert response.status_code == 200, (path, response.text)
        out[path] = response.text
    for language in ("ru", "de"):
        response = await client.get(f"/api/games/{game_id}/history", headers={"Accept-Language": language})
        out[f"/history ({language})"] = response.text
    for path in ("/api/tables/live", "/api/tables/open", f"/play/{game_id}"):
        response = await client.get(path)
        assert response.status_code == 200, (path, response.text)
        out[path] = response.text
    return out


async def test_a_deleted_players_name_leaves_the_game_and_its_export_still_verifies(
    wilma: httpx.AsyncClient, client: httpx.AsyncClient, runtime: Runtime, table: Table
) -> None:
    game = await table.create(seats=[{"kind": "human"}, {"kind": "ai"}], difficulty="digital_assistant")
    await sign_in(wilma, runtime, EMAIL)
    assert (await wilma.patch("/api/me", json={"name": NAME}, headers=csrf(wilma))).status_code == 200
    assert (await wilma.post(f"/api/games/{game.id}/claim", headers={**bearer(game.tokens[0]), **csrf(wilma)})
            ).status_code == 200
    await table.run_system_jobs(game)
    me = (await wilma.get(f"/api/games/{game.id}/me")).json()
    body = {"command_id": "m0", "command": me["legal"][0]["command"], "expected_version": me["version"]}
    assert (await wilma.post(f"/api/games/{game.id}/commands", json=body, headers=csrf(wilma))).status_code == 200
    assert (await wilma.post(f"/api/games/{game.id}/chat", json={"text": "good luck"}, headers=csrf(wilma))
            ).status_code == 201
    assert (await wilma.post("/api/me/vacation", json={"days": 2}, headers=csrf(wilma))).status_code == 201

    shown = await answers(client, game.id)
    assert NAME in shown[""] and NAME in shown["/history"] and NAME in shown["/chat"], "the seat shows her name"
    before = shown["/export"].encode()
    assert verify(before.splitlines(), GAMES).ok
    logged = [line for line in before.splitlines() if b'"kind":"chat"' not in line]
    assert not any(secret.encode() in line for line in logged for secret in SECRETS), \
        "the log (commands and events) records no name: only the chat's lines, beside it, name the seat"

    deleted = await wilma.request("DELETE", "/api/me", json={"confirm_email": EMAIL}, headers=csrf(wilma))
    assert deleted.status_code == 200, deleted.text

    shown = await answers(client, game.id)
    for path, text in shown.items():
        for secret in SECRETS:
            assert secret.casefold() not in text.casefold(), (path, secret)
    assert "Player 1" in shown["/history"] and "Игрок 1" in shown["/history (ru)"] \
        and "Spieler 1" in shown["/history (de)"], "the seat is named by its number, in the reader's language"
    after = shown["/export"].encode()
    verdict = verify(after.splitlines(), GAMES)
    assert verdict.ok, verdict
    old, new = before.splitlines()[1:], after.splitlines()[1:]  # past the header (its version)
    old_log = [line for line in old if b'"kind":"chat"' not in line]
    assert new[:len(old_log)] == old_log, "the log is never rewritten"
    appended = [line for line in new[len(old_log):] if b'"kind":"command"' in line]
    assert b'"table.back"' in appended[0] and b'"table.leave"' in appended[1], \
        "the running vacation ended in the game's log, then the seat left it"
