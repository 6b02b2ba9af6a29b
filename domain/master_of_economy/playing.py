"""A seat's own commands: who may send which, at which step (the game waits for that seat), and the rule each one
runs. The standing shortfall preferences (§17) are the exception: a seat's own, sent whenever the game runs. The
flow after it (:func:`~.flow.settle`) is the decider's."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.kernel import NotYourTurn, WrongPhase
from domain.kernel.phrases import say

from . import bidding, dividends, elections, finance, investments, meeting, procurement, receipts, setup, shares
from . import shortfall as sf
from .ballots import voters
from .commands import (
    BidForOrder,
    Build,
    BuyPacket,
    ClearShortfallPreferences,
    CommitToken,
    CoverShortfall,
    Embezzle,
    ExchangePacket,
    Pass,
    PickCorporation,
    PickManager,
    PlaceBid,
    PlaceBids,
    PlaceReceipts,
    PlayerCommand,
    ProposeDividend,
    Redeem,
    RepayCredits,
    SellFactory,
    SellForShortfall,
    SellPacket,
    SetShortfallPreferences,
    Stand,
    Supply,
    TakeCredit,
    VoteDividends,
    VoteManager,
)
from .cursor import CORPORATION_STEPS, SEALED_STEPS, acting_seat, actor
from .errors import AlreadyChosen
from .events import TurnPassed
from .recorder import Recorder
from .state import State, Step

SIMULTANEOUS: dict[type, Step] = {BidForOrder: Step.AUCTION, CommitToken: Step.TOKENS, VoteDividends: Step.VOTE,
                                  VoteManager: Step.BALLOT, Stand: Step.STAND}
"""The commands of the simultaneous steps."""
_TRADES = (Step.BANK_TRADE, Step.PLAYER_TRADE)
TURNS: dict[type, tuple[Step, ...]] = {
    PickCorporation: (Step.PICK,), Build: (Step.INVEST,), SellFactory: (Step.INVEST,), Supply: (Step.PROCURE,),
    PlaceBid: (Step.BIDS,), PlaceBids: (Step.BIDS,), RepayCredits: (Step.INTEREST,), BuyPacket: _TRADES,
    SellPacket: _TRADES, ExchangePacket: _TRADES, TakeCredit: (Step.CREDIT,), Embezzle: (Step.EMBEZZLE,),
    ProposeDividend: (Step.PROPOSE,), Redeem: (Step.REDEEM,), PickManager: (Step.TIEBREAK,),
    PlaceReceipts: (Step.RECEIPTS,)}
"""The commands of the turn-based steps, and their steps."""
NO_PASS = frozenset({Step.PICK, Step.TIEBREAK})


def may_act(state: State, seat: int) -> bool:
    """Whether the game waits for ``seat`` now."""
    if state.shortfall is not None and sf.waiting(state):
        return state.corps[state.shortfall.corporation].manager == seat
    if state.step in (Step.AUCTION, Step.TOKENS, Step.VOTE, Step.BALLOT):
        owes = state.sealed[seat] is None
        if state.step in (Step.VOTE, Step.BALLOT):
            return owes and seat in voters(state, state.step == Step.VOTE)
        return owes
    if state.step == Step.STAND:
        return seat in elections.undecided(state)
    return acting_seat(state) == seat and not state.done


def play(rec: Recorder, seat: int, command: PlayerCommand) -> None:
    """Record the events of ``seat``'s ``command`` (a RuleViolation leaves ``rec`` to be thrown away)."""
    state = rec.state
    if isinstance(command, SetShortfallPreferences | ClearShortfallPreferences):
        # §17: the seat's own standing, at any time: it neither needs nor ends a turn (the game does not wait for
        # it); the settle after it answers a shortfall already waiting for this seat, as it would any later one
        rec.emit(*(sf.set_preferences(state, seat, command.cover_up_to, command.sell_first)
                   if isinstance(command, SetShortfallPreferences) else sf.clear_preferences(state, seat)))
        return
    if state.step in SEALED_STEPS and state.sealed[seat] is not None and type(command) in SIMULTANEOUS:
        raise AlreadyChosen(phrase=say("your sealed choice is made and final (§17)"))
    if not may_act(state, seat):
        raise NotYourTurn(phrase=say("the game does not wait for you now"), step=str(state.step))
    if state.shortfall is not None and sf.waiting(state):
        if isinstance(command, CoverShortfall):
            rec.emit(*sf.cover(state, command.amount))
        elif isinstance(command, SellForShortfall):
            rec.emit(*sf.sell(state, command.factory))
        else:
            raise WrongPhase(phrase=say("your corporation is short of cash: cover it or sell a factory first (ME-X-1)"))
        return
    if isinstance(command, Pass):
        _pass(rec, seat)
        return
    kind: type = type(command)
    steps = (SIMULTANEOUS[kind],) if kind in SIMULTANEOUS else TURNS.get(kind, ())
    if state.step not in steps:
        raise WrongPhase(phrase=say("{command} is not due now", command=kind.__name__), step=str(state.step))
    who = actor(state)
    rec.emit(*_HANDLERS[kind](rec, seat, who if who is not None else -1, command))


Handler = Callable[[Recorder, int, int, Any], list[Any]]


def _place_bids(rec: Recorder, seat: int, corp: int, command: PlaceBids) -> list[Any]:
    """ME-T-7: the whole submission, then the end of the corporation's bidding."""
    step = str(rec.state.step)
    for bid in command.bids:
        rec.emit(*bidding.place_bid(rec.state, corp, bid.commodity, bid.field))
    return [TurnPassed(seat=seat, step=step, corporation=rec.state.corps[corp].key)]


_HANDLERS: dict[type, Handler] = {
    PickCorporation: lambda rec, seat, corp, c: list(setup.pick(rec.state, seat, c.corporation)),
    BidForOrder: lambda rec, seat, corp, c: list(setup.seal_bid(rec.state, seat, c.amount)),
    Build: lambda rec, seat, corp, c: list(investments.build(rec.state, corp, c.factory)),
    SellFactory: lambda rec, seat, corp, c: list(investments.sell(rec.state, corp, c.factory)),
    Supply: lambda rec, seat, corp, c: list(procurement.supply(rec.state, corp, c.factory, c.count)),
    CommitToken: lambda rec, seat, corp, c: list(bidding.commit_token(rec.state, seat, c.token)),
    PlaceBid: lambda rec, seat, corp, c: list(bidding.place_bid(rec.state, corp, c.commodity, c.field)),
    PlaceBids: _place_bids,
    RepayCredits: lambda rec, seat, corp, c: list(finance.repay(rec.state, corp, c.count)),
    BuyPacket: lambda rec, seat, corp, c: list(shares.transact(rec.state, corp, c)),
    SellPacket: lambda rec, seat, corp, c: list(shares.transact(rec.state, corp, c)),
    ExchangePacket: lambda rec, seat, corp, c: list(shares.transact(rec.state, corp, c)),
    TakeCredit: lambda rec, seat, corp, c: list(finance.take_credit(rec.state, corp)),
    Embezzle: lambda rec, seat, corp, c: list(meeting.embezzle(rec.state, corp, c.amount)),
    ProposeDividend: lambda rec, seat, corp, c: list(dividends.propose(rec.state, seat, c.per_share)),
    VoteDividends: lambda rec, seat, corp, c: list(dividends.vote(rec.state, seat, c.yes)),
    Redeem: lambda rec, seat, corp, c: list(meeting.redeem(rec.state, corp, c.packet, c.shares)),
    Stand: lambda rec, seat, corp, c: list(elections.declare(rec.state, seat, True)),
    VoteManager: lambda rec, seat, corp, c: list(elections.vote(rec.state, seat, c.choices)),
    PickManager: lambda rec, seat, corp, c: list(elections.pick(rec.state, seat, c.seat)),
    PlaceReceipts: lambda rec, seat, corp, c: list(receipts.place(rec.state, seat, c.count)),
}


def _pass(rec: Recorder, seat: int) -> None:
    state = rec.state
    if state.step == Step.STAND:
        rec.emit(*elections.declare(state, seat, False))
        return
    if state.step in NO_PASS or actor(state) is None:
        raise WrongPhase(phrase=say("there is nothing to pass here"), step=str(state.step))
    who = actor(state)
    corp = state.corps[who].key if who is not None and state.step in CORPORATION_STEPS else None
    rec.emit(TurnPassed(seat=seat, step=str(state.step), corporation=corp))
