"""A seat's own copy of the log folds: the events a seat may see (others' hands and draws without their cards,
others' preferences left out) give a state in which that seat's hand, supply and board are the real ones, so a
client playing that seat (a bot through the live service) sees the same legal moves and makes the same choices as
one holding the whole state. Other hands fold as unseen cards (board.UNSEEN)."""

from __future__ import annotations

from typing import Any

import pytest

from domain.decktet import GAME
from domain.decktet.board import UNSEEN
from domain.decktet.bots import Greedy
from domain.decktet.folding import evolve, initial_state
from domain.kernel import PUBLIC, Seat, Viewer
from domain.kernel.driver import play

TABLES = [(2, frozenset()), (2, frozenset({"mega"})), (2, frozenset({"mega", "stacked"})),
          (2, frozenset({"courtpawns", "deucey"})), (3, frozenset()), (3, frozenset({"mega", "originalAces"}))]


def _seen_by(events: list[Any], viewer: Viewer) -> Any:
    state = initial_state()
    for event in events:
        seen = GAME.redact(event, viewer, False)
        if seen is not None:
            state = evolve(state, seen)
    return state


@pytest.mark.parametrize(("seats", "flags"), TABLES, ids=[f"{n}-{'+'.join(sorted(f)) or 'base'}" for n, f in TABLES])
def test_each_seat_folds_its_own_log_into_the_moves_of_the_whole_state(seats: int, flags: frozenset[str]) -> None:
    assert GAME.sim_options is not None
    options = GAME.sim_options(("human",) * seats, None, flags)
    played = play(GAME, GAME.start(options, "c"), f"fold:{seats}:{sorted(flags)}".encode(), Greedy(3))
    events = played.events
    checked = 0
    for upto in range(1, len(events), 7):  # every seventh moment of the game
        whole = initial_state()
        for event in events[:upto]:
            whole = evolve(whole, event)
        if not whole.seats or GAME.pending(whole).finished:
            continue
        active = whole.active
        mine = _seen_by(events[:upto], Seat(active))
        assert mine.seats[active] == whole.seats[active]
        assert GAME.legal_commands(mine, Seat(active)) == GAME.legal_commands(whole, Seat(active))
        assert Greedy(upto)(mine, Seat(active)) == Greedy(upto)(whole, Seat(active))
        for other in range(seats):
            if other != active:
                hand = mine.seats[other].hand
                assert set(hand) <= {UNSEEN, *whole.seats[other].hand}
                assert len(hand) == len(whole.seats[other].hand)
        checked += 1
    assert checked > 10
    public = _seen_by(events, PUBLIC)  # the public's copy folds to the end, with the same scores
    assert public.scores == played.state.scores
