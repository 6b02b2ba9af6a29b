"""The table around a game (domain/kernel/table), on Magnate, with recorded times given by the test (no clock is
read): clocks per move and as a bank, timeouts and their policies, stand-ins, resigning, leaving, taking a seat
back, vacations, and the standings that say what happened."""

from __future__ import annotations

from typing import Any

import pytest

from domain.games import GAMES
from domain.kernel import SYSTEM, Actor, Chance, GameError, Seat, commitment_of, tag_of
from domain.kernel.phrases import plain
from domain.kernel.phrases import seat as seat_ref
from domain.kernel.table import (
    AlreadyGone,
    ComeBack,
    GoAway,
    Leave,
    NoTakeBack,
    OpenTable,
    Resign,
    SeatStoodIn,
    SetClocks,
    StandIn,
    TableOptions,
    TakeBack,
    TimeControl,
    TimeOut,
    facts_of,
    needs_setting,
    reminder_at,
)
from domain.magnate import GameOptions, MagnateState, SeatSpec
from domain.magnate.bots import Greedy

GAME = GAMES["magnate"]
SEED = b"table-test-seed"
T0 = 1_800_000_000_000
MINUTE = 60_000


class Table:
    """A game driven command by command, as the service does: after each decision that changes who is on turn, the
    clocks are set at that decision's time (``now``)."""

    def __init__(self, options: TableOptions, seats: int = 2, tutorial: bool = False) -> None:
        self.version = 0
        self.now = T0
        self.state: MagnateState = GAME.initial_state()
        game_options = GameOptions(seats=tuple(SeatSpec() for _ in range(seats)), tutorial=tutorial)
        self.run(SYSTEM, GAME.start(game_options, commitment_of(SEED)))
        self.run(SYSTEM, OpenTable(options=options))

    def run(self, actor: Actor, command: Any) -> list[Any]:
        events, self.state = GAME.step(self.state, actor, command, Chance(SEED, self.version + 1))
        self.version += len(events)
        due = GAME.pending(self.state)
        if not due.finished and needs_setting(facts_of(self.state), due.seats):
            clocks, self.state = GAME.step(self.state, SYSTEM, SetClocks(at=self.now), Chance(SEED, self.version + 1))
            self.version += len(clocks)
        return events

    def on_turn(self) -> Seat:
        return GAME.pending(self.state).seats[0]

    def play(self, seat: Seat) -> None:
        self.run(seat, Greedy(1)(self.state, seat))

    def until_turn_of(self, seat: int) -> None:
        for _ in range(200):
            due = GAME.pending(self.state)
            if due.system is not None:
                self.run(SYSTEM, due.system)
            elif due.seats[0] == seat:
                return
            else:
                self.play(due.seats[0])
        raise AssertionError("seat never came on turn")

    def finish(self) -> None:
        for _ in range(5000):
            due = GAME.pending(self.state)
            if due.finished:
                return
            if due.system is not None:
                self.run(SYSTEM, due.system)
            else:
                self.play(due.seats[0])
        raise AssertionError("the game did not end")

    def clock(self, seat: int) -> Any:
        return facts_of(self.state).clock(seat)


PER_MOVE = TableOptions(clock=TimeControl(kind="per_move", seconds=3600))


def test_a_per_move_clock_starts_with_the_turn_and_stops_when_the_turn_passes() -> None:
    table = Table(PER_MOVE)
    first = table.on_turn()
    assert table.clock(first).deadline == T0 + 3600 * 1000
    table.now += 10 * MINUTE
    while table.on_turn() == first and GAME.pending(table.state).system is None:
        table.play(first)
    assert table.clock(first).deadline is None
    nxt = GAME.pending(table.state).seats
    if nxt:
        assert table.clock(nxt[0]).deadline == table.now + 3600 * 1000


def test_a_timeout_before_the_deadline_is_refused_and_at_it_a_stand_in_takes_the_seat() -> None:
    table = Table(PER_MOVE)
    seat = table.on_turn()
    deadline = table.clock(seat).deadline
    with pytest.raises(GameError):
        table.run(SYSTEM, TimeOut(seat=seat, at=deadline - 1))
    table.now = deadline
    events = table.run(SYSTEM, TimeOut(seat=seat, at=deadline))
    assert [tag_of(e) for e in events] == ["table.timed_out"]
    assert table.clock(seat).deadline is None, "a seat a stand-in plays has no clock"
    assert GAME.pending(table.state).system == StandIn(seat=seat)
    with pytest.raises(SeatStoodIn):
        table.play(seat)
    played = table.run(SYSTEM, StandIn(seat=seat))
    assert tag_of(played[0]) == "table.stood_in" and len(played) > 1, "the stand-in's move is the game's move"
    assert GAME.legal_commands(table.state, seat) == []


def test_a_timeout_is_refused_once_the_seat_has_moved() -> None:
    """The move and the timeout race for the same version: whichever is appended first, the other is refused."""
    table = Table(PER_MOVE)
    seat = table.on_turn()
    deadline = table.clock(seat).deadline
    while GAME.pending(table.state).seats[:1] == (seat,):
        table.play(seat)
    with pytest.raises(GameError):
        table.run(SYSTEM, TimeOut(seat=seat, at=deadline + 1))


def test_stand_in_for_one_move_gives_the_seat_back_when_its_turn_is_over() -> None:
    table = Table(TableOptions(clock=TimeControl(kind="per_move", seconds=600), on_timeout="stand_in_move"))
    seat = table.on_turn()
    table.now += 600_000
    table.run(SYSTEM, TimeOut(seat=seat, at=table.now))
    for _ in range(20):
        if facts_of(table.state).pilot(seat) is None:
            break
        table.run(SYSTEM, GAME.pending(table.state).system)
    assert facts_of(table.state).pilot(seat) is None
    with pytest.raises(GameError, match="yours already"):
        table.run(seat, TakeBack())
    assert facts_of(table.state).mark(seat) == "timed_out"


def test_a_bank_keeps_what_was_left_plus_the_increment_up_to_the_cap() -> None:
    control = TimeControl(kind="bank", seconds=3600, increment=600, cap=3900)
    table = Table(TableOptions(clock=control))
    seat = table.on_turn()
    assert table.clock(seat).deadline == T0 + 3600_000
    table.now = T0 + 20 * MINUTE
    while GAME.pending(table.state).seats[:1] == (seat,):
        table.play(seat)
    assert table.clock(seat).bank == 3600_000 - 20 * MINUTE + 600_000
    other = Table(TableOptions(clock=control))
    other.now = T0 + 1000
    while GAME.pending(other.state).seats[:1] == (seat,):
        other.play(seat)
    assert other.clock(seat).bank == 3900_000, "capped"


def test_a_vacation_pauses_a_running_clock_for_its_length() -> None:
    table = Table(PER_MOVE)
    seat = table.on_turn()
    table.now = T0 + 10 * MINUTE
    table.run(SYSTEM, GoAway(seat=seat, at=table.now, until=table.now + 7 * 1440 * MINUTE))
    assert table.clock(seat).deadline == table.now + 7 * 1440 * MINUTE + 50 * MINUTE
    with pytest.raises(GameError):
        table.run(SYSTEM, GoAway(seat=seat, at=table.now, until=table.now + 400 * 1440 * MINUTE))


def test_a_vacation_ended_early_gives_the_paused_clock_the_time_it_had_left_from_then() -> None:
    table = Table(PER_MOVE)
    seat = table.on_turn()
    table.now = T0 + 10 * MINUTE
    until = table.now + 7 * 1440 * MINUTE
    table.run(SYSTEM, GoAway(seat=seat, at=table.now, until=until))
    back = table.now + 1440 * MINUTE
    table.run(SYSTEM, ComeBack(seat=seat, at=back))
    assert table.clock(seat).deadline == back + 50 * MINUTE
    assert facts_of(table.state).away_until(seat) == 0
    with pytest.raises(GameError):  # not away any more
        table.run(SYSTEM, ComeBack(seat=seat, at=back + MINUTE))
    other = 1 - int(seat)  # away while not on turn: its next turn gets its full time from the early return
    table.run(SYSTEM, GoAway(seat=other, at=back, until=until))
    table.run(SYSTEM, ComeBack(seat=other, at=back + MINUTE))
    table.now = back + 2 * MINUTE
    table.until_turn_of(other)
    assert table.clock(other).deadline == table.now + 60 * MINUTE


def test_resigning_ranks_the_seat_last_and_a_stand_in_plays_it_out() -> None:
    table = Table(TableOptions(), seats=3)
    table.run(Seat(0), Resign())
    with pytest.raises(AlreadyGone):
        table.run(Seat(0), Leave())
    with pytest.raises(NoTakeBack):
        table.run(Seat(0), TakeBack())
    table.finish()
    outcome = GAME.outcome(table.state)
    assert outcome is not None
    last = outcome.standings[-1]
    assert (last.seat, last.note, last.rank) == (0, "resigned", 3)


@pytest.mark.parametrize("order", [(0, 1), (1, 0)])
def test_when_every_seat_resigns_nobody_wins_whoever_resigned_last(order: tuple[int, int]) -> None:
    table = Table(TableOptions(), seats=2)
    for seat in order:
        table.run(Seat(seat), Resign())
    table.finish()
    outcome = GAME.outcome(table.state)
    assert outcome is not None
    assert outcome.winners == ()
    assert {s.note for s in outcome.standings} == {"resigned"}
    assert [s.rank for s in outcome.standings] == [2, 2]


@pytest.mark.parametrize("order", [(0, 1), (1, 0)])
def test_two_resigned_seats_rank_below_the_seat_that_played_on(order: tuple[int, int]) -> None:
    table = Table(TableOptions(), seats=3)
    for seat in order:
        table.run(Seat(seat), Resign())
    table.finish()
    outcome = GAME.outcome(table.state)
    assert outcome is not None
    assert outcome.winners == (2,)
    first = outcome.standings[0]
    assert (first.seat, first.rank, first.note) == (2, 1, "")
    assert {(s.rank, s.note) for s in outcome.standings[1:]} <= {(2, "resigned"), (3, "resigned")}


def test_a_forfeit_by_timeout_ranks_below_the_seat_that_played_on() -> None:
    table = Table(TableOptions(clock=TimeControl(kind="per_move", seconds=60), on_timeout="forfeit"), seats=2)
    seat = table.on_turn()
    table.now = T0 + 2 * MINUTE
    table.run(SYSTEM, TimeOut(seat=seat, at=table.now))
    table.finish()
    outcome = GAME.outcome(table.state)
    assert outcome is not None
    assert outcome.winners == (1 - seat,)
    assert (outcome.standings[-1].seat, outcome.standings[-1].note) == (seat, "forfeited")


def test_leaving_hands_the_seat_to_a_stand_in_until_its_player_takes_it_back() -> None:
    table = Table(TableOptions(), seats=2)
    table.run(Seat(1), Leave())
    table.until_turn_of(0)
    table.run(Seat(1), TakeBack())
    assert facts_of(table.state).pilot(1) is None
    assert facts_of(table.state).mark(1) == "left"
    refused = Table(TableOptions(takeback=False), seats=2)
    refused.run(Seat(1), Leave())
    with pytest.raises(NoTakeBack):
        refused.run(Seat(1), TakeBack())


def test_the_tutorial_is_playable_alone_with_stand_ins_in_the_other_seats() -> None:
    table = Table(TableOptions(stand_ins=(1, 2, 3, 4)), seats=5, tutorial=True)
    assert [s.kind for s in GAME.seats(table.state)] == ["human"] + ["stand_in"] * 4
    table.finish()
    outcome = GAME.outcome(table.state)
    assert outcome is not None and {s.seat for s in outcome.standings} == set(range(5))


def test_the_table_refuses_options_the_game_cannot_honour() -> None:
    with pytest.raises(GameError):
        Table(TableOptions(stand_in="grandmaster"))
    with pytest.raises(GameError):
        Table(TableOptions(stand_ins=(7,)))


def test_a_seat_cannot_issue_the_tables_system_commands() -> None:
    table = Table(PER_MOVE)
    seat = table.on_turn()
    with pytest.raises(GameError):
        table.run(seat, TimeOut(seat=seat, at=T0 + 10**9))


def test_the_reminder_comes_a_quarter_of_the_allowance_before_the_deadline_at_most_12_hours() -> None:
    table = Table(PER_MOVE)
    clock = table.clock(table.on_turn())
    assert reminder_at(clock) == clock.deadline - 15 * MINUTE
    days = Table(TableOptions(clock=TimeControl(kind="per_move", seconds=3 * 86_400)))
    clock = days.clock(days.on_turn())
    assert reminder_at(clock) == clock.deadline - 12 * 60 * MINUTE


def test_the_story_tells_the_tables_events() -> None:
    table = Table(PER_MOVE)
    seat = table.on_turn()
    table.now += 3600_000
    table.run(SYSTEM, TimeOut(seat=seat, at=table.now))
    narrator = GAME.narrator({0: "Ada", 1: "Bob"}) if GAME.narrator else None
    assert narrator is not None
    from domain.kernel.table import TableOpened, TimedOut
    opened = narrator.tell(2, "table.opened", TableOpened(options=PER_MOVE, seats=2, level="greedy"))
    assert opened[0].phrase is not None and opened[0].text == ""
    assert plain(opened[0].phrase) == (
        "The table is open: 1 hour per move; on a timeout the computer takes the seat over.")
    timed = narrator.tell(9, "table.timed_out", TimedOut(seat=1, at=T0, policy="stand_in_game", level="greedy"))
    assert timed[0].phrase is not None and timed[0].phrase.args["seat"] == seat_ref(1)
    assert plain(timed[0].phrase).startswith("Player 2 ran out of time at ")


def test_a_bank_clock_is_told_whole_in_each_of_its_shapes() -> None:
    from domain.kernel.table import TimeControl, control_text
    assert control_text(TimeControl("bank", 3 * 86_400)) == "a bank of 3 days"
    assert control_text(TimeControl("bank", 3 * 86_400, increment=3600)) == "a bank of 3 days, plus 1 hour per move"
    assert control_text(TimeControl("bank", 86_400, cap=2 * 86_400)) == "a bank of 1 day, at most 2 days"
    assert control_text(TimeControl("bank", 60, increment=90, cap=120)) == (
        "a bank of 1 minute, plus 90 seconds per move, at most 2 minutes")
    assert control_text(None) == "no time limit"


def test_times_in_the_story_are_utc_dates_computed_without_a_clock() -> None:
    from domain.kernel.table.narrate import moment
    assert moment(0) == "1970-01-01 00:00 UTC"
    assert moment(951_782_400_000) == "2000-02-29 00:00 UTC"
    assert moment(1_800_000_000_000) == "2027-01-15 08:00 UTC"
