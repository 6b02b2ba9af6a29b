"""What the play-by-web page needs from the API: the pages and their scripts, the catalog, the history in
sentences, the players' names and the AI's board. (The page itself is tested in a browser: tests/browser.)"""

from __future__ import annotations

import posixpath
import re

import pytest
from httpx import AsyncClient

from domain.games import GAMES
from domain.magnate.catalog import catalog
from domain.magnate.catalog_view import letters
from services.api.web import STATIC
from services.language.catalogs import read_catalog
from services.language.domains import SHELL

from .table import Table, bearer

IMPORT = re.compile(r'(?:from|import)\s*\(?\s*"(\.{1,2}/[\w./-]+\.js|/static/[\w./-]+\.js)"')


PAGES = (("/", "/static/shell/lobby.js"), ("/play/0123abcd", "/static/shell/play.js"),
         ("/signin", "/static/shell/signin.js"), ("/settings", "/static/shell/settings.js"),
         ("/leaderboard/magnate", "/static/shell/ratingpages.js"), ("/players/someone", "/static/shell/ratingpages.js"))


async def test_every_page_is_served_with_a_strict_content_policy(client: AsyncClient) -> None:
    for path, script in PAGES:
        response = await client.get(path)
        assert response.status_code == 200, path
        assert response.headers["content-type"].startswith("text/html")
        assert f'<script type="module" src="{script}">' in response.text
        assert "script-src 'self'" in response.headers["content-security-policy"]
        assert response.headers["referrer-policy"] == "no-referrer"


async def test_a_page_speaks_the_readers_language_and_says_it_varies_with_it(client: AsyncClient) -> None:
    """The browser's languages pick the page's (Russian here), the switch's cookie overrides them, a language the
    server does not speak falls back to English; the page says which (``<html lang>``), and that it varies."""
    russian = read_catalog(SHELL, "ru")
    german = read_catalog(SHELL, "de")
    assert russian is not None and german is not None
    for path, _ in (*PAGES, ("/rules/magnate", "")):
        page = await client.get(path, headers={"Accept-Language": "ru-RU,ru;q=0.9,en;q=0.5"})
        assert '<html lang="ru">' in page.text, path
        assert set(page.headers["vary"].replace(" ", "").split(",")) >= {"Cookie", "Accept-Language"}
        assert "script-src 'self'" in page.headers["content-security-policy"]
        assert 'id="language-switch"' in page.text, "every page has the switch"
    lobby = await client.get("/", headers={"Accept-Language": "ru"})
    assert f"<h1>{russian.get('Play by web').string}</h1>" in lobby.text
    assert '<option value="de" lang="de">Deutsch</option>' in lobby.text
    assert '<option value="ru" lang="ru" selected>Русский</option>' in lobby.text
    chosen = await client.get("/", headers={"Accept-Language": "ru", "Cookie": "magnate_lang=de"})
    assert '<html lang="de">' in chosen.text
    assert f"<h1>{german.get('Play by web').string}</h1>" in chosen.text
    unknown = await client.get("/signin", headers={"Accept-Language": "fr-FR"})
    assert '<html lang="en">' in unknown.text and "<h1>Sign in</h1>" in unknown.text


async def test_every_script_module_the_pages_import_is_served(client: AsyncClient) -> None:
    """Each ES module and what it imports, the shell's and every registered game's bundle, and the service worker
    (served at /sw.js for its scope) — no build step: a missing file would only show in a browser; every game offered
    has a bundle."""
    worker = await client.get("/sw.js")
    assert worker.status_code == 200 and "javascript" in worker.headers["content-type"]
    assert worker.headers["service-worker-allowed"] == "/"
    pending = ["shell/sw.js", *(script.removeprefix("/static/") for _, script in PAGES),
               *(f"games/{game}/index.js" for game in GAMES)]
    seen: set[str] = set()
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        seen.add(name)
        response = await client.get(f"/static/{name}")
        assert response.status_code == 200, name
        assert "javascript" in response.headers["content-type"], name
        for target in IMPORT.findall(response.text):
            path = (target.removeprefix("/static/") if target.startswith("/")
                    else posixpath.join(posixpath.dirname(name), target))
            pending.append(posixpath.normpath(path))
    ours = {p.relative_to(STATIC).as_posix() for p in STATIC.rglob("*.js")}
    vendored = {name for name in ours if name.startswith("vendor/")}  # /schema's viewer: a script, not a module
    assert seen == ours - vendored, "a module that no page uses"
    for name in vendored:
        assert (await client.get(f"/static/{name}")).status_code == 200, name
    for sheet in STATIC.rglob("*.css"):
        assert (await client.get(f"/static/{sheet.relative_to(STATIC).as_posix()}")).status_code == 200, sheet


async def test_the_catalog_names_every_table_the_page_draws(client: AsyncClient) -> None:
    response = await client.get("/api/catalog/magnate")
    assert response.status_code == 200
    assert "max-age" in response.headers["cache-control"]
    body = response.json()
    cat = catalog("v1")
    assert body["dataset"] == "v1"
    assert [b["key"] for b in body["buildings"]] == list(cat.buildings)
    assert [t["letter"] for t in body["tenant_types"]] == ["H", "R", "O", "I"]
    subtype_letters = [s["letter"] for s in body["tenant_subtypes"]]
    assert len(set(subtype_letters)) == len(subtype_letters)
    assert {s["key"]: s["letter"] for s in body["tenant_subtypes"]}["professional_couple"] == "PC"
    assert [f["key"] for f in body["features"]] == list(cat.features)
    assert body["land_price_track"][0] == {"position": 1, "price": cat.price(1), "zone": cat.zone(1).key}
    assert {d["key"] for d in body["difficulties"]} == set(cat.ai_difficulties)
    assert body["setup"]["advertising_price"] == cat.setup.advertising_price


@pytest.mark.parametrize(("path", "status"), [("/api/catalog/chess", 404), ("/api/catalog/magnate?dataset=v9", 404),
                                              ("/api/catalog/magnate?dataset=../v1", 400)])
async def test_an_unknown_catalog_is_refused(client: AsyncClient, path: str, status: int) -> None:
    response = await client.get(path)
    assert response.status_code == status
    assert set(response.json()) == {"code", "message", "details"}


def test_short_letters_are_lengthened_until_they_are_unique() -> None:
    assert letters({"a": "Home", "b": "Retail"}) == {"a": "H", "b": "R"}
    assert letters({"a": "Home", "b": "Hotel", "c": "Office"}) == {"a": "HOM", "b": "HOT", "c": "O"}


async def test_the_history_tells_the_game_in_sentences(client: AsyncClient, table: Table) -> None:
    game = await table.create(seats=[{"kind": "human", "name": "Ada"}, {"kind": "ai"}], difficulty="digital_assistant")
    await table.run_system_jobs(game)
    response = await client.get(f"/api/games/{game.id}/history")
    assert response.status_code == 200
    story = response.json()
    lines = story["lines"]
    assert lines[0]["text"].startswith("Magnate: The First City — standard game for 2 seats")
    assert lines[0] == {**lines[0], "version": 1, "event": "magnate.game_started", "depth": 0}
    assert any(line["text"].startswith("Round 1") for line in lines)
    assert all(line["text"] for line in lines), "no blank separator lines"
    assert story["version"] == (await table.read(game))["version"]
    later = (await client.get(f"/api/games/{game.id}/history", params={"after": 1})).json()
    assert later["lines"] == [line for line in lines if line["version"] > 1]
    assert (await client.get("/api/games/unknown/history")).status_code == 404


async def test_the_game_names_its_players_and_shows_the_ais_board(client: AsyncClient, table: Table) -> None:
    game = await table.create(seats=[{"kind": "human", "name": "Ada"}, {"kind": "ai"}], difficulty="digital_assistant")
    public = await table.read(game)
    me = await table.me(game, 0)
    for body in (public, me):
        assert body["players"] == [
            {"seat": 0, "kind": "human", "name": "Ada", "payload": {"company": "vector_properties"}, "claimed": False},
            {"seat": 1, "kind": "ai", "name": "AI", "payload": {"company": "ai"}, "claimed": False},
        ]
        board = body["view"]["ai"]
        assert board["seat"] == 1 and board["level"] == 1
        assert all(isinstance(n, int) for n in board["decks"])
    response = await client.get(f"/api/games/{game.id}/me", headers=bearer("not-a-token"))
    assert response.status_code == 401
