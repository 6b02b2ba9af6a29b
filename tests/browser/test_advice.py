"""The engine's advice on the game page, on a desktop (1280×800) and a phone (375×740): a solo Magnate game is played
by its suggestions (the bidding's included) into the action phase, where the suggestion shows with its reason (the
API's own words), the other options on demand; playing it works; the page asks once per version; turning
suggestions off for the game hides them (kept over a reload), "Suggest a move" still asks on demand."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, ViewportSize, expect

from tests.live import Services

from .conftest import Pages, screenshot

pytestmark = [pytest.mark.integration, pytest.mark.browser]

SEED = "5eed0f0a"
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 375, "height": 740}


def solo_game(url: str) -> tuple[str, str]:
    """A Magnate game of one person against the computer, with a fixed seed; its id and the person's token."""
    body = {"game": "magnate", "seed": SEED,
            "options": {"seats": [{"kind": "human"}, {"kind": "ai"}], "difficulty": "digital_assistant"}}
    created = httpx.post(f"{url}/api/games", json=body, timeout=10)
    assert created.status_code == 201, created.text
    game = created.json()
    return game["game_id"], next(s["token"] for s in game["seats"] if s["token"])


def version(page: Page) -> int:
    value = page.locator("body").get_attribute("data-version")
    return int(value) if value else -1


def suggestion_shown(page: Page) -> None:
    page.locator("body.my-turn #play-suggestion").wait_for(timeout=30_000)


def play_suggestion(page: Page) -> None:
    """Click "Play the suggestion" and wait until the page shows the game after it (failing on a refusal)."""
    before = version(page)
    page.locator("#play-suggestion").click()
    page.wait_for_function("""(v) => Number(document.body.dataset.version) > v
        || [...document.querySelectorAll('#actions .error')].some((e) => e.textContent.trim())""", arg=before)
    errors = [t for t in page.locator("#actions .error").all_inner_texts() if t.strip()]
    assert not errors, f"the page shows an error: {errors}"


def advice_of(url: str, game_id: str, token: str) -> dict[str, Any]:
    answer = httpx.get(f"{url}/api/games/{game_id}/advice", headers={"Authorization": f"Bearer {token}"}, timeout=30)
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_magnates_action_phase_suggests_with_its_reason_plays_it_and_can_be_turned_off(
    web: Services, pages: Pages, viewport: ViewportSize
) -> None:
    game_id, token = solo_game(web.url)
    page = pages.open(viewport)
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if r.url.endswith("/advice") else None)
    page.goto(f"{web.url}/play/{game_id}#token={token}")
    phases = set()
    for _ in range(40):  # the bidding (and whatever comes before the actions) by its suggestions
        suggestion_shown(page)
        phase = page.locator("body").get_attribute("data-phase")
        if phase == "actions":
            break
        phases.add(phase)
        play_suggestion(page)
    else:
        raise AssertionError("the action phase never came")
    assert "bidding" in phases

    panel = page.locator("#actions form[data-action='suggestion']")
    best = advice_of(web.url, game_id, token)["options"][0]
    expect(panel.locator(".suggestion-text")).to_contain_text("Suggested:")
    expect(page.locator("#suggestion-why")).to_have_text(best["why"]["text"])
    assert best["why"]["text"].strip()
    expect(page.locator("#play-suggestion")).to_be_in_viewport()
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    more = page.locator("#advice-more")
    if more.count():
        more.locator("summary").click()
        expect(more.locator("li").first).to_be_visible()
    screenshot(page, f"advice-actions-{'phone' if viewport is PHONE else 'desktop'}")

    switch = page.get_by_label("Suggest my moves in this game")
    expect(switch).to_be_checked()
    count = len(asked)
    switch.uncheck()
    expect(page.locator("#play-suggestion")).to_have_count(0)
    expect(page.locator("#ask-suggestion")).to_be_visible()
    switch.check()
    expect(page.locator("#suggestion-why")).to_have_text(best["why"]["text"])
    assert len(asked) == count, "the page asked again at the same version"

    at = version(page)
    play_suggestion(page)  # the engine's move is played as the seat's own
    assert version(page) > at

    suggestion_shown(page)
    switch.uncheck()
    expect(page.locator("#play-suggestion")).to_have_count(0)
    expect(page.locator("#ask-suggestion")).to_be_visible()
    page.reload()
    page.locator("body.my-turn #ask-suggestion").wait_for(timeout=30_000)
    expect(page.locator("#play-suggestion")).to_have_count(0)
    expect(page.get_by_label("Suggest my moves in this game")).not_to_be_checked()
    page.locator("#ask-suggestion").click()  # asked for, once
    expect(page.locator("#suggestion-why")).not_to_be_empty()
    expect(page.locator("#play-suggestion")).to_be_visible()
    page.get_by_label("Suggest my moves in this game").check()
    expect(page.locator("#play-suggestion")).to_be_visible()
