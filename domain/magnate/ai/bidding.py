"""§11.3: the AI's bid for turn order."""

from __future__ import annotations

from domain.kernel.phrases import Arg, say

from ..city import catalog_of
from ..events import AiDecided, BidPassed, BidPlaced
from ..money import cash
from ..recorder import Recorder
from ..state import MagnateState, SeatKind
from .deck import ai_of
from .explain import ROMAN, money


def solo(state: MagnateState) -> bool:
    """Exactly one human plays against the AI."""
    return sum(1 for s in state.seats if s.kind == SeatKind.HUMAN) == 1


def bid_amount(state: MagnateState) -> int:
    """B = level multiplier x land price, rounded UP to the bid step (integer arithmetic, T14)."""
    cat = catalog_of(state)
    step = cat.setup.bid_step
    scaled = cat.ai_levels[ai_of(state).level].bid_percent * cat.price(state.land_price)
    return -(-scaled // (100 * step)) * step


def bid(rec: Recorder) -> None:
    state = rec.state
    ai = ai_of(state)
    auction = state.auction
    assert auction is not None
    if not solo(state):
        reason = "with two or more humans the AI always passes"
        rec.emit(AiDecided(seat=ai.seat, card=None, action="pass", reason=reason,
                           why=say("with two or more humans the AI always passes")), BidPassed(seat=ai.seat))
        return
    amount = bid_amount(state)
    cat = catalog_of(state)
    percent = cat.ai_levels[ai.level].bid_percent
    level = str(ROMAN.get(ai.level, ai.level))
    basis = f"level {level}: {percent}% of land price {money(cat.price(state.land_price))}"
    args: dict[str, Arg] = {"level": level, "percent": percent, "price": cash(cat.price(state.land_price)),
                           "amount": cash(amount)}
    if ai.seat in auction.bidders:
        rec.emit(AiDecided(seat=ai.seat, card=None, action="pass", reason="the AI bids only once per round",
                           why=say("the AI bids only once per round")),
                 BidPassed(seat=ai.seat))
    elif auction.high_bidder is not None and amount <= auction.high_bid:
        reason = f"{basis} = {money(amount)}, not above the high bid of {money(auction.high_bid)}"
        why = say("level {level}: {percent}% of land price {price} = {amount}, not above the high bid of {high}",
                  high=cash(auction.high_bid), **args)
        rec.emit(AiDecided(seat=ai.seat, card=None, action="pass", reason=reason, why=why), BidPassed(seat=ai.seat))
    else:
        why = say("level {level}: {percent}% of land price {price} → bid {amount}", **args)
        rec.emit(AiDecided(seat=ai.seat, card=None, action="bid", reason=f"{basis} → bid {money(amount)}", why=why),
                 BidPlaced(seat=ai.seat, amount=amount))
