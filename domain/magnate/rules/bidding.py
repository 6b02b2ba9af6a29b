"""Phase 1, bid for turn order (§5)."""

from __future__ import annotations

from msgspec.structs import replace

from domain.kernel import InvalidValue, Seat
from domain.kernel.phrases import say

from ..city import catalog_of
from ..errors import BidTooLow, InsufficientFunds
from ..events import BidPassed, BidPlaced, FirstPlayerDecided, PhaseStarted, RoundStarted
from ..money import cash
from ..recorder import Recorder
from ..state import Auction, MagnateState, Phase, SeatKind, update_seat
from .turns import require_turn


def place_bid(state: MagnateState, seat: Seat, amount: int) -> list[BidPlaced]:
    """§5 step 2: a multiple of the bid step, at least one step, above the highest bid, within cash."""
    require_turn(state, seat, Phase.BIDDING)
    assert state.auction is not None
    step = catalog_of(state).setup.bid_step
    if amount <= 0 or amount % step:
        raise InvalidValue(phrase=say("a bid is a positive multiple of {step}", step=cash(step)), amount=amount)
    if amount <= state.auction.high_bid:
        raise BidTooLow(phrase=say("a bid must beat the highest bid of {amount}", amount=cash(state.auction.high_bid)),
                        amount=amount, high_bid=state.auction.high_bid)
    if amount > state.seats[seat].cash:
        raise InsufficientFunds(phrase=say("you cannot bid more than your cash"), amount=amount)
    return [BidPlaced(seat=seat, amount=amount)]


def pass_bid(state: MagnateState, seat: Seat) -> list[BidPassed]:
    require_turn(state, seat, Phase.BIDDING)
    return [BidPassed(seat=seat)]


def minimum_bid(state: MagnateState) -> int:
    assert state.auction is not None
    step = catalog_of(state).setup.bid_step
    return state.auction.high_bid + step


def settle(rec: Recorder) -> bool:
    """§5 steps 3-4: end the auction when it is decided. Returns whether anything happened."""
    auction = rec.state.auction
    if rec.state.phase != Phase.BIDDING or auction is None or not _decided(auction, len(rec.state.seats)):
        return False
    if auction.high_bidder is None:
        winner, paid = auction.opener, 0
    else:
        winner = auction.high_bidder
        paid = 0 if rec.state.seats[winner].kind == SeatKind.AI else auction.high_bid
    rec.emit(FirstPlayerDecided(seat=winner, paid=paid), PhaseStarted(phase=Phase.ATTRACTING))
    return True


def _decided(auction: Auction, seats: int) -> bool:
    still_in = [s for s in range(seats) if s not in auction.passed]
    return not still_in or still_in == [auction.high_bidder]


def _next_bidder(auction: Auction, seats: int, after: int) -> int:
    """The next seat clockwise still in the auction and not holding the highest bid (§5 step 2)."""
    for offset in range(1, seats + 1):
        seat = (after + offset) % seats
        if seat not in auction.passed and seat != auction.high_bidder:
            return seat
    return after  # nobody left: the auction is decided and settle() ends it


def apply_round_started(state: MagnateState, event: RoundStarted) -> MagnateState:
    return replace(state,
        phase=Phase.BIDDING,
        round=event.round,
        auction=Auction(opener=event.opener, turn=event.opener),
        attraction=None,
        attracted=(),
        advertising_spent=0,
        plots_sold=0,
        turn=0,
        action_pass=0,
    )


def apply_bid_placed(state: MagnateState, event: BidPlaced) -> MagnateState:
    assert state.auction is not None
    auction = replace(state.auction, high_bid=event.amount, high_bidder=event.seat,
                      bidders=tuple(sorted({*state.auction.bidders, event.seat})))
    return replace(state, auction=replace(auction, turn=_next_bidder(auction, len(state.seats), event.seat)))


def apply_bid_passed(state: MagnateState, event: BidPassed) -> MagnateState:
    assert state.auction is not None
    auction = replace(state.auction, passed=(*state.auction.passed, event.seat))
    return replace(state, auction=replace(auction, turn=_next_bidder(auction, len(state.seats), event.seat)))


def apply_first_player_decided(state: MagnateState, event: FirstPlayerDecided) -> MagnateState:
    state = update_seat(state, event.seat, cash=-event.paid)
    return replace(state, first_player=event.seat, auction=None)
