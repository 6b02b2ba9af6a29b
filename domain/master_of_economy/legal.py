"""``legal_commands``: the one source of legality for the web page, the bots and the AI. Amounts are
:class:`~domain.kernel.IntParam` ranges (every value in them legal); a dividend ballot is a
:class:`~domain.kernel.SubsetParam` over its lines (any subset may be voted yes). Each template's command is itself
legal, and the first template is the suggested choice."""

from __future__ import annotations

from itertools import product

from domain.kernel import CommandTemplate, IntParam, Seat, SubsetParam

from . import bidding, dividends, elections, finance, investments, meeting, procurement, setup, shares
from . import shortfall as sf
from .ballots import dividend_lines, election_lines
from .commands import (
    BidForOrder,
    Build,
    CommitToken,
    CoverShortfall,
    Embezzle,
    Pass,
    PickCorporation,
    PickManager,
    PlaceBid,
    PlaceReceipts,
    ProposeDividend,
    Redeem,
    RepayCredits,
    SellFactory,
    SellForShortfall,
    Stand,
    Supply,
    TakeCredit,
    VoteDividends,
    VoteManager,
)
from .cursor import actor, target_corp
from .holders import cat_of
from .playing import may_act
from .state import State, Step


def _amount(field: str, least: int, most: int) -> tuple[IntParam, ...]:
    return (IntParam(field, least, most),) if most > least else ()


def legal_commands(state: State, seat: Seat) -> list[CommandTemplate]:
    """Everything ``seat`` may do now (empty unless the game waits for it)."""
    if state.step in (Step.SETUP, Step.ENDED) or not may_act(state, seat):
        return []
    if state.shortfall is not None and sf.waiting(state):
        return _shortfall(state)
    step = state.step
    who = actor(state)
    corp = who if who is not None else -1
    out = _STEPS[step](state, seat, corp) if step in _STEPS else []
    if step not in (Step.PICK, Step.TIEBREAK, Step.AUCTION, Step.TOKENS, Step.VOTE, Step.BALLOT, Step.RECEIPTS):
        out.append(CommandTemplate(Pass()))
    return out


def _shortfall(state: State) -> list[CommandTemplate]:
    cat = cat_of(state)
    short = state.shortfall
    assert short is not None
    if sf.awaits_cover(state):
        most = sf.most_cover(state)
        return [CommandTemplate(CoverShortfall(amount=most), _amount("amount", 0, most))]
    return [CommandTemplate(SellForShortfall(factory=cat.factories[t].key))
            for t in sf.owned_types(state, short.corporation)]


def _invest(state: State, seat: int, corp: int) -> list[CommandTemplate]:
    cat = cat_of(state)
    out = [CommandTemplate(Build(factory=f.key)) for t, f in enumerate(cat.factories)
           if investments.build_refusal(state, corp, t) is None]
    out += [CommandTemplate(SellFactory(factory=f.key)) for t, f in enumerate(cat.factories)
            if investments.can_sell(state, corp, t)]
    return out


def _procure(state: State, seat: int, corp: int) -> list[CommandTemplate]:
    cat = cat_of(state)
    out = []
    for t, f in enumerate(cat.factories):
        room = procurement.supply_room(state, corp, t)
        if room:
            out.append(CommandTemplate(Supply(factory=f.key, count=room), _amount("count", 1, room)))
    return out


def _bids(state: State, seat: int, corp: int) -> list[CommandTemplate]:
    cat = cat_of(state)
    out = []
    for r, c in enumerate(cat.commodities):
        for field in range(len(c.fields) + 1):
            if bidding.bid_refusal(state, corp, r, field) is None:
                out.append(CommandTemplate(PlaceBid(commodity=c.key, field=field)))
    return out


def _propose(state: State, seat: int, corp: int) -> list[CommandTemplate]:
    most = dividends.most_dividend(state, target_corp(state))
    free = [k for k in range(cat_of(state).rules.dividends.min_per_share, most + 1) if k not in state.meeting.proposals]
    return [CommandTemplate(ProposeDividend(per_share=k)) for k in free]


def _vote(state: State, seat: int, corp: int) -> list[CommandTemplate]:
    lines = dividend_lines(state, seat)
    return [CommandTemplate(VoteDividends(yes=tuple(range(len(lines)))),
                            (SubsetParam("yes", len(lines), len(lines)),))]


def _ballot(state: State, seat: int, corp: int) -> list[CommandTemplate]:
    lines = election_lines(state, seat)
    options = (*state.meeting.candidates, elections.ABSTAIN)
    return [CommandTemplate(VoteManager(choices=tuple(c))) for c in product(options, repeat=len(lines))]


def _redeem(state: State, seat: int, corp: int) -> list[CommandTemplate]:
    return [CommandTemplate(Redeem(packet=p, shares=r)) for p, r, _ in meeting.redemptions(state, corp)]


def _trade(state: State, seat: int, corp: int) -> list[CommandTemplate]:
    return [CommandTemplate(t) for t in shares.options(state, corp)]


def _receipts(state: State, seat: int, corp: int) -> list[CommandTemplate]:
    held = state.players[seat].receipts
    return [CommandTemplate(PlaceReceipts(count=0), _amount("count", 0, held))]


def _single(command: object) -> list[CommandTemplate]:
    return [CommandTemplate(command)]  # type: ignore[arg-type]


_STEPS = {
    Step.PICK: lambda s, seat, c: [CommandTemplate(PickCorporation(corporation=k))
                                   for k in setup.free_corporations(s)],
    Step.AUCTION: lambda s, seat, c: [CommandTemplate(BidForOrder(amount=0), _amount(
        "amount", 0, cat_of(s).rules.start.max_start_bid))],
    Step.INVEST: _invest,
    Step.PROCURE: _procure,
    Step.TOKENS: lambda s, seat, c: [CommandTemplate(CommitToken(token=t))
                                     for t in bidding.tokens_available(s, seat)],
    Step.BIDS: _bids,
    Step.INTEREST: lambda s, seat, c: [CommandTemplate(RepayCredits(count=1), _amount(
        "count", 1, finance.most_repaid(s, c)))] if finance.most_repaid(s, c) else [],
    Step.BANK_TRADE: _trade,
    Step.CREDIT: lambda s, seat, c: _single(TakeCredit()) if finance.credit_refusal(s, c) is None else [],
    Step.EMBEZZLE: lambda s, seat, c: [CommandTemplate(Embezzle(amount=1), _amount(
        "amount", 1, meeting.most_embezzled(s, c)))] if meeting.most_embezzled(s, c) else [],
    Step.PROPOSE: _propose,
    Step.VOTE: _vote,
    Step.REDEEM: _redeem,
    Step.STAND: lambda s, seat, c: _single(Stand()),
    Step.BALLOT: _ballot,
    Step.TIEBREAK: lambda s, seat, c: [CommandTemplate(PickManager(seat=t)) for t in s.meeting.tied],
    Step.PLAYER_TRADE: _trade,
    Step.RECEIPTS: _receipts,
}
