"""What the game waits for: the active seat (R2.1), or nothing once it has ended.

While the game runs the only system job is the computer's turn (:class:`TakeAiTurn`, for a seat the options gave
it): the start is the service's command, and every roll and draw is decided inside the command that ends a turn
(R9.2).
"""

from __future__ import annotations

from domain.kernel import Pending, Seat

from .commands import TakeAiTurn
from .state import DecktetState, Phase


def pending(state: DecktetState) -> Pending:
    if state.phase == Phase.ENDED:
        return Pending(finished=True)
    if state.phase == Phase.SETUP:
        return Pending()
    spec = state.variant.seats[state.active] if state.active < len(state.variant.seats) else None
    if spec is not None and spec.kind == "ai":
        return Pending(system=TakeAiTurn())
    return Pending(seats=(Seat(state.active),))
