"""The shared shell of the play-by-web page and the games' bundles: the shell names no game; the lobby offers the
games of GET /api/catalog and draws the chosen game's options form from that game's bundle (here also a made-up
game whose bundle the test serves itself), creating it with one Idempotency-Key per creation; seats kept by the
page before it knew several games are still listed; and a visitor without a seat watches a game."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, Request, Route, expect

from domain.games import GAMES
from services.api.web import PAGES, STATIC
from tests.live import Services

from .conftest import Pages

SHELL = STATIC / "shell"


def shell_files() -> list[Path]:
    return sorted([*SHELL.rglob("*"), *PAGES.glob("*.html")])


def test_the_shell_names_no_game() -> None:
    """Everything the games share (static/shell/ and the pages) is free of any game's name or title: a game's
    words live in its bundle (static/games/<game>/)."""
    names = {"magnate"} | set(GAMES) | {game.title for game in GAMES.values() if game.title}
    files = [p for p in shell_files() if p.is_file()]
    assert files and any(p.suffix == ".js" for p in files)
    found = [f"{path.relative_to(STATIC.parent)}: {name!r}" for path in files for name in names
             if name.lower() in path.read_text(encoding="utf-8").lower()]
    assert not found, f"a game named in the shell: {found}"


def test_every_game_bundle_is_a_folder_with_an_index_module() -> None:
    bundles = [p for p in (STATIC / "games").iterdir() if p.is_dir()]
    assert bundles, "no game bundle"
    for folder in bundles:
        assert re.fullmatch(r"[a-z0-9_]+", folder.name), folder
        index = (folder / "index.js").read_text(encoding="utf-8")
        assert "export default" in index, folder


NOUGHTS = {"game": "noughts", "title": "Noughts and Crosses", "data_version": "1", "ai_levels": [],
           "options_schema": {"type": "object"}}
"""A game this server does not have: the lobby must handle it like any other, from its catalog line and bundle."""

NOUGHTS_BUNDLE = """
import { h } from "/static/shell/dom.js";
export default {
  title: "Noughts",
  optionsForm(container, entry, env) {
    const bigger = h("input", { type: "checkbox", id: "bigger" });
    container.append(h("fieldset", {}, h("legend", {}, `${entry.title}: options`),
      h("p", { class: "check" }, bigger, h("label", { for: "bigger" }, "Bigger board")),
      h("ol", {}, h("li", {}, "Crosses ", env.nameField(0)), h("li", {}, "Noughts ", env.nameField(1)))));
    return { read: () => ({ size: bigger.checked ? 4 : 3 }), seats: () => [{ kind: "human" }, { kind: "human" }] };
  },
  mount() { throw new Error("not drawn in this test"); },
  seatLabel: (player) => player.name || `Player ${player.seat + 1}`,
  formatScore: String,
};
"""

KEY = re.compile(r"[A-Za-z0-9._~-]{16,128}")


def created(url: str, game_id: str) -> dict[str, Any]:
    return {"game_id": game_id, "game_type": "noughts", "version": 1, "seats": [
        {"seat": s, "kind": "human", "name": name, "payload": {}, "token": f"token-{game_id}-{s}",
         "invite_url": f"{url}/play/{game_id}#token=token-{game_id}-{s}"} for s, name in enumerate(["Ada", "Bob"])]}


@pytest.mark.integration
@pytest.mark.browser
def test_the_lobby_offers_the_catalogs_games_with_each_games_own_options_form(web: Services, pages: Pages) -> None:
    page = pages.open()
    real = page.request.get(f"{web.url}/api/catalog").json()
    assert [g["game"] for g in real] == list(GAMES)
    page.route("**/api/catalog", lambda route: route.fulfill(json=[*real, NOUGHTS]))
    page.route("**/static/games/noughts/index.js",
               lambda route: route.fulfill(body=NOUGHTS_BUNDLE, content_type="text/javascript"))
    answers: list[dict[str, Any]] = [{"abort": True}, {"status": 503}, {"status": 503},  # the first click
                                     {"status": 201, "game": "c0ffee01"},  # the player clicks again
                                     {"status": 201, "game": "c0ffee02"}]  # a second game
    posts: list[Request] = []

    def create(route: Route) -> None:
        if route.request.method != "POST":
            route.fallback()
            return
        posts.append(route.request)
        answer = answers.pop(0)
        if answer.get("abort"):
            route.abort("connectionreset")
        elif answer["status"] == 503:
            route.fulfill(status=503, headers={"Retry-After": "0"},
                          json={"code": "infra/unavailable", "message": "the database is away", "details": {}})
        else:
            route.fulfill(status=201, json=created(web.url, answer["game"]))

    page.route("**/api/games", create)
    page.goto(f"{web.url}/")

    # Every game of the catalog, by its title; the first one's form is its bundle's.
    choice = page.get_by_label("Game", exact=True)
    expect(choice.locator("option")).to_have_text([g["title"] for g in [*real, NOUGHTS]])
    expect(page.locator("#game-options")).to_have_attribute("data-game", real[0]["game"])
    if real[0]["game"] == "magnate":
        expect(page.get_by_label("Number of seats")).to_be_visible()
        expect(page.get_by_label("AI difficulty")).to_be_visible()
    page.get_by_label("Seat 1 player name").fill("Ada")

    choice.select_option(label="Noughts and Crosses")
    expect(page.locator("#game-options")).to_have_attribute("data-game", "noughts")
    expect(page.locator("#game-options legend")).to_have_text(["Noughts and Crosses: options"])
    expect(page.get_by_label("Number of seats")).to_have_count(0)  # the other game's form is gone
    expect(page.get_by_label("Seat 1 player name")).to_have_value("Ada")  # the names are the shell's: kept
    page.get_by_label("Seat 2 player name").fill("Bob")
    page.get_by_label("Bigger board").check()

    button = page.get_by_role("button", name="Create game")
    button.click()  # no answer, then 503 twice: the page asks again by itself, then says so
    expect(page.locator("#create-error")).to_contain_text("The server is busy")
    assert len(posts) == 3
    button.click()  # the player tries again: the same creation
    expect(page.locator("#created")).to_be_visible()
    expect(page.locator("#invite-list")).to_contain_text("Seat 1: Ada")
    expect(page.get_by_label("Invite link for seat 2")).to_have_value(f"{web.url}/play/c0ffee01#token=token-c0ffee01-1")
    button.click()  # another game
    expect(page.get_by_label("Invite link for seat 2")).to_have_value(f"{web.url}/play/c0ffee02#token=token-c0ffee02-1")

    assert len(posts) == 5
    bodies = [json.loads(p.post_data or "{}") for p in posts]
    assert all(b == {"game": "noughts", "options": {"size": 4}, "names": ["Ada", "Bob"]} for b in bodies), bodies
    keys = [p.headers.get("idempotency-key", "") for p in posts]
    assert all(KEY.fullmatch(k) for k in keys), keys
    assert len(set(keys[:4])) == 1 and keys[4] != keys[0], keys
    # The creator's browser keeps only the creator's seat (the first person's, as the answer names no host):
    # the other seats' links are passed on, never kept.
    kept = page.evaluate("JSON.parse(localStorage.getItem('seats.v2'))")
    assert {(s["game_id"], s["game_type"], s["seat"]) for s in kept} == {
        (g, "noughts", 0) for g in ("c0ffee01", "c0ffee02")}


def create_game(page: Page, url: str) -> dict[str, Any]:
    response = page.request.post(f"{url}/api/games", data={
        "game": "magnate", "options": {"seats": [{"kind": "human"}, {"kind": "ai"}], "difficulty": "digital_assistant"},
        "names": ["Ada", None]})
    assert response.status == 201, response.text()
    body: dict[str, Any] = response.json()
    return body


@pytest.mark.integration
@pytest.mark.browser
def test_seats_kept_before_the_page_knew_several_games_are_still_listed(web: Services, pages: Pages) -> None:
    page = pages.open()
    page.goto(f"{web.url}/")
    game = create_game(page, web.url)
    seat = game["seats"][0]
    old = [{"game_id": game["game_id"], "seat": 0, "token": seat["token"], "name": "Ada",
            "company": "vector_properties", "kept_at": "2025-01-01T00:00:00.000Z"}]
    page.evaluate("(old) => localStorage.setItem('magnate.seats.v1', JSON.stringify(old))", old)
    page.reload()
    mine = page.locator(f"#my-games-list li.game[data-game='{game['game_id']}']")
    expect(mine).to_contain_text("Seat 1 (Ada)")
    expect(mine.locator(".game-title")).to_have_text("Magnate: The First City")
    assert page.evaluate("localStorage.getItem('magnate.seats.v1')") is None
    mine.get_by_role("link", name="Seat 1 (Ada)").click()
    page.wait_for_selector("body[data-version]")
    expect(page.locator("#game-title")).to_contain_text("Ada (Vector Properties)")


@pytest.mark.integration
@pytest.mark.browser
def test_a_visitor_without_a_seat_watches_the_game(web: Services, pages: Pages) -> None:
    page = pages.open()
    page.goto(f"{web.url}/")
    game = create_game(page, web.url)
    requests: list[Request] = []
    page.on("request", lambda r: requests.append(r) if "/api/games/" in r.url else None)
    page.goto(f"{web.url}/play/{game['game_id']}")
    page.wait_for_selector("body[data-version]")
    expect(page.locator("#game-title")).to_have_text("Magnate — watching")
    expect(page.locator("#turn-title")).to_have_text("Watching")
    expect(page.locator("#actions")).to_contain_text("You are watching this game")
    expect(page.locator("#city g.plot")).to_have_count(63)
    expect(page.locator("#history-list li").first).to_be_attached()
    assert not [r.url for r in requests if "/me" in r.url or r.headers.get("authorization")]
