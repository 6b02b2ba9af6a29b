"""Seats the options give the computer: who may play them, what the game waits for, and what the log records of
the computer's turn (its plan in words, then its actions as the seat's own events)."""

from __future__ import annotations

import pytest

from domain.decktet import GAME
from domain.decktet.commands import EndTurn, TakeAiTurn
from domain.decktet.errors import NotTheComputers
from domain.decktet.events import AiTurnPlanned, TurnEnded, TurnStarted
from domain.decktet.variant import GameOptions as Options
from domain.decktet.variant import SeatSpec, resolve
from domain.kernel import SYSTEM, ActorNotAllowed, Chance, InvalidValue, Seat
from domain.kernel.driver import play

from .builders import started

SOLO = (SeatSpec(), SeatSpec(kind="ai", level="easy"))


def test_seats_are_checked_against_the_variants_players_and_levels() -> None:
    assert resolve(Options()).seats == ()
    assert resolve(Options(seats=(SeatSpec(), SeatSpec()))).seats == ()  # every seat a person's: nothing to record
    assert resolve(Options(seats=(SeatSpec(), SeatSpec(kind="ai")))).seats[1] == SeatSpec(kind="ai", level="medium")
    with pytest.raises(InvalidValue, match="3 players"):
        resolve(Options(three=True, seats=SOLO))
    with pytest.raises(InvalidValue, match="unknown level"):
        resolve(Options(seats=(SeatSpec(), SeatSpec(kind="ai", level="godlike"))))
    with pytest.raises(InvalidValue, match="only a computer"):
        resolve(Options(seats=(SeatSpec(level="easy"), SeatSpec())))


def test_the_game_waits_for_the_computer_on_its_seats_turn_and_nobody_else_may_play_it() -> None:
    games = [started(bytes([n]), seats=SOLO)[1] for n in range(8)]
    person = next(state for state in games if state.active == 0)
    computer = next(state for state in games if state.active == 1)
    assert [s.kind for s in GAME.seats(computer)] == ["human", "ai"]
    assert GAME.pending(person).seats == (Seat(0),)
    with pytest.raises(NotTheComputers):  # the system may not play a person's turn
        GAME.decide(person, SYSTEM, TakeAiTurn(), Chance(b"x", 2))
    assert GAME.pending(computer).system == TakeAiTurn() and GAME.pending(computer).seats == ()
    with pytest.raises(NotTheComputers):  # nor may anyone play the computer's
        GAME.decide(computer, Seat(1), EndTurn(), Chance(b"x", 2))
    with pytest.raises(ActorNotAllowed):
        GAME.decide(computer, Seat(0), TakeAiTurn(), Chance(b"x", 2))


@pytest.mark.parametrize("seed", [b"a", b"b", b"c", b"d"])
def test_a_computer_turn_records_its_plan_then_plays_the_whole_turn(seed: bytes) -> None:
    _, state = started(seed, seats=(SeatSpec(kind="ai", level="easy"), SeatSpec(kind="ai", level="easy")))
    events = GAME.decide(state, SYSTEM, TakeAiTurn(), Chance(seed, 2))
    assert isinstance(events[0], AiTurnPlanned) and events[0].seat == state.active and events[0].reason
    ended = [e for e in events if isinstance(e, TurnEnded)]
    assert [e.seat for e in ended] == [state.active]
    assert any(isinstance(e, TurnStarted) for e in events)  # the next seat's turn began, with its roll


def test_a_game_between_two_computers_runs_to_its_end_on_system_turns_alone() -> None:
    assert GAME.sim_options is not None

    def nobody(state: object, seat: object) -> object:
        raise AssertionError("no person's turn in a game between computers")

    played = play(GAME, GAME.start(GAME.sim_options(("ai", "ai"), "easy", frozenset()), "c"), b"computers", nobody)
    outcome = GAME.outcome(played.state)
    assert outcome is not None and {s.seat for s in outcome.standings} == {0, 1}
