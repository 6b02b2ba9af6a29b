"""Rules at hand, on a desktop and a phone: each game's "How to play" opens from its game page and from the lobby; the
move panel says what the current phase is for and what each kind of move does (a Magnate and a Decktet game); the
Magnate tutorial against the computer guides the first steps of the rulebook's opening, advancing with the game."""

from __future__ import annotations

import re
import uuid
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, ViewportSize, expect

from tests.live import Services

from .conftest import Pages, screenshot

pytestmark = [pytest.mark.integration, pytest.mark.browser]

DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 375, "height": 740}
VIEWPORTS = pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])

ONE_PERSON: dict[str, dict[str, Any]] = {
    "magnate": {"seats": [{"kind": "human"}, {"kind": "ai"}], "difficulty": "digital_assistant"},
    "decktet": {"seats": [{"kind": "human"}, {"kind": "ai", "level": "easy"}]},
    "master_of_economy": {"players": 2, "seats": [{"kind": "human"}, {"kind": "ai", "level": "basic"}]},
}


def create(url: str, game: str, options: dict[str, Any], table: dict[str, Any] | None = None) -> tuple[str, str]:
    """A new game; its id and the first person's seat token."""
    created = httpx.post(f"{url}/api/games", json={"game": game, "options": options, "table": table}, timeout=10)
    assert created.status_code == 201, created.text
    body = created.json()
    return body["game_id"], next(s["token"] for s in body["seats"] if s["token"])


def help_of(url: str, game: str) -> dict[str, Any]:
    answer = httpx.get(f"{url}/api/catalog/{game}/help", timeout=10)
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def shows_rules(page: Page, help: dict[str, Any], game: str) -> None:
    expect(page).to_have_url(re.compile(rf"/rules/{game}$"))
    expect(page.locator("#rules-title")).to_have_text(help["title"])
    expect(page.locator(".rules-section h2")).to_have_count(len(help["sections"]))
    expect(page.locator(".rules-table table").first).to_be_visible()


@VIEWPORTS
def test_each_games_rules_open_from_its_game_page_and_from_the_lobby(web: Services, pages: Pages,
                                                                      viewport: ViewportSize) -> None:
    page = pages.open(viewport)
    for game, options in ONE_PERSON.items():
        help = help_of(web.url, game)
        game_id, token = create(web.url, game, options)
        page.goto(f"{web.url}/play/{game_id}#token={token}")
        link = page.locator("#rules-link")
        expect(link).to_be_visible()
        link.click()
        shows_rules(page, help, game)
        page.goto(f"{web.url}/")
        page.locator("#game-type").select_option(game)
        expect(page.locator("#game-rules")).to_have_attribute("href", f"/rules/{game}")
        page.locator("#game-rules").click()
        shows_rules(page, help, game)
    screenshot(page, f"rules-{viewport['width']}")


def wait_for_my_turn(page: Page) -> None:
    page.locator("body.my-turn").wait_for(timeout=60_000)


@VIEWPORTS
def test_the_move_panel_says_what_the_phase_is_for_and_what_each_move_does(web: Services, pages: Pages,
                                                                         viewport: ViewportSize) -> None:
    page = pages.open(viewport)
    for game, phase in (("magnate", "bidding"), ("decktet", "playing")):
        help = help_of(web.url, game)
        game_id, token = create(web.url, game, ONE_PERSON[game])
        page.goto(f"{web.url}/play/{game_id}#token={token}")
        wait_for_my_turn(page)
        me = httpx.get(f"{web.url}/api/games/{game_id}/me", headers={"Authorization": f"Bearer {token}"}).json()
        assert me["view"][help["phase_field"]] == phase
        expect(page.locator("#phase-line")).to_have_text(help["phases"][phase])
        kinds = {t["command"]["type"] for t in me["legal"]}
        lines = page.locator("#move-help li")
        expect(lines).to_have_count(len(kinds))
        for kind in kinds:
            expect(page.locator(f'#move-help li[data-command="{kind}"]')).to_have_text(help["commands"][kind])
        box = page.locator("#phase-help").bounding_box()
        actions = page.locator("#actions").bounding_box()
        assert box is not None and actions is not None and box["y"] < actions["y"], "the help is above the moves"
        screenshot(page, f"phase-help-{game}-{viewport['width']}")


# -- the tutorial against the computer ------------------------------------------------------------------------


def me_of(url: str, game_id: str, token: str) -> dict[str, Any]:
    answer = httpx.get(f"{url}/api/games/{game_id}/me", headers={"Authorization": f"Bearer {token}"}, timeout=10)
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def submit(url: str, game_id: str, token: str, version: int, command: dict[str, Any]) -> None:
    answer = httpx.post(f"{url}/api/games/{game_id}/commands", headers={"Authorization": f"Bearer {token}"},
                        json={"command_id": uuid.uuid4().hex, "expected_version": version, "command": command},
                        timeout=30)
    assert answer.status_code in (200, 201), answer.text


def my_turn(url: str, game_id: str, token: str, page: Page) -> dict[str, Any]:
    """The seat's view once it has something to decide (the computer plays the other four seats meanwhile)."""
    for _ in range(600):
        me = me_of(url, game_id, token)
        if me["legal"]:
            return me
        page.wait_for_timeout(100)
    raise AssertionError("the seat never had a move")


def step(page: Page, text: str) -> None:
    expect(page.locator("#tutorial-step")).to_contain_text(text, timeout=30_000)


@VIEWPORTS
def test_the_tutorial_guides_the_opening_step_by_step(web: Services, pages: Pages, viewport: ViewportSize) -> None:
    help = help_of(web.url, "magnate")
    steps = help["tutorial"]["steps"]
    game_id, token = create(web.url, "magnate", {"seats": [{}, {}, {}, {}, {}], "tutorial": True},
                            {"stand_ins": [1, 2, 3, 4]})
    page = pages.open(viewport)
    page.goto(f"{web.url}/play/{game_id}#token={token}")
    # 1. the opening bid: the seat is the first player
    step(page, f"step 1 of {len(steps)}")
    step(page, steps[0]["text"])
    me = my_turn(web.url, game_id, token, page)
    assert me["view"]["phase"] == "bidding" and me["view"]["round"] == 1
    screenshot(page, f"tutorial-1-{viewport['width']}")
    submit(web.url, game_id, token, me["version"], {"type": "magnate.pass_bid"})
    expect(page.locator("#tutorial-step")).not_to_contain_text("step 1 of", timeout=30_000)
    # 2. on to the actions (nothing to attract yet: the seat finishes at once), where it buys land, then builds
    buy = next(s["text"] for s in steps if s["when"].get("owns_land") is False)
    build = next(s["text"] for s in steps if s["when"].get("owns_building") is False)
    for _ in range(10):
        me = my_turn(web.url, game_id, token, page)
        if me["view"]["phase"] == "actions":
            break
        kinds = {t["command"]["type"]: t["command"] for t in me["legal"]}
        move = kinds.get("magnate.finish_attracting") or kinds.get("magnate.pass_bid")
        assert move is not None, sorted(kinds)
        submit(web.url, game_id, token, me["version"], move)
    else:
        raise AssertionError("the actions never came")
    step(page, buy)
    land = next(t["command"] for t in me["legal"] if t["command"]["type"] == "magnate.buy_land")
    submit(web.url, game_id, token, me["version"], land)
    me = my_turn(web.url, game_id, token, page)
    assert me["view"]["phase"] == "actions"
    step(page, build)
    screenshot(page, f"tutorial-build-{viewport['width']}")
