"""The rulebook's worked examples (spec §14, rows A1-A22), each rebuilt as a concrete situation.

Every test names its row in the docstring and asserts the exact outcome the rulebook states.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

import pytest
from msgspec.structs import replace

from domain.kernel import SYSTEM
from domain.magnate import MagnateState, Phase
from domain.magnate.catalog import catalog
from domain.magnate.city import ALL_PLOTS, modifier
from domain.magnate.commands import (
    AttractTenants,
    ChooseTenants,
    PassBid,
    PlaceBid,
    ProcessMarket,
    RollDice,
    Sell,
    TakeAiTurn,
    UseAdvertising,
)
from domain.magnate.errors import InfeasibleTenants
from domain.magnate.events import (
    AiDieRolled,
    AttractionStarted,
    BidPassed,
    BidPlaced,
    DiceRolled,
    DiceSettled,
    FirstPlayerDecided,
    GameEnded,
    LandPriceMoved,
    MarketCrashed,
    PlotLiquidated,
    PlotSold,
    RentCollected,
    RiskCardDrawn,
    RoundStarted,
    TenantsMovedIn,
)

from .builders import (
    advance,
    given,
    in_actions,
    in_attracting,
    in_bidding,
    in_market,
    plot,
    run,
    set_plot,
    started,
    started_as,
    started_with_tiles,
    tutorial,
    with_ai_level,
)

CAT = catalog("v1")
E = TypeVar("E")

VECTOR, GREYFIELD, PENFORTH = 0, 1, 2
"""Seats in the tutorial (and in the 3-seat bidding example): Vector, Greyfield, Penforth Davey clockwise."""
URHME = 3
RIDGEWAY = 5
"""Ridgeway's position in the tutorial (§3.3)."""


def of(events: Sequence[object], kind: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, kind)]


def market(state: MagnateState) -> tuple[list[Any], MagnateState]:
    return run(state, SYSTEM, ProcessMarket())


def neutral_market(state: MagnateState, round_number: int = 2, **changes: Any) -> MagnateState:
    """A 5-seat tutorial market where no step draws a card or moves the price unless ``changes`` say so:
    all four tenant types available, land price green (position 4), moderate advertising (3), one sale."""
    defaults: dict[str, Any] = {"advertising_spent": 3, "plots_sold": 1}
    return in_market(state, round_number, **(defaults | changes))


def risk_reasons(events: Sequence[object]) -> list[str]:
    return [e.reason for e in of(events, RiskCardDrawn)]


# --- A1-A2: bid for turn order (§5) -----------------------------------------------------------------------


def test_greyfield_wins_the_three_seat_auction_with_400k_and_pays_it() -> None:
    """A1: Vector was first; opener Greyfield 100K, Penforth passes, Vector 300K, Greyfield 400K, Penforth is
    skipped, Vector passes -> Greyfield pays 400K and is first player."""
    state = in_bidding(started_as("vector_properties", "greyfield", "penforth_davey"), opener=GREYFIELD)
    assert [s.company for s in state.seats] == ["vector_properties", "greyfield", "penforth_davey"]

    _, state = run(state, GREYFIELD, PlaceBid(amount=100))
    _, state = run(state, PENFORTH, PassBid())
    _, state = run(state, VECTOR, PlaceBid(amount=300))
    _, state = run(state, GREYFIELD, PlaceBid(amount=400))
    assert state.auction is not None and state.auction.turn == VECTOR  # Penforth has passed: skipped
    events, state = run(state, VECTOR, PassBid())

    assert of(events, FirstPlayerDecided) == [FirstPlayerDecided(seat=GREYFIELD, paid=400)]
    assert state.first_player == GREYFIELD
    assert [s.cash for s in state.seats] == [2000, 1600, 2000]


def test_when_every_seat_passes_without_a_bid_the_opener_keeps_the_first_player_marker_for_free() -> None:
    """A2: all seats pass without a bid -> the opener keeps the marker."""
    state = in_bidding(started_as("vector_properties", "greyfield", "penforth_davey"), opener=PENFORTH)

    _, state = run(state, PENFORTH, PassBid())
    _, state = run(state, VECTOR, PassBid())
    events, state = run(state, GREYFIELD, PassBid())

    assert of(events, FirstPlayerDecided) == [FirstPlayerDecided(seat=PENFORTH, paid=0)]
    assert state.first_player == PENFORTH
    assert [s.cash for s in state.seats] == [2000, 2000, 2000]


# --- A3-A7: attraction and neighbour effects (§6) ---------------------------------------------------------


def greyfield_apartment_in_ridgeway() -> MagnateState:
    """The tutorial board with Greyfield's empty apartment on 5F (next to the woods on 5C and an industry
    tenant on 5I). Nearby Ridgeway (tiles 0, 4, 5, 6): offices 2 centre + 1 on 4E = 9 population; retail
    4 centre + 2 on 5A = 6. Tenants on tiles 2 and 3, which are not nearby, must be ignored."""
    state = tutorial()
    state = set_plot(state, "5F", owner=GREYFIELD, building="apartment", tenants=())
    state = set_plot(state, "4E", building="small_office", tenants=("office",))
    state = set_plot(state, "5A", building="retail_unit", tenants=("retail", "retail"))
    state = set_plot(state, "5I", building="industrial_unit", tenants=("industry",))
    state = set_plot(state, "3B", building="retail_unit", tenants=("retail", "retail"))
    return set_plot(state, "2E", building="small_office", tenants=("office",))


def test_greyfields_apartment_in_ridgeway_rolls_six_dice_the_lower_of_office_9_and_retail_6() -> None:
    """A3: home building in Ridgeway; nearby office population 9, retail population 6 -> 6 dice."""
    state = in_attracting(greyfield_apartment_in_ridgeway(), first_player=GREYFIELD)

    events, _ = run(state, GREYFIELD, AttractTenants(plot="5F"))

    assert events == [AttractionStarted(seat=GREYFIELD, plot="5F", advertising=0, dice=6)]


def test_two_advertising_tokens_turn_the_1_and_a_2_into_5s_and_two_home_tenants_move_in() -> None:
    """A4: dice 1,2,2,4,5,6; two tokens turn 1 and 2 into 5s; modifiers +1 (woods) -1 (industry tenant)
    -> final 2,4,5,5,5,6 -> 2 home tenants; the 2 tokens go to the round's advertising spent."""
    state = in_attracting(greyfield_apartment_in_ridgeway(), first_player=GREYFIELD)
    spent_before = state.advertising_spent
    available_home = state.available[0]

    events, state = run(state, GREYFIELD, AttractTenants(plot="5F", advertising=2))
    assert events == [AttractionStarted(seat=GREYFIELD, plot="5F", advertising=2, dice=6)]
    state = given(state, DiceRolled(seat=GREYFIELD, plot="5F", faces=(1, 2, 2, 4, 5, 6)))
    events, state = run(state, GREYFIELD, UseAdvertising(dice=(0, 1)))

    [settled] = of(events, DiceSettled)
    assert settled.modifier == 0
    assert sorted(settled.final) == [2, 4, 5, 5, 5, 6]
    assert of(events, TenantsMovedIn) == [TenantsMovedIn(seat=GREYFIELD, plot="5F", tenants=("home", "home"))]
    assert plot(state, "5F").tenants == ("home", "home")
    assert state.available[0] == available_home - 2
    assert state.advertising_spent == spent_before + 2
    assert state.seats[GREYFIELD].advertising == 2
    assert RentCollected(seat=GREYFIELD, amount=600) in events


def test_ridgeways_woods_favour_homes_on_b_e_f_and_its_car_park_favours_retail_on_a_b_e_g_h() -> None:
    """A5: Ridgeway, woods on C (Home +1) and car park on D (Retail +1): retail bonus on A, B, E, G, H;
    home bonus on B, E, F; nothing on I."""
    state = tutorial()
    assert state.neighbourhoods[RIDGEWAY - 1] == "ridgeway"

    home = {letter: modifier(state, f"{RIDGEWAY}{letter}", "home") for letter in "ABEFGHI"}
    retail = {letter: modifier(state, f"{RIDGEWAY}{letter}", "retail") for letter in "ABEFGHI"}

    assert home == {"A": 0, "B": 1, "E": 1, "F": 1, "G": 0, "H": 0, "I": 0}
    assert retail == {"A": 1, "B": 1, "E": 1, "F": 0, "G": 1, "H": 1, "I": 0}
    assert all(modifier(state, f"{RIDGEWAY}{letter}", t) == 0 for letter in "ABEFGHI" for t in ("office", "industry"))


def test_vectors_house_with_two_home_bonuses_and_an_adjacent_industry_tenant_adds_one_to_every_die() -> None:
    """A6: a house with two different home-bonus sources (+2) and one industry tenant (-1) adjacent -> net +1;
    a retail bonus next to the house (office tenant) does nothing. Lyndal (6): woods on A, playground on F."""
    state = tutorial()
    state = set_plot(state, "6E", owner=VECTOR, building="house", tenants=())
    state = set_plot(state, "6H", building="industrial_unit", tenants=("industry",))
    state = set_plot(state, "6I", building="small_office", tenants=("office",))
    state = in_attracting(state, first_player=VECTOR)

    _, state = run(state, VECTOR, AttractTenants(plot="6E"))
    events, _ = run(state, SYSTEM, RollDice())

    [rolled] = of(events, DiceRolled)
    [settled] = of(events, DiceSettled)
    assert settled.modifier == 1
    assert settled.final == tuple(face + 1 for face in rolled.faces)


def test_urhmes_office_next_to_several_retail_tenants_gets_plus_one_only_once() -> None:
    """A7: an office next to several retail tenants (standard game) -> +1 only."""
    state = tutorial()
    state = set_plot(state, "1E", owner=URHME, building="small_office", tenants=())
    state = set_plot(state, "1A", building="retail_unit", tenants=("retail", "retail"))
    state = set_plot(state, "1D", building="retail_unit", tenants=("retail", "retail"))
    state = set_plot(state, "1H", building="retail_unit", tenants=("retail",))
    state = in_attracting(state, first_player=URHME)

    _, state = run(state, URHME, AttractTenants(plot="1E"))
    events, _ = run(state, SYSTEM, RollDice())

    [rolled] = of(events, DiceRolled)
    [settled] = of(events, DiceSettled)
    assert settled.modifier == 1
    assert settled.final == tuple(face + 1 for face in rolled.faces)


# --- A8-A10: selling (§7.5) -------------------------------------------------------------------------------


def test_a_superior_office_with_two_offices_next_to_the_airport_offices_and_retail_sells_for_12m() -> None:
    """A8: superior office block with 2 office tenants, adjacent to the airport, office tenants and retail
    tenants: 1 + 1 + 6 + 3 + 1 = 12; at land price 1M (position 10) -> 12M; the second sale of the round."""
    state = tutorial()  # Municipal Airport at position 3: airport on C and F
    state = set_plot(
        state, "3E", owner=VECTOR, building="superior_office", tenants=("office", "office"), for_sale=False
    )
    state = set_plot(state, "3B", building="small_office", tenants=("office",))
    state = set_plot(state, "3D", building="retail_unit", tenants=("retail", "retail"))
    state = replace(in_actions(state, first_player=VECTOR), land_price=10, plots_sold=1)
    assert CAT.price(10) == 1000

    events, state = run(state, VECTOR, Sell(plot="3E"))

    assert events[0] == PlotSold(seat=VECTOR, plot="3E", value=12, amount=12000)
    assert state.seats[VECTOR].cash == 2000 + 12000
    assert plot(state, "3E").owner is None
    assert plot(state, "3E").building == "superior_office"
    assert plot(state, "3E").tenants == ("office", "office")
    assert state.plots_sold == 2


def test_an_unbuilt_plot_sold_at_land_price_500k_is_worth_1_and_pays_500k() -> None:
    """A9: sell an unbuilt plot at land price 500K (position 5) -> value 1 -> 500K."""
    state = set_plot(tutorial(), "1A", owner=VECTOR)
    state = replace(in_actions(state, first_player=VECTOR), land_price=5)

    events, state = run(state, VECTOR, Sell(plot="1A"))

    assert events[0] == PlotSold(seat=VECTOR, plot="1A", value=1, amount=500)
    assert state.seats[VECTOR].cash == 2500


def test_a_built_plot_worth_minus_one_sells_for_nothing_but_is_still_sold() -> None:
    """A10: a built plot whose value computes to -1 -> receives 0; the plot becomes unowned; it counts as a
    sale. Advanced game, empty house next to the airport (Home -1), a small factory (-1) and a chemical
    plant (-1): 1 + 1 - 3 = -1."""
    tiles = ("municipal_airport", "halestown", "morrell_grove", "matthews_yard", "ridgeway", "lyndal")
    state = started_with_tiles(tiles, seats=2, advanced=True)
    state = set_plot(state, "1E", owner=0, building="house", tenants=())
    state = set_plot(state, "1B", building="industrial_unit", tenants=("small_factory",))
    state = set_plot(state, "1D", building="industrial_unit", tenants=("chemical_plant",))
    state = replace(in_actions(state, first_player=0), land_price=10)

    events, state = run(state, 0, Sell(plot="1E"))

    assert events[0] == PlotSold(seat=0, plot="1E", value=0, amount=0)
    assert state.seats[0].cash == 2000
    assert plot(state, "1E").owner is None
    assert plot(state, "1E").building == "house"
    assert state.plots_sold == 1


# --- A11-A15, A19, A21-A22: the property market and the crash (§8-§10) -------------------------------------


def test_a_risk_card_with_top_minus_three_moves_the_crash_marker_from_8_to_5() -> None:
    """A11: a risk card with top -3 drawn with the crash marker at 8 -> marker to 5. The only card drawn is
    the plots-sold space 0 card (no sale this round); every card left in the deck has top -3."""
    state = neutral_market(tutorial(), plots_sold=0, crash=8, risk_deck=("R16", "R17", "R18", "R19"))

    events, state = market(state)

    [drawn] = of(events, RiskCardDrawn)
    assert drawn.crash == 5
    assert drawn.reason == "plots_sold"
    assert state.crash == 5
    assert state.risk_discard == (drawn.card,)


def test_the_solo_ai_at_level_three_bids_1_7m_at_land_price_1_1m_and_passes_once_outbid() -> None:
    """A12: solo game, AI level III, land price 1.1M -> the AI bids 1.5 x 1.1M = 1.65M rounded up to 1.7M and
    takes the marker without paying; when the human bids 1.8M the AI passes (it bids at most once a round)."""
    human, ai = 0, 1
    state = replace(with_ai_level(started(2, ai=True), 3), land_price=11)

    events, after = advance(in_bidding(state, opener=ai))
    assert of(events, BidPlaced) == [BidPlaced(seat=ai, amount=1700)]
    events, after = run(after, human, PassBid())
    assert of(events, FirstPlayerDecided) == [FirstPlayerDecided(seat=ai, paid=0)]
    assert after.seats[ai].cash == 2000

    events, after = run(in_bidding(state, opener=human), human, PlaceBid(amount=1800))
    more, after = advance(after)
    assert [e for e in events + more if isinstance(e, BidPlaced | BidPassed | FirstPlayerDecided)] == [
        BidPlaced(seat=human, amount=1800),
        BidPassed(seat=ai),
        FirstPlayerDecided(seat=human, paid=1800),
    ]

    events, after = run(in_bidding(state, opener=human), human, PlaceBid(amount=1000))
    more, after = advance(after)
    assert of(events + more, BidPlaced) == [BidPlaced(seat=human, amount=1000), BidPlaced(seat=ai, amount=1700)]
    events, after = run(after, human, PlaceBid(amount=1800))
    more, after = advance(after)
    assert of(events + more, BidPassed) == [BidPassed(seat=ai)]
    assert of(events + more, FirstPlayerDecided) == [FirstPlayerDecided(seat=human, paid=1800)]


def test_a_five_seat_round_without_sales_raises_the_price_one_step_and_draws_one_card_but_none_in_round_1() -> None:
    """A13: 5-player round with 0 plots sold, round >= 2 -> land price +1 position and 1 risk card; in round 1:
    +1 and no card."""
    events, state = market(neutral_market(tutorial(), round_number=2, plots_sold=0))
    assert of(events, LandPriceMoved) == [LandPriceMoved(reason="plots_sold", position=5)]
    assert risk_reasons(events) == ["plots_sold"]
    assert len(state.risk_discard) == 1

    events, state = market(neutral_market(tutorial(), round_number=1, plots_sold=0))
    assert of(events, LandPriceMoved) == [LandPriceMoved(reason="plots_sold", position=5)]
    assert of(events, RiskCardDrawn) == []
    assert state.risk_discard == ()


def test_a_five_seat_round_with_two_sales_raises_the_land_price_two_steps_and_draws_no_card() -> None:
    """A14: 5-player round with 2 plots sold -> land price +2, no card."""
    events, state = market(neutral_market(tutorial(), plots_sold=2))

    assert of(events, LandPriceMoved) == [LandPriceMoved(reason="plots_sold", position=6)]
    assert of(events, RiskCardDrawn) == []
    assert state.crash == 8


def test_only_one_tenant_type_available_draws_five_risk_cards_on_the_five_seat_board() -> None:
    """A15: 5-player board, phase 4 step 1 with only one tenant type (home) available -> 5 risk cards."""
    state = neutral_market(tutorial(), available=(6, 0, 0, 0))

    events, _ = market(state)

    assert risk_reasons(events) == ["available_tenants"] * 5


def test_advanced_apartment_dice_4_4_6_6_6_6_may_take_a_student_a_professional_couple_and_a_family() -> None:
    """A16: advanced apartment, final dice 4,4,6,6,6,6 -> may take students + family + professional couple
    (also students + students + family; couple + couple + family is infeasible)."""
    base = started(2, advanced=True)
    kinds = CAT.kind_keys(advanced=True)
    two_each = {"students": 2, "professional_couple": 2, "family": 2}
    base = replace(base, available=tuple(two_each.get(k, 0) for k in kinds))
    base = set_plot(base, "1E", owner=0, building="apartment", tenants=(), for_sale=False)
    final = (4, 4, 6, 6, 6, 6)
    base = given(
        in_attracting(base, first_player=0),
        AttractionStarted(seat=0, plot="1E", advertising=0, dice=6),
        DiceRolled(seat=0, plot="1E", faces=final),
        DiceSettled(seat=0, plot="1E", fives=(), modifier=0, final=final),
    )

    events, state = run(base, 0, ChooseTenants(tenants=("students", "professional_couple", "family")))
    assert events[0] == TenantsMovedIn(seat=0, plot="1E", tenants=("family", "professional_couple", "students"))
    assert plot(state, "1E").tenants == ("family", "professional_couple", "students")

    events, _ = run(base, 0, ChooseTenants(tenants=("students", "students", "family")))
    assert events[0] == TenantsMovedIn(seat=0, plot="1E", tenants=("family", "students", "students"))

    with pytest.raises(InfeasibleTenants):
        run(base, 0, ChooseTenants(tenants=("professional_couple", "professional_couple", "family")))


def test_on_the_nature_reserve_a_home_gets_plus_one_on_every_buildable_plot_except_g() -> None:
    """A17: Nature Reserve tile (features B, C, F): a home on any buildable plot except G gets +1 from the
    reserve; a home on G gets nothing from it."""
    tiles = ("halestown", "nature_reserve", "morrell_grove", "matthews_yard", "ridgeway", "lyndal")
    state = started_with_tiles(tiles)

    home = {letter: modifier(state, f"2{letter}", "home") for letter in "ADEGHI"}

    assert home == {"A": 1, "D": 1, "E": 1, "G": 0, "H": 1, "I": 1}


def test_the_ai_breaks_a_three_way_tie_on_a_die_showing_3_in_favour_of_the_second_candidate() -> None:
    """A18: AI tie between 3 plots, the die shows 3 -> the second plot (the rulebooks' "2-4" for the second
    candidate is a misprint, resolved as 3-4: 1-2 first, 3-4 second, 5-6 third, §11.7). The AI's first action
    buys land; 1A, 2I and 3I are for sale with no bonus arrow each, so they tie (ordered by coordinate). Each
    chance stream version gives one deterministic roll; every roll must follow the table."""
    ai = 1
    tiles = ("halestown", "morrell_grove", "matthews_yard", "ridgeway", "lyndal", "train_station")
    state = started_with_tiles(tiles, 2, ai=True)
    for name in ("1A", "2I", "3I"):
        state = set_plot(state, name, for_sale=True)
    state = in_actions(state, first_player=ai)
    table = {1: "1A", 2: "1A", 3: "2I", 4: "2I", 5: "3I", 6: "3I"}

    seen: set[int] = set()
    for version in range(1, 13):
        events, after = run(state, SYSTEM, TakeAiTurn(), version=version)
        [die] = of(events, AiDieRolled)
        [face] = die.faces
        assert die.candidates == ("1A", "2I", "3I")
        assert die.chosen == table[face]
        assert [n for n in ("1A", "2I", "3I") if plot(after, n).owner == ai] == [table[face]]
        seen.add(face)
    assert 3 in seen


def test_round_one_with_no_advertising_draws_no_risk_card_and_step_3_leaves_the_land_price_alone() -> None:
    """A19: round 1, advertising spent 0 on the 5-player board -> no risk card (round-1 rule); the land price
    is unchanged by step 3 (it moves only on the plots-sold track)."""
    state = neutral_market(tutorial(), round_number=1, advertising_spent=0, plots_sold=0)

    events, state = market(state)

    assert of(events, RiskCardDrawn) == []
    assert of(events, LandPriceMoved) == [LandPriceMoved(reason="plots_sold", position=5)]
    assert state.crash == 8
    assert state.risk_discard == ()


def test_the_tutorial_setup_has_crash_8_land_price_300k_the_twelve_listed_plots_for_sale_and_vector_first() -> None:
    """A20: tutorial setup -> crash marker at 8, land price position 4, the 12 listed plots for sale, Vector
    first (§3.3)."""
    state = tutorial()
    listed = {"1D", "1H", "1I", "2A", "2C", "3E", "3H", "3I", "5E", "5H", "6B", "6H"}

    assert state.crash == 8
    assert state.land_price == 4
    assert CAT.price(state.land_price) == 300
    assert {name for name in ALL_PLOTS if plot(state, name).for_sale} == listed
    assert len(state.marker_supply) == 42
    assert not listed & set(state.marker_supply)
    assert [s.company for s in state.seats] == [
        "vector_properties",
        "greyfield",
        "penforth_davey",
        "urhme",
        "humble_foundation",
    ]
    assert state.seats[state.first_player].company == "vector_properties"
    assert state.auction is not None and state.auction.opener == VECTOR
    assert state.neighbourhoods == (
        "halestown",
        "morrell_grove",
        "municipal_airport",
        "matthews_yard",
        "ridgeway",
        "lyndal",
    )
    assert state.available == (6, 6, 2, 2)
    assert all((s.cash, s.advertising) == (2000, 4) for s in state.seats)


def test_a_first_round_without_sales_takes_the_land_price_from_position_4_to_5_worth_500k() -> None:
    """A21: land price starts at position 4 and round 1 ends with no sale -> position 5 = 500K."""
    state = in_market(tutorial(), round_number=1)
    assert (state.land_price, state.plots_sold) == (4, 0)

    events, state = market(state)

    assert state.land_price == 5
    assert CAT.price(state.land_price) == 500
    assert events[-1] == RoundStarted(round=2, opener=GREYFIELD)


def test_a_crash_with_bottoms_summing_to_minus_12_drops_the_price_from_20_to_8_and_liquidates_at_800k() -> None:
    """A22: crash with discard-pile bottoms summing to -12 from land price position 20 -> position 8 (800K);
    every owned plot is liquidated at 800K. The discard's tops sum to -10 (crash marker 10 -> 0); this
    round's sold-track space 0 takes the price from 19 to 20 first, and the empty deck draws nothing."""
    discard = ("R01", "R02", "R03", "R04", "R13", "R14", "R16", "R17")
    assert sum(CAT.risk_cards[c].bottom for c in discard) == -12
    assert sum(CAT.risk_cards[c].top for c in discard) == -10
    state = tutorial()
    state = set_plot(state, "1I", owner=VECTOR, for_sale=False)
    state = set_plot(state, "1A", owner=GREYFIELD, building="house", tenants=("home",))
    state = in_market(
        state, land_price=19, crash=0, plots_sold=0, advertising_spent=3, risk_deck=(), risk_discard=discard
    )

    events, state = market(state)

    assert of(events, LandPriceMoved) == [LandPriceMoved(reason="plots_sold", position=20)]
    assert of(events, MarketCrashed) == [MarketCrashed(depth=12, land_price=8)]
    assert CAT.price(8) == 800
    assert of(events, PlotLiquidated) == [
        PlotLiquidated(seat=GREYFIELD, plot="1A", value=3, amount=2400),
        PlotLiquidated(seat=VECTOR, plot="1I", value=1, amount=800),
    ]
    assert of(events, GameEnded) == [GameEnded(cash=(2800, 4400, 2000, 2000, 2000), winners=(GREYFIELD,))]
    assert state.phase == Phase.ENDED
    assert all(p.owner is None for p in state.plots)
