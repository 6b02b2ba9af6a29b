"""``TakeAiTurn``: the AI seat on turn acts according to the phase."""

from __future__ import annotations

from domain.kernel import Chance, NothingPending
from domain.kernel.phrases import say

from ..recorder import Recorder
from ..rules.turns import current_seat
from ..state import Phase, SeatKind
from . import actions, attraction, bidding


def take_turn(rec: Recorder, chance: Chance) -> None:
    state = rec.state
    seat = current_seat(state)
    if seat is None or state.seats[seat].kind != SeatKind.AI or state.attraction is not None:
        raise NothingPending(phrase=say("it is not the AI's turn"))
    if state.phase == Phase.BIDDING:
        bidding.bid(rec)
    elif state.phase == Phase.ATTRACTING:
        attraction.attract(rec, chance)
    else:
        actions.act(rec, chance)
