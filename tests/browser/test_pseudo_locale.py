"""Nothing escapes the catalogs: every page in the pseudo-locale ``en-XA`` (each word of the catalogs accented and
bracketed, ``⟦Ýòùŕ ţùŕñ⟧``) shows no plain English.

A server that offers the pseudo-locale (``MAGNATE_PSEUDO_LOCALE``) serves the lobby, sign-in, settings, a game's
rules, and a game page of each game (board, moves, history, clocks, chat) to a browser that chose it; every text
node, title, label and placeholder is read, the bracketed words and what is not words are taken out, and what
is left must hold no English: no run of two Latin letters but the proper names the editions keep untranslated
(a name translated the same in every catalog) and what the players typed."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page

from domain.games import GAMES as OFFERED
from services.language.catalogs import catalogs_for, forms_of, read_catalog
from services.language.pseudo import CLOSE, OPEN, PSEUDO
from tests.conftest import drop_queue, own_database
from tests.live import DEV_MAILBOX, Services

from .conftest import Pages
from .test_tables import sign_in_by_mail

pytestmark = [pytest.mark.integration, pytest.mark.browser]

NAMES = ["Αλφα", "Βήτα", "Γάμμα"]
"""The players' names, in Greek letters: what players type is theirs and is not translated."""
CHAT = "Καλή τύχη"

GAMES: dict[str, dict[str, Any]] = {
    "magnate": {"seats": [{"kind": "human"}, {"kind": "human"}]},
    "decktet": {"seats": [{"kind": "human"}, {"kind": "human"}]},
    "master_of_economy": {"players": 3, "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]},
}

COLLECT = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest("script, style, template, noscript")) continue;
    const text = node.textContent.trim();
    if (text) out.push([parent.tagName + (parent.id ? "#" + parent.id : ""), text]);
  }
  for (const el of document.querySelectorAll("[title], [aria-label], [placeholder], [alt]")) {
    for (const name of ["title", "aria-label", "placeholder", "alt"]) {
      const value = el.getAttribute(name);
      if (value && value.trim()) out.push([el.tagName + "@" + name, value.trim()]);
    }
  }
  for (const el of document.querySelectorAll("input[type=submit], input[type=button]")) {
    if (el.value) out.push([el.tagName + "@value", el.value]);
  }
  out.push(["title", document.title]);
  return out;
}"""

_BRACKETED = re.compile(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}")
_ENGLISH = re.compile(r"[A-Za-z]{2,}")
_URL = re.compile(r"https?://\S+")
"""An example address (a placeholder) is not words."""


@pytest.fixture(scope="module")
def pseudo_web(redis_url: str) -> Iterator[Services]:
    """A server offering the pseudo-locale, on a database of its own: the lobby lists only this module's games
    (other tests' open games name their players in plain Latin letters, which are theirs, not the catalogs')."""
    queue = f"magnate:test:pseudo:{uuid.uuid4().hex[:10]}"
    with own_database("magnate_pseudo") as dsn:
        running = Services.start(dsn, redis_url, queue, env={**DEV_MAILBOX, "MAGNATE_PSEUDO_LOCALE": "1"})
        try:
            yield running
        finally:
            running.stop()
            drop_queue(redis_url, queue)


def kept_names() -> set[str]:
    """Words every catalog leaves as they are (company and neighbourhood names the editions print in Latin
    letters, the games' titles): the same in Russian and German as in English."""
    catalogs = catalogs_for("domain.games:GAMES", ("en", "ru", "de"), False)
    kept: set[str] = {game.title for game in OFFERED.values()}  # the games' titles stay as printed
    for domain in catalogs.domains.values():
        ru, de = read_catalog(domain, "ru"), read_catalog(domain, "de")
        if ru is None or de is None:
            continue
        for message in ru:
            other = de.get(message.id, context=message.context)
            if message.id and other is not None and forms_of(message.string) == forms_of(message.id) == \
                    forms_of(other.string):
                kept.update(forms_of(message.id))
    return kept


def leftovers(page: Page, kept: set[str]) -> list[str]:
    """What the page shows that is English: each text with the catalogs' (bracketed) words, the players' words
    and the kept names taken out, if a run of two Latin letters is left."""
    found = []
    for where, text in page.evaluate(COLLECT):
        rest = _URL.sub(" ", text)
        while (stripped := _BRACKETED.sub(" ", rest)) != rest:
            rest = stripped
        for word in sorted((*kept, *NAMES, CHAT), key=len, reverse=True):
            rest = rest.replace(word, " ")
        if _ENGLISH.search(rest):
            found.append(f"{where}: {text!r}")
    return found


def pseudo_page(pages: Pages, url: str) -> Page:
    page = pages.open()
    page.context.add_cookies([{"name": "magnate_lang", "value": PSEUDO, "url": url}])
    return page


def create(url: str, game: str) -> dict[str, Any]:
    seats = len(GAMES[game]["seats"])
    response = httpx.post(f"{url}/api/games", headers={"Idempotency-Key": uuid.uuid4().hex}, json={
        "game": game, "options": GAMES[game], "names": NAMES[:seats],
        "table": {"clock": {"kind": "per_move", "seconds": 3600}}})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def play_a_little(url: str, created: dict[str, Any], moves: int) -> None:
    """A few first-legal moves by whoever may move, so the history, the clocks and the board have something."""
    tokens = [s["token"] for s in created["seats"]]
    game_id = created["game_id"]
    with httpx.Client(base_url=url, timeout=10) as client:
        for _ in range(moves):
            for token in tokens:
                auth = {"Authorization": f"Bearer {token}"}
                me = client.get(f"/api/games/{game_id}/me", headers=auth).json()
                if me.get("legal"):
                    client.post(f"/api/games/{game_id}/commands", headers=auth,
                                json={"command_id": uuid.uuid4().hex, "command": me["legal"][0]["command"]})
                    break
        said = client.post(f"/api/games/{game_id}/chat", headers={"Authorization": f"Bearer {tokens[0]}"},
                           json={"text": CHAT})
        assert said.status_code == 201, said.text


def test_the_lobby_sign_in_settings_and_rules_show_no_english(pseudo_web: Services, pages: Pages) -> None:
    kept = kept_names()
    page = pseudo_page(pages, pseudo_web.url)
    for path in ("/", "/signin", "/rules/magnate", "/rules/decktet", "/rules/master_of_economy",
                 "/leaderboard/magnate", "/players/nobody"):
        page.goto(f"{pseudo_web.url}{path}")
        page.wait_for_load_state("networkidle")
        assert page.locator("html").get_attribute("lang") == PSEUDO
        assert leftovers(page, kept) == [], path
    email = f"alpha-{uuid.uuid4().hex[:8]}@example.org"
    sign_in_by_mail(page, pseudo_web.url, email)
    me = page.request.get(f"{pseudo_web.url}/api/me").json()
    for path in ("/", "/settings", f"/players/{me['player_id']}"):
        page.goto(f"{pseudo_web.url}{path}")
        page.wait_for_load_state("networkidle")
        own = {email, email.partition("@")[0]}  # the account's name is the player's words
        assert leftovers(page, kept | own) == [], path


@pytest.mark.parametrize("game", list(GAMES))
def test_a_game_page_shows_no_english(pseudo_web: Services, pages: Pages, game: str) -> None:
    kept = kept_names()
    created = create(pseudo_web.url, game)
    play_a_little(pseudo_web.url, created, moves=6)
    page = pseudo_page(pages, pseudo_web.url)
    page.goto(f"{pseudo_web.url}/play/{created['game_id']}#token={created['seats'][0]['token']}")
    page.wait_for_selector("body[data-version]")
    page.wait_for_selector("#chat-list li")
    page.wait_for_load_state("networkidle")
    assert leftovers(page, kept) == []
