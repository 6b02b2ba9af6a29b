"""What the game waits for: the seats that may act now (one at a time in turn-based steps, every seat that still
owes its choice in a simultaneous step, the manager of a corporation that is short of cash), the system command
that is due (the reveals and counts once every sealed choice is in, the AC's moves, the market's resolution), or
nothing once it has ended.

A seat the options gave the computer is the service's to move: while it may act, the system command
:class:`TakeAiTurn` for it is due (the first such seat; in a simultaneous step, the people who still owe their
choice stay listed and may send it meanwhile)."""

from __future__ import annotations

from domain.kernel import Pending, Seat

from .commands import CountBallots, CountVotes, MoveAc, ResolveMarket, RevealStartBids, ScoreAc, TakeAiTurn
from .playing import may_act
from .state import State, Step
from .variant import computer_level

_SYSTEM = {Step.AUCTION_REVEAL: RevealStartBids(), Step.AC_MOVE: MoveAc(), Step.RESOLVE: ResolveMarket(),
           Step.AC_SCORE: ScoreAc(), Step.VOTE_COUNT: CountVotes(), Step.BALLOT_COUNT: CountBallots()}


def pending(state: State) -> Pending:
    if state.step == Step.ENDED:
        return Pending(finished=True)
    if state.step == Step.SETUP:
        return Pending()
    due = _SYSTEM.get(state.step)
    if due is not None:
        return Pending(system=due)
    acting = [s for s in range(len(state.players)) if may_act(state, s)]
    people = tuple(Seat(s) for s in acting if computer_level(state.variant, s) is None)
    computer = next((s for s in acting if computer_level(state.variant, s) is not None), None)
    return Pending(seats=people, system=TakeAiTurn(seat=computer) if computer is not None else None)
