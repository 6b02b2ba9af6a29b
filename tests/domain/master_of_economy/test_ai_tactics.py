"""Situations a player would notice, each arranged by hand, and what each level of the computer does there (the
stronger level reads what the weaker does not), and a small strength check: over a few dozen seeded games each
level beats the one below, and the weakest beats the greedy and random bots (bench/moe_ai.py runs thousands)."""

from __future__ import annotations

from typing import Any

from domain.kernel import Chance
from domain.kernel.driver import play
from domain.master_of_economy import GAME, GameOptions, SeatSpec
from domain.master_of_economy.ai import decide_for
from domain.master_of_economy.commands import Build, BuyPacket, PlaceBids, SellFactory
from domain.master_of_economy.cursor import player_trade_order
from domain.master_of_economy.state import Step

from .builders import at, corp, factories, fresh_rows, game, goods, order, packets, player

BLUE = 0


def bids_of(state: Any, level: str) -> list[tuple[str, int]]:
    decision = decide_for(state, BLUE, level, Chance(b"tactic", 1))
    move = decision.moves[0]
    assert isinstance(move, PlaceBids)
    return [(b.commodity, b.field) for b in move.bids]


def trade_phase(stage: int, number: int) -> Any:
    state = order(game(4), "blue", "green", "red", "yellow")
    return fresh_rows(at(state, Step.BIDS, number=number, stage=stage))


def test_the_last_trade_phase_sells_what_the_factories_would_have_needed() -> None:
    """Goods are worth nothing at the end (ME-E-2): shrewd offers all its coal; basic keeps two for its power
    plants."""
    state = corp(trade_phase(4, 9), "blue", goods=goods(coal=3), factories=factories(power_plant=2), cash=20)
    assert [c for c, _ in bids_of(state, "shrewd")].count("coal") == 3
    assert [c for c, _ in bids_of(state, "basic")].count("coal") == 1


def test_no_export_bid_where_the_foreign_demand_is_already_taken() -> None:
    """Five coal bids on fields 1-5 leave a demand of 4 (ME-T-4): a sixth coal export cannot succeed, so shrewd
    sends its coal nowhere; basic bids on the first free field all the same."""
    state = corp(trade_phase(2, 4), "blue", goods=goods(coal=1), cash=20)
    from .builders import bids as placed
    state = placed(state, "coal", f1="green", f2="red", f3="yellow", f4="green", f5="red")
    assert ("coal", 6) in bids_of(state, "basic")
    assert not [f for c, f in bids_of(state, "shrewd") if c == "coal"]


def test_the_last_investments_sell_idle_factories() -> None:
    """Factories are worth nothing at the end: in the last investments shrewd sells the steel works it cannot
    supply (3 € each, ME-I-5) rather than build; basic keeps building its chain."""
    state = order(game(4), "blue", "green", "red", "yellow")
    state = corp(at(state, Step.INVEST, number=6, stage=4), "blue", cash=20, goods=goods(materials=3),
                 factories=factories(quarry=2, steel_works=2))
    shrewd = decide_for(state, BLUE, "shrewd", Chance(b"t", 1)).moves
    assert [m.factory for m in shrewd if isinstance(m, SellFactory)] == ["steel_works", "steel_works"]
    assert not any(isinstance(m, Build) for m in shrewd)
    basic = decide_for(state, BLUE, "basic", Chance(b"t", 1)).moves
    assert any(isinstance(m, Build) for m in basic)


def test_a_packet_of_a_cash_rich_corporation_is_worth_more_than_its_points() -> None:
    """Red has the most points but no cash; green holds 60 € that its shareholders share at the end (ME-E-4):
    shrewd buys into green, basic into the corporation with most points."""
    state = order(game(4), "blue", "green", "red", "yellow")
    state = at(state, Step.PLAYER_TRADE, number=10, stage=2)
    state = corp(corp(state, "green", cash=60, points=3), "red", cash=0, points=12)
    state = player(state, BLUE, cash=12)
    state = replace_turn(state, BLUE)
    shrewd = decide_for(state, BLUE, "shrewd", Chance(b"t", 1)).moves[0]
    assert isinstance(shrewd, BuyPacket) and shrewd.corporation == "green"
    basic = decide_for(state, BLUE, "basic", Chance(b"t", 1)).moves[0]
    assert isinstance(basic, BuyPacket) and basic.corporation == "red"


def replace_turn(state: Any, seat: int) -> Any:
    from msgspec.structs import replace
    return replace(state, turn=player_trade_order(state).index(seat))


def _match(a: str, b: str, games: int) -> tuple[int, int]:
    """The games ``a`` and ``b`` each win outright (2 players with the AC, each in the first seat half the
    time)."""
    wins = [0, 0]
    for g in range(games):
        kinds = (a, b) if g % 2 == 0 else (b, a)
        seats = tuple(SeatSpec(kind="ai", level=k) if k in ("basic", "shrewd") else SeatSpec() for k in kinds)
        bots = {i: GAME.bots[k](g * 10 + i) for i, k in enumerate(kinds) if k in GAME.bots}
        options = GameOptions(players=2, additional_corporation=True, seats=seats)
        played = play(GAME, GAME.start(options, "c"), f"strength:{g}".encode(),
                      lambda state, seat, bots=bots: bots[int(seat)](state, seat))
        outcome = GAME.outcome(played.state)
        assert outcome is not None
        if outcome.standings[1].rank == 2:
            wins[kinds[outcome.standings[0].seat] != a] += 1
    return wins[0], wins[1]


def test_each_level_beats_the_one_below() -> None:
    for stronger, weaker, factor in (("shrewd", "basic", 3 / 2), ("basic", "greedy", 4), ("basic", "random", 9)):
        won, lost = _match(stronger, weaker, 40)
        assert won > factor * lost, (stronger, weaker, won, lost)


__all__ = ["packets"]
