"""What the game waits for: a seat's decision, a system job, or nothing (it has ended)."""

from __future__ import annotations

from domain.kernel import Pending

from .commands import ProcessMarket, RollDice, TakeAiTurn
from .rules.turns import current_seat
from .state import MagnateState, Phase, SeatKind


def pending(state: MagnateState) -> Pending:
    """Seats that may act now, or the system command due now (§4.1)."""
    if state.phase == Phase.ENDED:
        return Pending(finished=True)
    if state.phase == Phase.MARKET:
        return Pending(system=ProcessMarket())
    attraction = state.attraction
    if state.phase == Phase.ATTRACTING and attraction is not None and attraction.faces is None and attraction.dice:
        return Pending(system=RollDice())
    seat = current_seat(state)
    if seat is None:
        return Pending()
    if state.seats[seat].kind == SeatKind.AI:
        return Pending(system=TakeAiTurn())
    return Pending(seats=(seat,))
