"""Whose turn it is in phases 2 and 3: the first player, then clockwise (§4)."""

from __future__ import annotations

from msgspec.structs import replace

from domain.kernel import NotYourTurn, Seat, WrongPhase, clockwise
from domain.kernel.phrases import Term, say, term

from ..events import PhaseStarted
from ..state import MagnateState, Phase


def turn_order(state: MagnateState) -> tuple[Seat, ...]:
    return clockwise(state.first_player, len(state.seats))


def current_seat(state: MagnateState) -> Seat | None:
    """The seat on turn in phases 1-3, or None when no seat is (market, end, phase finished)."""
    if state.phase == Phase.BIDDING and state.auction is not None:
        return Seat(state.auction.turn)
    if state.phase in (Phase.ATTRACTING, Phase.ACTIONS) and state.turn < len(state.seats):
        return turn_order(state)[state.turn]
    return None


PHASES: dict[str, Term] = {
    Phase.SETUP: term("setup", "phase"), Phase.BIDDING: term("bidding", "phase"),
    Phase.ATTRACTING: term("attracting", "phase"), Phase.ACTIONS: term("actions", "phase"),
    Phase.MARKET: term("market", "phase"), Phase.ENDED: term("ended", "phase"),
}
"""The phases as a refusal names them ("this can only be done in the actions phase")."""


def require_turn(state: MagnateState, seat: Seat, phase: Phase) -> None:
    """Raise unless it is ``phase`` and ``seat`` is on turn."""
    if state.phase != phase:
        raise WrongPhase(phrase=say("this can only be done in the {phase} phase; it is the {current} phase",
                                    phase=PHASES.get(phase, str(phase)),
                                    current=PHASES.get(state.phase, str(state.phase))),
                         phase=str(state.phase))
    if current_seat(state) != seat:
        raise NotYourTurn(phrase=say("it is not your turn"), seat=seat, on_turn=current_seat(state))


def apply_phase_started(state: MagnateState, event: PhaseStarted) -> MagnateState:
    return replace(state, phase=Phase(event.phase), turn=0, action_pass=0, attraction=None)
