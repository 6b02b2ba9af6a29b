"""Dice Race's rules: ``step`` (decide, with the state after), ``evolve``, ``pending``, the legal moves and the
outcome. Pure: every random number is drawn from the decision's :class:`~domain.kernel.Chance`."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.kernel import (
    Actor,
    Chance,
    CommandTemplate,
    GameAlreadyOver,
    NotYourTurn,
    Outcome,
    Pending,
    Seat,
    Standing,
    WrongPhase,
)
from domain.kernel.deciding import decide_from, seat_of, system_only
from domain.kernel.recording import Recorder
from domain.kernel.reveal import apply_seed_revealed, reveal_seed

from .messages import (
    ComputerRolls,
    DiceRaceState,
    Events,
    RevealSeed,
    Roll,
    RollAsked,
    SecretDealt,
    SeedRevealed,
    Start,
    Started,
    Throw,
    Thrown,
)

SECRETS = range(100_000, 1_000_000)
"""A secret number has six digits."""


def evolve(state: DiceRaceState, event: Any) -> DiceRaceState:
    replace = msgspec.structs.replace
    match event:
        case Started(options=options, seed_commitment=commitment):
            return replace(state, options=options, seed_commitment=commitment, squares=(0,) * len(options.seats))
        case SecretDealt(secret=secret):
            return replace(state, secrets=(*state.secrets, secret if secret is not None else 0))
        case RollAsked():
            return replace(state, asked=True)
        case Thrown(seat=seat, square=square):
            squares = tuple(square if i == seat else s for i, s in enumerate(state.squares))
            return replace(state, squares=squares, asked=False, turn=(seat + 1) % len(squares), throws=state.throws + 1)
        case SeedRevealed():
            return apply_seed_revealed(state, event)
    return state


def step(state: DiceRaceState, actor: Actor, command: Any, chance: Chance) -> tuple[list[Events], DiceRaceState]:
    """The events of ``command`` by ``actor`` and the state after them (or a RuleViolation)."""
    rec: Recorder[DiceRaceState, Events] = Recorder(state, evolve)
    if isinstance(command, Roll):
        rec.emit(RollAsked(seat=_on_turn(state, actor)))
        return rec.events, rec.state
    system_only(actor)
    match command:
        case Start(options=options, seed_commitment=commitment):
            if state.options is not None:
                raise WrongPhase("the race has started")
            rec.emit(Started(options=options, seed_commitment=commitment))
            rec.emit(*(SecretDealt(seat=seat, secret=SECRETS[chance.below(len(SECRETS))])
                       for seat in range(len(options.seats))))
        case Throw():
            if not state.asked or state.over:
                raise WrongPhase("nobody has asked to roll")
            (pips,) = chance.roll(1)
            rec.emit(Thrown(seat=state.turn, pips=pips, square=state.squares[state.turn] + pips))
        case ComputerRolls():
            if state.options is None or state.asked or state.over or state.options.seats[state.turn] != "ai":
                raise WrongPhase("the computer has no seat on turn")
            rec.emit(RollAsked(seat=state.turn))
        case RevealSeed(seed=seed):
            rec.emit(*reveal_seed(state, state.over, seed, SeedRevealed))
        case _:
            raise WrongPhase(f"not a command of this game: {command!r}")
    return rec.events, rec.state


decide = decide_from(step)


def _on_turn(state: DiceRaceState, actor: Actor) -> int:
    seat = seat_of(actor)
    if state.options is None:
        raise WrongPhase("the race has not started")
    if state.over:
        raise GameAlreadyOver("the race is over")
    if seat != state.turn or state.options.seats[state.turn] != "human":
        raise NotYourTurn(f"it is seat {state.turn + 1}'s turn")
    if state.asked:
        raise WrongPhase("the die is being thrown")
    return seat


def pending(state: DiceRaceState) -> Pending:
    if state.options is None:
        return Pending()
    if state.over:
        return Pending(finished=True)
    if state.asked:
        return Pending(system=Throw())
    if state.options.seats[state.turn] == "ai":
        return Pending(system=ComputerRolls())
    return Pending(seats=(Seat(state.turn),))


def legal_commands(state: DiceRaceState, seat: Seat) -> list[CommandTemplate]:
    return [CommandTemplate(Roll())] if seat in pending(state).seats else []


def score(state: DiceRaceState, seat: int) -> int:
    """A seat's square plus the last digit of its secret number."""
    return state.squares[seat] + state.secrets[seat] % 10


def outcome(state: DiceRaceState) -> Outcome | None:
    if not state.over:
        return None
    scores = [score(state, seat) for seat in range(len(state.squares))]
    ranked = sorted(range(len(scores)), key=lambda seat: (-scores[seat], seat))
    rounds = -(-state.throws // len(scores))
    return Outcome(tuple(Standing(seat, 1 + sum(other > scores[seat] for other in scores), scores[seat])
                         for seat in ranked), rounds)
