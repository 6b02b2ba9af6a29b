"""The undo-aware fold: state is the fold of the log, where ``table.moves_undone(back_to=V)`` at version U means
that the events from V up to U no longer count for the game. After it the game is as it was before V; the table's
facts (clocks, claims, the request itself) stay as the log made them, since time and seats do not go back.

A plain ``evolve`` cannot apply ``moves_undone`` (it would need the state before V), so the table's ``evolve``
raises :class:`Rewound` on it and every fold of a log goes through :func:`fold_log`: a fold that forgot takebacks
fails loudly instead of showing a board that never was. Takebacks never overlap (a takeback refuses to reach across
an earlier one, :func:`.undo.undo_range`), so :func:`fold_log` keeps only the states just before each ``V``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

from ..chance import Chance
from ..decider import fold
from ..game import GameModule
from ..seats import Actor
from .messages import MovesUndone, UndoAnswer, UndoAsk
from .rules import HasTable, facts_of, with_facts
from .undo import Entry, decide_ask, evolve_undo

S = TypeVar("S", bound=HasTable)


class Rewound(Exception):
    """The events take moves back to ``back_to``, at or before the state they were to be folded onto: fold again
    from a state at or before version ``back_to - 1``."""

    def __init__(self, back_to: int) -> None:
        super().__init__(f"moves taken back to version {back_to}: fold from a state before it")
        self.back_to = back_to


def fold_log(evolve: Callable[[S, Any], S], state: S, entries: Iterable[tuple[int, Any]], after: int,
             before: Mapping[int, S] | None = None) -> S:
    """``state`` (the state at version ``after``) with ``entries`` ((version, event), in order, from ``after + 1``)
    folded onto it, honouring takebacks; :class:`Rewound` when one reaches back to ``after`` or before, unless
    ``before`` holds the state just before that version (``before[V]``: the state at version ``V - 1``)."""
    items = list(entries)
    known = before or {}
    wanted = {event.back_to for _, event in items if isinstance(event, MovesUndone)}
    early = [back_to for back_to in wanted if back_to <= after and back_to not in known]
    if early:
        raise Rewound(min(early))
    if not wanted:
        return fold(evolve, (event for _, event in items), state)
    saved: dict[int, S] = {v: known[v] for v in wanted if v in known}
    for version, event in items:
        if version in wanted:
            saved[version] = state
        if isinstance(event, MovesUndone):
            state = with_facts(saved[event.back_to], evolve_undo(facts_of(state), event))
        else:
            state = evolve(state, event)
    return state


def undone_ranges(entries: Iterable[tuple[int, Any]]) -> list[tuple[int, int]]:
    """The versions taken back, as ``(first, last)`` ranges (the ``moves_undone`` event itself excluded)."""
    return [(event.back_to, version - 1) for version, event in entries if isinstance(event, MovesUndone)]


def needs_log(command: Any) -> bool:
    """Whether deciding ``command`` needs the log (:func:`step_with_log`), not only the state."""
    return isinstance(command, UndoAsk | UndoAnswer)


def step_with_log(
    game: GameModule[S], state: S, actor: Actor, command: Any, chance: Chance, log: Sequence[Entry],
) -> tuple[list[Any], S]:
    """``game.step`` for a command that needs the log (``log``: the whole log so far, from version 1, whose fold
    is ``state``): a takeback request judged on who caused each event, and a decision that takes moves back folded
    from the state before them."""
    if isinstance(command, UndoAsk):
        events = decide_ask(game, state, actor, command, log)
    else:
        events = game.decide(state, actor, command, chance)
    if not any(isinstance(event, MovesUndone) for event in events):
        return events, fold(game.evolve, events, state)
    start = log[-1].version + 1 if log else 1
    every = [(e.version, e.event) for e in log] + [(start + i, event) for i, event in enumerate(events)]
    return events, fold_log(game.evolve, game.initial_state(), every, 0)
