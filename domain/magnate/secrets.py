"""What a viewer of Magnate may not know (§4.2): every other human company's cash and advertising tokens. The AI's
money is public, the decks are known sets (what has not been drawn yet), and every event carries only public
facts: a payment is made in the open at the table, so a player who adds up every payment knows what the others
have, exactly as an attentive player of the board game does; the game keeps only the running totals behind the
screen, and so does the service (views show them to their owner alone).

:func:`hide` is the property tests' statement of that: a state that differs from ``state`` only in what
``viewer`` may not know, so every view and every event handed to ``viewer`` must be the same for both.
"""

from __future__ import annotations

import msgspec

from domain.kernel import AUDITOR, Seat, Viewer

from .state import MagnateState, Phase, SeatKind


def hide(state: MagnateState, viewer: Viewer, seed: int) -> MagnateState:
    """``state`` with every secret of another human seat changed (cash, advertising), differently per ``seed``."""
    if viewer == AUDITOR or state.phase == Phase.ENDED:  # after the crash the final cash is published
        return state
    seats = tuple(
        s if s.kind != SeatKind.HUMAN or (isinstance(viewer, int) and Seat(i) == viewer)
        else msgspec.structs.replace(s, cash=(s.cash + 10 * (seed % 9973) + 7 * i + 1) % 100_000,
                                     advertising=(s.advertising + seed + i + 1) % 12)
        for i, s in enumerate(state.seats)
    )
    return msgspec.structs.replace(state, seats=seats)
