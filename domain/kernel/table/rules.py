"""What the table's commands decide and how its events change the table's facts. A game's state carries the facts
in its ``table`` field; these functions read and replace that field and call the game's own rules for the rest
(a stand-in's move is the game's move, made for the seat)."""

from __future__ import annotations

from typing import Any, Protocol, TypeVar

import msgspec

from ..chance import Chance
from ..errors import ActorNotAllowed, GameAlreadyOver, InvalidValue, NotYourTurn, RuleViolation
from ..game import GameModule
from ..messages import tag_of
from ..phrases import say
from ..seats import SYSTEM, Actor, Seat
from . import clock
from .facts import Pilot, TableFacts, TableOptions, put, worse
from .messages import (
    CameBack,
    ClaimSeat,
    ClocksSet,
    ComeBack,
    GoAway,
    Leave,
    LeftTable,
    OpenTable,
    PilotLeft,
    Resign,
    Resigned,
    SeatClaimed,
    SetClocks,
    StandIn,
    StoodIn,
    TableOpened,
    TakeBack,
    TimedOut,
    TimeOut,
    TookBack,
    WentAway,
)

NAME_MAX = 40
MAX_AWAY_MS = 366 * 86_400_000


class HasTable(Protocol):
    @property
    def table(self) -> TableFacts: ...


S = TypeVar("S", bound=HasTable)


class SeatStoodIn(RuleViolation):
    """A stand-in plays this seat now: its player must take it back first (if the table allows)."""

    code = "table/stand_in"


class NoTakeBack(RuleViolation):
    """The seat cannot be taken back (the table does not allow it, or the player resigned or forfeited)."""

    code = "table/no_takeback"


class AlreadyGone(RuleViolation):
    """The seat has already resigned or left."""

    code = "table/already_gone"


def facts_of(state: HasTable) -> TableFacts:
    return state.table


def with_facts(state: S, facts: TableFacts) -> S:
    return msgspec.structs.replace(state, table=facts)  # type: ignore[type-var]


def stand_in_level(game: GameModule[Any], options: TableOptions | None) -> str:
    """The bot that stands in: the table's choice, else the game's strongest (``greedy`` when it has one)."""
    if options is not None and options.stand_in:
        return options.stand_in
    if "greedy" in game.bots:
        return "greedy"
    return next(iter(game.bots), "")


def _seat_count(game: GameModule[S], state: S) -> int:
    return len(game.seats(state))


def _check_seat(game: GameModule[S], state: S, seat: int) -> None:
    if not 0 <= seat < _seat_count(game, state):
        raise InvalidValue(phrase=say("there is no seat {number}", number=seat + 1), seat=seat)


def running_game(game: GameModule[S], state: S) -> None:
    if game.pending(state).finished:
        raise GameAlreadyOver(phrase=say("the game has ended"))


def decide_system(game: GameModule[S], state: S, actor: Actor, command: Any, chance: Chance) -> list[Any]:
    if actor != SYSTEM:
        raise ActorNotAllowed(phrase=say("only the service issues the table's system commands"))
    facts = facts_of(state)
    match command:
        case ClaimSeat():
            return _claim(game, state, command)
        case OpenTable(options=options):
            return _open(game, state, options)
        case SetClocks(at=at):
            running_game(game, state)
            if facts.control is None:
                raise InvalidValue(phrase=say("this table has no clock"))
            return [ClocksSet(at=at, clocks=clock.set_clocks(facts, game.pending(state).seats, at))]
        case TimeOut(seat=seat, at=at):
            return _time_out(game, state, seat, at)
        case GoAway(seat=seat, at=at, until=until):
            _check_seat(game, state, seat)
            running_game(game, state)
            if not at < until <= at + MAX_AWAY_MS:
                raise InvalidValue(phrase=say("a vacation ends after it starts, within a year"), field="until")
            return [WentAway(seat=seat, at=at, until=until)]
        case ComeBack(seat=seat, at=at):
            _check_seat(game, state, seat)
            running_game(game, state)
            if facts.away_until(seat) <= at:
                raise InvalidValue(phrase=say("seat {number}'s player is not on vacation", number=seat + 1), seat=seat)
            return [CameBack(seat=seat, at=at)]
        case StandIn(seat=seat):
            return _stand_in(game, state, Seat(seat), chance)
    raise InvalidValue(phrase=say("unknown table command {command}", command=tag_of(command)))


def _claim(game: GameModule[S], state: S, command: ClaimSeat) -> list[Any]:
    _check_seat(game, state, command.seat)
    if game.seats(state)[command.seat].kind != "human":
        raise InvalidValue(phrase=say("seat {number} is not played by a person", number=command.seat + 1),
                           seat=command.seat)
    running_game(game, state)
    name = command.name.strip()  # empty: the claim records no name (an older service's claim recorded one)
    if len(name) > NAME_MAX:
        raise InvalidValue(phrase=say("a player's name is 1 to {most} characters", most=NAME_MAX), field="name")
    return [SeatClaimed(seat=command.seat, name=name)]


def _open(game: GameModule[S], state: S, options: TableOptions) -> list[Any]:
    if facts_of(state).options is not None:
        raise InvalidValue(phrase=say("the table is already open"))
    seats = game.seats(state)
    for seat in options.stand_ins:
        if seat >= len(seats) or seats[seat].kind != "human":
            raise InvalidValue(phrase=say("seat {number} is not a person's seat: a stand-in plays only those",
                                             number=seat + 1), seat=seat)
    if len(set(options.stand_ins)) != len(options.stand_ins):
        raise InvalidValue(phrase=say("a seat is named twice among the stand-ins"), field="stand_ins")
    people = [seat for seat, info in enumerate(seats) if info.kind == "human" and seat not in options.stand_ins]
    if options.undo == "instant" and options.rated:
        raise InvalidValue(phrase=say("a rated table cannot take moves back without the other players' consent"),
                           field="undo")
    if options.rated and len(people) < 2:
        raise InvalidValue(phrase=say("a rated game needs at least two seats people play (the computer is not "
                                      "rated)"), field="rated")
    if options.stand_in and options.stand_in not in game.bots:
        raise InvalidValue(phrase=say("{game} has no player '{level}'", game=game.name, level=options.stand_in),
                           field="stand_in",
                           known=sorted(game.bots))
    if not game.bots and (options.clock is not None or options.stand_ins):
        raise InvalidValue(phrase=say("{game} has no stand-in player: it cannot have a clock or stand-ins",
                                      game=game.name))
    return [TableOpened(options=options, seats=len(seats), level=stand_in_level(game, options))]


def _time_out(game: GameModule[S], state: S, seat: int, at: int) -> list[Any]:
    _check_seat(game, state, seat)
    running_game(game, state)
    facts = facts_of(state)
    options = facts.options
    deadline = facts.clock(seat).deadline
    if options is None or deadline is None:
        raise NotYourTurn(phrase=say("seat {number}'s clock is not running", number=seat + 1))
    if at < deadline:
        raise InvalidValue(phrase=say("seat {number} still has time", number=seat + 1), deadline=deadline, at=at)
    return [TimedOut(seat=seat, at=at, policy=options.on_timeout, level=stand_in_level(game, options))]


def _stand_in(game: GameModule[S], state: S, seat: Seat, chance: Chance) -> list[Any]:
    pilot = facts_of(state).pilot(seat)
    if pilot is None:
        raise NotYourTurn(phrase=say("no stand-in plays seat {number}", number=seat + 1))
    if seat not in game.pending(state).seats:
        raise NotYourTurn(phrase=say("the game does not wait for seat {number}", number=seat + 1))
    policy = game.bots[pilot.level](chance.below(1 << 62))
    move = policy(state, seat)
    events, after = game.step(state, seat, move, chance)
    told: list[Any] = [StoodIn(seat=seat, level=pilot.level, command=tag_of(move)), *events]
    if pilot.reason == "timeout_turn" and seat not in game.pending(after).seats:
        told.append(PilotLeft(seat=seat))
    return told


def decide_player(game: GameModule[S], state: S, actor: Actor, command: Any) -> list[Any]:
    if actor == SYSTEM:
        raise ActorNotAllowed(phrase=say("a seat resigns, leaves or takes its seat back, not the service"))
    seat = int(actor)
    _check_seat(game, state, seat)
    running_game(game, state)
    facts = facts_of(state)
    pilot = facts.pilot(seat)
    level = stand_in_level(game, facts.options)
    match command:
        case Resign() | Leave() if pilot is not None and pilot.reason in ("resigned", "forfeit", "left"):
            raise AlreadyGone(phrase=say("seat {number} has already left", number=seat + 1) if pilot.reason == "left"
                              else say("seat {number} has already resigned", number=seat + 1))
        case Resign() | Leave() if not level:
            raise InvalidValue(phrase=say("{game} has no stand-in player to play the seat out", game=game.name))
        case Resign():
            return [Resigned(seat=seat, level=level)]
        case Leave():
            return [LeftTable(seat=seat, level=level)]
        case TakeBack():
            if pilot is None:
                raise InvalidValue(phrase=say("this seat is yours already"))
            allowed = facts.options.takeback if facts.options is not None else True
            if pilot.reason not in ("timeout", "left") or not allowed:
                raise NoTakeBack(phrase=say("this seat cannot be taken back at this table"))
            return [TookBack(seat=seat)]
    raise InvalidValue(phrase=say("unknown table command {command}", command=tag_of(command)))


def refuse_if_stood_in(state: HasTable, actor: Actor) -> None:
    """A seat's own move while a stand-in plays it is refused (the timeout came first, or the player left)."""
    if actor != SYSTEM and facts_of(state).pilot(int(actor)) is not None:
        raise SeatStoodIn(phrase=say("a stand-in plays this seat now; take it back first, if the table allows"))


def evolve_table(facts: TableFacts, event: Any) -> TableFacts:
    """The table's facts after one of its events."""
    match event:
        case TableOpened(options=options, seats=seats, level=level):
            pilots = tuple(Pilot(level, "stand_in") if i in options.stand_ins else None
                           for i in range(seats))
            return msgspec.structs.replace(facts, options=options, clocks=clock.initial(options.clock, seats),
                                           pilots=pilots)
        case ClocksSet(clocks=clocks):
            return msgspec.structs.replace(facts, clocks=clocks)
        case TimedOut(seat=seat, policy=policy, level=level):
            reason = {"stand_in_move": "timeout_turn", "stand_in_game": "timeout", "forfeit": "forfeit"}[policy]
            mark = "forfeited" if policy == "forfeit" else "timed_out"
            return _gone(facts, seat, Pilot(level, reason), mark)  # type: ignore[arg-type]
        case PilotLeft(seat=seat) | TookBack(seat=seat):
            return msgspec.structs.replace(facts, pilots=put(facts.pilots, seat, None, None, seat + 1))
        case Resigned(seat=seat, level=level):
            return _gone(facts, seat, Pilot(level, "resigned"), "resigned")
        case LeftTable(seat=seat, level=level):
            return _gone(facts, seat, Pilot(level, "left"), "left")
        case WentAway(seat=seat, at=at, until=until):
            clocks = facts.clocks
            if seat < len(clocks):
                clocks = put(clocks, seat, clock.pause(clocks[seat], at, until), clocks[seat], len(clocks))
            return msgspec.structs.replace(facts, away=put(facts.away, seat, until, 0, seat + 1), clocks=clocks)
        case CameBack(seat=seat, at=at):
            clocks = facts.clocks
            if seat < len(clocks):
                clocks = put(clocks, seat, clock.resume(clocks[seat], at, facts.away_until(seat)), clocks[seat],
                             len(clocks))
            return msgspec.structs.replace(facts, away=put(facts.away, seat, 0, 0, seat + 1), clocks=clocks)
    return facts


def _gone(facts: TableFacts, seat: int, pilot: Pilot, mark: str) -> TableFacts:
    seats = max(len(facts.pilots), len(facts.marks), seat + 1)
    timeouts = facts.timeouts
    if mark in ("timed_out", "forfeited"):
        timeouts = put(timeouts, seat, facts.timed_out(seat) + 1, 0, seats)
    return msgspec.structs.replace(
        facts, pilots=put(facts.pilots, seat, pilot, None, seats),
        marks=put(facts.marks, seat, worse(facts.mark(seat), mark), "", seats), timeouts=timeouts)
