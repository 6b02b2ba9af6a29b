"""Master of Economy's advice (issue #26): the shrewd computer's move for the seat first, the careful beginner's
next where it differs, then every other legal move; in situations a player would notice, the shrewd move."""

from __future__ import annotations

from domain.kernel import Chance, Seat
from domain.master_of_economy import GAME
from domain.master_of_economy.ai.advice import BASIC, OTHER, SHREWD, advice_text, advise
from domain.master_of_economy.commands import Build, PlaceBids, SellFactory
from domain.master_of_economy.state import Step

from .builders import at, corp, factories, game, goods
from .test_ai_tactics import BLUE, order, trade_phase


def test_in_the_last_trade_phase_it_advises_selling_what_the_factories_would_have_needed() -> None:
    """Goods are worth nothing at the end: shrewd offers all three coal, basic keeps two."""
    state = corp(trade_phase(4, 9), "blue", goods=goods(coal=3), factories=factories(power_plant=2), cash=20)
    options = advise(state, Seat(BLUE)).options
    first, second = options[0], options[1]
    assert isinstance(first.command, PlaceBids) and first.score == SHREWD
    assert [b.commodity for b in first.command.bids].count("coal") == 3
    assert isinstance(second.command, PlaceBids) and second.score == BASIC
    assert advice_text(first.why).startswith("The shrewd computer in your place")
    for option in options:
        GAME.decide(state, Seat(BLUE), option.command, Chance(b"legal", 1))


def test_in_the_last_investments_it_advises_selling_idle_factories() -> None:
    """Factories are worth nothing at the end: shrewd sells the steel works it cannot supply; building is still
    among the other options."""
    state = order(game(4), "blue", "green", "red", "yellow")
    state = corp(at(state, Step.INVEST, number=6, stage=4), "blue", cash=20, goods=goods(materials=3),
                 factories=factories(quarry=2, steel_works=2))
    options = advise(state, Seat(BLUE)).options
    assert isinstance(options[0].command, SellFactory) and options[0].command.factory == "steel_works"
    assert options[0].score == SHREWD
    assert any(isinstance(o.command, Build) for o in options[1:])
    assert all(o.score == OTHER for o in options[2:])
