"""The computer player (domain/master_of_economy/ai) as a user meets it: on every table and at every level it
plays only legal moves, through the same rules as a person's, and its games run to their end; the same chance
gives the same decision; it decides only from what its seat may know; its explanations never tell a sealed
choice; a computer seat is the service's to move, a person's token cannot play it."""

from __future__ import annotations

import re
from typing import Any

import pytest
from msgspec.structs import replace

from domain.kernel import PUBLIC, SYSTEM, Chance, NothingPending, Seat
from domain.kernel.phrases import plain
from domain.master_of_economy import GAME, GameOptions, SeatSpec
from domain.master_of_economy.ai import decide_for
from domain.master_of_economy.bots import Greedy
from domain.master_of_economy.commands import BidForOrder, Pass, TakeAiTurn
from domain.master_of_economy.cursor import SEALED_STEPS
from domain.master_of_economy.errors import NotTheComputers
from domain.master_of_economy.events import AiDecided
from domain.master_of_economy.folding import evolve
from domain.master_of_economy.secrets import SEALED_EVENTS, hide, redact
from domain.master_of_economy.state import State, Step
from domain.master_of_economy.variant import AI_LEVELS

from .invariants import assert_invariants
from .story import text

TABLES: dict[str, dict[str, Any]] = {
    "two_ac": {"players": 2, "additional_corporation": True},
    "three_ac": {"players": 3, "additional_corporation": True},
    "four": {"players": 4},
    "two_vs_two": {"players": 4, "teams": True},
    "auction": {"players": 3, "start_order": "auction", "player_cash_hidden": True, "assignment": "random"},
}


def computers(players: int, levels: tuple[str | None, ...]) -> tuple[SeatSpec, ...]:
    """Seat specs: a level per seat (None: a person)."""
    return tuple(SeatSpec(kind="ai", level=lv) if lv else SeatSpec() for lv in (levels * players)[:players])


def run(options: dict[str, Any], levels: tuple[str | None, ...], seed: bytes,
        check: bool = False) -> tuple[State, list[tuple[State, int]]]:
    """A whole game (people's seats played by greedy bots); the states at which a computer decided."""
    players = int(options["players"])
    opts = GameOptions(**options, seats=computers(players, levels))
    bots = [Greedy(s) for s in range(players)]
    state = GAME.initial_state()
    command: Any = GAME.start(opts, "c")
    actor: Any = SYSTEM
    asked: list[tuple[State, int]] = []
    for n in range(20_000):
        new, after = GAME.step(state, actor, command, Chance(seed, n + 1))
        if check:
            folded = state
            for event in new:
                folded = evolve(folded, event)
                assert_invariants(folded, f"command {n} ({type(event).__name__})")
        state = after
        due = GAME.pending(state)
        if due.finished:
            return state, asked
        if isinstance(due.system, TakeAiTurn):
            asked.append((state, due.system.seat))
        if due.system is not None:
            actor, command = SYSTEM, due.system
        else:
            actor = due.seats[n % len(due.seats)]
            command = bots[int(actor)](state, actor)
    raise AssertionError("the game did not finish")


@pytest.mark.parametrize("table", sorted(TABLES))
@pytest.mark.parametrize("level", AI_LEVELS)
def test_games_with_computers_run_to_their_end_on_every_table(table: str, level: str) -> None:
    """A computer in every seat, then one beside people (greedy bots): every invariant after every event; every
    move of the computer was played through the seat's rules (a refused move would raise)."""
    for levels in ((level,), (level, None)):
        state, asked = run(TABLES[table], levels, f"ai-game:{table}:{level}:{levels}".encode(), check=True)
        assert GAME.outcome(state) is not None and asked


@pytest.mark.parametrize("table", sorted(TABLES))
def test_the_computers_moves_are_what_a_person_may_send(table: str) -> None:
    """Each decision's moves, sent by the seat as a person's commands, are accepted by ``decide`` (a closing pass
    is not needed when the rules pass a seat with nothing left to choose)."""
    _, asked = run(TABLES[table], AI_LEVELS, f"ai-person:{table}".encode())
    for n, (state, seat) in enumerate(asked[::7]):
        level = state.variant.seats[seat].level
        assert level is not None
        decision = decide_for(state, seat, level, Chance(b"person", n))
        person = replace(state, variant=replace(state.variant, seats=()))
        where = (state.step, state.turn, state.round, state.target)
        for move in decision.moves:
            if isinstance(move, Pass) and (person.step, person.turn, person.round, person.target) != where:
                break
            _, person = GAME.step(person, Seat(seat), move, Chance(b"person", n))


def test_the_decision_is_the_same_for_the_same_chance() -> None:
    _, asked = run(TABLES["three_ac"], AI_LEVELS, b"ai-same")
    for n, (state, seat) in enumerate(asked[::11]):
        for level in AI_LEVELS:
            first = decide_for(state, seat, level, Chance(b"same", n))
            assert decide_for(state, seat, level, Chance(b"same", n)) == first


@pytest.mark.parametrize("table", ["auction", "two_ac", "three_ac"])
def test_the_decision_depends_only_on_what_the_seat_may_know(table: str) -> None:
    """The others' sealed choices made anew and (hidden cash) their cash changed by ``hide``: the same decision,
    word for word, for the same chance."""
    options = {**TABLES[table], "player_cash_hidden": True}
    _, asked = run(options, AI_LEVELS, f"ai-infoset:{table}".encode())
    changed = 0
    for n, (state, seat) in enumerate(asked[::3]):
        for level in AI_LEVELS:
            decision = decide_for(state, seat, level, Chance(b"infoset", n))
            for k in (1, 2):
                hidden = hide(state, Seat(seat), k)
                changed += hidden != state
                assert decide_for(hidden, seat, level, Chance(b"infoset", n)) == decision
    assert changed


def test_the_explanations_never_tell_a_sealed_choice() -> None:
    """At a sealed step the explanation is the same whatever the choice; the explanation event is public, the
    sealed choice's event is redacted for every other viewer until the reveal."""
    asked = run(TABLES["auction"], AI_LEVELS, b"ai-sealed")[1] + run(TABLES["three_ac"], AI_LEVELS, b"ai-sealed")[1]
    sealed = [(s, seat) for s, seat in asked if s.step in SEALED_STEPS]
    assert {s.step for s, _ in sealed} >= {Step.AUCTION, Step.TOKENS, Step.BALLOT}
    for n, (state, seat) in enumerate(sealed):
        said = {plain(decide_for(state, seat, level, Chance(b"sealed", n + k)).reason)
                for level in AI_LEVELS for k in range(4)}
        assert len(said) == 1 and "sealed" in said.pop()
        events, _ = GAME.step(state, SYSTEM, TakeAiTurn(seat=seat), Chance(b"sealed", n))
        explained = next(e for e in events if isinstance(e, AiDecided))
        assert explained.reason is not None and not re.search(r"\d", plain(explained.reason))
        secret = next(e for e in events if type(e) in SEALED_EVENTS)
        other = Seat((seat + 1) % len(state.players))
        assert redact(explained, other, False) == explained
        assert getattr(redact(secret, other, False), SEALED_EVENTS[type(secret)]) is None
        assert getattr(redact(secret, PUBLIC, False), SEALED_EVENTS[type(secret)]) is None


def test_the_explanation_is_narrated_with_the_seat_whose_name_carries_the_level() -> None:
    _, asked = run(TABLES["two_ac"], ("shrewd",), b"ai-narrate")
    state, seat = next((s, seat) for s, seat in asked if s.step == Step.INVEST)
    events, _ = GAME.step(state, SYSTEM, TakeAiTurn(seat=seat), Chance(b"n", 1))
    assert GAME.narrator is not None
    name = next(info.label for number, info in enumerate(GAME.seats(state)) if number == seat)
    assert name == f"Computer {seat + 1} (shrewd)"  # as the page names the seat: the level once, not twice
    told = GAME.narrator({seat: name}).tell(5, "master_of_economy.ai_decided", events[0])
    line = text(told[0], {seat: name})
    assert line.startswith(f"Computer {seat + 1} (shrewd) builds ")
    assert line.endswith(".")


def test_a_computer_seat_is_the_services_to_move() -> None:
    """In the sealed auction the people who owe a bid stay listed while the computer's turn is due; a person's
    token may not play the computer's seat; the computer plays no person's seat."""
    options = GameOptions(players=3, start_order="auction", assignment="random",
                          seats=computers(3, (None, "basic", None)))
    state = GAME.step(GAME.initial_state(), SYSTEM, GAME.start(options, "c"), Chance(b"s", 1))[1]
    assert state.step == Step.AUCTION
    due = GAME.pending(state)
    assert due.seats == (Seat(0), Seat(2)) and due.system == TakeAiTurn(seat=1)
    with pytest.raises(NotTheComputers):
        GAME.step(state, Seat(1), BidForOrder(amount=3), Chance(b"s", 2))
    with pytest.raises(NotTheComputers):
        GAME.step(state, SYSTEM, TakeAiTurn(seat=0), Chance(b"s", 2))
    state = GAME.step(state, Seat(0), BidForOrder(amount=2), Chance(b"s", 2))[1]
    assert GAME.pending(state).system == TakeAiTurn(seat=1)
    state = GAME.step(state, SYSTEM, TakeAiTurn(seat=1), Chance(b"s", 3))[1]
    assert GAME.pending(state).seats == (Seat(2),) and GAME.pending(state).system is None
    with pytest.raises(NothingPending):
        GAME.step(state, SYSTEM, TakeAiTurn(seat=1), Chance(b"s", 4))


def test_the_seats_say_who_plays_them() -> None:
    options = GameOptions(players=2, additional_corporation=True, seats=computers(2, (None, "shrewd")))
    state = GAME.step(GAME.initial_state(), SYSTEM, GAME.start(options, "c"), Chance(b"s", 1))[1]
    infos = GAME.seats(state)
    assert [i.kind for i in infos] == ["human", "ai"] and infos[1].label == "Computer 2 (shrewd)"
    assert infos[1].payload["level"] == "shrewd"
    assert GAME.ai_levels == AI_LEVELS == ("basic", "shrewd")
    assert GAME.sim_options is not None
    sim = GAME.sim_options(("human", "ai"), "basic", frozenset())
    assert sim.seats == (SeatSpec(), SeatSpec(kind="ai", level="basic"))
