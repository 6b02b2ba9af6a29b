"""Magnate's own notices (``tell``): a seat whose standing bid is beaten is told it was outbid, and every human
seat is told when the property market has run, with the land price it left behind."""

from __future__ import annotations

from typing import Any

from babel.support import NullTranslations

from domain.kernel import SYSTEM
from domain.kernel.notices import Notice
from domain.kernel.table import SeatClaimed
from domain.magnate import GAME, MagnateState
from domain.magnate.commands import PassBid, PlaceBid, ProcessMarket
from domain.magnate.notices import tell
from domain.magnate.state import Phase
from services.language.render import Renderer

from .builders import in_bidding, in_market, play_to_end, run, started_as, tutorial

VECTOR, GREYFIELD, PENFORTH = 0, 1, 2


def told(before: MagnateState, actor: Any, command: Any, first_version: int = 10) -> tuple[list[Notice], Any]:
    """The notices of one command, its events numbered from ``first_version``."""
    events, after = run(before, actor, command)
    numbered = list(enumerate(events, start=first_version))
    return tell(before, numbered, after), after


def words(notice: Notice) -> str:
    """The notice in English, each seat named by its company (as the players' names would name them)."""
    assert notice.phrase is not None and not notice.text
    companies = ("Vector Properties", "Greyfield", "Penforth Davey")
    return Renderer(NullTranslations(), "en", companies.__getitem__).text(notice.phrase)


def three_seat_auction() -> MagnateState:
    return in_bidding(started_as("vector_properties", "greyfield", "penforth_davey"), opener=GREYFIELD)


def test_a_seat_whose_highest_bid_is_beaten_is_told_it_was_outbid_with_both_amounts() -> None:
    state = three_seat_auction()
    notices, state = told(state, GREYFIELD, PlaceBid(amount=100))
    assert notices == []  # nobody held a bid
    _, state = run(state, PENFORTH, PassBid())

    notices, state = told(state, VECTOR, PlaceBid(amount=300), first_version=42)

    assert [(n.seat, n.kind, n.version) for n in notices] == [(GREYFIELD, "outbid", 42)]
    assert words(notices[0]) == "Vector Properties bid 300K, beating your 100K"


def test_outbid_goes_to_the_seat_that_held_the_bid_not_to_earlier_bidders() -> None:
    state = three_seat_auction()
    _, state = run(state, GREYFIELD, PlaceBid(amount=100))
    _, state = run(state, PENFORTH, PassBid())
    _, state = run(state, VECTOR, PlaceBid(amount=300))

    notices, _ = told(state, GREYFIELD, PlaceBid(amount=400))

    assert [(n.seat, n.kind) for n in notices] == [(VECTOR, "outbid")]
    assert "beating your 300K" in words(notices[0])


def test_a_run_of_several_bids_tells_each_beaten_holder_once_per_bid() -> None:
    before = three_seat_auction()
    events: list[Any] = []
    state = before
    for seat, command in ((GREYFIELD, PlaceBid(amount=100)), (PENFORTH, PassBid()),
                          (VECTOR, PlaceBid(amount=300)), (GREYFIELD, PlaceBid(amount=400))):
        more, state = run(state, seat, command)
        events.extend(more)

    notices = tell(before, list(enumerate(events, start=1)), state)

    assert [(n.seat, n.kind) for n in notices] == [(GREYFIELD, "outbid"), (VECTOR, "outbid")]


def test_passing_or_winning_the_auction_tells_nobody_they_were_outbid() -> None:
    state = three_seat_auction()
    _, state = run(state, GREYFIELD, PlaceBid(amount=100))
    _, state = run(state, PENFORTH, PassBid())

    notices, after = told(state, VECTOR, PassBid())  # Greyfield's bid stands: Greyfield is first player

    assert notices == []
    assert after.first_player == GREYFIELD


def test_every_human_seat_is_told_the_market_ran_with_the_land_price_it_moved_to() -> None:
    """A14's market: two sales raise the land price two positions (4 to 6 on the track: 300K to 600K), no card."""
    state = in_market(tutorial(), 2, advertising_spent=3, plots_sold=2)

    notices, after = told(state, SYSTEM, ProcessMarket(), first_version=70)

    assert after.phase == Phase.BIDDING and after.round == 3
    round_started = 70 + len(run(state, SYSTEM, ProcessMarket())[0]) - 1
    humans = [i for i, seat in enumerate(after.seats) if seat.kind == "human"]
    assert [(n.seat, n.kind, n.version) for n in notices] == [(s, "market", round_started) for s in humans]
    assert words(notices[0]) == ("The market ran: the land price rose from 300K to 600K, no risk card drawn; "
                               "round 3 begins")


def test_a_market_that_draws_risk_cards_says_how_many() -> None:
    state = in_market(tutorial(), 2, advertising_spent=3, plots_sold=0)

    notices, _ = told(state, SYSTEM, ProcessMarket())

    assert notices and all("1 risk card drawn" in words(n) for n in notices)


def test_the_crash_is_told_as_the_games_end_not_as_a_market() -> None:
    played = play_to_end(3)
    versions = list(enumerate(played.events, start=1))
    crash_at = next(i for i, (_, e) in enumerate(versions) if type(e).__name__ == "MarketCrashed")
    market_start = max(i for i, (_, e) in enumerate(versions[:crash_at]) if type(e).__name__ == "RoundStarted")
    before = GAME.initial_state()
    for _, event in versions[: market_start + 1]:
        before = GAME.evolve(before, event)

    notices = tell(before, versions[market_start + 1:], played.state)

    assert [n for n in notices if n.kind == "market"] == []


def test_a_whole_game_tells_each_market_once_per_human_seat_and_ignores_the_tables_events() -> None:
    played = play_to_end(3)
    events = [*played.events[:5], SeatClaimed(seat=0, name="Ada"), *played.events[5:]]
    numbered = list(enumerate(events, start=1))

    notices = GAME.tell(GAME.initial_state(), numbered, played.state) if GAME.tell else []

    markets = [n for n in notices if n.kind == "market"]
    rounds_after_the_first = played.state.round - 1
    assert len(markets) == 3 * rounds_after_the_first
    assert {n.seat for n in notices} <= {0, 1, 2}
