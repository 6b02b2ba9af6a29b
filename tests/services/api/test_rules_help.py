"""Rules at hand over the API: each game's "How to play" (GET /api/catalog/{game}/help) with its catalog's numbers,
the page that draws it (/rules/{game}), and a 404 with a code for a game without help."""

from __future__ import annotations

from httpx import AsyncClient

from domain.games import GAMES


async def test_each_game_serves_its_help_with_phase_and_move_lines(client: AsyncClient) -> None:
    for game in GAMES:
        response = await client.get(f"/api/catalog/{game}/help")
        assert response.status_code == 200, game
        assert "private" in response.headers["cache-control"]  # each reader's language at the same address
        assert "Accept-Language" in response.headers["vary"]
        body = response.json()
        assert body["game"] == game and body["title"] and body["summary"]
        assert [s["heading"] for s in body["sections"]]
        assert body["phases"] and body["commands"] and body["phase_field"]
    magnate = (await client.get("/api/catalog/magnate/help")).json()
    assert magnate["tutorial"]["active"] == {"tutorial": True}
    assert "2,000K" in " ".join(magnate["sections"][0]["paragraphs"])  # the catalog's starting cash, as money


async def test_the_help_is_read_in_the_requests_language(client: AsyncClient) -> None:
    english = (await client.get("/api/catalog/decktet/help", headers={"Accept-Language": "en"})).json()
    russian = (await client.get("/api/catalog/decktet/help", headers={"Accept-Language": "ru"})).json()
    assert russian["title"] != english["title"]
    assert "Decktet Magnate" in russian["title"] and "Decktet Magnate" in english["title"]  # the game's name stays
    assert len(russian["sections"]) >= len(english["sections"])
    assert russian["commands"].keys() == english["commands"].keys()


async def test_a_game_without_help_is_a_404_with_a_code(client: AsyncClient) -> None:
    for game in ("no_such_game", "Magnate"):
        response = await client.get(f"/api/catalog/{game}/help")
        assert response.status_code == 404
        assert response.json()["code"] == "help/not_found"


async def test_the_rules_page_is_served_with_its_script(client: AsyncClient) -> None:
    for game in GAMES:
        response = await client.get(f"/rules/{game}")
        assert response.status_code == 200
        assert '<script type="module" src="/static/shell/help.js">' in response.text
        assert "script-src 'self'" in response.headers["content-security-policy"]
    for path in ("/static/shell/help.js", "/static/shell/help.css"):
        assert (await client.get(path)).status_code == 200, path
