"""``decide`` and ``step`` for Master of Economy: who may issue which command, then the rules modules, then
:func:`~.flow.settle` (every automatic step up to the next decision). ``evolve`` is :mod:`.folding`'s.

A seat's command is refused unless the game waits for that seat at this step (a turn's actor, a seat that owes a
simultaneous choice, or the manager of a corporation that is short of cash, ME-X-1), except a seat's standing
shortfall preferences (§17, "Interrupts"), which it may set or clear at any time while the game runs without
taking or ending a turn; the system commands are refused from a seat, and when they are not due. ``TakeAiTurn``
is the computer's decision for a seat the options gave it (:mod:`.ai`: its reasons recorded, then its moves played
as the seat's own commands); a person's command for such a seat is refused (``NotTheComputers``).
"""

from __future__ import annotations

from domain.kernel import Actor, Chance, GameAlreadyOver, NothingPending, WrongPhase
from domain.kernel.deciding import decide_from, seat_of, system_only
from domain.kernel.phrases import say
from domain.kernel.reveal import reveal_seed

from . import ac, dividends, elections, flow, setup
from .ai import decide_for
from .commands import (
    AnyCommand,
    CountBallots,
    CountVotes,
    MoveAc,
    ResolveMarket,
    RevealSeed,
    RevealStartBids,
    ScoreAc,
    StartGame,
    TakeAiTurn,
)
from .errors import NotTheComputers
from .events import AiDecided, SeedRevealed
from .folding import evolve, initial_state, replay
from .playing import may_act, play
from .recorder import Recorder
from .state import State, Step
from .variant import computer_level

__all__ = ["decide", "evolve", "initial_state", "replay", "step"]

_DUE = {RevealStartBids: Step.AUCTION_REVEAL, MoveAc: Step.AC_MOVE, ResolveMarket: Step.RESOLVE,
        ScoreAc: Step.AC_SCORE, CountVotes: Step.VOTE_COUNT, CountBallots: Step.BALLOT_COUNT}


def step(state: State, actor: Actor, command: AnyCommand, chance: Chance) -> tuple[list[object], State]:
    """``decide``, also returning the state after the events (equal to folding them onto ``state``)."""
    rec = Recorder(state, evolve)
    if isinstance(command, StartGame):
        system_only(actor)
        if state.step != Step.SETUP or state.players:
            raise WrongPhase(phrase=say("the game has already started"))
        rec.emit(setup.start(command))
        if rec.state.variant.assignment == "random":
            setup.assign(rec, chance)
            flow.after_pick(rec, chance)
        else:
            flow.goto(rec, Step.PICK)
    elif isinstance(command, RevealSeed):
        system_only(actor)
        rec.emit(*reveal_seed(state, state.step == Step.ENDED, command.seed, SeedRevealed))
        return rec.events, rec.state
    elif isinstance(command, tuple(_DUE)):
        system_only(actor)
        _run_system(rec, command, chance)
    elif isinstance(command, TakeAiTurn):
        system_only(actor)
        _computer(rec, command.seat, chance)
    else:
        seat = seat_of(actor)
        if state.step == Step.ENDED:
            raise GameAlreadyOver(phrase=say("the game is over"))
        if computer_level(state.variant, seat) is not None:
            raise NotTheComputers(phrase=say("the computer plays seat {number}", number=seat + 1))
        play(rec, seat, command)  # type: ignore[arg-type]  # the system commands are handled above
    flow.settle(rec, chance)
    return rec.events, rec.state


decide = decide_from(step)


def _computer(rec: Recorder, seat: int, chance: Chance) -> None:
    """The computer decides for ``seat`` (its reasons, recorded), then each of its moves is played as the seat's own
    command, through the same checks as a person's."""
    state = rec.state
    level = computer_level(state.variant, seat)
    if level is None:
        raise NotTheComputers(phrase=say("seat {number} is a person's", number=seat + 1))
    if state.step == Step.ENDED:
        raise GameAlreadyOver(phrase=say("the game is over"))
    if not may_act(state, seat):
        raise NothingPending(phrase=say("the game does not wait for seat {number}", number=seat + 1),
                             step=str(state.step))
    decision = decide_for(state, seat, level, chance)
    rec.emit(AiDecided(seat=seat, level=level, reason=decision.reason))
    for move in decision.moves:
        play(rec, seat, move)


def _run_system(rec: Recorder, command: AnyCommand, chance: Chance) -> None:
    state = rec.state
    due = _DUE[type(command)]  # type: ignore[index]
    if state.step != due:
        raise NothingPending(phrase=say("{command} is not due", command=type(command).__name__), step=str(state.step))
    match command:
        case RevealStartBids():
            setup.reveal_bids(rec, chance)
            flow.start_stage(rec, flow.FIRST_STAGE)
        case MoveAc():
            rec.emit(*ac.place_marker(state))
            flow.goto(rec, Step.TOKENS)
        case ResolveMarket():
            flow.goto(rec, Step.RESOLVING)
        case ScoreAc():
            rec.emit(*ac.score(state))
            flow.end_trade(rec)
        case CountVotes():
            rec.emit(*dividends.count(state))
            flow.dividend_target(rec, state.target + 1)
        case CountBallots():
            rec.emit(*elections.count(state))
            flow.after_count(rec)
