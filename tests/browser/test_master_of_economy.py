"""Master of Economy in a real browser: a person against two computer players (one shrewd, one basic; the game's
own AI, its explanations in the log), three players with the additional corporation, played through the page by
clicking the engine's suggestion through at least one trade phase and one shareholders meeting (to the end if it
comes within the time budget); a sealed auction bid that neither the other seat's page nor a spectator's shows
before the reveal, then shown to all; the lobby's options creating the game they say; and a phone's width (375 px)
with no sideways scrolling."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.live import Services

from .conftest import DESKTOP, PHONE, Pages, screenshot

pytestmark = [pytest.mark.integration, pytest.mark.browser]

SEED = "0e0f5eed1234"
"""A fixed sandbox seed: the same draws on every run."""
BUDGET = 60.0
"""Seconds of clicking in the game against the computer (the game ends sooner or the test stops there)."""


def version(page: Page) -> str:
    return page.locator("body").get_attribute("data-version") or ""


def send(page: Page, control: Locator) -> bool:
    """Click a control that submits a command; wait until the page shows the game at the version the command
    reached (other seats move meanwhile: a newer version may come first), or fail on an error in words. False:
    another seat moved first (several seats may be on turn at once), the page says so and shows the new state."""
    with page.expect_response(lambda r: r.url.endswith("/commands") and r.request.method == "POST") as response:
        control.click()
    answer = response.value
    if answer.status == 409 and answer.json().get("code") == "conflict/version":
        return False
    said = page.locator("#actions .error").all_inner_texts()
    assert answer.ok, f"refused: {answer.status} {answer.text()} (the page says {said})"
    reached = int(answer.json()["version"])
    deadline = time.monotonic() + 20
    while int(version(page) or 0) < reached:  # the CSP forbids string predicates in wait_for_function
        assert time.monotonic() < deadline, f"the page never showed version {reached}"
        page.wait_for_timeout(30)
    return True


def assert_fits(page: Page, width: int) -> None:
    """Nothing sticks out sideways (so the page never scrolls horizontally)."""
    wide = page.evaluate("""(w) => [...document.querySelectorAll('body *')]
        .filter((e) => e.getBoundingClientRect().right > w + 1 && e.getClientRects().length)
        .map((e) => `${e.tagName.toLowerCase()}#${e.id}.${e.className.baseVal ?? e.className}`).slice(0, 8)""", width)
    assert page.evaluate("document.documentElement.scrollWidth") <= width and not wide, f"too wide: {wide}"


def open_lobby(page: Page, url: str) -> None:
    page.goto(f"{url}/?game=master_of_economy&seed={SEED}")
    expect(page.locator("#game-options[data-game='master_of_economy']")).to_be_attached()


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


def create_for_two(ada: Page, url: str, *, names: bool, auction: bool) -> tuple[dict[str, Any], list[str]]:
    """From the lobby, a game of two people, the companies assigned at random (``names``: Ada and Bob;
    ``auction``: the start order by sealed bids); Ada's page then plays seat 1. Returns the creating request's body
    and the two seats' invite links."""
    open_lobby(ada, url)
    ada.locator("#seat-count").select_option("2")
    ada.get_by_label("Seat 2 is played by").select_option("human")
    if names:
        ada.get_by_label("Seat 1 player name").fill("Ada")
        ada.get_by_label("Seat 2 player name").fill("Bob")
    ada.locator("#moe-assignment").select_option("random")
    if auction:
        ada.locator("#moe-start_order").select_option("auction")
    body = create(ada)
    invites = [ada.get_by_label(f"Invite link for seat {seat}").input_value() for seat in (1, 2)]
    play_seat_1(ada)
    return body, invites


def join(pages: Pages, url: str, ada: Page, bob_invite: str, step: str) -> tuple[str, Page, Page]:
    """Bob's page (from his invite) and a spectator's beside Ada's, all three waited for until they show ``step``.
    Returns the game's id and the two new pages."""
    game_id = ada.url.split("/play/")[1].split("#")[0]
    bob = pages.open()
    bob.goto(bob_invite)
    watcher = pages.open()
    watcher.goto(f"{url}/play/{game_id}")
    for page in (ada, bob, watcher):
        page.wait_for_selector(f"body[data-step='{step}']")
    return game_id, bob, watcher


def me(page: Page, url: str, game_id: str, token: str) -> dict[str, Any]:
    answer: dict[str, Any] = page.request.get(f"{url}/api/games/{game_id}/me",
                                              headers={"Authorization": f"Bearer {token}"}).json()
    return answer


# -- against the computer ------------------------------------------------------------------------------------


def test_a_person_plays_against_two_computers_through_trade_and_a_meeting(web: Services, pages: Pages) -> None:
    page = pages.open()
    open_lobby(page, web.url)
    # by default: three players with the additional corporation, the computer (shrewd) playing seats 2 and 3
    expect(page.locator("#seat-count")).to_have_value("3")
    expect(page.get_by_label("Seat 2 is played by")).to_have_value("ai")
    expect(page.get_by_label("Seat 3 is played by")).to_have_value("ai")
    expect(page.locator("#seat-1-level")).to_have_value("shrewd")
    expect(page.locator("#seat-0-level")).to_be_hidden()
    page.locator("#seat-2-level").select_option("basic")
    expect(page.locator("#moe-additional_corporation")).to_be_checked()
    page.get_by_label("Seat 1 player name").fill("Ada")
    body = create(page)
    assert body["game"] == "master_of_economy"
    assert body["options"] == {"players": 3, "additional_corporation": True, "seats": [
        {"kind": "human"}, {"kind": "ai", "level": "shrewd"}, {"kind": "ai", "level": "basic"}]}
    assert "table" not in body  # the game's own computer, not the table's stand-in
    play_seat_1(page)
    expect(page).to_have_url(re.compile(r"/play/[0-9a-f]+#token="))  # no invite links to hand out: the game opens
    expect(page.locator("#game-title")).to_contain_text("Ada")
    expect(page.locator("#players li[data-seat='1']")).to_contain_text("Computer 2 (shrewd)")
    expect(page.locator("#players li[data-seat='2']")).to_contain_text("Computer 3 (basic)")
    expect(page.locator("#market-board .market-row")).to_have_count(6)
    expect(page.locator("#phases li")).to_have_count(10)

    page.set_viewport_size(PHONE)
    page.locator("body.my-turn #play-suggestion").wait_for()
    assert_fits(page, PHONE["width"])
    screenshot(page, "moe-01-phone", full_page=True)
    page.set_viewport_size(DESKTOP)

    seen: set[tuple[str, str]] = set()
    clicks = 0
    final = page.locator("#final")
    shot = False
    start = time.monotonic()
    while time.monotonic() - start < BUDGET:
        page.locator("body.my-turn #play-suggestion, #final:not([hidden])").first.wait_for(timeout=30_000)
        if final.is_visible():
            break
        body_data = page.locator("body")
        phase, step = (body_data.get_attribute(f"data-{k}") or "" for k in ("phase", "step"))
        seen.add((phase, step))
        if phase in {str(n) for n in range(1, 11)}:  # not the setup (0) nor the next stage's order (11)
            expect(page.locator(f"#phases li[data-phase='{phase}']")).to_have_attribute("aria-current", "step")
        expect(page.locator("#status")).to_contain_text("your turn")
        if step in ("propose", "vote", "stand", "ballot"):  # whose meeting, and where it stands
            expect(page.locator("#meeting-line")).to_contain_text("The meeting treats")
        if step == "tokens":  # a sealed choice: the count, never what the others chose
            expect(page.locator("#sealed-note")).to_contain_text("Sealed:")
        if not shot and phase in ("4", "9") and page.locator("#market .field.taken").count() >= 2:
            screenshot(page, "moe-02-game-desktop", full_page=True)
            page.set_viewport_size(PHONE)  # the boards, the market and the moves on a phone
            expect(page.locator("#corporations .corp")).to_have_count(4)  # three and the AC
            assert_fits(page, PHONE["width"])
            screenshot(page, "moe-05-game-phone", full_page=True)
            page.set_viewport_size(DESKTOP)
            shot = True
        clicks += send(page, page.locator("#play-suggestion"))
    phases = {p for p, _ in seen}
    steps = {s for _, s in seen}
    assert "tokens" in steps, f"no sealed choice of Ada's in {sorted(seen)}"  # (the computers stand for manager
    # only where they hold shares, so Ada's first meetings may have no ballot: test_secrets has the ballots)
    assert "4" in phases or "9" in phases, f"no trade phase in {sorted(seen)}"
    assert "10" in phases, f"no shareholders meeting in {sorted(seen)}"
    assert "11" in phases, f"no receipts for the next stage in {sorted(seen)}"
    assert clicks > 20 and shot
    expect(page.locator("#corporations .corp")).to_have_count(4)  # three and the AC
    expect(page.locator("#history-list li").first).to_be_attached()
    # the computer's decisions are told in the log with their reasons (public facts only)
    expect(page.locator("#history-list")).to_contain_text("Computer 2 (shrewd) ")
    expect(page.locator("#history-list")).not_to_contain_text("(shrewd) (shrewd)")  # the level said once
    expect(page.locator("#history-list")).to_contain_text("commits its AC token (sealed until the AC scores).")
    if final.is_visible():  # the game ended within the budget: the standings and the seed
        expect(final.locator("table.standings tbody tr")).to_have_count(3)
        expect(page.locator("#status")).to_contain_text("Game over")
        expect(page.locator("#actions")).to_contain_text("The game is over.")
        screenshot(page, "moe-04-final-standings")


# -- a sealed choice ------------------------------------------------------------------------------------------


def test_a_sealed_bid_is_seen_by_nobody_else_before_the_reveal(web: Services, pages: Pages) -> None:
    ada = pages.open()
    body, [_, bob_invite] = create_for_two(ada, web.url, names=True, auction=True)
    assert body["options"] == {"players": 2, "additional_corporation": True, "assignment": "random",
                               "start_order": "auction"}
    assert "table" not in body
    bob_token = bob_invite.split("#token=")[1]
    game_id, bob, watcher = join(pages, web.url, ada, bob_invite, "auction")
    for page in (ada, bob, watcher):
        expect(page.locator("#sealed-count")).to_have_text("Sealed: 0 of 2 have chosen")
    assert ada.request.get(f"{web.url}/api/games/{game_id}").json()["on_turn"] == [0, 1]  # both at once
    for page in (ada, bob):
        expect(page.locator("body.my-turn #status")).to_contain_text("your turn")
    expect(watcher.locator("body:not(.my-turn) #status")).to_contain_text("waiting for Ada and Bob")

    form = ada.locator("#actions form[data-action='bid-for-order']")
    form.get_by_label("amount").fill("7")
    send(ada, form.get_by_role("button", name="Send"))
    expect(ada.locator("#sealed-count")).to_have_text("Sealed: 1 of 2 have chosen")
    expect(ada.locator("#players li[data-seat='0'] .own-choice")).to_have_text(" · your sealed choice: 7")
    expect(ada.locator("#actions")).to_contain_text("Your choice: 7 (only you see it)")
    for page in (bob, watcher):
        expect(page.locator("#sealed-count")).to_have_text("Sealed: 1 of 2 have chosen")
        expect(page.locator("#players li[data-seat='0'] .sealed-status")).to_have_text(" · has chosen")
        expect(page.locator("#players li[data-seat='0'] .own-choice")).to_have_count(0)
        expect(page.locator("body")).not_to_contain_text("start bid")
        expect(page.locator("body")).not_to_contain_text("sealed choice: 7")
    assert me(bob, web.url, game_id, bob_token)["view"]["players"][0]["choice"] is None
    expect(ada.locator("body:not(.my-turn) #status")).to_contain_text("waiting for Bob")
    expect(bob.locator("body.my-turn #status")).to_contain_text("your turn")
    screenshot(bob, "moe-03-sealed-bob")

    form = bob.locator("#actions form[data-action='bid-for-order']")
    form.get_by_label("amount").fill("3")
    send(bob, form.get_by_role("button", name="Send"))
    for page in (ada, bob, watcher):  # revealed together
        expect(page.locator("#players li[data-seat='0']")).to_contain_text("start bid 7 €")
        expect(page.locator("#players li[data-seat='1']")).to_contain_text("start bid 3 €")
    expect(watcher.locator("#actions")).to_contain_text("You are watching this game")


def test_a_sealed_choice_sent_from_a_page_that_missed_anothers_is_not_lost(web: Services, pages: Pages) -> None:
    """Bob's page has not heard of Ada's sealed bid when he sends his (its version is behind): the server refuses
    the version, and the page, seeing that the step is simultaneous and Bob still owes his choice, sends the same
    bid again on the game as it is now; Bob is never asked to choose twice."""
    ada = pages.open()
    _, [_, bob_invite] = create_for_two(ada, web.url, names=False, auction=True)
    bob = pages.open()
    bob.route("**/stream*", lambda route: route.abort())  # his page hears nothing live
    bob.goto(bob_invite)
    bob.wait_for_selector("body[data-step='auction']")
    expect(bob.locator("#sealed-count")).to_have_text("Sealed: 0 of 2 have chosen")
    ada.wait_for_selector("body[data-step='auction']")
    form = ada.locator("#actions form[data-action='bid-for-order']")
    form.get_by_label("amount").fill("5")
    assert send(ada, form.get_by_role("button", name="Send"))
    expect(bob.locator("#sealed-count")).to_have_text("Sealed: 0 of 2 have chosen")  # still behind

    answers: list[int] = []
    bob.on("response", lambda r: answers.append(r.status) if r.url.endswith("/commands") else None)
    form = bob.locator("#actions form[data-action='bid-for-order']")
    form.get_by_label("amount").fill("2")
    form.get_by_role("button", name="Send").click()
    for seat, bid in ((0, 5), (1, 2)):  # both in: revealed together (Ada's page hears it live)
        expect(ada.locator(f"#players li[data-seat='{seat}']")).to_contain_text(f"start bid {bid} €")
    assert answers == [409, 200]
    expect(bob.locator("#notice")).to_have_text("")
    expect(bob.locator("#actions .error")).to_have_count(0)


# -- the lobby's options ---------------------------------------------------------------------------------------


def test_the_lobbys_options_create_a_two_against_two_game(web: Services, pages: Pages) -> None:
    page = pages.open()
    open_lobby(page, web.url)
    expect(page.locator("#moe-teams")).to_be_disabled()
    expect(page.locator("#moe-teams-note")).to_have_text("Only for 4 players.")
    page.locator("#seat-count").select_option("4")
    expect(page.locator("#seat-list .seat-row")).to_have_count(4)
    expect(page.locator("#moe-additional_corporation")).to_be_disabled()
    expect(page.locator("#moe-additional_corporation-note")).to_have_text("Only for 2 or 3 players.")
    page.get_by_label("2 vs. 2 (4 players)").check()
    page.get_by_label("Hidden player cash").check()
    page.get_by_label("Limited commodity supply").uncheck()
    for seat in (2, 3, 4):
        page.get_by_label(f"Seat {seat} is played by").select_option("ai")
    page.locator("#seat-3-level").select_option("basic")
    page.set_viewport_size(PHONE)
    assert_fits(page, PHONE["width"])
    page.set_viewport_size(DESKTOP)
    body = create(page)
    assert body["options"] == {"players": 4, "teams": True, "player_cash_hidden": True,
                               "finite_commodity_supply": False, "seats": [
                                   {"kind": "human"}, {"kind": "ai", "level": "shrewd"},
                                   {"kind": "ai", "level": "shrewd"}, {"kind": "ai", "level": "basic"}]}
    assert "table" not in body
    play_seat_1(page)
    game_id = page.url.split("/play/")[1].split("#")[0]
    variant = page.request.get(f"{web.url}/api/games/{game_id}").json()["view"]["variant"]
    assert (variant["players"], variant["teams"], variant["player_cash_hidden"], variant["finite_commodity_supply"]) \
        == (4, [[0, 1], [2, 3]], True, False)
    assert [s["level"] for s in variant["seats"]] == [None, "shrewd", "shrewd", "basic"]
    expect(page.locator("#players li[data-seat='2']")).to_contain_text("team 2")
    page.locator("body.my-turn #play-suggestion").wait_for()
    expect(page.locator("#players li[data-seat='1'] .cash")).to_have_text("Cash hidden")


# -- the standing shortfall preferences (§17) ----------------------------------------------------------------------


def test_a_seat_sets_its_shortfall_preferences_outside_its_turn_and_only_it_sees_them(
        web: Services, pages: Pages) -> None:
    """Spec §17, "Interrupts": the seat not on turn sets "give up to X" and a ranked sale order from its page; the
    game still waits for the same seat; the other seat's page, a spectator and the API's other views never show
    them; the form fits a phone; clearing them says the seat is asked again."""
    ada = pages.open()
    _, [ada_invite, bob_invite] = create_for_two(ada, web.url, names=True, auction=False)
    game_id, bob, watcher = join(pages, web.url, ada, bob_invite, "investments")
    on_turn = ada.request.get(f"{web.url}/api/games/{game_id}").json()["on_turn"]
    assert len(on_turn) == 1
    waiting = 1 - on_turn[0]
    mine, other = (ada, bob) if waiting == 0 else (bob, ada)
    tokens = [ada_invite.split("#token=")[1], bob_invite.split("#token=")[1]]
    expect(mine.locator("body:not(.my-turn) #status")).to_contain_text("waiting for")
    expect(watcher.locator("#shortfall-prefs")).to_have_count(0)

    prefs = mine.locator("#shortfall-prefs")
    expect(prefs.locator("#prefs-now")).to_have_text("None: you are asked at each shortfall.")
    prefs.locator("summary").click()
    prefs.get_by_label("Give up to (€)").fill("6")
    prefs.locator("#prefs-rank-0").select_option("shipyard")
    prefs.locator("#prefs-rank-1").select_option("quarry")
    mine.set_viewport_size(PHONE)
    assert_fits(mine, PHONE["width"])
    screenshot(mine, "moe-06-shortfall-preferences-phone", full_page=True)
    mine.set_viewport_size(DESKTOP)
    assert send(mine, prefs.get_by_role("button", name="Set"))
    expect(prefs.locator("#prefs-now")).to_contain_text("Give up to 6 € of your cash, then sell Shipyard, then Quarry")
    assert ada.request.get(f"{web.url}/api/games/{game_id}").json()["on_turn"] == on_turn  # not a move
    expect(mine.locator("body:not(.my-turn) #status")).to_contain_text("waiting for")
    assert me(mine, web.url, game_id, tokens[waiting])["view"]["players"][waiting]["preferences"] == {
        "cover_up_to": 6, "sell_first": ["shipyard", "quarry"]}
    assert me(other, web.url, game_id, tokens[1 - waiting])["view"]["players"][waiting]["preferences"] is None
    assert ada.request.get(f"{web.url}/api/games/{game_id}").json()["view"]["players"][waiting]["preferences"] is None
    for page in (other, watcher):
        page.reload()
        page.wait_for_selector("body[data-version]")
        expect(page.locator("body")).not_to_contain_text("6 € of your cash")
        expect(page.locator("body")).not_to_contain_text("shortfall preferences:")  # nor the log's line
    expect(other.locator("#prefs-now")).to_have_text("None: you are asked at each shortfall.")  # its own
    expect(mine.locator("#history-list")).to_contain_text("sets standing shortfall preferences")

    assert send(mine, prefs.get_by_role("button", name="Clear"))
    expect(prefs.locator("#prefs-now")).to_have_text("None: you are asked at each shortfall.")
