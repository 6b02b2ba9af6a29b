"""The table around a game: facts about who sits at it, kept in the game's own log (so an audit sees them),
which no game's rules need to know.

A seat claimed by a signed-in player is a :class:`ClaimSeat` system command whose :class:`SeatClaimed` event is
appended to the game's log like any other; the game's state does not change. :func:`seated` gives a game
module that also speaks these messages, and the registry (``domain/games.py``) serves every game through it.
Tags start with ``table.``, a namespace no game uses.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, TypeVar, Union

from .chance import Chance
from .errors import ActorNotAllowed, GameAlreadyOver, InvalidValue
from .game import GameModule
from .messages import Event, SystemCommand
from .narration import Named, Narrator, Told, utf16_length
from .seats import SYSTEM, Actor, Viewer

S = TypeVar("S")

NAME_MAX = 40
TABLE_PREFIX = "table."
"""The tag namespace of the table's messages."""


class ClaimSeat(SystemCommand, frozen=True, tag="table.claim_seat"):
    """The service binds ``seat`` to a signed-in player shown as ``name``."""

    seat: int
    name: str


class SeatClaimed(Event, frozen=True, tag="table.seat_claimed"):
    seat: int
    name: str


TABLE_EVENTS = (SeatClaimed,)


def claim(game: GameModule[S], state: S, actor: Actor, command: ClaimSeat) -> list[Any]:
    """The events of a claim: only the service claims, only a human seat, only while the game runs."""
    if actor != SYSTEM:
        raise ActorNotAllowed("only the service claims a seat")
    seats = game.seats(state)
    if not 0 <= command.seat < len(seats):
        raise InvalidValue(f"there is no seat {command.seat + 1}", seat=command.seat)
    if seats[command.seat].kind != "human":
        raise InvalidValue(f"seat {command.seat + 1} is not played by a person", seat=command.seat)
    if game.pending(state).finished:
        raise GameAlreadyOver("the game has ended")
    name = command.name.strip()
    if not name or len(name) > NAME_MAX:
        raise InvalidValue(f"a player's name is 1 to {NAME_MAX} characters", field="name")
    return [SeatClaimed(seat=command.seat, name=name)]


class _TableNarrator:
    """The game's narrator, telling the table's events itself."""

    def __init__(self, inner: Narrator | None, names: Mapping[int, str]) -> None:
        self.inner = inner
        self.names = names

    def tell(self, version: int, tag: str, event: Any) -> list[Told]:
        if isinstance(event, SeatClaimed):
            head = f"{event.name} claimed seat {event.seat + 1}"
            return [Told(version, tag, 0, f"{head}.", (Named(event.seat, 0, utf16_length(event.name)),))]
        return self.inner.tell(version, tag, event) if self.inner is not None else []


def seated(game: GameModule[S]) -> GameModule[S]:
    """``game`` with the table's commands and events: the same rules, the same state, a log that may also hold
    who claimed which seat."""

    def decide(state: S, actor: Actor, command: Any, chance: Chance) -> list[Any]:
        if isinstance(command, ClaimSeat):
            return claim(game, state, actor, command)
        return game.decide(state, actor, command, chance)

    def step(state: S, actor: Actor, command: Any, chance: Chance) -> tuple[list[Any], S]:
        if isinstance(command, ClaimSeat):
            return claim(game, state, actor, command), state
        return game.step(state, actor, command, chance)

    def evolve(state: S, event: Any) -> S:
        return state if isinstance(event, TABLE_EVENTS) else game.evolve(state, event)

    def redact(event: Any, viewer: Viewer, over: bool) -> Any | None:
        return event if isinstance(event, TABLE_EVENTS) else game.redact(event, viewer, over)

    def narrator(names: Mapping[int, str]) -> Narrator:
        return _TableNarrator(game.narrator(names) if game.narrator is not None else None, names)

    return dataclasses.replace(
        game,
        system_command_type=Union[game.system_command_type, ClaimSeat],  # noqa: UP007 (a union of runtime types)
        event_type=Union[game.event_type, SeatClaimed],  # noqa: UP007
        decide=decide,
        step=step,
        evolve=evolve,
        redact=redact,
        narrator=narrator,
    )
