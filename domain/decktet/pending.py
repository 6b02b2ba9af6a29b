"""What the game waits for: the active seat (R2.1), or nothing once it has ended.

No system job is ever due while the game runs: the start is the service's command, and every roll and draw is
decided inside the seat's command that ends a turn (R9.2).
"""

from __future__ import annotations

from domain.kernel import Pending, Seat

from .state import DecktetState, Phase


def pending(state: DecktetState) -> Pending:
    if state.phase == Phase.ENDED:
        return Pending(finished=True)
    if state.phase == Phase.SETUP:
        return Pending()
    return Pending(seats=(Seat(state.active),))
