"""The AI building (spec §11.6 Build, T14): which plot, which type (best net modifier, then the most available
population, then the die) and which building its level allows. Situations: :mod:`.ai_situations`."""

from __future__ import annotations

import pytest

from domain.magnate.events import AiDieRolled, AiHoldingsChanged, BuildingBuilt

from .ai_situations import AI, CAT, ai_action, ai_board, built, detail, of, solo, unbuilt
from .builders import set_available, set_cash

TYPES = ("home", "retail", "office", "industry")
"""The order in which the die breaks a tie between building types (§11.6 Build step 2)."""


def test_the_ai_builds_on_the_leftmost_occupied_bottom_slot_free_and_moves_it_to_the_top_row_end() -> None:
    """§11.6 Build steps 1, 3, 4: slot order, not coordinates (3A before 1A); no cost, even with no cash;
    the marker goes to the right end of the top row; the emptied slot stays."""
    state = set_cash(built(unbuilt(solo(), None, "3A", "1A"), ("3H", "house", ())), AI, 0)

    events, after = ai_action(state, "AI-I-04")

    assert of(events, BuildingBuilt) == [BuildingBuilt(seat=AI, plot="3A", building="retail_unit", cost=0, returned=())]
    assert of(events, AiHoldingsChanged) == [
        AiHoldingsChanged(seat=AI, bottom_row=(None, None, "1A"), top_row=("3H", "3A"))
    ]
    assert detail(events, "build").reason == "3A: best net bonus +1 → retail: retail_unit"
    assert after.seats[AI].cash == 0


@pytest.mark.parametrize(
    ("name", "level", "building"),
    [
        ("3A", 1, "retail_unit"),
        ("3A", 2, "retail_unit"),
        ("3A", 3, "shopping_mall"),
        ("3A", 4, "shopping_mall"),
        ("2B", 1, "small_office"),
        ("2B", 3, "small_office"),
        ("2B", 4, "superior_office"),
        ("4D", 1, "industrial_unit"),
        ("4D", 2, "industrial_unit"),
        ("4D", 3, "industrial_park"),
    ],
)
def test_the_ai_builds_the_type_with_the_best_net_modifier_and_the_dearest_building_its_level_allows(
    name: str, level: int, building: str
) -> None:
    """§11.6 Build steps 2-3, T14: 3A (car park) -> retail; 2B (airport: Office +1 beats Home -1) -> office;
    4D (industrial car park) -> industry; the most expensive building of that type within the level's
    maximum cost (I 2M, II 3M, III 4.5M, IV 6M)."""
    state = ai_board(unbuilt(solo(), name), level=level)
    card = {1: "AI-I-04", 2: "AI-II-05", 3: "AI-III-06", 4: "AI-IV-05"}[level]

    events, _ = ai_action(state, card)

    assert [e.building for e in of(events, BuildingBuilt)] == [building]


def test_a_home_plot_gets_an_apartment_from_level_ii() -> None:
    """T14: a home plot (4C, next to the woods) gets a house at level I and an apartment (3M) from level II."""
    for level, building in ((1, "house"), (2, "apartment")):
        state = ai_board(unbuilt(solo(), "4C"), level=level)
        events, _ = ai_action(state, {1: "AI-I-04", 2: "AI-II-05"}[level])
        assert [e.building for e in of(events, BuildingBuilt)] == [building]


@pytest.mark.parametrize(
    ("name", "available", "chosen", "population"),
    [
        ("1A", {"home": 2, "office": 1}, "office", 3),  # population, not token count: 1 office = 3
        ("1A", {"home": 4, "office": 1}, "home", 4),
        ("2E", {"retail": 2, "office": 1, "industry": 0}, "office", 3),  # three types tie at +1
        ("2E", {"retail": 4, "office": 1, "industry": 1}, "retail", 4),
    ],
)
def test_a_modifier_tie_goes_to_the_type_with_the_most_available_population(
    name: str, available: dict[str, int], chosen: str, population: int
) -> None:
    """§11.6 Build step 2: tied net modifiers -> the most total population of that type in the available
    area (Home 1, Retail 1, Office 3, Industry 3 per token). 1A: Home +1, Office +1; 2E: Retail, Office and
    Industry +1 (Home -1)."""
    state = set_available(unbuilt(solo(), name), **available)

    events, _ = ai_action(state, "AI-I-04")

    building = {"home": "house", "retail": "retail_unit", "office": "small_office", "industry": "industrial_unit"}
    assert [e.building for e in of(events, BuildingBuilt)] == [building[chosen]]
    assert detail(events, "build").reason == (
        f"{name}: best net bonus +1, most available population {population} → {chosen}: {building[chosen]}"
    )
    assert of(events, AiDieRolled) == []


def test_a_full_type_tie_is_broken_by_the_die_in_home_retail_office_industry_order() -> None:
    """§11.6 Build step 2, §11.7: 3I has no modifier and nothing is available -> all four types tie; the die
    picks face 1-4, 5 and 6 roll again (each roll recorded)."""
    state = set_available(unbuilt(solo(), "3I"))
    rerolled = False
    seen: set[str] = set()
    for version in range(1, 40):
        events, _ = ai_action(state, "AI-I-04", version=version)
        [die] = of(events, AiDieRolled)
        assert (die.purpose, die.candidates) == ("building type", TYPES)
        *again, face = die.faces
        assert set(again) <= {5, 6} and 1 <= face <= 4
        rerolled |= bool(again)
        assert die.chosen == TYPES[face - 1]
        [building] = of(events, BuildingBuilt)
        assert CAT.buildings[building.building].tenant_type == die.chosen
        seen.add(die.chosen)
    assert rerolled and seen == set(TYPES)


def test_a_two_type_tie_is_broken_by_the_die_in_type_order() -> None:
    """§11.6 Build step 2, §11.7: 1A (Home +1, Office +1) with equal available population (3 homes = 1
    office) -> candidates (home, office); faces 1-3 home, 4-6 office."""
    state = set_available(unbuilt(solo(), "1A"), home=3, office=1)
    for version in range(1, 13):
        events, _ = ai_action(state, "AI-I-04", version=version)
        [die] = of(events, AiDieRolled)
        assert die.candidates == ("home", "office")
        assert die.chosen == ("home" if die.faces[0] <= 3 else "office")
