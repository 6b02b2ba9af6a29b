"""The FAQ rulings (spec §12, 1-10), the spec's additional rulings and the §17 interpretations Q-REBUY and
Q-REBUILD, each shown in a concrete situation with the exact outcome a player sees."""

from __future__ import annotations

import typing
from collections import Counter
from collections.abc import Sequence
from typing import Any, TypeVar

import pytest
from msgspec.structs import replace

from domain.kernel import SYSTEM
from domain.magnate import MagnateState, PlayerCommand, evolve, legal_commands
from domain.magnate.catalog import catalog
from domain.magnate.city import modifier
from domain.magnate.commands import (
    AttractTenants,
    Build,
    BuyLand,
    FinishAttracting,
    ProcessMarket,
    Sell,
    UseAdvertising,
)
from domain.magnate.errors import PlotUnavailable
from domain.magnate.events import (
    AttractionStarted,
    BuildingBuilt,
    DiceRolled,
    ForSaleMarkerDrawn,
    LandBought,
    PlotLiquidated,
    PlotSold,
    TenantsMovedIn,
)
from domain.magnate.recorder import Recorder
from domain.magnate.rules import market as market_rules

from .builders import (
    advance,
    given,
    in_actions,
    in_attracting,
    in_market,
    plot,
    run,
    set_cash,
    set_plot,
    started,
    started_with_tiles,
    tutorial,
    with_ai_built,
)

CAT = catalog("v1")
E = TypeVar("E")

HALESTOWN = 1
"""Tutorial position 1: woods on F, industrial car park on G (no effect on offices)."""
HOME, RETAIL, OFFICE, INDUSTRY = range(4)
"""Indices of the standard game's tenant pools."""


def of(events: Sequence[object], kind: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, kind)]


def sold(state: MagnateState, seat: int, name: str, land_price: int = 4) -> tuple[list[Any], MagnateState]:
    """``seat`` sells ``name`` in phase 3 at the given land price position."""
    state = replace(in_actions(state, first_player=seat), land_price=land_price)
    return run(state, seat, Sell(plot=name))


def crash_now(state: MagnateState) -> list[Any]:
    """The crash (§10) run on ``state`` as it is: price drop by the discard's bottoms, then liquidation."""
    rec = Recorder(state, evolve)
    market_rules.crash(rec)
    return rec.events


# --- §12 FAQ rulings 1-10 -----------------------------------------------------------------------------------


def test_faq_1_neighbour_effects_never_cross_neighbourhood_borders() -> None:
    """FAQ 1: bonuses and penalties never cross neighbourhood borders. A house on Halestown 1A with industry
    tenants (Home -1) on every buildable plot of the bordering tiles 2 and 6 still sells for 1 + 1 + 1 = 3."""
    state = set_plot(tutorial(), "1A", owner=0, building="house", tenants=("home",), for_sale=False)
    for position in (2, 6):
        for letter in "ABCDEFGHI":
            name = f"{position}{letter}"
            if plot(state, name).feature is None:
                state = set_plot(state, name, building="industrial_unit", tenants=("industry",), for_sale=False)

    events, _ = sold(state, 0, "1A")

    assert events[0] == PlotSold(seat=0, plot="1A", value=3, amount=900)


def test_faq_2_a_source_affects_exactly_the_eight_surrounding_plots_of_its_own_tile() -> None:
    """FAQ 2: effects reach only the (up to) 8 surrounding plots in the same neighbourhood. Retail tenants
    (Office +1) in the middle of Halestown reach every other plot; in the corner A only B, D and E."""
    middle = set_plot(tutorial(), "1E", building="retail_unit", tenants=("retail",))
    corner = set_plot(tutorial(), "1A", building="retail_unit", tenants=("retail",))

    assert {c: modifier(middle, f"1{c}", "office") for c in "ABCDFGHI"} == dict.fromkeys("ABCDFGHI", 1)
    assert {c: modifier(corner, f"1{c}", "office") for c in "BCDEFGHI"} == {
        "B": 1, "C": 0, "D": 1, "E": 1, "F": 0, "G": 0, "H": 0, "I": 0,
    }  # fmt: skip
    assert modifier(corner, "2A", "office") == 0


def test_faq_3_tenants_come_only_from_the_available_area_never_from_another_building() -> None:
    """FAQ 3: three home sets but one home token available -> one tenant moves in; the centre apartments
    (3 homes each) keep theirs."""
    state = set_plot(tutorial(), "5B", owner=0, building="apartment", tenants=(), for_sale=False)
    state = replace(in_attracting(state, first_player=0), available=(1, 6, 2, 2))
    state = given(
        state,
        AttractionStarted(seat=0, plot="5B", advertising=1, dice=6),
        DiceRolled(seat=0, plot="5B", faces=(6, 6, 6, 6, 6, 6)),
    )

    events, state = run(state, 0, UseAdvertising(dice=()))

    assert of(events, TenantsMovedIn) == [TenantsMovedIn(seat=0, plot="5B", tenants=("home",))]
    assert state.available == (0, 6, 2, 2)
    assert plot(state, "0H").tenants == plot(state, "0I").tenants == ("home", "home", "home")


def test_faq_4_an_unbuilt_plot_gets_no_bonus_or_penalty_in_its_sale_value() -> None:
    """FAQ 4: an unbuilt Ridgeway 5B next to the woods (Home +1), the car park (Retail +1) and an industry
    tenant (Home -1) is worth exactly 1."""
    state = set_plot(tutorial(), "5B", owner=0, for_sale=False)
    state = set_plot(state, "5E", building="industrial_unit", tenants=("industry",))

    events, state = sold(state, 0, "5B", land_price=10)

    assert events[0] == PlotSold(seat=0, plot="5B", value=1, amount=1000)
    assert state.seats[0].cash == 3000


def test_faq_5_a_plot_worth_zero_pays_nothing() -> None:
    """FAQ 5: an empty house next to the airport (Home -1) and an industry tenant (Home -1) is worth
    1 + 1 - 2 = 0 and pays nothing, though the sale happens."""
    state = set_plot(tutorial(), "3E", owner=0, building="house", tenants=(), for_sale=False)
    state = set_plot(state, "3D", building="industrial_unit", tenants=("industry",))

    events, state = sold(state, 0, "3E", land_price=20)

    assert events[0] == PlotSold(seat=0, plot="3E", value=0, amount=0)
    assert state.seats[0].cash == 2000
    assert plot(state, "3E").owner is None
    assert state.plots_sold == 1


def test_faq_6_a_building_gets_no_bonus_from_its_own_tenants() -> None:
    """FAQ 6: office tenants give offices +1, but not their own building: a superior office with 2 office
    tenants alone in Halestown's corner is worth 1 + 1 + 6 + 1 (building bonus) = 9, not 10."""
    state = set_plot(tutorial(), "1A", owner=0, building="superior_office", tenants=("office", "office"))

    events, _ = sold(state, 0, "1A")
    assert events[0] == PlotSold(seat=0, plot="1A", value=9, amount=2700)

    next_door = set_plot(state, "1B", building="small_office", tenants=("office",))
    events, _ = sold(next_door, 0, "1A")
    assert events[0] == PlotSold(seat=0, plot="1A", value=10, amount=3000)


def test_faq_7_the_risk_deck_has_19_cards_with_tops_eight_0_four_minus_1_three_minus_2_four_minus_3() -> None:
    """FAQ 7: risk deck 19 cards, tops 0 x8, -1 x4, -2 x3, -3 x4; a new game starts with all of them."""
    state = started(3)

    assert len(state.risk_deck) == 19
    assert state.risk_discard == ()
    assert Counter(CAT.risk_cards[c].top for c in state.risk_deck) == {0: 8, -1: 4, -2: 3, -3: 4}


def test_faq_8_buildings_are_unlimited() -> None:
    """FAQ 8: buildings are unlimited: with the 3 physical superior office blocks already standing, a fourth
    can be built."""
    state = tutorial()
    for name in ("1A", "1B", "2D"):
        state = set_plot(state, name, owner=1, building="superior_office", tenants=())
    state = set_cash(set_plot(state, "1E", owner=0), 0, 6000)

    events, state = run(in_actions(state, first_player=0), 0, Build(plot="1E", building="superior_office"))

    assert events[0] == BuildingBuilt(seat=0, plot="1E", building="superior_office", cost=6000, returned=())
    assert sum(p.building == "superior_office" for p in state.plots) == 4
    assert state.seats[0].cash == 0


def test_faq_9_there_is_no_trading_of_money_or_property_between_players() -> None:
    """FAQ 9: no trading. No player command can name another seat; a plot owned by another player cannot be
    bought, not even next to your own; a sold plot goes to the bank (unowned), never to another player."""
    command_fields = {f for cls in typing.get_args(PlayerCommand) for f in cls.__struct_fields__}
    assert command_fields <= {"amount", "plot", "advertising", "dice", "tenants", "building", "returned", "bought"}

    state = set_plot(tutorial(), "1A", owner=0, for_sale=False)
    state = set_plot(state, "1B", owner=1, for_sale=False)
    state = in_actions(state, first_player=0)
    with pytest.raises(PlotUnavailable):
        run(state, 0, BuyLand(plot="1B"))
    assert BuyLand(plot="1B") not in [t.command for t in legal_commands(state, 0)]

    _, after = run(replace(state, first_player=1), 1, Sell(plot="1B"))
    assert plot(after, "1B").owner is None


def test_faq_10_on_the_nature_reserve_every_plot_but_g_gets_its_bonus_and_penalty() -> None:
    """FAQ 10: the reserve on B, C, F touches every other plot except G: homes +1 and industry -1 there;
    G carries neither."""
    tiles = ("nature_reserve", "halestown", "morrell_grove", "matthews_yard", "ridgeway", "lyndal")
    state = started_with_tiles(tiles)

    assert {c: modifier(state, f"1{c}", "industry") for c in "ADEGHI"} == {
        "A": -1, "D": -1, "E": -1, "G": 0, "H": -1, "I": -1,
    }  # fmt: skip
    assert {c: modifier(state, f"1{c}", "home") for c in "ADEGHI"} == {
        "A": 1, "D": 1, "E": 1, "G": 0, "H": 1, "I": 1,
    }  # fmt: skip


# --- §12 additional rulings -----------------------------------------------------------------------------------


def test_an_industrial_buildings_own_tenants_count_toward_its_dice() -> None:
    """Additional ruling (Q-POP): an industrial park on 1A with 1 industry tenant rolls min(industry, home)
    = min(6 centre + 3 own, 6 centre + 5 on 1I) = 9 dice."""
    state = set_plot(tutorial(), "1A", owner=0, building="industrial_park", tenants=("industry",))
    state = set_plot(state, "1I", building="apartment", tenants=("home",) * 5, for_sale=False)

    events, _ = run(in_attracting(state, first_player=0), 0, AttractTenants(plot="1A"))

    assert events == [AttractionStarted(seat=0, plot="1A", advertising=0, dice=9)]


def test_phase_5_markers_for_built_owned_or_feature_plots_go_back_to_the_box() -> None:
    """Additional ruling (Q-FS, C1): a phase 5 marker for a plot with a (sold) building, an owned plot or a
    feature plot is returned to the box and not replaced; one for a free plot is placed."""
    state = set_plot(tutorial(), "1A", building="house", tenants=("home",))  # sold earlier: unowned
    state = set_plot(state, "1B", owner=2)
    assert plot(state, "1F").feature == "woods"
    state = in_market(state, advertising_spent=3, plots_sold=1, marker_supply=("1A", "1B", "1C", "1F"))

    events, state = run(state, SYSTEM, ProcessMarket())

    drawn = {e.plot: e.placed for e in of(events, ForSaleMarkerDrawn)}
    assert drawn == {"1A": False, "1B": False, "1C": True, "1F": False}
    assert state.marker_supply == ()
    assert [n for n in ("1A", "1B", "1C", "1F") if plot(state, n).for_sale] == ["1C"]


def test_the_ais_automatic_sixes_are_modified_by_neighbour_penalties() -> None:
    """Additional ruling (Q-AIMOD): the AI treats every die as 6, then adds the modifier. Its house on 1E
    next to the airport (Home -1) and an industry tenant on 1H (Home -1) has dice 6 - 2 = 4 and attracts
    nobody (homes need 5s); its house on 1A (no home modifier) attracts one home tenant."""
    tiles = ("municipal_airport", "halestown", "morrell_grove", "matthews_yard", "ridgeway", "lyndal")
    human, ai = 0, 1
    state = started_with_tiles(tiles, 2, ai=True)
    state = set_plot(state, "1E", owner=ai, building="house", tenants=())
    state = set_plot(state, "1A", owner=ai, building="house", tenants=())
    state = set_plot(state, "1H", building="industrial_unit", tenants=("industry",))
    state = with_ai_built(in_attracting(state, first_player=human), "1E", "1A")

    events, state = run(state, human, FinishAttracting())
    more, state = advance(state)

    assert of(events + more, TenantsMovedIn) == [
        TenantsMovedIn(seat=ai, plot="1E", tenants=()),
        TenantsMovedIn(seat=ai, plot="1A", tenants=("home",)),
    ]
    assert plot(state, "1E").tenants == ()
    assert plot(state, "1A").tenants == ("home",)


@pytest.mark.parametrize(
    ("difficulty", "ai_value", "ai_amount"),
    [
        ("the_singularity", 3, 2400),
        ("robot_overlord", 2, 1600),
        ("generalised_ai", 1, 800),
        ("digital_assistant", 0, 0),
    ],
)
def test_the_ai_difficulty_modifier_applies_when_its_plots_are_liquidated_at_the_crash(
    difficulty: str, ai_value: int, ai_amount: int
) -> None:
    """Additional ruling (Q-AILIQ, §11.8): at the crash the AI's unbuilt plot is worth 1 + its difficulty
    modifier (T16: +2 / +1 / 0 / -1, floored at 0); the human's identical plot is worth 1. The discard's
    bottoms sum to -12: land price 20 -> 8 (800K)."""
    human, ai = 0, 1
    state = started(2, ai=True, difficulty=difficulty)
    state = set_plot(set_plot(state, "1A", owner=human, for_sale=False), "2A", owner=ai, for_sale=False)
    state = in_market(
        state, land_price=20, crash=0, risk_deck=(), risk_discard=("R01", "R02", "R03", "R04", "R05", "R06", "R07")
    )

    events = crash_now(state)

    assert of(events, PlotLiquidated) == [
        PlotLiquidated(seat=human, plot="1A", value=1, amount=800),
        PlotLiquidated(seat=ai, plot="2A", value=ai_value, amount=ai_amount),
    ]


# --- §17 interpretations Q-REBUY and Q-REBUILD ----------------------------------------------------------------


def test_a_sold_unbuilt_plot_can_be_bought_again() -> None:
    """Q-REBUY: after Vector sells the unbuilt 1A it is free land: buyable at double price next to Vector's
    1B, and a phase 5 marker drawn for it is placed."""
    state = set_plot(set_plot(tutorial(), "1A", owner=0, for_sale=False), "1B", owner=0, for_sale=False)
    _, state = sold(state, 0, "1A", land_price=5)
    assert plot(state, "1A").owner is None

    events, bought = run(in_actions(state, first_player=0), 0, BuyLand(plot="1A"))
    assert events[0] == LandBought(seat=0, plot="1A", price=1000, adjacent=True)
    assert plot(bought, "1A").owner == 0

    market = in_market(state, advertising_spent=3, plots_sold=1, marker_supply=("1A",))
    events, after = run(market, SYSTEM, ProcessMarket())
    assert of(events, ForSaleMarkerDrawn) == [ForSaleMarkerDrawn(plot="1A", placed=True)]
    assert plot(after, "1A").for_sale


def test_rebuilding_into_a_smaller_building_of_the_same_type_returns_the_excess_tenants() -> None:
    """Q-REBUILD (standard game): an apartment with 4 homes rebuilt as a house (capacity 1) keeps 1 home and
    returns 3 to the available area; the house costs 400K, no refund."""
    state = set_plot(tutorial(), "1A", owner=0, building="apartment", tenants=("home",) * 4)
    state = in_actions(state, first_player=0)
    available = state.available

    events, state = run(state, 0, Build(plot="1A", building="house"))

    assert events[0] == BuildingBuilt(seat=0, plot="1A", building="house", cost=400, returned=("home",) * 3)
    assert plot(state, "1A").tenants == ("home",)
    assert state.available == (available[HOME] + 3, *available[1:])
    assert state.seats[0].cash == 1600


def test_in_the_advanced_game_the_owner_chooses_which_tenants_a_smaller_rebuild_returns() -> None:
    """Q-REBUILD (advanced game): the owner keeps the professional couple and returns the family and the
    students, although the family pays the most rent."""
    kinds = CAT.kind_keys(advanced=True)
    state = started(2, advanced=True)
    state = set_plot(state, "1A", owner=0, building="apartment", tenants=("family", "professional_couple", "students"))
    state = in_actions(state, first_player=0)
    before = dict(zip(kinds, state.available, strict=True))

    events, state = run(state, 0, Build(plot="1A", building="house", returned=("family", "students")))

    assert events[0] == BuildingBuilt(seat=0, plot="1A", building="house", cost=400, returned=("family", "students"))
    assert plot(state, "1A").tenants == ("professional_couple",)
    after = dict(zip(kinds, state.available, strict=True))
    assert {k: after[k] - before[k] for k in kinds if after[k] != before[k]} == {"family": 1, "students": 1}
