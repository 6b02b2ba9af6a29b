"""Whole solo games against the AI (spec §11): a bot in the human seat, the AI in the other, at each of the
four difficulties, standard and advanced, every game played to the end.

Every game checks, after every single event, the invariants of the rules-engine property test
(:func:`tests.domain.magnate.invariants.assert_invariants`: cash, token conservation, plots, tracks,
round limit) plus the AI's own per-event invariants (its cash never falls, it never holds advertising,
every payment it makes and every rent it collects is 0, its advertising equals its last card's icon, it
bids at most once a round and exactly B). After every command it checks the AI board: both rows match
the plots the AI owns (bottom unbuilt, top built, no duplicates), the 29 cards are all in a deck or the
discard pile, each deck holds only its level's cards, and the level never falls; each AI action turn
draws one card, decides once on it and resolves it, the first card of the game being "first AI action".
At the end the fold of the log is the live state.

8 combinations (2 bots x 4 difficulties) x 125 seeded games = 1,000 games.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from domain.kernel import SYSTEM, Chance, commitment_of, fold
from domain.magnate import GAME, GameOptions, MagnateState, SeatSpec, StartGame
from domain.magnate.ai.bidding import bid_amount
from domain.magnate.bots import Greedy, RandomLegal
from domain.magnate.catalog import catalog
from domain.magnate.city import owned_by, plot_at
from domain.magnate.commands import TakeAiTurn
from domain.magnate.events import (
    AiAdvertised,
    AiCardDrawn,
    AiCardResolved,
    AiDecided,
    BidPlaced,
    BuildingBuilt,
    FirstPlayerDecided,
    GameEnded,
    LandBought,
    RentCollected,
    RoundStarted,
)
from domain.magnate.state import Phase

from .invariants import assert_invariants

CAT = catalog("v1")
HUMAN, AI = 0, 1
BOTS = {"random": RandomLegal, "greedy": Greedy}
DIFFICULTIES = ("digital_assistant", "generalised_ai", "robot_overlord", "the_singularity")
GAMES_PER_COMBINATION = 125
MAX_COMMANDS = 20_000
ALL_CARDS = sorted(CAT.ai_cards)


def start(difficulty: str, advanced: bool, seed: bytes) -> StartGame:
    options = GameOptions(seats=(SeatSpec(), SeatSpec(kind="ai")), advanced=advanced, difficulty=difficulty)
    return StartGame(options=options, seed_commitment=commitment_of(seed))


class AiWatch:
    """The AI invariants that need memory across events (cash, level, bids per round)."""

    def __init__(self) -> None:
        self.cash = CAT.setup.ai_cash
        self.level = 1
        self.bid_this_round = False
        self.first_card: str | None = None

    def event(self, before: MagnateState, event: Any, after: MagnateState, where: str) -> None:
        """Per-event checks: ``before`` and ``after`` are the states around ``event``."""
        ai = after.seats[AI]
        assert ai.cash >= self.cash, f"{where}: the AI's cash fell from {self.cash} to {ai.cash}"
        self.cash = ai.cash
        assert ai.advertising == 0, f"{where}: the AI holds advertising tokens"
        seat = getattr(event, "seat", None)
        match event:
            case LandBought() | BuildingBuilt() if seat == AI:
                paid = event.price if isinstance(event, LandBought) else event.cost
                assert paid == 0, f"{where}: the AI paid {paid}"
            case FirstPlayerDecided() if seat == AI:
                assert event.paid == 0, f"{where}: the AI paid {event.paid} for the marker"
            case RentCollected() if seat == AI:
                assert event.amount == 0, f"{where}: the AI collected rent"
            case AiAdvertised():
                last = before.ai.last_card if before.ai else None
                assert event.card == last and event.tokens == (CAT.ai_cards[last].ads if last else 0), where
            case BidPlaced() if seat == AI:
                assert not self.bid_this_round, f"{where}: the AI bid twice in a round"
                assert event.amount == bid_amount(before), f"{where}: the AI bid {event.amount}, not B"
                self.bid_this_round = True
            case RoundStarted():
                self.bid_this_round = False
            case AiCardDrawn() if self.first_card is None:
                self.first_card = event.card
                assert event.card == "AI-I-01", f"{where}: the AI's first card was {event.card}"
            case _:
                pass

    def command(self, command: Any, phase: Phase, new: list[Any], state: MagnateState, where: str) -> None:
        """Per-command checks on the AI board."""
        ai = state.ai
        assert ai is not None
        assert ai.level >= self.level and 1 <= ai.level <= len(CAT.ai_levels), f"{where}: level {ai.level}"
        self.level = ai.level
        cards = [c for deck in ai.decks for c in deck] + list(ai.discard)
        assert sorted(cards) == ALL_CARDS, f"{where}: AI cards not conserved: {sorted(cards)}"
        for level, deck in enumerate(ai.decks, start=1):
            assert all(CAT.ai_cards[c].level == level for c in deck), f"{where}: level {level} deck {deck}"
        if isinstance(command, TakeAiTurn) and phase == Phase.ACTIONS:
            counts = Counter(type(e) for e in new if not isinstance(e, AiDecided) or e.card is not None)
            assert (counts[AiCardDrawn], counts[AiDecided], counts[AiCardResolved]) == (1, 1, 1), where
        if state.phase == Phase.ENDED:
            return  # liquidation returned every plot to the bank; the rows are history
        bottom = [p for p in ai.bottom_row if p is not None]
        assert len(set(bottom + list(ai.top_row))) == len(bottom) + len(ai.top_row), f"{where}: duplicate in rows"
        assert set(bottom) | set(ai.top_row) == set(owned_by(state, AI)), f"{where}: rows != AI plots"
        assert all(plot_at(state, p).building is None for p in bottom), f"{where}: built plot in the bottom row"
        assert all(plot_at(state, p).building is not None for p in ai.top_row), f"{where}: unbuilt in the top row"


def play_checked(bot: str, difficulty: str, advanced: bool, seed: bytes, bot_seed: int) -> MagnateState:
    """Play one solo game to the end, checking every invariant after every event and command."""
    policy = BOTS[bot](bot_seed)
    watch = AiWatch()
    state = GAME.initial_state()
    events: list[Any] = []
    actor: Any = SYSTEM
    command: Any = start(difficulty, advanced, seed)
    for _ in range(MAX_COMMANDS):
        phase = state.phase
        try:
            new = GAME.decide(state, actor, command, Chance(seed, len(events) + 1))
        except Exception as exc:
            raise AssertionError(f"game {seed!r}: decide rejected {command!r} from {actor!r}") from exc
        for event in new:
            where = f"game {seed!r}, event {len(events) + 1} {type(event).__name__}"
            if isinstance(event, GameEnded):
                assert event.cash == tuple(s.cash for s in state.seats), f"{where}: cash differs from the fold"
            before, state = state, GAME.evolve(state, event)
            events.append(event)
            assert_invariants(state, where)
            if state.ai is not None:
                watch.event(before, event, state, where)
        if state.ai is not None:
            watch.command(command, phase, new, state, f"game {seed!r}, after {type(command).__name__}")
        due = GAME.pending(state)
        if due.finished:
            assert state.phase == Phase.ENDED and state.standings
            assert fold(GAME.evolve, events, GAME.initial_state()) == state, f"game {seed!r}: fold != live state"
            return state
        if due.system is not None:
            actor, command = SYSTEM, due.system
        else:
            assert due.seats == (HUMAN,), f"game {seed!r}: pending {due!r}"
            actor, command = HUMAN, policy(state, HUMAN)
    raise AssertionError(f"game {seed!r} did not finish within {MAX_COMMANDS} commands")


@pytest.mark.parametrize("difficulty", DIFFICULTIES)
@pytest.mark.parametrize("bot", sorted(BOTS))
def test_solo_games_against_the_ai_run_to_the_end_keeping_every_invariant(bot: str, difficulty: str) -> None:
    """125 games per combination, alternating standard and advanced."""
    ends: Counter[str] = Counter()
    for n in range(GAMES_PER_COMBINATION):
        advanced = n % 2 == 1
        state = play_checked(bot, difficulty, advanced, f"ai-games-{bot}-{difficulty}-{n}".encode(), n)
        human, ai = (s.cash for s in state.seats)
        ends["human" if human > ai else "ai" if ai > human else "tie"] += 1
    assert sum(ends.values()) == GAMES_PER_COMBINATION
    assert ends["ai"] > 0, f"the AI never won against {bot}: {ends}"
