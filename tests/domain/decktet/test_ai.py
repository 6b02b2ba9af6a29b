"""The computer player (domain/decktet/ai) as a user meets it: its turns are legal on every table, the same chance
gives the same turn, it plays only from what its seat may know, and its explanation names only public facts."""

from __future__ import annotations

import re
from typing import Any

import pytest
from msgspec.structs import replace

from domain.decktet import GAME
from domain.decktet.ai import Plan, plan_turn
from domain.decktet.cards import info
from domain.decktet.commands import Buy, Deed, PlayTurn, Prefer, Sell, TakeAiTurn
from domain.decktet.decider import step
from domain.decktet.events import AiTurnPlanned, TurnEnded
from domain.decktet.secrets import hide
from domain.decktet.state import DecktetState, Phase
from domain.decktet.variant import AI_LEVELS, GameOptions, SeatSpec
from domain.kernel import SYSTEM, Chance, Seat
from domain.kernel.driver import play

from .builders import started

TABLES: dict[str, dict[str, bool]] = {
    "base": {},
    "nocourts": {"courts": False},
    "mega": {"mega": True},
    "stacked": {"mega": True, "stacked": True},
    "three": {"three": True},
    "three_mega": {"three": True, "mega": True},
    "odd": {"original_aces": True, "deucey": True, "courtpawns": True},
}


def turn_starts(options: dict[str, bool], seed: bytes, every: int = 1) -> list[DecktetState]:
    """The states at the start of every ``every``-th turn of a seeded game between greedy bots."""
    players = 3 if options.get("three") else 2
    bots = [GAME.bots["greedy"](s) for s in range(players)]
    seen: list[DecktetState] = []

    def policy(state: DecktetState, seat: Seat) -> Any:
        if state.plays == 0 and (not seen or seen[-1].turn != state.turn):
            seen.append(state)
        return bots[int(seat)](state, seat)

    play(GAME, GAME.start(GameOptions(**options), "c"), seed, policy)
    return seen[::every]


def as_computer(state: DecktetState, level: str) -> DecktetState:
    """``state`` with every seat played by the computer at ``level``."""
    seats = tuple(SeatSpec(kind="ai", level=level) for _ in state.seats)
    return replace(state, variant=replace(state.variant, seats=seats))


@pytest.mark.parametrize("table", list(TABLES))
def test_every_level_plays_a_legal_turn_on_every_table(table: str) -> None:
    states = turn_starts(TABLES[table], f"ai-legal:{table}".encode(), every=9)[:4]
    for level in AI_LEVELS:
        for n, state in enumerate(states if level == "easy" else states[1:3]):
            events, after = step(as_computer(state, level), SYSTEM, TakeAiTurn(), Chance(b"legal", n))
            assert isinstance(events[0], AiTurnPlanned) and events[0].level == level
            assert [e.seat for e in events if isinstance(e, TurnEnded)] == [state.active]
            assert after.turn == state.turn + 1 or after.phase == Phase.ENDED


@pytest.mark.parametrize("table", list(TABLES))
def test_a_game_between_easy_computers_runs_to_its_end_on_every_table(table: str) -> None:
    options = TABLES[table]
    seats = tuple(SeatSpec(kind="ai", level="easy") for _ in range(3 if options.get("three") else 2))

    def nobody(state: object, seat: object) -> object:
        raise AssertionError("no person's turn in a game between computers")

    played = play(GAME, GAME.start(GameOptions(**options, seats=seats), "c"), f"ai-game:{table}".encode(), nobody)
    assert played.state.phase == Phase.ENDED


def test_the_plan_is_the_same_for_the_same_chance() -> None:
    states = turn_starts({}, b"ai-determinism", every=7)[1:4]
    for level in AI_LEVELS:
        for state in states[: 1 if level == "hard" else 3]:
            first = plan_turn(state, state.active, level, Chance(b"same", 3))
            assert plan_turn(state, state.active, level, Chance(b"same", 3)) == first


@pytest.mark.parametrize(("table", "level", "count"), [
    ("base", "easy", 9), ("base", "medium", 3), ("base", "hard", 1),
    ("stacked", "easy", 4), ("stacked", "medium", 1), ("three", "easy", 4), ("three", "medium", 1),
])
def test_the_plan_depends_only_on_what_the_seat_may_know(table: str, level: str, count: int) -> None:
    """The other hands, the draw pile and the others' preferences re-dealt by ``hide``: the same plan, word for
    word, for the same chance."""
    states = turn_starts(TABLES[table], f"ai-infoset:{table}".encode(), every=5)[1:][:count]
    assert len(states) == count
    changed = False
    for n, state in enumerate(states):
        seat = state.active
        chance = (b"infoset", 10 + n)
        plan = plan_turn(state, seat, level, Chance(*chance))
        for k in (1, 2, 3):
            hidden = hide(state, Seat(seat), k)
            changed |= any(h.hand != s.hand for h, s in zip(hidden.seats, state.seats, strict=True))
            assert plan_turn(hidden, seat, level, Chance(*chance)) == plan
    assert changed


def _public_names(state: DecktetState, plan: Plan) -> set[str]:
    played = {a.card for a in plan.actions if isinstance(a, Buy | Deed | Sell)}
    public = {p.card for held in state.seats for column in held.columns for p in column} | set(state.discard)
    return {info(state.variant.dataset, c).name for c in played | public}


@pytest.mark.parametrize("table", ["base", "mega", "three"])
def test_the_explanation_names_only_public_facts(table: str) -> None:
    """Never a card that stays in its hand (unless a card of that name is on the table or played), never a
    preference; a sentence or two."""
    states = turn_starts(TABLES[table], f"ai-explain:{table}".encode(), every=3 if table == "base" else 7)
    for level in AI_LEVELS:
        for n, state in enumerate(states if level == "easy" else states[2::8][:2]):
            seat = state.active
            plan = plan_turn(state, seat, level, Chance(b"explain", n))
            text = plan.explanation
            played = {a.card for a in plan.actions if isinstance(a, Buy | Deed | Sell)}
            kept = {info(state.variant.dataset, c).name for c in state.seats[seat].hand if c not in played}
            for name in kept - _public_names(state, plan):
                assert name not in text, (name, text)
            assert "prefer" not in text.lower()
            for prefer in (a for a in plan.actions if isinstance(a, Prefer)):
                assert f"{prefer.card}" not in text
            assert text.endswith(".") and len(re.findall(r"[.!?](?:\s|$)", text)) <= 3 and len(text) < 600


def test_the_explanation_says_what_it_plays_and_how_it_chose() -> None:
    state = turn_starts({}, b"ai-words", every=6)[2]
    easy = plan_turn(state, state.active, "easy", Chance(b"w", 1)).explanation
    assert "rules of thumb" in easy and "% chance to win" in easy
    medium = plan_turn(state, state.active, "medium", Chance(b"w", 1))
    assert re.search(r"compared \d+ plans over \d+ sampled futures", medium.explanation)
    play_ = next(a for a in medium.actions if isinstance(a, Buy | Deed | Sell))
    assert info(state.variant.dataset, play_.card).name in medium.explanation


def test_the_plan_is_accepted_as_a_whole_turn_by_the_rules() -> None:
    """The plan's actions make a legal PlayTurn (R9.4) for the seat, as a person's would be."""
    for n, state in enumerate(turn_starts({}, b"ai-playturn", every=4)):
        plan = plan_turn(state, state.active, "easy", Chance(b"p", n))
        events, _ = step(state, Seat(state.active), PlayTurn(actions=plan.actions), Chance(b"p", n))
        assert any(isinstance(e, TurnEnded) for e in events)


def test_a_started_game_with_a_computer_seat_waits_for_its_turn() -> None:
    _, state = started(b"ai", seats=(SeatSpec(), SeatSpec(kind="ai", level="hard")))
    assert state.active == 1 and GAME.pending(state).system == TakeAiTurn()
