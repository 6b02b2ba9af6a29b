"""The turn (R2.1): it opens with the roll (R3, made at once by the service, R9.2), holds the action phase, and
ends with the draw (R6); then either the next seat's turn opens or, after the last turn of the final round
(R6.4), the game is scored (R7). A submitted whole turn (R9.4) is its actions in order and then this end."""

from __future__ import annotations

from msgspec.structs import replace

from domain.kernel import Chance
from domain.kernel.phrases import say, say_n

from .drawing import draw
from .errors import CardPlayMissing, ChoicesFirst
from .events import TurnEnded, TurnStarted
from .plays import plays_allowed
from .recorder import Recorder
from .roll import roll
from .scoring import finish
from .state import DecktetState


def begin(rec: Recorder, seat: int, chance: Chance) -> None:
    """Open ``seat``'s turn with its roll, taxation and everyone's income."""
    rec.emit(TurnStarted(seat=seat, turn=rec.state.turn + 1))
    roll(rec, seat, chance)


def plays_required(state: DecktetState) -> int:
    """R2.1, R2.3, V2.5: the turn's card plays (never more than the hand allows)."""
    return min(plays_allowed(state), state.plays + len(state.seats[state.active].hand))


def end_turn(rec: Recorder, seat: int, chance: Chance) -> None:
    """End the action phase: draw, count down the final round, then open the next turn or score the game."""
    state = rec.state
    if state.choices:
        raise ChoicesFirst(phrase=say("make your income choices first"))
    if state.plays < plays_required(state):
        raise CardPlayMissing(phrase=say_n("make {n} card play before ending the turn",
                                            "make {n} card plays before ending the turn", "n",
                                            n=plays_required(state)))
    already = state.exhausted
    draw(rec, seat, chance)
    left = rec.state.turns_left
    if already and left is not None:
        left -= 1
    rec.emit(TurnEnded(seat=seat, turns_left=left))
    if left == 0:
        finish(rec)
    else:
        begin(rec, (seat + 1) % len(rec.state.seats), chance)


def apply_turn_started(state: DecktetState, event: TurnStarted) -> DecktetState:
    return replace(state, active=event.seat, turn=event.turn, plays=0, choices=(), roll=None)


def apply_turn_ended(state: DecktetState, event: TurnEnded) -> DecktetState:
    return replace(state, turns_left=event.turns_left)
