"""Dice Race, the tests' tiny game, in a real browser: a server and worker started with the tests' registry
(``MAGNATE_GAMES``) offer it in the lobby, and the page shell draws it from the bundle in its own package
(``tests/games/dice_race/web``); two people play it to the final standings by clicking Roll (the worker throws
the dice), each page showing its own secret number and never the other's, the public's none, until the end."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.conftest import drop_queue
from tests.games.registry import SETTING
from tests.live import Services

from .conftest import Pages, screenshot

pytestmark = [pytest.mark.integration, pytest.mark.browser]

SEED = "d1cebee5"


@pytest.fixture(scope="module")
def race_web(pg_dsn: str, redis_url: str) -> Iterator[Services]:
    """One API server and one worker serving the tests' registry, on a queue of their own."""
    queue = f"magnate:test:web-tiny:{os.getpid()}"
    running = Services.start(pg_dsn, redis_url, queue, workers=1, env={"MAGNATE_GAMES": SETTING})
    try:
        yield running
    finally:
        running.stop()
        drop_queue(redis_url, queue)


def secret_of(page: Page) -> str:
    return page.locator("#race-secret").inner_text()


def test_the_page_shell_draws_the_tiny_game_from_its_own_bundle(race_web: Services, pages: Pages) -> None:
    lobby = pages.open()
    bundle = lobby.request.get(f"{race_web.url}/static/games/dice_race/index.js")
    assert bundle.ok and "javascript" in bundle.headers["content-type"]
    lobby.goto(f"{race_web.url}/?game=dice_race&seed={SEED}")
    expect(lobby.locator("#game-options[data-game='dice_race']")).to_be_attached()
    lobby.get_by_label("Goal square").fill("12")
    lobby.get_by_label("Seat 1 player name").fill("Ada")
    lobby.get_by_label("Seat 2 player name").fill("Bob")
    lobby.get_by_role("button", name="Create game").click()
    expect(lobby.locator("#created")).to_be_visible()
    other_link = lobby.locator("#invite-1").input_value()
    lobby.get_by_role("link", name="Play seat 1").click()
    ada = lobby
    bob = pages.open()
    bob.goto(other_link)
    watcher = pages.open()
    for page in (ada, bob):
        page.wait_for_selector("body[data-version]")
    game_url = ada.url.split("#")[0]
    watcher.goto(game_url)
    watcher.wait_for_selector("body[data-version]")
    expect(ada.locator("#game-title")).to_contain_text("Ada")
    expect(ada.locator("#race-track .race-runner")).to_have_count(2)

    ada_secret = re.search(r"Runner 1: (\d{6})", secret_of(ada))
    bob_secret = re.search(r"Runner 2: (\d{6})", secret_of(bob))
    assert ada_secret and bob_secret, (secret_of(ada), secret_of(bob))
    screenshot(ada, "dice-race-01-playing")
    for _ in range(600):
        if all(page.locator("#final").is_visible() for page in (ada, bob)):
            break
        for page, secret in ((bob, ada_secret), (watcher, ada_secret), (ada, bob_secret), (watcher, bob_secret)):
            text = page.locator("body").inner_text()  # the secret may show only once the game is over: the
            # history's last line says so (the final panel may be drawn a moment after the history)
            assert secret.group(1) not in text or "seed is revealed" in text or page.locator("#final").is_visible()
        mover = next((page for page in (ada, bob) if page.locator("#race-roll").is_visible()), None)
        if mover is None:  # the worker is throwing the die
            ada.wait_for_timeout(100)
            continue
        before = mover.locator("body").get_attribute("data-version")
        mover.locator("#race-roll").click()
        mover.locator(f"body:not([data-version='{before}'])").wait_for()
    else:
        raise AssertionError("the race did not end")
    for page in (ada, bob, watcher):
        expect(page.locator("#final")).to_be_visible()
        expect(page.locator("#race-secret")).to_contain_text(ada_secret.group(1))
        expect(page.locator("#race-secret")).to_contain_text(bob_secret.group(1))
    expect(watcher.locator("#final")).to_contain_text("Ada")
    screenshot(ada, "dice-race-02-final")
