"""Playing in a real browser: the lobby, a solo game against the AI played by clicking for two full rounds
(bid, attract, buy, build, sell) with the AI's moves, the dice and the market step arriving live, a reload and
a fresh browser continuing from the invite link; a two-human game where seat 1 never sees seat 2's money;
and a finished game's standings, revealed seed and audit export."""

from __future__ import annotations

import asyncio
import json
import re
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, Request, Response, expect

from domain.kernel import Seat, tag_of
from domain.magnate import GAME, GameOptions, SeatSpec
from domain.magnate.bots import Greedy
from infra.config import Settings
from infra.errors import ConcurrencyConflict
from services.gameplay.bootstrap import build
from tests.conftest import drop_queue
from tests.live import Services

from .conftest import PHONE, Pages, screenshot

pytestmark = [pytest.mark.integration, pytest.mark.browser]

SEED = "5eed0f0a"
"""A fixed sandbox seed: the same tiles, 'for sale' plots and dice on every run."""


# -- driving the page ------------------------------------------------------------------------------------


def version(page: Page) -> int:
    value = page.locator("body").get_attribute("data-version")
    return int(value) if value else -1


def send(page: Page, control: Locator) -> None:
    """Click a control that submits a command and wait until the page shows the game after it (failing with
    the error the page shows, if any)."""
    before = version(page)
    control.click()
    page.wait_for_function(
        """(v) => Number(document.body.dataset.version) > v
              || [...document.querySelectorAll('#actions .error')].some((e) => e.textContent.trim())""",
        arg=before,
    )
    errors = [t for t in page.locator("#actions .error").all_inner_texts() if t.strip()]
    assert not errors, f"the page shows an error: {errors}"


def press(page: Page, control: Locator, key: str = "Enter") -> None:
    """Focus a control and press a key on it (keyboard only); wait for the game to move on."""
    before = version(page)
    control.focus()
    page.keyboard.press(key)
    page.wait_for_function("(v) => Number(document.body.dataset.version) > v", arg=before)


def my_move(page: Page, timeout_ms: int = 30_000) -> str:
    """Wait until it is this seat's turn; returns the kind of the first action form offered (after the engine's
    suggestion, which every phase begins with)."""
    moves = "#actions form:not([data-action='suggestion'])"
    page.wait_for_selector(f"body.my-turn {moves}", timeout=timeout_ms)
    kind = page.locator(moves).first.get_attribute("data-action")
    assert kind is not None
    return kind


def assert_fits(page: Page, width: int) -> None:
    """Nothing sticks out sideways (so the page never scrolls horizontally)."""
    wide = page.evaluate("""(w) => [...document.querySelectorAll('body *')]
        .filter((e) => e.getBoundingClientRect().right > w + 1)
        .map((e) => `${e.tagName.toLowerCase()}#${e.id}.${e.className.baseVal ?? e.className}`).slice(0, 8)""", width)
    assert page.evaluate("document.documentElement.scrollWidth") <= width and not wide, f"too wide: {wide}"


def game_round(page: Page) -> int:
    return int(page.locator("body").get_attribute("data-round") or 0)


def form(page: Page, action: str) -> Locator:
    return page.locator(f"#actions form[data-action='{action}']")


def option_value(select: Locator, text: str) -> str:
    value = select.locator("option", has_text=text).first.get_attribute("value")
    assert value is not None, f"no option with {text!r}"
    return value


def create_from_lobby(page: Page, url: str, seats: list[tuple[str, str]], difficulty: str | None = None) -> None:
    """Fill the lobby's form: ``seats`` = [(kind "human"/"ai", name)], then create the game."""
    page.goto(f"{url}/?seed={SEED}")
    page.wait_for_selector("#seat-count option", state="attached")
    page.get_by_label("Number of seats").select_option(str(len(seats)))
    for i, (kind, name) in enumerate(seats, start=1):
        page.get_by_label(f"Seat {i} is played by").select_option(kind)
        if name:
            page.get_by_label(f"Seat {i} player name").fill(name)
    if difficulty:
        page.get_by_label("AI difficulty").select_option(label=difficulty)
    page.get_by_role("button", name="Create game").click()
    if sum(kind == "human" for kind, _ in seats) > 1:
        expect(page.locator("#created")).to_be_visible()
    else:  # every other seat is the computer's: the game page opens at once, with no invite links
        page.wait_for_selector("body[data-version]")


# -- a solo game -------------------------------------------------------------------------------------------

ACTIONS = {1: ["buy", "build", "advertise"], 2: ["sell", "consult", "consult"]}
"""What this seat does in phase 3 of rounds 1 and 2."""


def take_action(page: Page, action: str, owned: list[str], shots: set[str]) -> None:
    f = form(page, action)
    if action == "buy":
        select = f.locator("select")
        plot = option_value(select, "(for sale)")
        select.select_option(plot)
        expect(f.locator(".price")).to_contain_text("the land price")
        send(page, f.get_by_role("button", name="Buy plot"))
        owned.append(plot)
    elif action == "build":
        select = f.locator("select")
        select.select_option(option_value(select, f"{owned[0]}: House"))
        expect(f.locator(".price")).to_contain_text("Cost 400K")
        send(page, f.get_by_role("button", name="Build"))
    elif action == "advertise":
        expect(f.locator(".price")).to_contain_text("free tokens")
        send(page, f.get_by_role("button", name="Advertise"))
    elif action == "consult":
        send(page, f.get_by_role("button", name=re.compile("^Consult: receive")))
    elif action == "sell":
        f.locator("select").select_option(owned[0])
        ask, box = f.locator("button", has_text="Sell…"), f.locator(".confirm")
        ask.click()
        expect(box).to_be_visible()
        expect(ask).to_be_hidden()  # the hidden attribute wins over the buttons' display: inline-block
        f.get_by_role("button", name="Cancel").click()
        expect(box).to_be_hidden()
        expect(ask).to_be_visible()
        ask.click()
        expect(ask).to_be_hidden()
        confirm = f.get_by_role("button", name=re.compile(f"^Confirm sale of {owned[0]} for"))
        expect(f.locator(".confirm-text")).to_contain_text(f"Sell {owned[0]} to the bank for")
        if "sell" not in shots:
            screenshot(page, "05-sell-confirmation")
            shots.add("sell")
        send(page, confirm)
        owned.pop(0)


def play_two_rounds(page: Page) -> set[str]:
    """Play this seat by clicking until round 3 begins; returns what it did."""
    done: set[str] = set()
    owned: list[str] = []
    plans = {r: list(a) for r, a in ACTIONS.items()}
    shots: set[str] = set()
    while True:
        kind = my_move(page)
        now = game_round(page)
        if now >= 3:
            return done
        if kind == "bid":
            bid = form(page, "bid")
            if "bid" not in done:
                if "bid" not in shots:
                    screenshot(page, "03-bidding")
                    shots.add("bid")
                send(page, bid.get_by_role("button", name="Place bid"))
                done.add("bid")
            else:
                send(page, bid.get_by_role("button", name="Pass"))
        elif kind == "attract":
            attract = form(page, "attract").first
            attract.get_by_label(re.compile("^Advertising tokens to commit")).fill("2")
            send(page, attract.get_by_role("button", name=re.compile("^Attract tenants to")))
            done.add("attract")
        elif kind == "use-advertising":
            advertising = form(page, "use-advertising")
            expect(advertising.locator("svg.die").first).to_be_visible()
            screenshot(page, "04-dice-and-advertising")
            send(page, advertising.get_by_role("button", name="Use advertising"))
        elif kind == "choose-tenants":
            send(page, form(page, "choose-tenants").get_by_role("button", name="Move them in"))
        elif kind == "finish":
            send(page, form(page, "finish").get_by_role("button", name=re.compile("^Finish attracting")))
        else:
            assert page.locator("body").get_attribute("data-phase") == "actions", kind
            action = plans[now].pop(0)
            take_action(page, action, owned, shots)
            done.add(action)


def test_a_solo_game_is_played_by_clicking_with_the_ai_and_the_market_arriving_live(
    web: Services, pages: Pages
) -> None:
    page = pages.open()
    create_from_lobby(page, web.url, [("human", "Ada"), ("ai", "")], difficulty="Generalised AI")
    invite = page.url  # the host's own link: the game page opened on it
    assert re.fullmatch(rf"{re.escape(web.url)}/play/[0-9a-f]+#token=.+", invite)
    expect(page.locator("#invites")).to_be_hidden()
    expect(page.locator("#game-title")).to_contain_text("Ada (Vector Properties)")
    page.evaluate("window.__sameDocument = true")  # gone if the page ever reloads

    done = play_two_rounds(page)
    assert done >= {"bid", "attract", "buy", "build", "sell"}

    # Everything arrived over the event stream, without a reload.
    assert page.evaluate("window.__sameDocument === true")
    history = page.locator("#history-list")
    expect(history.locator("li[data-event='magnate.ai_decided']").first).to_be_attached()
    expect(history.locator("li.market-line").first).to_be_attached()
    expect(history.locator("li", has_text="Round 3")).to_have_count(1)
    expect(page.locator("#ai-decisions li").first).to_be_visible()
    expect(page.locator("#dice svg.die").first).to_be_visible()
    # The history and the latest lines name the seats as the headers do: the player's name, then the company.
    told = history.inner_text()
    assert "Ada (Vector Properties) sells" in told
    assert "Vector Properties" not in told.replace("Ada (Vector Properties)", ""), "a seat named by its company"
    assert "Vector Properties" not in page.locator("#latest").inner_text().replace("Ada (Vector Properties)", "")
    expect(page.locator("#company-table tr[data-seat='0'] th .who")).to_have_text("Ada (Vector Properties)")
    # The AI's row names it once, with its difficulty (not "AI · AI").
    ai_row = page.locator("#company-table tr[data-seat='1'] th")
    expect(ai_row.locator(".who")).to_have_text("AI")
    expect(ai_row.locator(".kind")).to_have_text("(Generalised AI)")
    assert "AI · AI" not in ai_row.inner_text()
    # With a mouse, the map says to hover a plot.
    assert page.locator("#city-panel .hint").inner_text() == (
        "Hover a plot, or Tab to the map and use the arrow keys, to read it.")
    screenshot(page, "06-game-desktop", full_page=True)

    page.set_viewport_size(PHONE)
    assert_fits(page, PHONE["width"])
    move_first(page)
    screenshot(page, "07-game-phone", full_page=True)
    page.evaluate("window.scrollTo(0, 0)")
    # on a phone the move comes first: the replay, the plans and the notes only after it
    top = {panel: page.locator(panel).bounding_box() for panel in ("#turn", "#replay", "#plans")}
    assert all(box is not None for box in top.values()), top
    assert top["#turn"]["y"] < min(top["#replay"]["y"], top["#plans"]["y"]), top  # type: ignore[index]
    screenshot(page, "07-game-phone-screen")
    page.set_viewport_size({"width": 1400, "height": 1000})

    # A reload keeps the seat (the link's token) and the game goes on.
    page.reload()
    page.wait_for_selector("body[data-version]")
    assert game_round(page) == 3
    expect(page.locator("#company-table tr.mine")).to_contain_text("(you)")
    kind = my_move(page)
    assert kind == "bid"
    send(page, form(page, "bid").get_by_role("button", name="Pass"))

    # A fresh browser (no stored token) continues from the invite link alone.
    fresh = pages.open()
    fresh.goto(invite)
    fresh.wait_for_selector("body[data-version]")
    expect(fresh.locator("#game-title")).to_contain_text("Ada (Vector Properties)")
    assert game_round(fresh) == 3
    kind = my_move(fresh)
    if kind == "bid":
        send(fresh, form(fresh, "bid").get_by_role("button", name="Pass"))
    elif kind == "finish":
        send(fresh, form(fresh, "finish").get_by_role("button", name=re.compile("^Finish attracting")))
    else:
        send(fresh, form(fresh, "consult").get_by_role("button", name=re.compile("^Consult: receive")))
    fresh.goto(f"{web.url}/")
    expect(fresh.locator("#my-games-list li.game")).to_have_count(1)
    expect(fresh.locator("#my-games-list")).to_contain_text("Seat 1 (Ada)")


# -- two humans -------------------------------------------------------------------------------------------


def on_turn(page: Page) -> bool:
    return page.locator("body.my-turn").count() == 1


def refuse_once(page: Page, bid: Locator) -> None:
    """Submit a bid that the server refuses (the request is altered on its way to 150K, not a multiple of
    the step): the rule's error appears in words next to the bid's controls."""
    page.route("**/commands", lambda route: route.continue_(post_data=json.dumps(
        {**json.loads(route.request.post_data or "{}"), "command": {"type": "magnate.place_bid", "amount": 150}})))
    page.get_by_label(re.compile("^Your bid")).focus()
    page.keyboard.press("Enter")
    expect(bid.locator(".error")).to_contain_text("multiple of 100K")
    page.unroute("**/commands")
    screenshot(page, "08-error-in-words")


def auction_by_keyboard(seats: dict[str, Page]) -> None:
    """Each seat bids the suggested amount once (Enter in the amount field), then passes (Enter on Pass)."""
    first = next(iter(seats.values()))
    bid_made = dict.fromkeys(seats, False)
    refused = False
    for _ in range(300):
        if first.locator("body").get_attribute("data-phase") != "bidding":
            return
        for name, page in seats.items():
            if not on_turn(page) or page.locator("body").get_attribute("data-phase") != "bidding":
                continue
            bid = form(page, "bid")
            if bid_made[name]:
                press(page, bid.get_by_role("button", name="Pass"))
                continue
            if not refused:
                refuse_once(page, bid)
                refused = True
            press(page, page.get_by_label(re.compile("^Your bid")))
            bid_made[name] = True
        first.wait_for_timeout(100)
    raise AssertionError("the auction did not end")


def buy_a_plot_each(seats: dict[str, Page]) -> None:
    first = next(iter(seats.values()))
    bought = dict.fromkeys(seats, False)
    for _ in range(300):
        if all(bought.values()):
            return
        for name, page in seats.items():
            if bought[name] or not on_turn(page) or page.locator("body").get_attribute("data-phase") != "actions":
                continue
            buy = form(page, "buy")
            buy.locator("select").select_option(option_value(buy.locator("select"), "(for sale)"))
            send(page, buy.get_by_role("button", name="Buy plot"))
            bought[name] = True
        first.wait_for_timeout(100)
    raise AssertionError("the seats never got to buy")


def test_in_a_two_human_game_seat_1_never_sees_seat_2s_money(web: Services, pages: Pages) -> None:
    ada = pages.open()
    create_from_lobby(ada, web.url, [("human", "Ada"), ("human", "Bob")])
    bob_invite = ada.get_by_label("Invite link for seat 2").input_value()
    # The creator's browser holds only Ada's seat: "My games" never offers Bob's (nor says it is his turn).
    expect(ada.locator("#my-games-list li.game")).to_contain_text("Seat 1 (Ada)")
    expect(ada.locator("#my-games-list")).not_to_contain_text("Seat 2")

    seen: list[Response] = []
    urls: list[str] = []
    ada.on("response", lambda r: seen.append(r) if "/api/games/" in r.url and "/stream" not in r.url else None)
    ada.on("request", lambda r: urls.append(r.url))
    told: list[Request] = []  # the history and the log are redacted per caller: read as the seat
    ada.on("request", lambda r: told.append(r) if re.search(r"/(history|events)\?", r.url) else None)
    ada.get_by_role("link", name="Play seat 1").click()
    ada.wait_for_selector("body[data-version]")
    bob = pages.open()
    bob.goto(bob_invite)
    bob.wait_for_selector("body[data-version]")

    auction_by_keyboard({"ada": ada, "bob": bob})
    buy_a_plot_each({"ada": ada, "bob": bob})

    bob_cash = bob.locator("#company-table tr[data-seat='1'] .cash").inner_text()
    ada_cash = ada.locator("#company-table tr[data-seat='0'] .cash").inner_text()
    assert re.fullmatch(r"[\d,]+K", bob_cash) and bob_cash != ada_cash
    ada.wait_for_function(f"() => Number(document.body.dataset.version) >= {version(bob)}")
    expect(ada.locator("#company-table tr[data-seat='1'] .cash")).to_have_text("hidden")
    expect(ada.locator("#company-table tr[data-seat='1'] .advertising")).to_have_text("hidden")
    assert bob_cash not in ada.locator("body").inner_text()
    screenshot(ada, "09-two-humans-seat-1")

    views = 0
    for response in seen:
        if response.ok and "json" in response.headers.get("content-type", ""):
            body: Any = response.json()
            view = body.get("view") if isinstance(body, dict) else None
            if view is not None:
                views += 1
                assert view["seats"][1]["cash"] is None and view["seats"][1]["advertising"] is None
    assert views >= 3
    assert urls and not [u for u in urls if "token" in u.split("#")[0]], "a seat token in a URL the server sees"
    assert told and all(r.headers.get("authorization", "").startswith("Bearer ") for r in told), "read as the public"


# -- a finished game -------------------------------------------------------------------------------------


async def _finished_game(pg_dsn: str, redis_url: str) -> tuple[str, str]:
    """A solo game played to the crash in-process (a bot for the human, the system jobs run here), in
    the database the server uses: much faster than a real game, and the page cannot tell."""
    queue = f"magnate:test:idle:{uuid.uuid4().hex[:10]}"
    runtime = await build(Settings(database_url=pg_dsn, redis_url=redis_url, queue_name=queue, sandbox=True),
                          run_migrations=False)
    try:
        gameplay = runtime.gameplay
        options = GameOptions(seats=(SeatSpec("human"), SeatSpec("ai")), difficulty="digital_assistant")
        created = await gameplay.create_game("magnate", options, ["Ada", ""], bytes.fromhex(SEED))
        game_id = created.game_id
        token = next(s.token for s in created.seats if s.token)
        bot = Greedy(3)
        for n in range(20_000):
            loaded = await gameplay.load(game_id)
            due = GAME.pending(loaded.state)
            if due.finished:
                return game_id, token
            try:
                if due.system is not None:
                    await gameplay.run_system(game_id, loaded.version, tag_of(due.system))
                else:
                    command = bot(loaded.state, Seat(due.seats[0]))
                    await gameplay.submit(game_id, due.seats[0], f"bot-{n}", command, loaded.version)
            except ConcurrencyConflict:
                continue  # the worker's reconciler ran a job of this game first
        raise AssertionError("the game did not finish")
    finally:
        await runtime.close()
        drop_queue(redis_url, queue)


def test_a_finished_game_shows_the_standings_the_revealed_seed_and_the_audit_export(
    web: Services, pages: Pages, pg_dsn: str, redis_url: str
) -> None:
    with ThreadPoolExecutor(1) as thread:  # Playwright's sync API runs an event loop in this thread
        game_id, token = thread.submit(asyncio.run, _finished_game(pg_dsn, redis_url)).result()
    page = pages.open()
    page.goto(f"{web.url}/play/{game_id}#token={token}")
    final = page.locator("#final")
    expect(final).to_be_visible()
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")  # the recent dice were read
    expect(page.get_by_text("Last roll")).to_have_count(0)  # no roll from before the crash...
    standings_first(page)  # ...and the standings come first
    expect(final.locator("table.standings tbody tr")).to_have_count(2)
    expect(page.locator("#revealed-seed")).to_have_text(SEED)
    expect(page.locator("#status")).to_contain_text("game over")
    expect(page.locator("#history-list li", has_text="Final standings")).to_have_count(1)
    href = page.locator("#export-link").get_attribute("href")
    assert href == f"/api/games/{game_id}/export"
    export = page.request.get(f"{web.url}{href}")
    assert export.ok and b'"seed":"' + SEED.encode() in export.body().split(b"\n")[0]
    expect(page.locator("#seat-offer")).to_be_hidden()  # a finished game's seat cannot be kept in an account any more
    screenshot(page, "10-final-standings")
    page.set_viewport_size(PHONE)
    assert_fits(page, PHONE["width"])
    standings_first(page)
    screenshot(page, "11-final-phone")


def move_first(page: Page) -> None:
    """On a phone the move panel comes first and the chat last (a phone shows one panel at a time)."""
    turn, chat = page.locator("#turn").bounding_box(), page.locator("#chat").bounding_box()
    history = page.locator("#history").bounding_box()
    assert turn is not None and chat is not None and history is not None
    assert turn["y"] < history["y"] < chat["y"]


def standings_first(page: Page) -> None:
    """The final standings are above the (game over) move panel."""
    final, turn = page.locator("#final").bounding_box(), page.locator("#turn").bounding_box()
    assert final is not None and turn is not None
    assert final["y"] + final["height"] <= turn["y"], "the final standings are not first"


# -- keyboard ---------------------------------------------------------------------------------------------


def test_the_city_map_is_read_with_the_keyboard(web: Services, pages: Pages) -> None:
    page = pages.open(PHONE)
    create_from_lobby(page, web.url, [("human", ""), ("ai", "")], difficulty="Digital assistant")
    assert_fits(page, PHONE["width"])
    assert page.locator("#city-panel .hint").inner_text() == "Tap a plot to read it."  # a phone-width screen
    expect(page.locator("#company-table tr[data-seat='1'] th .kind")).to_have_text("(Digital assistant)")
    tablet = pages.open({"width": 1024, "height": 768}, has_touch=True, is_mobile=True)  # wide, but no hover
    tablet.goto(page.url)
    tablet.wait_for_selector("body[data-version]")
    assert tablet.locator("#city-panel .hint").inner_text() == "Tap a plot to read it."
    tablet.locator("#city g.plot[data-plot='0A']").tap()
    expect(tablet.locator("#plot-info h3")).to_contain_text("Plot 0A")
    plot = page.locator("#city g.plot[tabindex='0']")
    expect(plot).to_have_count(1)  # one tab stop for the whole map
    plot.focus()
    expect(page.locator("#plot-info h3")).to_contain_text("Plot 0E")
    page.keyboard.press("ArrowUp")
    expect(page.locator("#plot-info h3")).to_contain_text("Plot 0B")
    page.keyboard.press("Home")
    expect(page.locator("#plot-info h3")).to_contain_text("Plot 0A")
    assert page.evaluate("document.activeElement.dataset.plot") == "0A"
    expect(page.locator("#city g.plot[data-plot='1A']")).to_have_attribute("aria-label", re.compile("Plot 1A"))
