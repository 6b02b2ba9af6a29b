"""Decktet Magnate in a real browser: a solo game against the computer (easy) played to the final standings by
clicking the engine's suggestion (a refused command told in words on the way); two people, where neither the
other seat's page nor a spectator's ever shows a card of a seat's hand while the seat itself sees it; the lobby's
variants (Mega and three players) creating the game they say, drawn as a Y with three seats; and a phone's width
(375 px) with no sideways scrolling."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from domain.games import GAMES
from services.gameplay.audit import verify
from services.gameplay.receipt import check_receipt
from tests.live import Services

from .conftest import PHONE, Pages, screenshot

pytestmark = [pytest.mark.integration, pytest.mark.browser]

SEED = "dec7e7a15eed"
"""A fixed sandbox seed: the same districts, Crowns, hands, rolls and draws on every run."""


# -- driving the page ------------------------------------------------------------------------------------


def version(page: Page) -> str:
    return page.locator("body").get_attribute("data-version") or ""


def send(page: Page, control: Locator) -> None:
    """Click a control that submits a command; wait until the page shows the game after it, or an error (the
    page's CSP forbids string predicates in wait_for_function: locators only)."""
    before = version(page)
    control.click()
    page.locator(f"body:not([data-version='{before}']), #actions .error:not(:empty)").first.wait_for()
    errors = [t for t in page.locator("#actions .error").all_inner_texts() if t.strip()]
    assert not errors, f"the page shows an error: {errors}"


def assert_fits(page: Page, width: int) -> None:
    """Nothing sticks out sideways (so the page never scrolls horizontally)."""
    wide = page.evaluate("""(w) => [...document.querySelectorAll('body *')]
        .filter((e) => e.getBoundingClientRect().right > w + 1 && !e.closest('.table-wrap.enlarged'))
        .map((e) => `${e.tagName.toLowerCase()}#${e.id}.${e.className.baseVal ?? e.className}`).slice(0, 8)""", width)
    assert page.evaluate("document.documentElement.scrollWidth") <= width and not wide, f"too wide: {wide}"


def open_lobby(page: Page, url: str) -> None:
    page.goto(f"{url}/?game=decktet&seed={SEED}")
    expect(page.locator("#game-options[data-game='decktet']")).to_be_attached()


def seat_kind(page: Page, seat: int, kind: str, level: str | None = None) -> None:
    page.get_by_label(f"Seat {seat} is played by").select_option(kind)
    if level:
        page.locator(f"#seat-{seat - 1}-level").select_option(level)


def create(page: Page) -> dict[str, Any]:
    """Create the game the form describes; returns the request's body."""
    with page.expect_request(lambda r: r.url.endswith("/api/games") and r.method == "POST") as request:
        page.get_by_role("button", name="Create game").click()
    # the invite links while a person's seat is free, else (every other seat the computer's) the game page
    page.wait_for_selector("#created:not([hidden]), body[data-version]")
    body: dict[str, Any] = json.loads(request.value.post_data or "{}")
    return body


def play_seat_1(page: Page) -> None:
    """Seat 1's game page: from the invite links, or already open (a solo game opens on it when created)."""
    if "/play/" not in page.url:
        page.get_by_role("link", name="Play seat 1").click()
    page.wait_for_selector("body[data-version]")


# -- a solo game -------------------------------------------------------------------------------------------


def refuse_once(page: Page) -> None:
    """The next command is altered on its way (a trade for the same suit): the rule's refusal is told in words
    beside the control, and nothing changes."""
    same_suit = {"type": "decktet.trade", "give": "M", "take": "M"}
    page.route("**/commands", lambda route: route.continue_(post_data=json.dumps(
        {**json.loads(route.request.post_data or "{}"), "command": same_suit})))
    page.locator("#play-suggestion").click()
    error = page.locator("#actions form[data-action='suggestion'] .error")
    expect(error).to_have_text("A trade takes a different suit.")
    page.unroute("**/commands")
    screenshot(page, "decktet-03-refused-in-words")


def test_a_solo_game_against_the_computer_is_played_to_the_end_by_clicking(web: Services, pages: Pages) -> None:
    page = pages.open()
    open_lobby(page, web.url)
    # by default one plays alone against the computer at medium
    expect(page.get_by_label("Seat 1 is played by")).to_have_value("human")
    expect(page.get_by_label("Seat 2 is played by")).to_have_value("ai")
    expect(page.locator("#seat-1-level")).to_have_value("medium")
    page.get_by_label("Seat 1 player name").fill("Ada")
    seat_kind(page, 2, "ai", "easy")
    screenshot(page, "decktet-01-lobby", full_page=True)
    body = create(page)
    assert body["game"] == "decktet"
    assert body["options"] == {"seats": [{"kind": "human"}, {"kind": "ai", "level": "easy"}]}
    play_seat_1(page)
    expect(page).to_have_url(re.compile(r"/play/[0-9a-f]+#token="))  # no invite links to hand out: the game opens
    expect(page.locator("#game-title")).to_contain_text("Ada")
    expect(page.locator("#players li[data-seat='1'] .who")).to_have_text("Computer (easy)")

    page.locator("body.my-turn #play-suggestion").wait_for()
    advice = page.locator("#actions form[data-action='suggestion'] .suggestion-text")
    expect(advice).not_to_contain_text("decktet.")  # the engine's whole turn is told in words, not by its type
    expect(advice).to_contain_text("End your turn")
    refuse_once(page)
    shots = set()
    clicks = 0
    final = page.locator("#final")
    warned = False  # R6.5: the final round is announced
    for _ in range(400):
        page.locator("body.my-turn #play-suggestion, #final:not([hidden])").first.wait_for(timeout=30_000)
        if final.is_visible():
            break
        if not warned and page.locator("#final-round").count():
            expect(page.locator("#final-round")).to_contain_text("nobody draws again")
            expect(page.locator("#status")).to_contain_text("final round")
            screenshot(page, "decktet-04-final-round")
            warned = True
        if "game" not in shots and page.locator("#districts .placed").count() >= 4:
            expect(page.locator("#roll svg.d10")).to_have_count(2)
            expect(page.locator("#ai-plans li").first).to_be_visible()  # the computer's reasons
            screenshot(page, "decktet-02-game-desktop", full_page=True)
            shots.add("game")
        send(page, page.locator("#play-suggestion"))
        clicks += 1
    else:
        raise AssertionError("the game did not end")
    assert clicks > 20 and warned
    expect(final.locator("table.standings tbody tr")).to_have_count(2)
    expect(final.locator("table.standings")).to_contain_text(re.compile(r"\d+ districts?"))
    expect(page.locator("#status")).to_contain_text("Game over")
    expect(page.locator("#actions")).to_contain_text("The game is over.")
    expect(page.locator("#history-list li", has_text="The game ends.")).to_have_count(1)
    expect(page.locator("#revealed-seed")).to_have_text(SEED)
    screenshot(page, "decktet-05-final-standings")
    check_the_receipt(page, web.url, clicks)


def check_the_receipt(page: Page, url: str, moves: int) -> None:
    """The heads the page kept at the player's moves are checked in the page against the export (its chain
    recomputed, the hidden draws opened with the revealed seed), and the same receipt passes `magnate verify`."""
    page.locator("#check-receipt").click()
    result = page.locator("#receipt-result[data-ok]")
    expect(result).to_have_attribute("data-ok", "true", timeout=15_000)
    expect(result).to_contain_text(re.compile(r"Verified: the \d+ chain heads .* [1-9]\d* hidden events"))
    page.locator("#receipt").scroll_into_view_if_needed()
    screenshot(page, "decktet-05-receipt-checked")
    game_id = page.url.split("/play/")[1].split("#")[0].split("?")[0]
    receipt = page.evaluate("(id) => localStorage.getItem(`receipt:${id}`)", game_id)
    heads = json.loads(receipt)["heads"]
    assert len(heads) >= moves // 2
    lines = page.request.get(f"{url}/api/games/{game_id}/export").body().splitlines()
    verdict = verify(lines, GAMES)
    assert verdict.ok, verdict.problems
    checked = check_receipt(receipt.encode(), lines, verdict.ok)
    assert checked.ok and checked.heads == len(heads) and checked.hidden_opened > 0, checked
    forged = json.dumps({**json.loads(receipt), "heads": [{**heads[0], "hash": "0" * 64}, *heads[1:]]})
    assert not check_receipt(forged.encode(), lines, verdict.ok).ok


# -- two people ---------------------------------------------------------------------------------------------


DOM_TEXT = """() => {
  const out = [document.body.textContent];
  for (const node of document.querySelectorAll('*')) for (const a of node.attributes) out.push(a.value);
  return out.join('\\n');
}"""


def hand_of(page: Page, url: str, game_id: str, token: str) -> tuple[int, list[str]]:
    """The seat's version and hand, as GET /me gives them."""
    me = page.request.get(f"{url}/api/games/{game_id}/me", headers={"Authorization": f"Bearer {token}"}).json()
    return me["version"], list(me["view"]["seats"][me["seat"]]["hand"])


def names_of(page: Page, url: str) -> dict[str, str]:
    cards = page.request.get(f"{url}/api/catalog/decktet").json()["cards"]
    return {c["code"]: c["name"] for c in cards}


def assert_hidden(page: Page, hand: list[str], names: dict[str, str]) -> None:
    """No card of ``hand`` appears on ``page``: neither its id in an attribute or text nor its name."""
    blob = page.evaluate(DOM_TEXT)
    for card in hand:
        assert not re.search(rf"(?<![0-9A-Za-z]){re.escape(card)}(?![0-9A-Za-z])", blob), f"{card} shows on {page.url}"
        assert names[card] not in blob, f"{names[card]} shows on {page.url}"


def test_two_people_never_see_each_others_hands_nor_does_a_spectator(web: Services, pages: Pages) -> None:
    ada = pages.open()
    open_lobby(ada, web.url)
    ada.get_by_label("Seat 1 player name").fill("Ada")
    seat_kind(ada, 2, "human")
    ada.get_by_label("Seat 2 player name").fill("Bob")
    body = create(ada)
    assert "seats" not in body["options"], "two people: the seats are the server's default"
    bob_invite = ada.get_by_label("Invite link for seat 2").input_value()
    play_seat_1(ada)
    game_id = ada.url.split("/play/")[1].split("#")[0]
    tokens = {0: ada.url.split("#token=")[1], 1: bob_invite.split("#token=")[1]}
    bob = pages.open()
    bob.goto(bob_invite)
    watcher = pages.open()
    watcher.goto(f"{web.url}/play/{game_id}")
    seats = {0: ada, 1: bob}
    names = names_of(ada, web.url)
    for page in (ada, bob, watcher):
        page.wait_for_selector("body[data-version]")
    expect(watcher.locator("#actions")).to_contain_text("You are watching this game")

    for step in range(6):
        hands = {}
        for seat, token in tokens.items():
            now, hands[seat] = hand_of(ada, web.url, game_id, token)
            for page in (ada, bob, watcher):
                expect(page.locator("body")).to_have_attribute("data-version", str(now))
        for seat, page in seats.items():
            other = 1 - seat
            expect(page.locator("#hand li[data-card]")).to_have_count(len(hands[seat]))
            assert sorted(page.locator("#hand li[data-card]").evaluate_all(
                "(cards) => cards.map((c) => c.dataset.card)")) == sorted(hands[seat])
            assert_hidden(page, hands[other], names)
            expect(page.locator(f"#players li[data-seat='{other}'] .hand-size")).to_have_text(
                f"Hand: {len(hands[other])} cards")
        for seat in seats:
            assert_hidden(watcher, hands[seat], names)
        if step == 2:
            screenshot(ada, "decktet-06-two-people-ada", full_page=True)
            screenshot(bob, "decktet-07-two-people-bob")
            screenshot(watcher, "decktet-08-spectator")
        on_turn = next(p for p in seats.values() if p.locator("body.my-turn").count())
        send(on_turn, on_turn.locator("#play-suggestion"))


# -- variants from the lobby --------------------------------------------------------------------------------


def test_the_lobbys_variants_create_a_mega_game_for_three_drawn_as_a_y(web: Services, pages: Pages) -> None:
    page = pages.open()
    open_lobby(page, web.url)
    stacked, taxtax = page.locator("#variant-stacked"), page.locator("#variant-taxtax")
    expect(stacked).to_be_disabled()  # a Mega variant
    expect(page.locator("#variant-stacked-note")).to_have_text("Needs Mega-Magnate.")
    page.get_by_label("Mega-Magnate").check()
    expect(taxtax).to_be_checked()  # double taxation follows Mega (D3)
    expect(stacked).to_be_enabled()
    page.get_by_label("Three players").check()
    expect(stacked).to_be_disabled()  # for two players only
    expect(page.locator("#variant-stacked-note")).to_have_text("Only for two players.")
    expect(page.locator("#seat-list .seat-row")).to_have_count(3)
    page.get_by_label("Courts", exact=True).uncheck()
    expect(page.locator("#variant-courtpawns")).to_be_disabled()  # Courts for Pawns needs the Courts
    page.get_by_label("Courts", exact=True).check()
    seat_kind(page, 2, "ai", "easy")
    seat_kind(page, 3, "ai", "easy")
    body = create(page)
    assert body["options"] == {"mega": True, "three": True, "seats": [
        {"kind": "human"}, {"kind": "ai", "level": "easy"}, {"kind": "ai", "level": "easy"}]}
    play_seat_1(page)

    y = page.locator("#districts svg.y-map")
    expect(y).to_be_visible()
    expect(y.locator("[data-district]")).to_have_count(7)
    expect(y.locator("[data-district='c']")).to_have_attribute("aria-label", re.compile("The Excuse"))
    expect(page.locator("#districts svg.seat-rows")).to_have_count(3)
    expect(page.locator("#districts svg.seat-rows").first).to_have_attribute("data-seat", "0")  # the viewer's first
    expect(page.locator("#players li.player")).to_have_count(3)
    expect(page.locator("#hand li[data-card]")).to_have_count(6)  # Mega's hand
    game_id = page.url.split("/play/")[1].split("#")[0]
    variant = page.request.get(f"{web.url}/api/games/{game_id}").json()["view"]["variant"]
    assert (variant["mega"], variant["three"], variant["taxtax"], variant["courts"]) == (True, True, True, True)
    screenshot(page, "decktet-09-three-players-y", full_page=True)
    page.set_viewport_size(PHONE)
    assert_fits(page, PHONE["width"])
    screenshot(page, "decktet-10-three-players-phone", full_page=True)


# -- a phone's width ---------------------------------------------------------------------------------------


def test_on_a_phone_neither_the_lobby_nor_the_game_scrolls_sideways(web: Services, pages: Pages) -> None:
    page = pages.open(PHONE)
    open_lobby(page, web.url)
    page.get_by_label("Three players").check()
    expect(page.locator("#seat-list .seat-row")).to_have_count(3)
    assert_fits(page, PHONE["width"])
    screenshot(page, "decktet-11-phone-lobby", full_page=True)
    page.get_by_label("Three players").uncheck()
    page.get_by_label("Mega-Magnate").check()  # nine districts in a line: the widest table
    seat_kind(page, 2, "ai", "easy")
    create(page)
    assert_fits(page, PHONE["width"])
    play_seat_1(page)
    page.locator("body.my-turn #play-suggestion").wait_for()
    assert_fits(page, PHONE["width"])
    # the turn comes first on a phone: the move, then the hand, then the table
    turn, table = page.locator("#turn").bounding_box(), page.locator("#districts").bounding_box()
    assert turn is not None and table is not None and turn["y"] < table["y"]
    page.get_by_role("button", name="Enlarge").click()  # the table then scrolls inside its panel, not the page
    expect(page.locator("#table-wrap")).to_have_class(re.compile("enlarged"))
    assert_fits(page, PHONE["width"])
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, "decktet-12-phone-game")
