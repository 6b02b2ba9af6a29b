"""Magnate's planned moves (issue #29): standing instructions for the bid for turn order (§5), played for the seat
when its turn in the auction comes, chosen among its legal commands (:mod:`.legal`).

- ``magnate.pass_auctions``: pass when the auction reaches the seat: in the next auction only ("this round": the
  current round's if its auction is running, else the next round's), or in every auction to the end of the game.
- ``magnate.bid_up_to``: in the next auction, raise to the lowest legal bid while it is at most ``limit``, else pass.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from domain.kernel import Seat
from domain.kernel.phrases import Phrase, say
from domain.kernel.plans import Plan, PlanField, PlanKinds, PlanOffer, PlanRefused

from .city import catalog_of
from .commands import PassBid, PlaceBid
from .legal import legal_commands
from .money import cash
from .state import MagnateState, Phase, SeatKind

Round = Annotated[int, msgspec.Meta(ge=0, le=1000)]


class PassAuctions(Plan, frozen=True, tag="magnate.pass_auctions"):
    """Pass in the next auction (``every_round`` false) or in every auction to the end of the game."""

    every_round: bool = False
    round: Round = 0
    """The round whose auction the plan covers (fixed by the server when the plan is set; 0 with ``every_round``)."""


class BidUpTo(Plan, frozen=True, tag="magnate.bid_up_to"):
    """In the next auction: bid the lowest legal bid while it is at most ``limit`` ($K), else pass."""

    limit: Annotated[int, msgspec.Meta(ge=0, le=10_000_000)]
    round: Round = 0
    """The round whose auction the plan covers (fixed by the server when the plan is set)."""


MagnatePlan = PassAuctions | BidUpTo

def _next_auction(state: MagnateState) -> int:
    """The round of the next auction the seat may still take part in: this round's while it runs, else the next."""
    return state.round if state.phase == Phase.BIDDING else state.round + 1


def offered(state: MagnateState, seat: Seat) -> tuple[PlanOffer, ...]:
    if state.phase == Phase.ENDED or not 0 <= seat < len(state.seats) or state.seats[seat].kind != SeatKind.HUMAN:
        return ()
    step = catalog_of(state).setup.bid_step
    most = max(step, state.seats[seat].cash // step * step)
    return (
        PlanOffer(kind="magnate.pass_auctions", title=say("Pass when the auction for turn order reaches me"), fields=(
            PlanField(name="every_round", type="bool", label=say("in every round, not only the next auction")),)),
        PlanOffer(kind="magnate.bid_up_to", title=say("Bid the lowest bid up to a limit, then pass"), fields=(
            PlanField(name="limit", label=say("the highest bid (in $K)"), minimum=step, maximum=most, step=step,
                      default=step),)),
    )


def describe(plan: Any) -> Phrase:
    if isinstance(plan, PassAuctions):
        if plan.every_round:
            return say("Pass in every auction for turn order")
        return say("Pass in the auction for turn order of round {round}", round=plan.round)
    if isinstance(plan, BidUpTo):
        return say("Bid up to {limit} in the auction for turn order of round {round}, then pass",
                   limit=cash(plan.limit), round=plan.round)
    raise TypeError(f"not a Magnate plan: {plan!r}")


def fix(state: MagnateState, seat: Seat, plan: Any) -> MagnatePlan:
    if not offered(state, seat):
        raise PlanRefused(phrase=say("no planned move can be set in this game now"))
    if isinstance(plan, PassAuctions):
        return PassAuctions(every_round=plan.every_round, round=0 if plan.every_round else _next_auction(state))
    if isinstance(plan, BidUpTo):
        step = catalog_of(state).setup.bid_step
        if plan.limit < step or plan.limit % step:
            raise PlanRefused(phrase=say("a bid is a positive multiple of {step}", step=cash(step)), limit=plan.limit)
        return BidUpTo(limit=plan.limit, round=_next_auction(state))
    raise PlanRefused(phrase=say("this game offers no such planned move"))


def planned(state: MagnateState, seat: Seat, plan: Any) -> PassBid | PlaceBid | None:
    covered = plan.round if isinstance(plan, BidUpTo | PassAuctions) else 0
    if state.phase != Phase.BIDDING or covered not in (0, state.round):
        return None
    legal = {type(t.command): t for t in legal_commands(state, seat)}  # empty unless the seat is on turn
    if PassBid not in legal:
        return None
    if isinstance(plan, BidUpTo) and PlaceBid in legal:
        lowest = legal[PlaceBid].command
        assert isinstance(lowest, PlaceBid)
        if lowest.amount <= plan.limit:
            return lowest
    return PassBid()


def expired(state: MagnateState, plan: Any) -> bool:
    if state.phase == Phase.ENDED:
        return True
    covered = plan.round if isinstance(plan, BidUpTo | PassAuctions) else 0
    return covered != 0 and (state.round > covered or (state.round == covered and state.phase != Phase.BIDDING))


PLANS: PlanKinds[MagnateState] = PlanKinds(plan_type=MagnatePlan, offered=offered, fix=fix, planned=planned,
                                           expired=expired, describe=describe)
