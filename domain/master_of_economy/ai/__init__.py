"""Master of Economy's computer player: rules of thumb at two strengths (:data:`~..variant.AI_LEVELS`, weakest
first; docs/AI.md, "Master of Economy").

:func:`decide_for` is what the decider calls for a seat the options gave the computer, whenever the game waits for
that seat: the seat's moves until its turn (or its choice) is made, and why, in words. It reads only what the seat
may know: the public board and its own cash and sealed choice, never another player's hidden cash or sealed choice
(the tests compare its decisions on a state and on the state with those changed, ``secrets.hide``). Its only
randomness is the ``Chance`` it is given. Every move comes from ``legal_commands`` and is played through the same
rules as a person's.
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from domain.kernel import Chance
from domain.kernel.phrases import Phrase, say

from .. import shortfall as sf
from ..commands import Pass, PlayerCommand
from ..cursor import actor
from ..state import State, Step
from . import market, meeting, money, plant
from .levels import PROFILES, Profile

__all__ = ["Decision", "decide_for"]


class Decision(msgspec.Struct, frozen=True):
    """The seat's moves, in order, and why (public facts only: a sealed choice is said to be made, never what)."""

    moves: tuple[PlayerCommand, ...]
    reason: Phrase
    """What it does and why, as a phrase whose subject is the seat ("builds a Quarry, ...")."""


Plan = tuple[tuple[PlayerCommand, ...], Phrase]
_CORP_STEPS: dict[Step, Callable[[State, int, int, Profile, Chance], Plan]] = {
    Step.INVEST: plant.invest, Step.PROCURE: lambda s, seat, corp, p, c: plant.procure(s, seat, corp, p),
    Step.BIDS: market.bids, Step.INTEREST: lambda s, seat, corp, p, c: money.repay(s, seat, corp, p),
    Step.CREDIT: lambda s, seat, corp, p, c: money.credit(s, seat, corp, p),
    Step.EMBEZZLE: lambda s, seat, corp, p, c: meeting.embezzle(s, seat, corp, p),
    Step.REDEEM: lambda s, seat, corp, p, c: meeting.redeem(s, seat, corp, p),
    Step.BANK_TRADE: lambda s, seat, corp, p, c: money.trade(s, seat, corp, p, True, c),
}
_SEAT_STEPS: dict[Step, Callable[[State, int, Profile, Chance], Plan]] = {
    Step.PICK: lambda s, seat, p, c: plant.pick(s, seat, p), Step.TOKENS: lambda s, seat, p, c: market.token(
        s, seat, p), Step.PROPOSE: lambda s, seat, p, c: meeting.propose(s, seat, p),
    Step.VOTE: lambda s, seat, p, c: meeting.vote(s, seat, p), Step.STAND: lambda s, seat, p, c: meeting.stand(
        s, seat, p), Step.BALLOT: lambda s, seat, p, c: meeting.ballot(s, seat, p),
    Step.TIEBREAK: lambda s, seat, p, c: meeting.tiebreak(s, seat, p),
    Step.RECEIPTS: lambda s, seat, p, c: meeting.receipts(s, seat, p), Step.AUCTION: meeting.auction,
    Step.PLAYER_TRADE: lambda s, seat, p, c: money.trade(s, seat, seat, p, False, c),
}


def decide_for(state: State, seat: int, level: str, chance: Chance) -> Decision:
    """What the computer at ``level`` does for ``seat`` now (the game waits for it)."""
    profile = PROFILES[level]
    if state.shortfall is not None and sf.waiting(state):
        moves, why = money.shortfall(state, seat, profile)
    elif state.step in _CORP_STEPS:
        corp = actor(state)
        assert corp is not None
        moves, why = _CORP_STEPS[state.step](state, seat, corp, profile, chance)
    elif state.step in _SEAT_STEPS:
        moves, why = _SEAT_STEPS[state.step](state, seat, profile, chance)
    else:
        moves, why = (Pass(),), say("passes.")
    return Decision(moves=moves, reason=why)
