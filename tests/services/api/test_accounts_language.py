"""The account's language over the real app on twins: the sign-in mail speaks the browser's language, the choice is
kept and shown, it then wins over the browser's for the API's words, and the session's player is read once per
request however many parts of it need the player."""

from __future__ import annotations

import re

import httpx
import pytest

from infra.channels.devmail import DevMailbox
from services.gameplay.bootstrap import Runtime

from .table import Table
from .test_players import csrf, redeem, sign_in


async def test_the_sign_in_mail_speaks_the_browser_s_language(client: httpx.AsyncClient, runtime: Runtime) -> None:
    page = (await client.get("/api/auth/csrf", headers={"Accept-Language": "ru"})).json()["csrf_token"]
    asked = await client.post("/api/auth/link", json={"email": "olga@example.com"},
                              headers={"X-CSRFToken": page, "Accept-Language": "ru-RU,ru;q=0.9,en;q=0.5"})
    assert asked.status_code == 202, asked.text
    assert isinstance(runtime.mail, DevMailbox)
    [mail] = [m for m in await runtime.mail.recent() if m.recipient == "olga@example.com"]
    assert mail.subject == "Вход в Magnate Server"
    assert "чтобы войти в Magnate Server как olga@example.com, откройте эту ссылку в течение" in mail.text_body
    assert "<b>olga@example.com</b>" in mail.html_body and "Sign in" not in mail.text_body
    found = re.search(r"/signin#token=([A-Za-z0-9_-]+)", mail.text_body)
    assert found and (await redeem(client, found.group(1))).status_code == 200


async def test_the_account_s_language_wins_over_the_browser_s_and_is_shown(
        client: httpx.AsyncClient, runtime: Runtime) -> None:
    me = await sign_in(client, runtime, "kurt@example.com")
    assert me["language"] is None
    assert (await client.put("/api/me/language", json={"language": "de"}, headers=csrf(client))).status_code == 204
    assert (await client.get("/api/me")).json()["language"] == "de"

    refused = await client.patch("/api/me", json={"name": "The Computer"},
                                 headers={**csrf(client), "Accept-Language": "ru"})
    assert (refused.status_code, refused.json()["code"]) == (400, "request/reserved_name")
    assert refused.json()["message"] == "dieser Name liest sich wie der des Computers: wähle einen anderen"
    unknown = await client.put("/api/me/language", json={"language": "xx"}, headers=csrf(client))
    assert (unknown.status_code, unknown.json()["code"]) == (400, "language/unknown")
    assert unknown.json()["details"] == {"languages": ["en", "ru", "de"]}
    again = await client.put("/api/me/language", json={"language": "ru"}, headers=csrf(client))
    assert again.status_code == 204 and (await client.get("/api/me")).json()["language"] == "ru"


async def test_the_session_s_player_is_read_once_per_request(
        client: httpx.AsyncClient, runtime: Runtime, monkeypatch: pytest.MonkeyPatch) -> None:
    await sign_in(client, runtime, "once@example.com")
    reads: list[str] = []
    players = runtime.accounts.players
    read = players.get

    async def counted(player_id: str) -> object:
        reads.append(player_id)
        return await read(player_id)

    monkeypatch.setattr(players, "get", counted)
    listed = await client.get("/api/me/notices")  # the player, and the language the notices are told in
    assert listed.status_code == 200 and len(reads) == 1
    refused = await client.put("/api/me/language", json={"language": "xx"}, headers=csrf(client))
    assert refused.status_code == 400 and len(reads) == 2  # the player, the refusal's words: one read


async def test_a_game_s_refusal_speaks_the_browser_s_language_with_its_code(client: httpx.AsyncClient,
                                                                             table: Table) -> None:
    game = await table.create()
    for language, said in (("ru", "проверочный вид открывается после конца игры"),
                           ("en", "the audit view opens when the game is over")):
        refused = await client.get(f"/api/games/{game.id}/state", params={"viewer": "auditor"},
                                   headers={"Accept-Language": language})
        assert (refused.status_code, refused.json()["code"], refused.json()["message"]) == (
            403, "view/unavailable", said)


async def test_the_development_mailbox_page_speaks_the_browser_s_language(client: httpx.AsyncClient) -> None:
    page = await client.get("/dev/mail", headers={"Accept-Language": "de"})
    assert page.status_code == 200
    assert '<html lang="de">' in page.text and "<h1>Entwicklungs-Postfach</h1>" in page.text
    assert "Development mailbox" not in page.text
