"""§4-§6: investments (ME-I-*), procurement (ME-P-*) and production (ME-R-*)."""

from __future__ import annotations

import pytest

from domain.master_of_economy.commands import Build, Pass, SellFactory, Supply
from domain.master_of_economy.errors import CannotAfford, LimitReached, NotAllowed
from domain.master_of_economy.events import (
    EnergySpoiled,
    FactoriesSupplied,
    FactoryBuilt,
    FactorySold,
    GoodsProduced,
)
from domain.master_of_economy.flow import begin_phase
from domain.master_of_economy.folding import evolve
from domain.master_of_economy.holders import index
from domain.master_of_economy.pending import pending
from domain.master_of_economy.recorder import Recorder
from domain.master_of_economy.state import Step
from domain.master_of_economy.supply import cubes_left

from .builders import act, at, cash, corp, factories, game, goods, held_goods, of, order

A, B, C, D = "blue", "yellow", "green", "red"


def investing(**changes: object) -> object:
    state = order(game(2), A, B)
    state = corp(state, A, **changes) if changes else state
    return at(state, Step.INVEST, number=1)


def test_me_i_1_builds_and_sales_in_any_order_then_pass() -> None:
    """ME-I-1: one action at a time, each legal when it runs; a sale may pay for a later build."""
    state = investing(cash=3, factories=factories(quarry=1), goods=goods(materials=1))
    events, state = act(state, 0, Build(factory="power_plant"))
    assert of(events, FactoryBuilt)[0] == FactoryBuilt(corporation=A, factory="power_plant", cost=3, materials=1)
    assert cash(state, A) == 0
    with pytest.raises(CannotAfford):
        act(state, 0, Build(factory="quarry"))
    _, state = act(state, 0, SellFactory(factory="quarry"))
    _, state = act(state, 0, Build(factory="quarry"))
    assert state.corps[index(state, A)].factories == factories(quarry=1, power_plant=1)
    _, state = act(state, 0, Pass())
    assert pending(state).seats == (1,)


def test_me_i_2_at_most_three_builds_and_two_of_a_type() -> None:
    """ME-I-2."""
    state = investing(cash=30, goods=goods(materials=5))
    _, state = act(state, 0, Build(factory="quarry"))
    _, state = act(state, 0, Build(factory="quarry"))
    with pytest.raises(LimitReached):
        act(state, 0, Build(factory="quarry"))
    _, state = act(state, 0, Build(factory="coal_mine"))
    with pytest.raises(LimitReached):
        act(state, 0, Build(factory="coal_mine"))


def test_me_i_3_costs_money_and_a_construction_material_except_a_quarry() -> None:
    """ME-I-3: 3 EUR to the bank, 1 construction material back to the supply (none for a quarry)."""
    state = investing(cash=10, goods=goods(materials=0))
    with pytest.raises(CannotAfford):
        act(state, 0, Build(factory="steel_works"))
    events, after = act(state, 0, Build(factory="quarry"))
    assert of(events, FactoryBuilt)[0].materials == 0 and cash(after, A) == 7 and after.bank == state.bank + 3


def test_me_i_4_needs_a_free_place_and_a_marker() -> None:
    """ME-I-4: 5 places per type (table 15.7) and the markers in the supply (12 quarries in all)."""
    state = investing(cash=30, factories=factories(quarry=5))
    with pytest.raises(LimitReached):
        act(state, 0, Build(factory="quarry"))
    state = corp(investing(cash=30), B, factories=factories(quarry=12))
    with pytest.raises(LimitReached):
        act(state, 0, Build(factory="quarry"))


def test_me_i_5_sales_for_3_at_most_two_even_a_factory_just_built() -> None:
    """ME-I-5."""
    state = investing(cash=10, factories=factories(quarry=2))
    _, state = act(state, 0, Build(factory="coal_mine"))
    events, state = act(state, 0, SellFactory(factory="coal_mine"))
    assert of(events, FactorySold)[0] == FactorySold(corporation=A, factory="coal_mine", value=3)
    _, state = act(state, 0, SellFactory(factory="quarry"))
    with pytest.raises(LimitReached):
        act(state, 0, SellFactory(factory="quarry"))
    with pytest.raises(NotAllowed):
        act(investing(), 0, SellFactory(factory="shipyard"))


def test_me_i_6_forced_sales_do_not_count_against_the_limits() -> None:
    """ME-I-6, ME-X-2: a forced sale is not an investments sale (the turn's counter is untouched)."""
    state = investing(factories=factories(quarry=2))
    forced = evolve(state, FactorySold(corporation=A, factory="quarry", value=2, forced=True))
    assert forced.sales == 0
    assert evolve(state, FactorySold(corporation=A, factory="quarry", value=3)).sales == 1


def test_me_i_a_corporation_with_nothing_to_do_is_skipped() -> None:
    """ME-G-7 with ME-I-1: no money and no factory: nothing to decide, the next corporation is asked."""
    state = order(game(2), A, B)
    state = corp(state, A, cash=0)
    from .builders import settled

    _, state = settled(at(state, Step.INVEST, number=1))
    assert pending(state).seats == (1,)


def procuring(**changes: object) -> object:
    return at(corp(order(game(2), A, B), A, **changes), Step.PROCURE, number=2)


def test_me_p_1_supplying_moves_the_inputs_onto_the_factories() -> None:
    """ME-P-1: a steel works takes 1 iron ore + 1 coal, a shipyard 1 energy + 1 steel."""
    state = procuring(factories=factories(steel_works=2, shipyard=1), goods=goods(ore=2, coal=3, energy=1, steel=1))
    events, state = act(state, 0, Supply(factory="steel_works", count=2))
    assert of(events, FactoriesSupplied)[0].inputs == goods(ore=2, coal=2)
    assert state.corps[index(state, A)].supplied == factories(steel_works=2)
    events, state = act(state, 0, Supply(factory="shipyard"))  # nothing left to supply: the phase moves on
    made = of(events, GoodsProduced)[0]
    assert made.used == goods(ore=2, coal=2, energy=1, steel=1) and made.goods == goods(steel=4, ships=1)


def test_me_p_2_no_partial_supply() -> None:
    """ME-P-2: a factory is supplied fully or not at all."""
    state = procuring(factories=factories(steel_works=1), goods=goods(ore=1))
    with pytest.raises(CannotAfford):
        act(state, 0, Supply(factory="steel_works"))


def test_me_p_3_supplying_is_optional_and_quarries_need_none() -> None:
    """ME-P-3."""
    state = procuring(factories=factories(quarry=1, coal_mine=1), goods=goods(energy=1))
    with pytest.raises(NotAllowed):
        act(state, 0, Supply(factory="quarry"))
    _, state = act(state, 0, Pass())
    assert state.corps[index(state, A)].supplied == factories()


def test_me_p_4_energy_left_after_procurement_spoils() -> None:
    """ME-P-4: when the corporation's procurement is finished its energy goes back to the supply."""
    state = procuring(factories=factories(coal_mine=2), goods=goods(energy=3))
    _, state = act(state, 0, Supply(factory="coal_mine"))
    assert held_goods(state, A)[3] == 2
    events, state = act(state, 0, Pass())
    assert of(events, EnergySpoiled) == [EnergySpoiled(corporation=A, commodity="energy", count=2)]
    # a corporation with nothing to supply is skipped, and its energy spoils all the same
    events, _ = act(procuring(goods=goods(energy=4), factories=factories(coal_mine=1)), 0,
                    Supply(factory="coal_mine", count=1))
    assert of(events, EnergySpoiled)[0].count == 3


def produce(state: object) -> tuple[list[object], object]:
    rec = Recorder(at(state, Step.PROCURE, number=2), evolve)  # type: ignore[arg-type]
    begin_phase(rec, 3)
    return rec.events, rec.state


def test_me_r_1_and_r_2_production() -> None:
    """ME-R-1: a quarry makes 1 construction material, a supplied coal mine 2 coal, a shipyard 1 ship; an
    unsupplied factory nothing. ME-R-2: the inputs go back to the supply."""
    state = order(game(2), A, B)
    state = corp(state, A, factories=factories(quarry=2, coal_mine=2, shipyard=1), goods=goods(),
                 supplied=factories(coal_mine=1, shipyard=1))
    events, after = produce(state)
    made = of(events, GoodsProduced)[0]
    assert made.goods == goods(materials=2, coal=2, ships=1) and made.used == goods(energy=2, steel=1)
    assert after.corps[index(after, A)].supplied == factories()


def test_me_r_3_warehouse_capacity_10_excess_lost() -> None:
    """ME-R-3."""
    state = corp(order(game(2), A, B), A, factories=factories(quarry=3), goods=goods(materials=9))
    made = of(produce(state)[0], GoodsProduced)[0]
    assert (made.goods, made.lost) == (goods(materials=1), goods(materials=2))


def test_me_r_4_goods_other_than_energy_keep() -> None:
    """ME-R-4: coal left after procurement stays; only energy spoils (ME-P-4)."""
    state = procuring(goods=goods(coal=4, energy=1))
    _, state = act(state, 0, Pass())
    assert held_goods(state, A) == goods(coal=4)


def test_me_r_5_finite_supply_in_action_order() -> None:
    """ME-R-5: 23 usable construction materials, 20 in warehouses: B (first in order) gets the last 3, A none; with
    ``finite_commodity_supply`` off both get theirs."""
    for finite in (True, False):
        state = order(game(4, finite_commodity_supply=finite), B, A, C, D)
        for key in (A, B, C, D):
            state = corp(state, key, goods=goods(materials=5))
        for key in (A, B):
            state = corp(state, key, factories=factories(quarry=3))
        assert cubes_left(state, 0) == 3
        made = {e.corporation: e for e in of(produce(state)[0], GoodsProduced)}
        assert made[B].goods == goods(materials=3)
        assert made[A].goods == (goods() if finite else goods(materials=3))
