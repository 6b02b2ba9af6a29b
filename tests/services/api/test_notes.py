"""Private notes (issue #29): a signed-in player's own note on a game they hold a seat in, over the real app on the
twins. Only its author reads it: the attack reads every GET route of the game (and its event streams) as the other
seat's player, a guest of a seat and the public, plus the export, and never finds the note's text."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from litestar import HttpMethod, Litestar

from infra.notes import TEXT_MAX
from services.gameplay.bootstrap import Runtime

from .sse import EventStream
from .table import Game, Table, asgi_client, bearer
from .test_players import csrf, sign_in

SECRET = "Bob bluffs on plot 7: bid high"


@pytest.fixture
async def other(app: Litestar) -> AsyncIterator[httpx.AsyncClient]:
    async with asgi_client(app) as c:
        yield c


async def seated(client: httpx.AsyncClient, runtime: Runtime, game: Game, seat: int, email: str) -> None:
    await sign_in(client, runtime, email)
    claimed = await client.post(f"/api/games/{game.id}/claim", headers={**bearer(game.tokens[seat]), **csrf(client)})
    assert claimed.status_code == 200, claimed.text


async def test_a_seated_player_keeps_a_private_note(client: httpx.AsyncClient, other: httpx.AsyncClient,
                                                    runtime: Runtime, table: Table) -> None:
    game = await table.create(2)
    notes = f"/api/games/{game.id}/notes"
    signed_out = await other.get(notes)
    assert (signed_out.status_code, signed_out.json()["code"]) == (401, "auth/signed_out")
    await seated(other, runtime, game, 1, "noter@example.com")
    empty = await other.get(notes)
    assert empty.status_code == 200 and empty.json() == {"game_id": game.id, "seat": 1, "text": "", "updated_at": None}
    assert "no-store" in empty.headers["cache-control"]

    forged = await other.put(notes, json={"text": "forged"})
    assert (forged.status_code, forged.json()["code"]) == (403, "auth/csrf")
    written = await other.put(notes, json={"text": SECRET}, headers=csrf(other))
    assert written.status_code == 200, written.text
    assert (await other.get(notes)).json()["text"] == SECRET

    too_long = await other.put(notes, json={"text": "x" * (TEXT_MAX + 1)}, headers=csrf(other))
    assert (too_long.status_code, too_long.json()["code"]) == (413, "notes/too_long")
    assert (await other.put(notes, json={"txt": "x"}, headers=csrf(other))).status_code == 400
    assert (await other.get(notes)).json()["text"] == SECRET, "a refused write changes nothing"

    emptied = await other.put(notes, json={"text": ""}, headers=csrf(other))
    assert emptied.status_code == 200 and emptied.json()["updated_at"] is None
    unknown = await other.get("/api/games/no-such-game/notes")
    assert (unknown.status_code, unknown.json()["code"]) == (404, "game/not_found")


async def test_a_player_without_a_seat_has_no_notes_there(other: httpx.AsyncClient, runtime: Runtime,
                                                          table: Table) -> None:
    game = await table.create(2)
    await sign_in(other, runtime, "stranger@example.com")
    for answer in (await other.get(f"/api/games/{game.id}/notes"),
                   await other.put(f"/api/games/{game.id}/notes", json={"text": "x"}, headers=csrf(other))):
        assert (answer.status_code, answer.json()["code"]) == (403, "notes/not_seated")


def game_get_routes(app: Litestar) -> list[str]:
    """Every GET route of a game (its path with ``{game_id}``), notes and streams aside."""
    paths = []
    for route in app.routes:
        if not route.path.startswith("/api/games/{game_id:str}") or "{seat" in route.path:
            continue
        if HttpMethod.GET in getattr(route, "methods", set()) and not route.path.endswith(("/notes", "/stream")):
            paths.append(route.path)
    return sorted(paths)


async def test_nobody_but_the_author_ever_reads_the_note(app: Litestar, client: httpx.AsyncClient,
                                                        other: httpx.AsyncClient, live_url: str, runtime: Runtime,
                                                        table: Table) -> None:
    game = await table.create(3)
    async with asgi_client(app) as author:
        await seated(author, runtime, game, 0, "author@example.com")
        assert (await author.put(f"/api/games/{game.id}/notes", json={"text": SECRET},
                                 headers=csrf(author))).status_code == 200
    await seated(other, runtime, game, 1, "rival@example.com")
    guest = {**bearer(game.tokens[2])}
    routes = game_get_routes(app)
    assert {"/api/games/{game_id:str}", "/api/games/{game_id:str}/me", "/api/games/{game_id:str}/events",
            "/api/games/{game_id:str}/export"} <= set(routes), routes
    seen = 0
    for path in routes:
        url = path.replace("{game_id:str}", game.id)
        for viewer, headers in ((other, {}), (client, guest), (client, {})):
            answer = await viewer.get(url, headers=headers)
            assert answer.status_code < 500, (url, answer.text)
            assert SECRET not in answer.text and "bluffs" not in answer.text, (url, headers)
            seen += 1
    assert seen >= 3 * 4
    rival = (await other.get(f"/api/games/{game.id}/notes")).json()
    assert rival["text"] == "" and rival["updated_at"] is None, "the other seat's player sees no note of theirs"
    for headers in ({}, guest):  # the event stream's first message: the whole view
        async with httpx.AsyncClient(base_url=live_url, timeout=10, headers=headers) as http, http.stream(
                "GET", f"/api/games/{game.id}/stream?after=0") as response:
            message = await EventStream(response).events()
            assert SECRET not in "\n".join(message.data)
