"""The page in the reader's language: a new visitor whose browser asks for Russian gets the Russian lobby (the
server's words and the modules' alike), the header's switch turns every page German and keeps it (this browser's
cookie; a signed-in player's account too, so another device speaks German after signing in), and dates and plural
forms are written the language's way."""

from __future__ import annotations

import re
import time
import uuid

import httpx
import pytest
from playwright.sync_api import Page, expect

from services.language.catalogs import read_catalog
from services.language.domains import SHELL
from tests.live import Services

from .conftest import Pages, screenshot
from .test_tables import sign_in_by_mail

pytestmark = [pytest.mark.integration, pytest.mark.browser]


def words(language: str) -> dict[str, str]:
    """The shell's translations in ``language`` (singular messages), as the catalog holds them."""
    catalog = read_catalog(SHELL, language)
    assert catalog is not None
    return {str(m.id): str(m.string) for m in catalog if m.id and isinstance(m.id, str) and m.string}


def listed_game(url: str, seats: list[dict[str, str]]) -> str:
    created = httpx.post(f"{url}/api/games", headers={"Idempotency-Key": uuid.uuid4().hex}, json={
        "game": "magnate", "listed": True, "names": ["Ада", "Беа"][:len(seats)],
        "options": {"seats": seats, "difficulty": "digital_assistant"}})
    assert created.status_code == 201, created.text
    game_id: str = created.json()["game_id"]
    return game_id


def switch_to(page: Page, language: str) -> None:
    """Choose ``language`` once the page is up (its scripts wired the switch), and wait for the page drawn in it (the
    choice is kept, the account asked, the page loaded again: seconds on a loaded box)."""
    page.wait_for_selector("#account[data-state]")
    page.locator("#language-switch").select_option(language)
    expect(page.locator("html")).to_have_attribute("lang", language, timeout=20_000)
    page.wait_for_selector("#account[data-state]")


def test_a_new_visitor_whose_browser_asks_for_russian_gets_the_russian_lobby(web: Services, pages: Pages) -> None:
    ru = words("ru")
    page = pages.open(locale="ru-RU")
    page.goto(f"{web.url}/")
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    expect(page.locator("h1")).to_have_text(ru["Play by web"])
    expect(page.locator("#my-games-title")).to_have_text(ru["My games"])
    expect(page.locator("#new-game-title")).to_have_text(ru["New game"])
    expect(page.locator("#create-button")).to_have_text(ru["Create game"])
    # the modules' words come from the same catalog: the table's options and the account bar
    expect(page.locator("label[for='time-limit']")).to_have_text(ru["Time limit"])
    expect(page.locator("#sign-in-link")).to_have_text(ru["Sign in"])
    expect(page.locator("#language-switch")).to_have_value("ru")
    assert page.locator("#language-switch option").all_inner_texts() == ["English", "Русский", "Deutsch"]
    assert page.title() == ru["Play by web — lobby"]
    screenshot(page, "language-ru-lobby")
    # and an English reader of the same server still reads English
    english = pages.open(locale="en-GB")
    english.goto(f"{web.url}/")
    expect(english.locator("h1")).to_have_text("Play by web")


def test_the_switch_turns_every_page_german_and_keeps_it(web: Services, pages: Pages) -> None:
    de = words("de")
    page = pages.open(locale="ru-RU")
    page.goto(f"{web.url}/signin")
    switch_to(page, "de")
    expect(page.locator("h1")).to_have_text(de["Sign in"])
    expect(page.locator("#link-button")).to_have_text(de["Email me a sign-in link"])
    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", "de")
    cookie = next(c for c in page.context.cookies() if c["name"] == "magnate_lang")
    assert cookie["value"] == "de" and cookie["path"] == "/" and cookie["sameSite"] == "Lax"
    assert cookie["expires"] > time.time() + 360 * 24 * 3600, "kept for a year"
    for path, heading in (("/", "Play by web"), ("/settings", "Settings"), ("/rules/magnate", None)):
        page.goto(f"{web.url}{path}")
        expect(page.locator("html")).to_have_attribute("lang", "de")
        expect(page.locator("#language-switch")).to_have_value("de")
        if heading:
            expect(page.locator("h1")).to_have_text(de[heading])
    game_id = listed_game(web.url, [{"kind": "human"}, {"kind": "ai"}])
    page.goto(f"{web.url}/play/{game_id}")
    page.wait_for_selector("body[data-version]")
    expect(page.locator("#history-title")).to_have_text(de["History"])
    expect(page.locator("#turn-title")).to_have_text(de["Watching"])
    expect(page.locator("#language-switch")).to_have_value("de")
    screenshot(page, "language-de-game")


def test_a_signed_in_players_choice_is_kept_in_the_account(web: Services, pages: Pages) -> None:
    de = words("de")
    email = f"sprache-{uuid.uuid4().hex[:8]}@example.org"
    first = pages.open(locale="en-GB")
    sign_in_by_mail(first, web.url, email)
    first.goto(f"{web.url}/")
    first.wait_for_selector("#account[data-state='signed-in']")
    switch_to(first, "de")
    expect(first.locator("#settings-link")).to_have_text(de["Settings"])
    assert first.request.get(f"{web.url}/api/me").json()["language"] == "de"
    other = pages.open(locale="en-GB")  # another device: no cookie, an English browser
    sign_in_by_mail(other, web.url, email)
    other.goto(f"{web.url}/")
    expect(other.locator("html")).to_have_attribute("lang", "de")
    expect(other.locator("h1")).to_have_text(de["Play by web"])


def test_dates_and_counts_in_the_lobby_are_written_the_languages_way(web: Services, pages: Pages) -> None:
    open_id = listed_game(web.url, [{"kind": "human"}, {"kind": "human"}])
    live_id = listed_game(web.url, [{"kind": "human"}, {"kind": "ai"}])
    written = {
        "de": (re.compile(r"1 von 2 Plätzen frei, eingerichtet am \d{2}\.\d{2}\.\d{2}, \d{2}:\d{2}"),
               re.compile(r"letzter Zug (vor \d+ Sekunden?|vor \d+ Minuten?|jetzt)")),
        "ru": (re.compile(r"свободно 1 из 2 мест, создана \d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}"),
               re.compile(r"последний ход (\d+ секунд[уы]? назад|\d+ минут[уы]? назад|сейчас)")),
        "en": (re.compile(r"1 of 2 seats free, set up \d{1,2}/\d{1,2}/\d{2}, \d{1,2}:\d{2}\s?[AP]M"),
               re.compile(r"last move (\d+ seconds? ago|\d+ minutes? ago|now)")),
    }
    for language, (opened, moved) in written.items():
        page = pages.open(locale={"de": "de-DE", "ru": "ru-RU", "en": "en-US"}[language])
        page.goto(f"{web.url}/")
        expect(page.locator("html")).to_have_attribute("lang", language)
        expect(page.locator(f"#open-games-list li[data-game='{open_id}']")).to_contain_text(opened)
        expect(page.locator(f"#live-games-list li[data-game='{live_id}']")).to_contain_text(moved)


@pytest.mark.parametrize(("game", "language", "options"), [
    ("magnate", "ru", {"seats": [{"kind": "human"}, {"kind": "ai"}], "difficulty": "digital_assistant"}),
    ("decktet", "de", {"seats": [{"kind": "human"}, {"kind": "ai", "level": "easy"}]}),
])
def test_a_game_page_in_russian_and_german(
    web: Services, pages: Pages, game: str, language: str, options: dict[str, object]
) -> None:
    """A game under way, read by its seat in Russian or German: the moves, the board's words and the history
    (told by the server from the log's phrases) are the catalogs' (the README's screenshots)."""
    created = httpx.post(f"{web.url}/api/games", headers={"Idempotency-Key": uuid.uuid4().hex}, json={
        "game": game, "seed": "5c" * 16, "names": ["Ада" if language == "ru" else "Ada"],
        "options": options})
    assert created.status_code == 201, created.text
    body = created.json()
    token = next(s["token"] for s in body["seats"] if s["seat"] == 0)
    auth = {"Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=web.url, timeout=10) as client:
        for _ in range(8):  # a few first legal moves, the computer answering in between
            me = client.get(f"/api/games/{body['game_id']}/me", headers=auth).json()
            if not me.get("legal"):
                time.sleep(0.3)
                continue
            client.post(f"/api/games/{body['game_id']}/commands", headers=auth,
                        json={"command_id": uuid.uuid4().hex, "command": me["legal"][0]["command"]})
    page = pages.open(locale={"ru": "ru-RU", "de": "de-DE"}[language])
    page.goto(f"{web.url}/play/{body['game_id']}#token={token}")
    page.wait_for_selector("body[data-version]")
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.locator("#history-title")).to_have_text(words(language)["History"])
    lines = page.locator("#history-list li").all_inner_texts()
    assert lines, "the history tells the game so far"
    if language == "ru":
        assert all(re.search("[а-яё]", line, re.IGNORECASE) for line in lines if re.search("[A-Za-z]{4,}", line))
    page.wait_for_load_state("networkidle")
    screenshot(page, f"language-{language}-{game}", full_page=False)
