""":func:`seated`: a game module that also speaks the table's messages, on the same rules and the same state.

Every game's state carries a ``table`` field (:class:`~.facts.TableFacts`, default empty) that only the table's
events change; the game's own rules copy it along like any other field. The registry (``domain/games.py``) serves
every game through :func:`seated`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, Generic, TypeVar, Union

import msgspec

from ..chance import Chance
from ..decider import fold
from ..errors import InvalidValue
from ..game import CommandTemplate, GameModule, Outcome, Pending, SeatInfo
from ..narration import Narrator
from ..phrases import say
from ..seats import Actor, Seat, Viewer
from .facts import Pilot
from .messages import (
    TABLE_EVENTS,
    MovesUndone,
    StandIn,
    TableEvent,
    TablePlayerCommand,
    TableSystemCommand,
    UndoAnswer,
    UndoAsk,
    UndoCancel,
)
from .narrate import TableNarrator
from .rewind import Rewound
from .rules import (
    HasTable,
    decide_player,
    decide_system,
    evolve_table,
    facts_of,
    refuse_if_stood_in,
    running_game,
    with_facts,
)
from .standings import table_outcome
from .undo import decide_answer, evolve_undo, without_request

S = TypeVar("S", bound=HasTable)

_SYSTEM = TableSystemCommand.__args__
_PLAYER = TablePlayerCommand.__args__


class _Seated(Generic[S]):
    """The wrapped functions of one game (bound methods make the new module's record)."""

    def __init__(self, game: GameModule[S]) -> None:
        self.game = game

    def evolve(self, state: S, event: Any) -> S:
        if isinstance(event, MovesUndone):
            raise Rewound(event.back_to)  # only fold_log knows the state before the moves (rewind.py)
        if isinstance(event, TABLE_EVENTS):
            facts = without_request(facts_of(state), event)
            return with_facts(state, evolve_undo(evolve_table(facts, event), event))
        after = self.game.evolve(state, event)
        facts = facts_of(after)
        return after if facts.undo is None else with_facts(after, without_request(facts, event))

    def decide(self, state: S, actor: Actor, command: Any, chance: Chance) -> list[Any]:
        if isinstance(command, UndoAsk):
            raise InvalidValue(phrase=say("a takeback is judged on the log: the service asks for it"))
        if isinstance(command, UndoAnswer | UndoCancel):
            running_game(self.game, state)
            return decide_answer(facts_of(state), actor, command)
        if isinstance(command, _SYSTEM):
            return decide_system(self.game, state, actor, command, chance)
        if isinstance(command, _PLAYER):
            return decide_player(self.game, state, actor, command)
        refuse_if_stood_in(state, actor)
        return self.game.decide(state, actor, command, chance)

    def step(self, state: S, actor: Actor, command: Any, chance: Chance) -> tuple[list[Any], S]:
        if isinstance(command, _SYSTEM + _PLAYER):
            events = self.decide(state, actor, command, chance)
            return events, fold(self.evolve, events, state)
        refuse_if_stood_in(state, actor)
        events, after = self.game.step(state, actor, command, chance)
        facts = facts_of(after)
        if facts.undo is not None and events:  # as evolve does: a move of the game withdraws a pending request
            after = with_facts(after, without_request(facts, events[0]))
        return events, after

    def pending(self, state: S) -> Pending:
        """The game's, except that a seat a stand-in plays is the service's to move (:class:`StandIn`)."""
        due = self.game.pending(state)
        if due.finished or due.system is not None:
            return due
        facts = facts_of(state)
        piloted = [seat for seat in due.seats if facts.pilot(seat) is not None]
        if not piloted:
            return due
        return Pending(seats=tuple(s for s in due.seats if s not in piloted), system=StandIn(seat=piloted[0]))

    def legal_commands(self, state: S, seat: Seat) -> list[CommandTemplate]:
        return [] if facts_of(state).pilot(seat) is not None else self.game.legal_commands(state, seat)

    def seats(self, state: S) -> tuple[SeatInfo, ...]:
        """The game's seats; one a stand-in plays from the start is a ``stand_in`` seat (nobody's to claim)."""
        facts = facts_of(state)
        infos = self.game.seats(state)
        return tuple(msgspec.structs.replace(info, kind="stand_in") if _seated_bot(facts.pilot(i)) else info
                     for i, info in enumerate(infos))

    def outcome(self, state: S) -> Outcome | None:
        base = self.game.outcome(state)
        return table_outcome(base, facts_of(state)) if base is not None else None

    def redact(self, event: Any, viewer: Viewer, over: bool) -> Any | None:
        return event if isinstance(event, TABLE_EVENTS) else self.game.redact(event, viewer, over)

    def narrator(self, names: Mapping[int, str]) -> Narrator:
        inner = self.game.narrator(names) if self.game.narrator is not None else None
        return TableNarrator(inner, names)


def _seated_bot(pilot: Pilot | None) -> bool:
    return pilot is not None and pilot.reason == "stand_in"


def seated(game: GameModule[S]) -> GameModule[S]:
    """``game`` with the table's commands and events (claims, clocks, timeouts, stand-ins, resigning, leaving,
    vacations): the same rules and state; a log that may also hold what happened around the board."""
    if "table" not in getattr(game.state_type, "__struct_fields__", ()):
        raise TypeError(f"{game.name}: the state needs a `table: TableFacts = TableFacts()` field")
    table = _Seated(game)
    return dataclasses.replace(
        game,
        player_command_type=Union[game.player_command_type, TablePlayerCommand],  # noqa: UP007 (runtime types)
        system_command_type=Union[game.system_command_type, TableSystemCommand],  # noqa: UP007
        event_type=Union[game.event_type, TableEvent],  # noqa: UP007
        decide=table.decide,
        step=table.step,
        evolve=table.evolve,
        pending=table.pending,
        legal_commands=table.legal_commands,
        seats=table.seats,
        outcome=table.outcome,
        redact=table.redact,
        narrator=table.narrator,
    )
