"""``decide`` and ``step`` for Decktet Magnate: who may issue which command, then the rules modules.

A player command is one action of the active seat's turn, the end of the turn, or (R9.4) a whole turn at once
(:mod:`.playing`). The end of a turn carries on by itself (the draw, the final-round count, the next seat's roll,
taxation and income, or the final scoring), so the events of a command always leave the game waiting for a seat,
never half way through. The system commands are the start, the computer's turn (for a seat the options gave it) and,
after the end, the seed's reveal: draws and rolls are decided inside the command that causes them, with its chance
source. ``evolve`` is :mod:`.folding`'s.
"""

from __future__ import annotations

from domain.kernel import Actor, Chance, GameAlreadyOver, NotYourTurn, WrongPhase
from domain.kernel.deciding import decide_from, seat_of, system_only
from domain.kernel.phrases import say
from domain.kernel.phrases import seat as seat_ref
from domain.kernel.reveal import reveal_seed

from . import setup, turn
from .ai import plan_turn
from .commands import DecktetCommand, RevealSeed, StartGame, TakeAiTurn
from .errors import NotTheComputers
from .events import AiTurnPlanned, DecktetEvent, SeedRevealed
from .folding import HANDLED_EVENTS, evolve, initial_state, replay
from .playing import decide_action, play
from .recorder import Recorder
from .state import DecktetState, Phase

__all__ = ["HANDLED_EVENTS", "decide", "decide_action", "evolve", "initial_state", "is_computer", "replay", "step"]


def step(
    state: DecktetState, actor: Actor, command: DecktetCommand, chance: Chance
) -> tuple[list[DecktetEvent], DecktetState]:
    """``decide``, also returning the state after the events (equal to folding them onto ``state``)."""
    rec = Recorder(state, evolve)
    if isinstance(command, StartGame):
        system_only(actor)
        if state.phase != Phase.SETUP:
            raise WrongPhase(phrase=say("the game has already started"))
        rec.emit(*setup.start(command, chance))
        turn.begin(rec, rec.state.first, chance)
    elif isinstance(command, TakeAiTurn):
        system_only(actor)
        _computer(rec, state, chance)
    elif isinstance(command, RevealSeed):
        system_only(actor)
        rec.emit(*reveal_seed(state, state.phase == Phase.ENDED, command.seed, SeedRevealed))
    else:
        play(rec, _seat_on_turn(state, actor), command, chance)
    return rec.events, rec.state


decide = decide_from(step)


def is_computer(state: DecktetState, seat: int) -> bool:
    """The options gave ``seat`` to the computer."""
    return seat < len(state.variant.seats) and state.variant.seats[seat].kind == "ai"


def _computer(rec: Recorder, state: DecktetState, chance: Chance) -> None:
    """The computer plays the turn of the seat on turn: its plan (recorded), each action as the seat's, the end."""
    if state.phase != Phase.PLAYING:
        raise WrongPhase(phrase=say("no turn is being played"))
    seat = state.active
    level = state.variant.seats[seat].level if is_computer(state, seat) else None
    if level is None:
        raise NotTheComputers(phrase=say("{seat} is a person's", seat=seat_ref(seat)))
    plan = plan_turn(state, seat, level, chance)
    rec.emit(AiTurnPlanned(seat=seat, level=level, reason=plan.reason))
    for action in plan.actions:
        rec.emit(*decide_action(rec.state, seat, action))
    turn.end_turn(rec, seat, chance)


def _seat_on_turn(state: DecktetState, actor: Actor) -> int:
    seat = seat_of(actor)
    if state.phase == Phase.ENDED:
        raise GameAlreadyOver(phrase=say("the game is over"))
    if state.phase == Phase.SETUP:
        raise WrongPhase(phrase=say("the game has not started"))
    if seat != state.active:
        raise NotYourTurn(phrase=say("it is {seat}'s turn", seat=seat_ref(state.active)))
    if is_computer(state, seat):
        raise NotTheComputers(phrase=say("the computer plays {seat}", seat=seat_ref(seat)))
    return seat
