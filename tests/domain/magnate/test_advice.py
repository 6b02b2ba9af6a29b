"""Magnate's advice (issue #26) where the right action is plain to a person: a sale before the crash that wins the
game, a building that pays for itself; and the rules of thumb of the other phases."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.kernel import SYSTEM, Chance, Seat
from domain.magnate import GAME
from domain.magnate.ai.advice import advice_text, advise
from domain.magnate.ai.gains import MUST
from domain.magnate.city import plot_value
from domain.magnate.commands import Build, Consult, PassBid, PlaceBid, Sell
from domain.magnate.state import MagnateState

from .builders import in_actions, in_bidding, set_cash, set_plot, started

PLOT = "2C"


def on_the_eve_of_the_crash(cash: tuple[int, int]) -> MagnateState:
    """Seat 0's last action of the round, the crash marker at 0 (the market then crashes, taking the land price
    down by the risk cards' depth), seat 0 owning a full apartment block on 2C."""
    state = in_actions(started(2), first_player=0, turn=0, action_pass=2)
    state = replace(state, crash=0, land_price=15, round=6, risk_discard=("R01", "R02", "R03", "R04", "R05"))
    state = set_plot(state, PLOT, owner=0, building="apartment", tenants=("home",) * 5, for_sale=False)
    return set_cash(set_cash(state, 0, cash[0]), 1, cash[1])


def finish(state: MagnateState, first: Any) -> MagnateState:
    """Seat 0 plays ``first``, then every seat consults until the game is over."""
    _, state = GAME.step(state, Seat(0), first, Chance(b"advice", 1))
    for version in range(2, 200):
        due = GAME.pending(state)
        if due.finished:
            return state
        actor, command = (SYSTEM, due.system) if due.system is not None else (due.seats[0], Consult())
        _, state = GAME.step(state, actor, command, Chance(b"advice", version))
    raise AssertionError("the game did not end")


def test_it_advises_the_sale_that_wins_the_game() -> None:
    state = on_the_eve_of_the_crash((1_000, 8_000))
    best = advise(state, Seat(0)).best
    assert best is not None and best.command == Sell(plot=PLOT)
    assert best.score > MUST
    assert "before the crash" in advice_text(best.why)
    assert f"{plot_value(state, PLOT) * 1500:,}K" in advice_text(best.why)  # money as it is written everywhere
    assert GAME.outcome(finish(state, best.command)).winners == (0,)  # type: ignore[union-attr]
    assert GAME.outcome(finish(state, Consult())).winners == (1,)  # type: ignore[union-attr]


def test_early_in_the_game_it_keeps_its_plots_and_builds_what_pays() -> None:
    state = in_actions(started(2), first_player=0, turn=0, action_pass=0)
    state = set_cash(set_plot(state, PLOT, owner=0, for_sale=False), 0, 3_000)
    options = advise(state, Seat(0)).options
    assert isinstance(options[0].command, Build) and options[0].score > 0
    assert "over its cost by the crash" in advice_text(options[0].why)
    assert "_" not in advice_text(options[0].why)  # the building by its name, never its data key
    sale = next(o for o in options if o.command == Sell(plot=PLOT))
    assert sale.score < 0 and "give up its rent" in advice_text(sale.why)


def test_it_bids_the_minimum_only_when_going_first_is_cheap() -> None:
    cheap = set_cash(in_bidding(replace(started(2), land_price=15), opener=0), 0, 5_000)
    best = advise(cheap, Seat(0)).best
    assert best is not None and isinstance(best.command, PlaceBid)
    dear = set_cash(in_bidding(replace(started(2), land_price=1), opener=0), 0, 5_000)
    best = advise(dear, Seat(0)).best
    assert best is not None and best.command == PassBid()
    assert advice_text(best.why).startswith("Pass the bid")
