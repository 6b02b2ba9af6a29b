"""The order of play (§3, ME-G-5..8): the ten phases of a stage, the steps inside each, and :func:`settle`, which
runs every automatic step after a command until the game waits for a decision, a system job or nothing (the end).

A turn-based step walks its actors (corporations in action order, or players in the step's order), skipping those
with nothing to choose; a simultaneous step waits until every seat that owes a choice has made it; a system step
waits for its system command. So the events of one command never leave a transition half done, and ``pending``
is always one of: seats that may act, one system command, or finished.
"""

from __future__ import annotations

from collections.abc import Callable

from domain.kernel import Chance

from . import (
    ac,
    ballots,
    bidding,
    dividends,
    elections,
    ending,
    finance,
    investments,
    market,
    meeting,
    procurement,
    receipts,
    setup,
    shares,
)
from .cursor import SYSTEM_STEPS, actors, rounds
from .events import CandidacyDeclared, ManagerElected, MarketClosed, PhaseBegan, ReceiptsGiven, StageBegan, StepBegan
from .holders import cat_of
from .recorder import Recorder
from .state import State, Step

INVEST, PROCURE, PRODUCE, TRADE, FINANCE, MEETING, ORDER = range(7)
KIND = {1: INVEST, 2: PROCURE, 3: PRODUCE, 4: TRADE, 5: FINANCE, 6: INVEST, 7: PROCURE, 8: PRODUCE, 9: TRADE,
        10: MEETING, 11: ORDER}
"""What each phase number is (ME-G-5); 11 is the next action sequence (§10)."""
FIRST_STAGE = 1
LIMIT = 100_000


def goto(rec: Recorder, step: Step, turn: int = 0, round_: int = 1, target: int | None = None) -> None:
    rec.emit(StepBegan(step=str(step), turn=turn, round=round_,
                       target=rec.state.target if target is None else target))


def start_stage(rec: Recorder, stage: int) -> None:
    rec.emit(StageBegan(stage=stage))
    begin_phase(rec, 1)


def begin_phase(rec: Recorder, number: int) -> None:
    rec.emit(PhaseBegan(number=number))
    kind = KIND[number]
    if kind == INVEST:
        goto(rec, Step.INVEST)
    elif kind == PROCURE:
        goto(rec, Step.PROCURE)
    elif kind == PRODUCE:
        procurement.produce(rec)
        begin_phase(rec, number + 1)
    elif kind == TRADE:
        begin_trade(rec)
    elif kind == FINANCE:
        goto(rec, Step.INTEREST if rec.state.stage > FIRST_STAGE else Step.BANK_TRADE)
    elif kind == MEETING:
        meeting.board_bonuses(rec)
        goto(rec, Step.EMBEZZLE)
    else:
        rec.emit(ReceiptsGiven(count=cat_of(rec.state).rules.receipts.per_stage))
        goto(rec, Step.RECEIPTS, target=0)


def begin_trade(rec: Recorder) -> None:
    if ac.marker_due(rec.state) is not None:
        goto(rec, Step.AC_MOVE)
    elif ac.ac_index(rec.state) is not None:
        goto(rec, Step.TOKENS)
    else:
        goto(rec, Step.BIDS)


def end_trade(rec: Recorder) -> None:
    """ME-T-16 and ME-E-1: the end condition is checked once the trade phase (and the AC's scoring) is over."""
    if ending.over(rec.state):
        ending.finish(rec)
    else:
        begin_phase(rec, rec.state.number + 1)


def dividend_target(rec: Recorder, target: int) -> None:
    """ME-H-3.1: the next corporation, from ``target`` on, that may pay a dividend; then redemption."""
    state = rec.state
    for t in range(target, len(state.order)):
        if dividends.most_dividend(state, state.order[t]) > 0:
            goto(rec, Step.PROPOSE, target=t)
            return
    goto(rec, Step.REDEEM, target=0)


def election_target(rec: Recorder, target: int) -> None:
    """ME-H-5 for the corporation at ``target``; after the last one, the players' share trading."""
    if target >= len(rec.state.order):
        goto(rec, Step.PLAYER_TRADE, target=0)
        return
    goto(rec, Step.STAND, target=target)
    key = rec.state.corps[rec.state.order[target]].key
    for seat in elections.forced(rec.state):
        rec.emit(CandidacyDeclared(corporation=key, seat=seat, stands=True, forced=True))


def after_count(rec: Recorder) -> None:
    """After the election's ballots are counted: the next corporation, or the tie-break."""
    if len(rec.state.meeting.tied) == 1:
        election_target(rec, rec.state.target + 1)
    else:
        goto(rec, Step.TIEBREAK)


def settle(rec: Recorder, chance: Chance) -> None:
    """Run the automatic steps until the game waits."""
    for _ in range(LIMIT):
        if _tick(rec, chance):
            return
    raise AssertionError("the game did not come to rest")


Has = Callable[[State, int], bool]
Hook = Callable[[Recorder, int], bool]
After = Callable[[Recorder], None]


def _walk(rec: Recorder, has_choice: Has, after: After, auto: Hook | None = None,
          leave: Callable[[Recorder, int], None] | None = None) -> bool:
    state = rec.state
    walk = actors(state)
    if state.turn >= len(walk):
        if state.round < rounds(state):
            goto(rec, state.step, 0, state.round + 1)
        else:
            after(rec)
        return False
    who = walk[state.turn]
    if not state.done:
        if auto is not None and auto(rec, who):
            return True
        if has_choice(rec.state, who):
            return True
    if leave is not None:
        leave(rec, who)
    goto(rec, rec.state.step, state.turn + 1, state.round)
    return False


def _owing(state: State) -> bool:
    """Whether some seat still owes its choice in the current simultaneous step."""
    step = state.step
    if step in (Step.AUCTION, Step.TOKENS):
        return any(s is None for s in state.sealed)
    if step in (Step.VOTE, Step.BALLOT):
        return any(state.sealed[s] is None for s in ballots.voters(state, step == Step.VOTE))
    return bool(elections.undecided(state))


def _tick(rec: Recorder, chance: Chance) -> bool:
    """One automatic step; True when the game waits."""
    state = rec.state
    step = state.step
    if step in SYSTEM_STEPS or step in (Step.SETUP, Step.ENDED):
        return True
    walker = _WALKS.get(step)
    if walker is not None:
        return walker(rec, chance)
    if step in (Step.AUCTION, Step.TOKENS, Step.VOTE, Step.BALLOT, Step.STAND):
        if _owing(state):
            return True
        _SIMULTANEOUS_DONE[step](rec)
        return False
    assert step == Step.RESOLVING, step
    ticked = market.tick(rec)
    if ticked is None:
        rec.emit(MarketClosed())
        if ac.ac_index(rec.state) is not None:
            goto(rec, Step.AC_SCORE)
        else:
            end_trade(rec)
        return False
    return ticked


def after_pick(rec: Recorder, chance: Chance) -> None:
    setup.form(rec, chance)
    if rec.state.variant.start_order == "auction":
        goto(rec, Step.AUCTION)
    else:
        setup.first_order(rec, chance)
        start_stage(rec, FIRST_STAGE)


def _stand_done(rec: Recorder) -> None:
    candidates = rec.state.meeting.candidates
    if len(candidates) == 1:
        key = rec.state.corps[rec.state.order[rec.state.target]].key
        rec.emit(ManagerElected(corporation=key, seat=candidates[0]))
        election_target(rec, rec.state.target + 1)
    else:
        goto(rec, Step.BALLOT)


_SIMULTANEOUS_DONE: dict[Step, After] = {
    Step.AUCTION: lambda rec: goto(rec, Step.AUCTION_REVEAL),
    Step.TOKENS: lambda rec: goto(rec, Step.BIDS),
    Step.VOTE: lambda rec: goto(rec, Step.VOTE_COUNT),
    Step.BALLOT: lambda rec: goto(rec, Step.BALLOT_COUNT),
    Step.STAND: _stand_done,
}


def _next_phase(rec: Recorder) -> None:
    begin_phase(rec, rec.state.number + 1)


def _after_receipts(rec: Recorder) -> None:
    state = rec.state
    if state.target + 1 < len(state.order):
        goto(rec, Step.RECEIPTS, target=state.target + 1)
        return
    receipts.new_order(rec)
    start_stage(rec, state.stage + 1)


def _end_meeting(rec: Recorder) -> None:
    rec.emit(*elections.changes(rec.state))
    begin_phase(rec, rec.state.number + 1)


def _spoil(rec: Recorder, corp: int) -> None:
    procurement.spoil(rec, corp)


def _proposals_done(rec: Recorder) -> None:
    if rec.state.meeting.proposals:
        goto(rec, Step.VOTE)
    else:
        dividend_target(rec, rec.state.target + 1)


def _can_propose(state: State, seat: int) -> bool:
    return len(set(state.meeting.proposals)) < dividends.most_dividend(state, state.order[state.target])


_WALKS: dict[Step, Callable[[Recorder, Chance], bool]] = {
    Step.PICK: lambda rec, chance: _walk(rec, lambda s, a: True, lambda r: after_pick(r, chance)),
    Step.INVEST: lambda rec, chance: _walk(rec, investments.has_choice, _next_phase),
    Step.PROCURE: lambda rec, chance: _walk(rec, procurement.has_choice, _next_phase, leave=_spoil),
    Step.BIDS: lambda rec, chance: _walk(rec, lambda s, c: bidding.bid_refusal(s, c, 0, 0) is None,
                                         lambda r: goto(r, Step.RESOLVE)),
    Step.INTEREST: lambda rec, chance: _walk(rec, lambda s, c: finance.most_repaid(s, c) > 0,
                                             lambda r: goto(r, Step.BANK_TRADE), auto=finance.pay_interest),
    Step.BANK_TRADE: lambda rec, chance: _walk(rec, shares.has_choice, lambda r: goto(r, Step.CREDIT)),
    Step.CREDIT: lambda rec, chance: _walk(rec, lambda s, c: finance.credit_refusal(s, c) is None, _next_phase),
    Step.EMBEZZLE: lambda rec, chance: _walk(rec, lambda s, c: meeting.most_embezzled(s, c) > 0,
                                             lambda r: dividend_target(r, 0)),
    Step.PROPOSE: lambda rec, chance: _walk(rec, _can_propose, _proposals_done),
    Step.REDEEM: lambda rec, chance: _walk(rec, lambda s, c: bool(meeting.redemptions(s, c)),
                                           lambda r: election_target(r, 0)),
    Step.TIEBREAK: lambda rec, chance: _walk(rec, lambda s, a: True,
                                             lambda r: election_target(r, r.state.target + 1)),
    Step.PLAYER_TRADE: lambda rec, chance: _walk(rec, shares.has_choice, _end_meeting),
    Step.RECEIPTS: lambda rec, chance: _walk(rec, lambda s, a: s.players[a].receipts > 0, _after_receipts),
}
