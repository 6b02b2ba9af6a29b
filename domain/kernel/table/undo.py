"""Takebacks of moves, safe by construction: a seat may take back its own last moves only while nothing has crossed
to another seat since — no other seat's move, no system command (a die, a card, the market, a stand-in's or the
computer's turn), and only events its game declares undo-safe (``GameModule.undo_safe``: public moves that draw
nothing and reveal nothing hidden). Then the others consent (people; computer and stand-in seats consent at once),
or the table takes it back at once (``TableOptions.undo == "instant"``, unrated tables only).

Asking needs the log, not only the state: who caused each event since the move is a fact of the log (its actor),
which the state does not keep. So :func:`decide_ask` takes the log's entries (version, actor, command id, event);
the service reads them, and ``verify`` replays a request the same way. The takeback itself is the event
``table.moves_undone``, folded by :func:`~.rewind.fold_log`; the taken-back events stay in the log and its chain.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple, TypeVar

import msgspec

from ..errors import ActorNotAllowed, RuleViolation
from ..game import GameModule
from ..notices import Notice
from ..phrases import say
from ..phrases import seat as seat_ref
from ..seats import SYSTEM, Actor
from .facts import TableFacts, UndoRequest
from .messages import (
    CameBack,
    ClocksSet,
    MovesUndone,
    SeatClaimed,
    UndoAnswer,
    UndoAnswered,
    UndoAsk,
    UndoAsked,
    UndoCancel,
    UndoCancelled,
    WentAway,
)
from .rules import HasTable, facts_of, running_game

S = TypeVar("S", bound=HasTable)

NEUTRAL = (ClocksSet, SeatClaimed, WentAway, CameBack, UndoAsked, UndoAnswered, UndoCancelled)
"""Table events that move nothing on the board and reveal nothing: they may lie among the moves taken back."""


class Entry(NamedTuple):
    """One event of the log with what caused it."""

    version: int
    actor: Actor
    command_id: str
    event: Any


class NoUndo(RuleViolation):
    """The moves cannot be taken back (something crossed to another seat since, or the table does not allow it)."""

    code = "table/no_undo"


class NoUndoPending(RuleViolation):
    """There is no takeback request this seat may answer or withdraw."""

    code = "table/no_undo_request"


def undo_range(game: GameModule[Any], log: Sequence[Entry], seat: int, moves: int) -> int:
    """The version the seat's last ``moves`` moves begin at, if taking them back is safe; else :class:`NoUndo`.

    Walking back from the end of the log: table events in :data:`NEUTRAL` are passed over; every other event must
    be the seat's own (caused by its command), of a type its game declares undo-safe; ``moves`` commands of the
    seat are taken back."""
    taken: list[str] = []
    back_to = 0
    for entry in reversed(log):
        if isinstance(entry.event, NEUTRAL):
            continue
        if entry.command_id in taken:
            back_to = entry.version
        elif len(taken) == moves:
            break
        else:
            taken.append(entry.command_id)
            back_to = entry.version
        _check_entry(game, entry, seat)
    if len(taken) < moves or back_to == 0:
        raise NoUndo(phrase=say("there are not that many moves of yours to take back"))
    return back_to


def _check_entry(game: GameModule[Any], entry: Entry, seat: int) -> None:
    if isinstance(entry.event, MovesUndone):
        raise NoUndo(phrase=say("moves taken back once cannot be taken back across that takeback"))
    if entry.actor == SYSTEM:
        raise NoUndo(phrase=say("the moves cannot be taken back: a die, a card or another outcome of the game "
                                "came after them"))
    if int(entry.actor) != seat:
        raise NoUndo(phrase=say("the moves cannot be taken back: another seat has moved since"))
    if not game.undo_safe(entry.event):
        raise NoUndo(phrase=say("the moves cannot be taken back: they drew or showed something hidden"))


def decide_ask(game: GameModule[S], state: S, actor: Actor, command: UndoAsk, log: Sequence[Entry]) -> list[Any]:
    """A seat's request to take back its last moves, judged on the state and the log up to it."""
    seat = _seat_of(actor)
    running_game(game, state)
    facts = facts_of(state)
    options = facts.options
    mode = options.undo if options is not None else "consent"
    if mode == "off":
        raise NoUndo(phrase=say("this table does not allow taking moves back"))
    if facts.undo is not None:
        raise NoUndo(phrase=say("a takeback is already asked for"))
    if facts.pilot(seat) is not None:
        raise NoUndo(phrase=say("a stand-in plays this seat now"))
    back_to = undo_range(game, log, seat, command.moves)
    infos = game.seats(state)
    waiting = () if mode == "instant" else tuple(
        i for i, info in enumerate(infos) if i != seat and info.kind == "human" and facts.pilot(i) is None)
    asked = UndoAsked(seat=seat, back_to=back_to, waiting=waiting)
    return [asked] if waiting else [asked, MovesUndone(seat=seat, back_to=back_to)]


def decide_answer(facts: TableFacts, actor: Actor, command: UndoAnswer | UndoCancel) -> list[Any]:
    """An answer to the pending request (the asker cannot answer its own), or the asker's withdrawal."""
    seat = _seat_of(actor)
    request = facts.undo
    if request is None:
        raise NoUndoPending(phrase=say("no takeback is asked for"))
    if isinstance(command, UndoCancel):
        if request.seat != seat:
            raise NoUndoPending(phrase=say("only the seat that asked may withdraw its request"))
        return [UndoCancelled(seat=seat)]
    if seat not in request.waiting:
        raise NoUndoPending(phrase=say("this seat has no takeback request to answer"))
    answered = UndoAnswered(seat=seat, accept=command.accept)
    if command.accept and request.waiting == (seat,):
        return [answered, MovesUndone(seat=request.seat, back_to=request.back_to)]
    return [answered]


def _seat_of(actor: Actor) -> int:
    if actor == SYSTEM:
        raise ActorNotAllowed(phrase=say("a seat asks for and answers takebacks, not the service"))
    return int(actor)


def evolve_undo(facts: TableFacts, event: Any) -> TableFacts:
    """The table's facts after a takeback event."""
    match event:
        case UndoAsked(seat=seat, back_to=back_to, waiting=waiting):
            return msgspec.structs.replace(facts, undo=UndoRequest(seat, back_to, waiting))
        case UndoAnswered(seat=seat, accept=True) if facts.undo is not None:
            left = tuple(s for s in facts.undo.waiting if s != seat)
            return msgspec.structs.replace(facts, undo=msgspec.structs.replace(facts.undo, waiting=left))
        case UndoAnswered() | UndoCancelled() | MovesUndone():
            return msgspec.structs.replace(facts, undo=None)
    return facts


def without_request(facts: TableFacts, event: Any) -> TableFacts:
    """Any move of the game (or a table event that is not neutral) withdraws a pending request."""
    if facts.undo is None or isinstance(event, NEUTRAL):
        return facts
    return msgspec.structs.replace(facts, undo=None)


UNDO_ASKED = "undo_asked"
UNDO_ANSWERED = "undo_answered"


def undo_notices(events: Sequence[tuple[int, Any]], asker: int | None = None) -> list[Notice]:
    """What the seats are told of takebacks among ``events`` ((version, event) of one decision): each seat whose
    consent is asked, ``undo_asked``; the asking seat, each answer (``undo_answered``). ``asker``: the seat whose
    request is pending before ``events``."""
    told: list[Notice] = []
    for version, event in events:
        match event:
            case UndoAsked(seat=seat, waiting=waiting):
                asker = seat
                told += [Notice(other, UNDO_ASKED, version, phrase=say(
                    "{seat} asks to take back their last move.", seat=seat_ref(seat))) for other in waiting]
            case UndoAnswered(seat=seat, accept=accept) if asker is not None:
                told.append(Notice(asker, UNDO_ANSWERED, version, phrase=say(
                    "{seat} accepts the takeback.", seat=seat_ref(seat)) if accept else say(
                    "{seat} refuses the takeback.", seat=seat_ref(seat))))
    return told
