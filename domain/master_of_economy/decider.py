"""``decide`` and ``step`` for Master of Economy: who may issue which command, then the rules modules, then
:func:`~.flow.settle` (every automatic step up to the next decision). ``evolve`` is :mod:`.folding`'s.

A seat's command is refused unless the game waits for that seat at this step (a turn's actor, a seat that owes a
simultaneous choice, or the manager of a corporation that is short of cash, ME-X-1); the system commands are
refused from a seat, and when they are not due.
"""

from __future__ import annotations

from domain.kernel import SYSTEM, Actor, ActorNotAllowed, Chance, GameAlreadyOver, NothingPending, WrongPhase

from . import ac, dividends, elections, flow, setup
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
)
from .folding import evolve, initial_state, replay
from .playing import play
from .recorder import Recorder
from .reveal import reveal
from .state import State, Step

__all__ = ["decide", "evolve", "initial_state", "replay", "step"]

_DUE = {RevealStartBids: Step.AUCTION_REVEAL, MoveAc: Step.AC_MOVE, ResolveMarket: Step.RESOLVE,
        ScoreAc: Step.AC_SCORE, CountVotes: Step.VOTE_COUNT, CountBallots: Step.BALLOT_COUNT}


def decide(state: State, actor: Actor, command: AnyCommand, chance: Chance) -> list[object]:
    """Validate ``command`` from ``actor`` and return every event it causes (or raise a RuleViolation)."""
    return step(state, actor, command, chance)[0]


def step(state: State, actor: Actor, command: AnyCommand, chance: Chance) -> tuple[list[object], State]:
    """``decide``, also returning the state after the events (equal to folding them onto ``state``)."""
    rec = Recorder(state, evolve)
    if isinstance(command, StartGame):
        _system(actor)
        if state.step != Step.SETUP or state.players:
            raise WrongPhase("the game has already started")
        rec.emit(setup.start(command))
        if rec.state.variant.assignment == "random":
            setup.assign(rec, chance)
            flow.after_pick(rec, chance)
        else:
            flow.goto(rec, Step.PICK)
    elif isinstance(command, RevealSeed):
        _system(actor)
        rec.emit(*reveal(state, command.seed))
        return rec.events, rec.state
    elif isinstance(command, tuple(_DUE)):
        _system(actor)
        _run_system(rec, command, chance)
    else:
        if actor == SYSTEM:
            raise ActorNotAllowed("a player command needs a seat")
        if state.step == Step.ENDED:
            raise GameAlreadyOver("the game is over")
        play(rec, int(actor), command)  # type: ignore[arg-type]  # the system commands are handled above
    flow.settle(rec, chance)
    return rec.events, rec.state


def _system(actor: Actor) -> None:
    if actor != SYSTEM:
        raise ActorNotAllowed("only the system may issue this command")


def _run_system(rec: Recorder, command: AnyCommand, chance: Chance) -> None:
    state = rec.state
    due = _DUE[type(command)]  # type: ignore[index]
    if state.step != due:
        raise NothingPending(f"{type(command).__name__} is not due", step=str(state.step))
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
