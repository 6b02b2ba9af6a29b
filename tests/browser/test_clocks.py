"""The table around the board in the browser (issue #13): a seat's clock counts down beside it by the server's time;
a player who walks away runs out of time, the worker applies the timeout and the computer plays their seat (the
other player's page says so, and the final standings say they timed out); the lobby's tutorial against the
computer seats one human and four stand-ins; a player resigns from the page; and a signed-in player goes on
vacation from the settings page."""

from __future__ import annotations

import re
import time
import uuid
from typing import Any

import httpx
import msgspec
import pytest
from playwright.sync_api import Page, Request, Route, expect

from tests.live import Services

from .conftest import DESKTOP, PHONE, Pages, screenshot
from .test_play_by_web import SEED, assert_fits, form, my_move, send
from .test_tables import sign_in_by_mail

pytestmark = [pytest.mark.integration, pytest.mark.browser]

CLOCK_S = 15
"""A short clock per move: long enough for a page to move, short enough to run out during the test."""
ADA_FIRST = "5eed0f0c"
"""A sandbox seed of a two-seat game where seat 1 (Ada) opens the bidding."""


def create(url: str, names: list[str], table: dict[str, Any], seats: int = 2) -> dict[str, Any]:
    body = {"game": "magnate", "seed": ADA_FIRST, "options": {"seats": [{"kind": "human"}] * seats}, "names": names,
            "table": table}
    response = httpx.post(f"{url}/api/games", json=body, headers={"Idempotency-Key": uuid.uuid4().hex})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def token_of(created: dict[str, Any], seat: int) -> str:
    return str(next(s["token"] for s in created["seats"] if s["seat"] == seat))


def seat_row(page: Page, seat: int) -> Any:
    return page.locator(f"#table-seats li[data-seat='{seat}']")


def play_out(url: str, game_id: str, token: str, limit_s: float = 60) -> dict[str, Any]:
    """Submit the seat's moves through the API (the first legal command each time) until the game is over."""
    auth = {"Authorization": f"Bearer {token}"}
    end = time.monotonic() + limit_s
    with httpx.Client(base_url=url, timeout=10) as client:
        while time.monotonic() < end:
            game = client.get(f"/api/games/{game_id}").json()
            if game["outcome"]:
                return dict(game)
            me = client.get(f"/api/games/{game_id}/me", headers=auth).json()
            if not me["legal"]:
                time.sleep(0.05)
                continue
            answer = client.post(f"/api/games/{game_id}/commands", headers=auth,
                                 json={"command_id": uuid.uuid4().hex, "command": me["legal"][0]["command"]})
            # the game may have moved on meanwhile (a stand-in's move): read again and go on
            assert answer.status_code in (200, 201, 409, 422), answer.text
            if answer.status_code == 422:
                assert answer.json()["code"].startswith("rule/"), answer.text
    raise AssertionError("the game did not end in time")


# -- (a) a player walks away: the timeout, the stand-in, the standings --------------------------------------------


def test_a_player_who_walks_away_times_out_and_the_computer_plays_the_seat(web: Services, pages: Pages) -> None:
    created = create(web.url, ["Ada", "Bob"], {"clock": {"kind": "per_move", "seconds": CLOCK_S},
                                               "on_timeout": "stand_in_game"})
    game_id, ada_token = created["game_id"], token_of(created, 0)
    ada = pages.open()
    ada.goto(f"{web.url}/play/{game_id}#token={ada_token}")
    ada.wait_for_selector("body[data-version]")
    expect(ada.locator("#time-control")).to_contain_text("15 seconds per move")
    expect(ada.locator("#table-control")).to_contain_text("the computer takes the seat over")
    # Ada opens the bidding: her clock counts down beside her seat (by the server's time), Bob's waits.
    expect(seat_row(ada, 0).locator(".clock")).to_have_text(re.compile(r"^0:(0\d|1[0-5]) left$"))
    expect(seat_row(ada, 1).locator(".clock")).to_have_text("")
    expect(ada.locator("#time-control #my-clock")).to_have_text(re.compile(r"^0:(0\d|1[0-5]) left$"))  # hers, on top
    # The countdown follows the server's clock, not the browser's: a browser an hour fast shows the same.
    fast = pages.open()
    fast.add_init_script("(() => { const real = Date.now; Date.now = () => real() + 3600000; })()")
    fast.goto(ada.url)
    fast.wait_for_selector("body[data-version]")
    expect(seat_row(fast, 0).locator(".clock")).to_have_text(re.compile(r"^0:(0\d|1[0-5]) left$"))
    fast.context.close()

    bob = pages.open()
    bob.goto(next(s["invite_url"] for s in created["seats"] if s["seat"] == 1))
    bob.wait_for_selector("body[data-version]")
    expect(seat_row(bob, 1)).to_contain_text("(you)")
    expect(bob.locator("#resign-button")).to_be_visible()
    expect(bob.locator("#leave-button")).to_be_visible()

    # Ada bids in the page; then it is Bob's turn, and Bob walks away without a move.
    assert my_move(ada) == "bid"
    send(ada, form(ada, "bid").get_by_role("button", name="Place bid"))
    expect(seat_row(bob, 1).locator(".clock")).to_have_text(re.compile(r"left$"))
    bob.context.close()
    expect(seat_row(ada, 1).locator(".clock")).to_have_text(re.compile(r"^0:\d\d left$"))

    # The worker applies the timeout: the computer plays Bob's seat, and Ada's page says so.
    bob_row = seat_row(ada, 1)
    expect(bob_row).to_have_attribute("data-stand-in", "greedy", timeout=CLOCK_S * 1000 + 20_000)
    expect(bob_row).to_have_attribute("data-reason", "timeout")
    expect(bob_row.locator(".stand-in")).to_have_text("played by the computer — timed out")
    expect(ada.locator("#history-list li[data-event='table.timed_out']")).to_contain_text("ran out of time")
    expect(ada.locator("#stood-in")).to_be_hidden()  # Ada's own seat is hers
    # Back on Ada's turn, her clock runs again: the page as it looks with clocks (the README's picture).
    my_move(ada)
    expect(seat_row(ada, 0).locator(".clock")).to_have_text(re.compile(r"left$"))
    screenshot(ada, "20-clocks-desktop")  # the README's docs/images/clocks.png is a copy of it

    # Ada's other moves go through the API (a Magnate game is long); her page follows live to the end.
    over = play_out(web.url, game_id, ada_token)
    notes = {s["seat"]: s["note"] for s in over["outcome"]["standings"]}
    assert notes == {0: "", 1: "timed_out"}
    final = ada.locator("#final")
    expect(final).to_be_visible(timeout=30_000)
    expect(final.locator("tr[data-seat='1'] td.note")).to_have_text("timed out")
    expect(final.locator("tr[data-seat='0'] td.note")).to_have_text("")
    expect(ada.locator("#my-seat-actions")).to_be_hidden()  # nothing to resign or leave once it is over
    screenshot(ada, "21-clocks-final")


# -- (b) the tutorial against the computer, from the lobby ------------------------------------------------------------


def test_the_lobbys_tutorial_against_the_computer_seats_one_human_and_four_stand_ins(
    web: Services, pages: Pages
) -> None:
    page = pages.open(PHONE)
    page.goto(f"{web.url}/?seed={SEED}")
    page.wait_for_selector("#seat-count option", state="attached")
    page.get_by_label("Time limit").select_option(label="1 day per move")
    expect(page.locator("#time-limit-hint")).to_contain_text("within a day")
    page.get_by_label("When time runs out").select_option(label="The computer plays that turn for them")
    expect(page.locator("#on-timeout-hint")).to_contain_text("makes that one move")
    page.get_by_label("Moves may be taken back").select_option(label="never")
    page.get_by_label("Tutorial against the computer").check()
    expect(page.get_by_label("Tutorial setup (fixed board from the rulebook)")).to_be_checked()
    expect(page.get_by_label("Number of seats")).to_have_value("5")
    expect(page.locator(".seat-note:visible")).to_have_count(4)
    page.get_by_label("Seat 1 player name").fill("Ada")
    assert_fits(page, PHONE["width"])
    sent: list[dict[str, Any]] = []

    def creating(request: Request) -> None:
        if request.method == "POST" and request.url.endswith("/api/games"):
            sent.append(request.post_data_json or {})

    page.on("request", creating)
    page.get_by_role("button", name="Create game").click()
    page.wait_for_selector("body[data-version]")  # every other seat is the computer's: the game page opens
    assert sent and sent[0]["table"] == {"clock": {"kind": "per_move", "seconds": 86400}, "takeback": True,
                                         "undo": "off", "on_timeout": "stand_in_move", "stand_ins": [1, 2, 3, 4]}
    assert sent[0]["options"]["tutorial"] is True and len(sent[0]["options"]["seats"]) == 5
    expect(page.locator("#invites")).to_be_hidden()
    expect(page.locator("#time-control")).to_contain_text("1 day per move")
    for seat in (1, 2, 3, 4):
        row = seat_row(page, seat)
        expect(row).to_have_attribute("data-stand-in", "greedy")
        expect(row.locator(".stand-in")).to_have_text("played by the computer")
    expect(seat_row(page, 0)).to_contain_text("(you)")
    # Ada opens the bidding; the stand-ins answer by themselves.
    assert my_move(page) == "bid"
    expect(seat_row(page, 0).locator(".clock")).to_have_text(re.compile(r"^(23 h \d\d min|1 day) left$"))
    send(page, form(page, "bid").get_by_role("button", name="Place bid"))
    # the stand-ins answer Ada's bid by themselves (the page's CSP forbids a string predicate: the locator polls)
    expect(page.locator("#history-list li[data-event^='magnate.bid_']").nth(1)).to_be_attached(timeout=15_000)
    assert_fits(page, PHONE["width"])
    screenshot(page, "22-tutorial-against-the-computer-phone", full_page=True)


# -- (c) resigning from the page ---------------------------------------------------------------------------------------


def test_a_player_resigns_from_the_page_and_the_standings_say_so(web: Services, pages: Pages) -> None:
    created = create(web.url, ["Ada"], {"clock": None, "stand_ins": [1]})
    game_id, token = created["game_id"], token_of(created, 0)
    page = pages.open()
    page.goto(f"{web.url}/play/{game_id}#token={token}")
    page.wait_for_selector("body[data-version]")
    expect(page.locator("#time-control")).to_contain_text("No time limit")
    # With the keyboard: the confirmation says what happens, Escape cancels, Enter confirms.
    ask = page.get_by_role("button", name="Resign…")
    ask.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#resign-confirm-text")).to_contain_text("the final standings put you last")
    expect(page.locator("#resign-cancel")).to_be_focused()
    page.keyboard.press("Escape")
    expect(page.locator("#resign-confirm")).to_be_hidden()
    expect(ask).to_be_focused()
    page.keyboard.press("Enter")
    page.get_by_role("button", name="Resign the game").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#table-status")).to_have_text("You resigned.")
    # The computer plays the seat out (with the other stand-in, to the end): the standings say she resigned.
    final = page.locator("#final")
    expect(final).to_be_visible(timeout=60_000)
    expect(final.locator("tr[data-seat='0'] td.note")).to_have_text("resigned")
    expect(final.locator("tbody tr").last).to_have_attribute("data-seat", "0")  # a resigned seat ranks last
    expect(page.locator("#history-list li[data-event='table.resigned']")).to_contain_text("resigned")
    game = httpx.get(f"{web.url}/api/games/{game_id}").json()
    assert [s["note"] for s in game["outcome"]["standings"]] == ["", "resigned"]


def test_a_read_that_answers_after_the_stream_moved_on_never_draws_the_game_back(web: Services, pages: Pages) -> None:
    """The page reads the game again after a resignation; here that read is answered with the game as it was before
    the resignation, and only once the computers have played the game to its end and the stream has brought that: the
    page must stay at the end, not go back to the older read for good (the stream has nothing more to send). The old
    answer is the one the page got when it loaded: an answer fetched after the resignation may already be the end (a
    system job decides the computers' turns in one go)."""
    created = create(web.url, ["Ada"], {"clock": None, "stand_ins": [1]})
    game_id, token = created["game_id"], token_of(created, 0)
    before: dict[str, tuple[int, dict[str, str], bytes]] = {}  # per route: the last answer before the resignation
    held: list[int] = []
    resigned = False

    def answer(route: Route) -> None:
        url = route.request.url
        if not resigned:
            fetched = route.fetch()
            before[url] = (fetched.status, fetched.headers, fetched.body())
            route.fulfill(response=fetched)
            return
        status, headers, body = before[url]
        held.append(msgspec.json.decode(body)["version"])
        end = time.monotonic() + 60
        while httpx.get(f"{web.url}/api/games/{game_id}").json()["status"] != "finished":
            assert time.monotonic() < end, "the computers did not finish the game"
            time.sleep(0.1)
        time.sleep(1.0)  # the stream brings the end to the page meanwhile
        route.fulfill(status=status, headers=headers, body=body)

    page = pages.open()
    page.route(re.compile(rf".*/api/games/{game_id}(/me)?$"), answer)
    page.goto(f"{web.url}/play/{game_id}#token={token}")
    page.wait_for_selector("body[data-version]")
    assert before, "the page read the game as it loaded"
    page.get_by_role("button", name="Resign…").click()
    resigned = True
    page.get_by_role("button", name="Resign the game").click()
    expect(page.locator("#table-status")).to_have_text("You resigned.")
    expect(page.locator("#history-list li[data-event='magnate.seed_revealed']")).to_be_attached(timeout=60_000)
    page.wait_for_timeout(1500)  # the late answers have come and been handled
    assert held, "the page read the game again after resigning"
    final = httpx.get(f"{web.url}/api/games/{game_id}").json()
    assert max(held) < final["version"]
    expect(page.locator("#final")).to_be_visible()
    expect(page.locator("body")).to_have_attribute("data-version", str(final["version"]))


def test_a_stand_in_plays_a_seat_that_left_until_its_player_takes_it_back(web: Services, pages: Pages) -> None:
    created = create(web.url, ["Ada", "Bob"], {"clock": None})
    game_id = created["game_id"]
    page = pages.open()
    page.goto(f"{web.url}/play/{game_id}#token={token_of(created, 0)}")
    page.wait_for_selector("body[data-version]")
    page.get_by_role("button", name="Leave the table…").click()
    expect(page.locator("#leave-confirm-text")).to_contain_text("You may come back and take the seat back")
    page.get_by_role("button", name="Leave the table", exact=True).click()
    note = page.locator("#stood-in")
    expect(note).to_contain_text("The computer plays your seat now. You left the table")
    expect(seat_row(page, 0)).to_have_attribute("data-reason", "left")
    page.get_by_role("button", name="Take my seat back").click()
    expect(note).to_be_hidden()
    expect(seat_row(page, 0)).to_have_attribute("data-stand-in", "")
    expect(seat_row(page, 0).locator(".mark")).to_have_text("left the table, then took the seat back")
    expect(page.get_by_role("button", name="Resign…")).to_be_visible()


# -- (d) a vacation from the settings page -----------------------------------------------------------------------------


def test_a_signed_in_player_goes_on_vacation_from_the_settings(web: Services, pages: Pages) -> None:
    page = pages.open(DESKTOP)
    sign_in_by_mail(page, web.url, f"away-{uuid.uuid4().hex[:6]}@example.com")
    page.goto(f"{web.url}/settings")
    facts = page.locator("#vacation-facts")
    expect(facts).to_contain_text("days a year")
    left = int(re.search(r"(\d+) days? left", facts.inner_text()).group(1))  # type: ignore[union-attr]
    days = page.get_by_label("Go on vacation for (days)")
    days.fill(str(left + 1))
    page.get_by_role("button", name="Go on vacation").click()
    expect(page.locator("#vacation-status")).to_have_text(
        f"That is more than you have left: at most {left} days this year.")
    days.fill("2")
    page.get_by_role("button", name="Go on vacation").click()
    expect(page.locator("#vacation-status")).to_contain_text("Enjoy your vacation")
    expect(page.locator("#vacation-away")).to_contain_text("You are on vacation until")
    expect(facts).to_contain_text(f"{left - 2} days left")
    expect(page.get_by_role("button", name="Go on vacation")).to_be_disabled()
    page.set_viewport_size(PHONE)
    assert_fits(page, PHONE["width"])
