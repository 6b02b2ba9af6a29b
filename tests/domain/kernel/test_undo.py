"""Takebacks of moves (domain/kernel/table/undo.py, rewind.py), on Magnate: a seat takes back its own last moves
only while nothing crossed to another seat since, with the other people's consent (or at once where the table says
so); the taken-back events stay in the log, which still folds and replays."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from domain.games import GAMES
from domain.kernel import SYSTEM, GameError, Seat, fold, tag_of
from domain.kernel.phrases import plain
from domain.kernel.table import (
    MovesUndone,
    NoUndo,
    NoUndoPending,
    OpenTable,
    Rewound,
    TableOptions,
    UndoAnswer,
    UndoAsk,
    UndoCancel,
    facts_of,
    undone_ranges,
)
from domain.kernel.table.narrate import TableNarrator
from domain.magnate.commands import PassBid, PlaceBid

from .undo_table import UndoTable

GAME = GAMES["magnate"]
SEED = b"undo-test-seed"


def table(kinds: tuple[str, ...] = ("human", "human"), **options: Any) -> UndoTable:
    return UndoTable(GAME, GAME.sim_options(kinds, GAME.ai_levels[0] if "ai" in kinds else None, frozenset()), SEED,
                     TableOptions(**options))


def opener(t: UndoTable) -> Seat:
    return GAME.pending(t.state).seats[0]


def board(state: Any) -> Any:
    """The state but the table's facts (which a takeback keeps as the log made them)."""
    return msgspec.structs.replace(state, table=facts_of(GAME.initial_state()))


def test_a_bid_taken_back_with_consent_leaves_the_board_as_before_and_the_log_replays() -> None:
    t = table()
    a = opener(t)
    before = t.state
    assert tag_of(t.run(a, PlaceBid(amount=200))[0]) == "magnate.bid_placed"
    asked = t.run(a, UndoAsk())
    assert [tag_of(e) for e in asked] == ["table.undo_asked"]
    assert facts_of(t.state).undo is not None and GAME.pending(t.state).seats == (Seat(1 - a),)
    answered = t.run(Seat(1 - a), UndoAnswer(accept=True))
    assert [tag_of(e) for e in answered] == ["table.undo_answered", "table.moves_undone"]
    assert board(t.state) == board(before) and facts_of(t.state).undo is None
    assert GAME.pending(t.state).seats == (a,)
    assert t.refolded() == t.state and t.replayed()
    assert undone_ranges((e.version, e.event) for e in t.log) == [(4, 6)]
    lines = [plain(TableNarrator.phrase(e.event)) for e in t.log[-3:]]  # type: ignore[arg-type]
    assert "asks to take back" in lines[0] and "accepts" in lines[1] and "taken back" in lines[2]


def test_a_refusal_ends_the_request_and_the_move_stands() -> None:
    t = table()
    a = opener(t)
    t.run(a, PlaceBid(amount=200))
    after_bid = board(t.state)
    t.run(a, UndoAsk())
    assert [tag_of(e) for e in t.run(Seat(1 - a), UndoAnswer(accept=False))] == ["table.undo_answered"]
    assert facts_of(t.state).undo is None and board(t.state) == after_bid
    t.run(a, UndoAsk())  # asking again is allowed: a refusal crossed nothing
    t.run(Seat(1 - a), UndoAnswer(accept=True))
    assert t.refolded() == t.state and t.replayed()


def test_only_the_other_seats_answer_and_only_the_asker_withdraws() -> None:
    t = table()
    a, b = opener(t), Seat(1 - opener(t))
    with pytest.raises(NoUndoPending):
        t.run(b, UndoAnswer(accept=True))
    t.run(a, PlaceBid(amount=200))
    t.run(a, UndoAsk())
    with pytest.raises(NoUndoPending):
        t.run(a, UndoAnswer(accept=True))
    with pytest.raises(NoUndo):
        t.run(a, UndoAsk())
    with pytest.raises(NoUndoPending):
        t.run(b, UndoCancel())
    with pytest.raises(GameError):
        t.run(SYSTEM, UndoAnswer(accept=True))
    assert [tag_of(e) for e in t.run(a, UndoCancel())] == ["table.undo_cancelled"]
    assert facts_of(t.state).undo is None


def test_another_seats_move_ends_a_request_and_forbids_taking_back_across_it() -> None:
    t = table()
    a, b = opener(t), Seat(1 - opener(t))
    t.run(a, PlaceBid(amount=200))
    t.run(a, UndoAsk())
    t.run(b, PlaceBid(amount=300))  # b moves instead of answering
    assert facts_of(t.state).undo is None
    with pytest.raises(NoUndo, match="another seat has moved"):
        t.run(a, UndoAsk())
    t.run(b, UndoAsk())  # b's own bid is its last move, and nothing crossed since
    with pytest.raises(NoUndo):
        table().run(Seat(0), UndoAsk())


def test_no_takeback_once_the_system_drew_or_the_move_made_more_than_safe_events() -> None:
    t = table()
    a, b = opener(t), Seat(1 - opener(t))
    t.run(a, PlaceBid(amount=200))
    t.run(b, PassBid())  # ends the auction: the first player is decided and phase 2 begins in the same decision
    with pytest.raises(NoUndo):
        t.run(b, UndoAsk())
    for _ in range(400):  # play until the system has rolled dice or drawn a card after someone's move
        actor = t.auto(salt=3)
        if actor == SYSTEM and t.log[-1].actor == SYSTEM and t.version > 10:
            break
    seat = next(e.actor for e in reversed(t.log) if e.actor != SYSTEM)
    with pytest.raises(NoUndo):
        t.run(seat, UndoAsk())


def test_computer_seats_consent_at_once_and_an_instant_table_takes_back_at_once() -> None:
    t = table(("human", "ai"))
    a = Seat(0)
    while GAME.pending(t.state).seats != (a,):
        t.auto()
    high = t.state.auction.high_bid if t.state.auction is not None else 0
    assert tag_of(t.run(a, PlaceBid(amount=high + 100))[-1]) == "magnate.bid_placed"
    assert [tag_of(e) for e in t.run(a, UndoAsk())] == ["table.undo_asked", "table.moves_undone"]
    assert t.refolded() == t.state and t.replayed()
    instant = table(undo="instant")
    first = opener(instant)
    instant.run(first, PlaceBid(amount=200))
    assert isinstance(instant.run(first, UndoAsk())[-1], MovesUndone)


def test_a_table_may_forbid_takebacks_and_a_rated_one_never_takes_back_without_consent() -> None:
    t = table(undo="off")
    a = opener(t)
    t.run(a, PlaceBid(amount=200))
    with pytest.raises(NoUndo, match="does not allow"):
        t.run(a, UndoAsk())
    with pytest.raises(GameError, match="rated"):
        table(undo="instant", rated=True)
    assert OpenTable(options=TableOptions(undo="consent", rated=True))


def test_a_takeback_never_reaches_across_another_and_a_plain_fold_refuses_it() -> None:
    t = table(undo="instant")
    a = opener(t)
    t.run(a, PlaceBid(amount=200))
    t.run(a, UndoAsk())
    t.run(a, PlaceBid(amount=300))
    with pytest.raises(NoUndo):
        t.run(a, UndoAsk(moves=2))
    t.run(a, UndoAsk())
    assert t.refolded() == t.state and t.replayed()
    with pytest.raises(Rewound):
        fold(GAME.evolve, (e.event for e in t.log), GAME.initial_state())
    with pytest.raises(GameError):  # the rules alone (without the log) never decide a request
        GAME.decide(t.state, a, UndoAsk(), None)  # type: ignore[arg-type]


def test_two_moves_of_one_seat_are_taken_back_together() -> None:
    t = table(("human", "human", "human"), undo="instant")
    a = opener(t)
    t.run(a, PlaceBid(amount=200))
    b = GAME.pending(t.state).seats[0]
    t.run(b, PlaceBid(amount=300))
    with pytest.raises(NoUndo):
        t.run(a, UndoAsk())
    t.run(b, UndoAsk())
    assert GAME.pending(t.state).seats == (b,)
    assert t.refolded() == t.state and t.replayed()
