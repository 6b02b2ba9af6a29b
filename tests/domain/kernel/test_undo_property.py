"""Property: over random play of every game (its random bot) with random takeback requests and answers, every
takeback the rules allow leaves a log that folds from the start to the state the service holds and replays command
by command to the same events (what ``verify`` checks), the board as it was before the moves; and none is allowed
once something crossed to another seat — checked apart from the games' allowlists: the moves taken back, decided
again, draw nothing from the chance source, and decided again on every other seat's ``hide`` of the state before
them they show that seat exactly the same events (else they showed it something hidden)."""

from __future__ import annotations

from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.games import GAMES
from domain.kernel import SYSTEM, Chance, GameError, Seat
from domain.kernel.table import MovesUndone, NoUndo, TableOptions, UndoAnswer, UndoAsk, UndoAsked, facts_of

from .undo_table import UndoTable

SEATS = {"magnate": ("human", "human"), "decktet": ("human", "human"), "master_of_economy": ("human", "human", "human")}


def board(game: Any, state: Any) -> Any:
    return msgspec.structs.replace(state, table=facts_of(game.initial_state()))


def check_taken_back(t: UndoTable, asked: UndoAsked) -> None:
    game = t.game
    taken = [c for c in t.commands if asked.back_to <= c[0] and not isinstance(c[2], UndoAsk | UndoAnswer)
             and c[0] < next(e.version for e in reversed(t.log) if isinstance(e.event, UndoAsked))]
    assert taken and all(c[1] == asked.seat for c in taken), "only the asker's own moves are taken back"
    before = taken[0][3]
    assert board(game, t.state) == board(game, before), "the board is as it was before the moves"
    assert t.refolded() == t.state and t.replayed(), "the log folds and replays"
    for version, actor, command, state in taken:  # decided again: no draw from the chance source
        chance = Chance(t.seed, version)
        game.step(state, actor, command, chance)
        assert chance.draws == 0, f"{command} drew chance and was taken back"
    if game.hide is None:
        return
    for other in range(len(game.seats(before))):
        if other == asked.seat:
            continue
        for salt in range(3):
            _same_to(game, t, taken, game.hide(before, Seat(other), salt), Seat(other))


def _same_to(game: Any, t: UndoTable, taken: list[Any], hidden: Any, viewer: Seat) -> None:
    """The moves decided on a state that differs only in what ``viewer`` may not know show it the same events."""
    state = hidden
    for version, actor, command, _ in taken:
        recorded = _events_of(t, version)
        try:
            events, state = game.step(state, actor, command, Chance(t.seed, version))
        except GameError as refused:  # legal or not by what the viewer may not know: the move showed it
            raise AssertionError(f"{command} depends on what seat {viewer} may not know: {refused}") from None
        mine = [game.redact(e, viewer, False) for e in events]
        theirs = [game.redact(e, viewer, False) for e in recorded]
        assert mine == theirs, f"{command} showed seat {viewer} something hidden and was taken back"


def _events_of(t: UndoTable, version: int) -> list[Any]:
    command_id = next(e.command_id for e in t.log if e.version == version)
    return [e.event for e in t.log if e.command_id == command_id]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(SEATS)), seed=st.binary(min_size=4, max_size=8),
       plan=st.lists(st.integers(min_value=0, max_value=11), min_size=20, max_size=300),
       instant=st.booleans())
def test_every_allowed_takeback_verifies_and_none_crosses_to_another_seat(
    name: str, seed: bytes, plan: list[int], instant: bool,
) -> None:
    game = GAMES[name]
    options = game.sim_options(SEATS[name], None, frozenset())  # type: ignore[misc]
    t = UndoTable(game, options, seed, TableOptions(undo="instant" if instant else "consent"))
    for step, choice in enumerate(plan):
        if game.pending(t.state).finished:
            break
        request = facts_of(t.state).undo
        if request is not None:
            events = t.run(Seat(request.waiting[0]), UndoAnswer(accept=choice % 3 != 0))
        elif choice < 3:
            movers = [e.actor for e in t.log if e.actor != SYSTEM]
            seat = Seat(movers[-1] if movers and choice < 2 else choice % len(game.seats(t.state)))
            try:
                events = t.run(seat, UndoAsk(moves=1 + choice % 2))
            except NoUndo:
                continue
        else:
            t.auto(salt=step + choice)
            continue
        if events and isinstance(events[-1], MovesUndone):
            asked = next(e.event for e in reversed(t.log) if isinstance(e.event, UndoAsked))
            check_taken_back(t, asked)
