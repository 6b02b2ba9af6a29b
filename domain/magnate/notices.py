"""What Magnate tells its seats beyond ``your_turn`` and ``game_over`` (:data:`GameModule.tell`).

* ``outbid`` (§5 step 2): a seat held the highest bid of the turn-order auction and another seat's
  ``BidPlaced`` beat it. The holder of the highest bid is skipped in the auction, so without this notice a
  player away from the table would not know their bid no longer stands until the auction came round to them.
  The auction's holder is followed through the run of events from ``before`` (a new ``RoundStarted`` or the
  ``FirstPlayerDecided`` that ends the auction clears it), so a run that spans several bids or rounds tells
  each seat once per bid that beat theirs.
* ``market`` (§8-§9): the property market of a round ran. Its steps are one system command whose events are
  risk cards (``RiskCardDrawn``), land price moves (``LandPriceMoved``), new tenants and 'for sale' markers,
  and it always ends with the next round's ``RoundStarted`` unless the market crashed. So the notice is
  given at that ``RoundStarted`` (round 2 and later: round 1's comes from the setup, not a market), once per
  human seat, saying how the land price moved during the market and how many risk cards were drawn: what a
  player decides their next bid and purchases by. A crash (``MarketCrashed``) ends the game instead, and
  the ``game_over`` notice every game gives says so; telling a market as well would be two messages for one
  fact.

Notices are phrases (rendered in each recipient's language), short and naming no game (the service adds the
game's title); a seat is named by reference, amounts use the game's money phrase (:func:`.money.cash`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.kernel.notices import Notice
from domain.kernel.phrases import Phrase, say, say_n, seat

from .city import catalog_of
from .events import BidPlaced, FirstPlayerDecided, GameStarted, LandPriceMoved, RiskCardDrawn, RoundStarted
from .money import cash
from .state import MagnateState, SeatKind

OUTBID = "outbid"
MARKET = "market"


def tell(before: MagnateState, events: Sequence[tuple[int, Any]], after: MagnateState) -> list[Notice]:
    """Magnate's own notices for ``events`` (``(version, event)``) that led from ``before`` to ``after``."""
    return [*_outbid(before, events, after), *_market(before, events, after)]


def _outbid(before: MagnateState, events: Sequence[tuple[int, Any]], after: MagnateState) -> list[Notice]:
    auction = before.auction
    holder, high = (auction.high_bidder, auction.high_bid) if auction is not None else (None, 0)
    told: list[Notice] = []
    for version, event in events:
        if isinstance(event, (RoundStarted, FirstPlayerDecided)):
            holder, high = None, 0
        elif isinstance(event, BidPlaced):
            if holder is not None and holder != event.seat:
                said = say("{seat} bid {amount}, beating your {high}", seat=seat(event.seat),
                           amount=cash(event.amount), high=cash(high))
                told.append(Notice(holder, OUTBID, version, phrase=said))
            holder, high = event.seat, event.amount
    return told


def _market(before: MagnateState, events: Sequence[tuple[int, Any]], after: MagnateState) -> list[Notice]:
    cat = catalog_of(after)
    humans = [i for i, seat in enumerate(after.seats) if seat.kind == SeatKind.HUMAN]
    start = position = before.land_price
    risk_cards = 0
    told: list[Notice] = []
    for version, event in events:
        if isinstance(event, GameStarted):
            start = position = event.land_price
        elif isinstance(event, LandPriceMoved):
            position = event.position
        elif isinstance(event, RiskCardDrawn):
            risk_cards += 1
        elif isinstance(event, RoundStarted) and event.round > 1:
            said = _market_phrase(cat.price(start), cat.price(position), risk_cards, event.round)
            told.extend(Notice(human, MARKET, version, phrase=said) for human in humans)
            start, risk_cards = position, 0
    return told


def _market_phrase(price_before: int, price_after: int, risk_cards: int, next_round: int) -> Phrase:
    before, after = cash(price_before), cash(price_after)
    if price_after > price_before:
        if not risk_cards:
            return say("The market ran: the land price rose from {before} to {after}, no risk card drawn; round "
                       "{round} begins", before=before, after=after, round=next_round)
        return say_n("The market ran: the land price rose from {before} to {after}, {n} risk card drawn; round "
                     "{round} begins",
                     "The market ran: the land price rose from {before} to {after}, {n} risk cards drawn; round "
                     "{round} begins", "n", before=before, after=after, n=risk_cards, round=next_round)
    if not risk_cards:
        return say("The market ran: the land price stayed at {price}, no risk card drawn; round {round} begins",
                   price=after, round=next_round)
    return say_n("The market ran: the land price stayed at {price}, {n} risk card drawn; round {round} begins",
                 "The market ran: the land price stayed at {price}, {n} risk cards drawn; round {round} begins", "n",
                 price=after, n=risk_cards, round=next_round)
