"""The AI in the auction for the first-player marker (spec §11.3, A12, T14): its bid B and when it passes,
with the reason it gives. Situations: :mod:`.ai_situations`."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from domain.kernel import SYSTEM
from domain.kernel.phrases import plain
from domain.magnate.ai.bidding import bid_amount
from domain.magnate.commands import PassBid, PlaceBid, TakeAiTurn
from domain.magnate.events import AiDecided, BidPassed, BidPlaced, FirstPlayerDecided
from domain.magnate.state import Auction

from .ai_situations import AI, HUMAN, TILES, ai_board, of, recorded, solo
from .builders import in_bidding, run, started_with_tiles


def test_rulebook_bid_example_level_iii_land_price_1_1m_bids_1_7m() -> None:
    """§11.3 and A12: level III, land price 1.1M -> 1.5 x 1.1M = 1.65M, rounded UP to 1.7M (not to the
    nearest 100K, §16 C5); the reason shows the multiplier, the price and the bid."""
    state = ai_board(replace(solo(), land_price=11), level=3)

    events, _ = run(in_bidding(state, opener=AI), SYSTEM, TakeAiTurn())

    assert of(events, BidPlaced) == [BidPlaced(seat=AI, amount=1700)]
    assert [recorded(e) for e in of(events, AiDecided)] == [
        AiDecided(seat=AI, card=None, action="bid", reason="level III: 150% of land price 1.1M → bid 1.7M")
    ]
    [decided] = of(events, AiDecided)
    assert decided.why is not None  # the same reason in no language, amounts as the game's money
    assert plain(decided.why) == "level III: 150% of land price 1,100K → bid 1,700K"


@pytest.mark.parametrize(
    ("level", "position", "bid"),
    [
        (1, 4, 300),  # x1.0 x 300K
        (1, 28, 2800),  # x1.0 x 2.8M
        (2, 5, 700),  # x1.25 x 500K = 625K -> 700K
        (2, 8, 1000),  # x1.25 x 800K = 1M exactly: no rounding
        (3, 7, 1100),  # x1.5 x 700K = 1.05M -> 1.1M
        (3, 11, 1700),  # the rulebook example
        (4, 11, 2200),  # x2.0 x 1.1M
        (4, 28, 5600),  # more than the AI's cash: it never pays, so it may bid it
    ],
)
def test_the_solo_bid_is_the_level_multiplier_times_land_price_rounded_up(level: int, position: int, bid: int) -> None:
    """§11.3, T14: B = multiplier(level) x land price, rounded up to 100K."""
    state = ai_board(replace(solo(), land_price=position), level=level)
    assert bid_amount(state) == bid
    events, _ = run(in_bidding(state, opener=AI), SYSTEM, TakeAiTurn())
    assert of(events, BidPlaced) == [BidPlaced(seat=AI, amount=bid)]


def test_the_ai_wins_the_auction_without_paying() -> None:
    """§11.3: if the AI wins it takes the first-player marker and pays nothing."""
    state = ai_board(replace(solo(), land_price=11), level=3)
    _, state = run(in_bidding(state, opener=AI), SYSTEM, TakeAiTurn())

    events, after = run(state, HUMAN, PassBid())

    assert of(events, FirstPlayerDecided) == [FirstPlayerDecided(seat=AI, paid=0)]
    assert after.first_player == AI
    assert after.seats[AI].cash == 2000


def test_the_ai_passes_when_its_bid_is_not_above_the_high_bid() -> None:
    """§11.3: B <= the current highest bid -> pass (equal is not enough: a bid must beat the high bid)."""
    state = ai_board(replace(solo(), land_price=11), level=3)
    _, state = run(in_bidding(state, opener=HUMAN), HUMAN, PlaceBid(amount=1700))

    events, _ = run(state, SYSTEM, TakeAiTurn())

    assert of(events, BidPassed) == [BidPassed(seat=AI)]
    assert [recorded(e) for e in of(events, AiDecided)] == [
        AiDecided(
            seat=AI,
            card=None,
            action="pass",
            reason="level III: 150% of land price 1.1M = 1.7M, not above the high bid of 1.7M",
        )
    ]
    assert of(events, FirstPlayerDecided) == [FirstPlayerDecided(seat=HUMAN, paid=1700)]


def test_the_ai_bids_over_a_lower_bid_then_passes_once_outbid() -> None:
    """§11.3: the AI bids B over a lower bid; outbid, it passes (it bids at most once per round)."""
    state = ai_board(replace(solo(), land_price=11), level=3)
    _, state = run(in_bidding(state, opener=HUMAN), HUMAN, PlaceBid(amount=1000))
    events, state = run(state, SYSTEM, TakeAiTurn())
    assert of(events, BidPlaced) == [BidPlaced(seat=AI, amount=1700)]
    _, state = run(state, HUMAN, PlaceBid(amount=1800))

    events, _ = run(state, SYSTEM, TakeAiTurn())

    assert of(events, BidPassed) == [BidPassed(seat=AI)]
    assert of(events, FirstPlayerDecided) == [FirstPlayerDecided(seat=HUMAN, paid=1800)]


def test_the_ai_bids_only_once_per_round_even_if_its_bid_would_beat_the_high_bid() -> None:
    """§11.3 "it bids at most once per round": an auction in which the AI already bid (constructed so that
    its B would still beat the high bid) -> pass, with that reason."""
    state = ai_board(replace(solo(), land_price=11), level=3)
    auction = Auction(opener=HUMAN, turn=AI, high_bid=500, high_bidder=HUMAN, bidders=(HUMAN, AI))
    state = replace(in_bidding(state, opener=HUMAN), auction=auction)

    events, _ = run(state, SYSTEM, TakeAiTurn())

    assert [recorded(e) for e in of(events, AiDecided)] == [
        AiDecided(seat=AI, card=None, action="pass", reason="the AI bids only once per round")
    ]
    assert of(events, BidPassed) == [BidPassed(seat=AI)]


def test_with_two_humans_the_ai_always_passes_and_is_first_only_as_an_opener_everyone_passed_to() -> None:
    """§11.3: with two or more humans the AI always passes, even as the opener with no bid on the table; it
    becomes first player only if it opened and every human passed (and pays nothing)."""
    ai = 2
    state = started_with_tiles(TILES, 3, ai=True)
    state = in_bidding(state, opener=ai)

    events, state = run(state, SYSTEM, TakeAiTurn())
    assert [recorded(e) for e in of(events, AiDecided)] == [
        AiDecided(seat=ai, card=None, action="pass", reason="with two or more humans the AI always passes")
    ]
    assert of(events, BidPassed) == [BidPassed(seat=ai)]
    _, state = run(state, 0, PassBid())
    events, state = run(state, 1, PassBid())
    assert of(events, FirstPlayerDecided) == [FirstPlayerDecided(seat=ai, paid=0)]
