"""The AI's phase 2 turn (spec §11.4): every die a six plus the modifiers, the hardest tenants first in the
advanced game, its advertising icon, and no rent. Situations: :mod:`.ai_situations`."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from domain.kernel import Chance
from domain.magnate import MagnateState
from domain.magnate.ai.attraction import hardest_first
from domain.magnate.events import (
    AiAdvertised,
    AiDieRolled,
    AttractionStarted,
    DiceRolled,
    DiceSettled,
    RentCollected,
    TenantsMovedIn,
)

from .ai_situations import AI, CAT, ai_attracts, ai_board, built, detail, of, solo
from .builders import plot, set_available, set_plot
from .catalogs import V1, v1_with_subtypes


def test_the_ai_attracts_to_every_top_row_building_below_capacity_in_top_row_order() -> None:
    """§11.4 step 1: left to right along the top row (not coordinate order); a full building is skipped. It
    rolls nothing: no DiceRolled, no tie-break die."""
    state = built(solo(), ("3A", "retail_unit", ()), ("3I", "house", ("home",)), ("1A", "house", ()))

    events, _ = ai_attracts(state)

    assert [e.plot for e in of(events, AttractionStarted)] == ["3A", "1A"]
    assert of(events, DiceRolled) == []
    assert of(events, AiDieRolled) == []


def test_every_ai_die_counts_as_a_six_plus_the_modifiers_with_standard_set_counting() -> None:
    """§11.4 steps 2-3: a shopping mall on 3A (car park: Retail +1; building bonus +1) rolls the normal
    number of dice (home population nearby = the centre's 6), all 6 + 2 = 8; retail needs 2 dice >= 4, so 3
    sets; room 6 and 4 retail available -> 3 tenants."""
    state = built(solo(), ("3A", "shopping_mall", ()))

    events, after = ai_attracts(state)

    assert of(events, AttractionStarted) == [AttractionStarted(seat=AI, plot="3A", advertising=0, dice=6)]
    assert of(events, DiceSettled) == [DiceSettled(seat=AI, plot="3A", fives=(), modifier=2, final=(8,) * 6)]
    assert of(events, TenantsMovedIn) == [TenantsMovedIn(seat=AI, plot="3A", tenants=("retail",) * 3)]
    assert detail(events, "attract").reason == "3A: 6 dice as 6+2 = 8: 3 set(s), room for 6 → 3 tenant(s)"
    assert plot(after, "3A").tenants == ("retail",) * 3


@pytest.mark.parametrize(("home_tokens", "tenants"), [(0, 0), (2, 0), (3, 1), (5, 1), (6, 2)])
def test_the_ai_rolls_only_as_many_sixes_as_the_nearby_population_allows(home_tokens: int, tenants: int) -> None:
    """§11.4 step 2 with §6.2: an office rolls one die per nearby home population; offices need 3 dice >= 5,
    so sixes only help in threes. The home population is set on the centre's apartments."""
    state = built(solo(), ("3I", "superior_office", ()))
    state = set_plot(state, "0H", tenants=("home",) * min(home_tokens, 3))
    state = set_plot(state, "0I", tenants=("home",) * max(0, home_tokens - 3))
    state = set_available(state, home=4, retail=4, office=3, industry=1)

    events, _ = ai_attracts(state)

    [started_] = of(events, AttractionStarted)
    assert started_.dice == home_tokens
    assert of(events, TenantsMovedIn) == [TenantsMovedIn(seat=AI, plot="3I", tenants=("office",) * tenants)]


@pytest.mark.parametrize(
    ("building", "available", "moved"),
    [("retail_unit", 4, 2), ("shopping_mall", 1, 1), ("shopping_mall", 0, 0)],
    ids=["capacity", "availability", "none-available"],
)
def test_ai_tenants_are_limited_by_capacity_and_availability(building: str, available: int, moved: int) -> None:
    """§11.4 step 3 / §6.4: 3 sets, but a retail unit has room for 2, and only the available tokens move."""
    state = set_available(built(solo(), ("3A", building, ())), home=4, retail=available, office=1, industry=1)

    events, _ = ai_attracts(state)

    assert of(events, TenantsMovedIn) == [TenantsMovedIn(seat=AI, plot="3A", tenants=("retail",) * moved)]


def advanced_apartment(boutiques: int, penalty: bool = False) -> MagnateState:
    """Advanced game: an AI apartment on 4A (no home modifier); the retail population nearby is the centre's 4
    plus ``boutiques`` (on 4I, no effects), so it rolls min(office 6, retail) dice; a small factory on 4B
    (Home -1) lowers every die to 5."""
    state = solo(advanced=True)
    state = set_plot(state, "4I", building="shopping_mall", tenants=("boutique",) * boutiques)
    if penalty:
        state = set_plot(state, "4B", building="industrial_unit", tenants=("small_factory",))
    state = built(state, ("4A", "apartment", ()))
    return set_available(state, students=5, professional_couple=1, family=1)


@pytest.mark.parametrize(
    ("boutiques", "penalty", "tenants"),
    [
        (2, False, ("family", "professional_couple", "students")),
        (1, False, ("family", "professional_couple")),
        (2, True, ("professional_couple", "students", "students")),
    ],
    ids=["6-dice-of-6", "5-dice-of-6", "6-dice-of-5"],
)
def test_advanced_ai_takes_the_hardest_subtype_first_while_dice_and_room_last(
    boutiques: int, penalty: bool, tenants: tuple[str, ...]
) -> None:
    """§11.4 step 4: repeatedly the hardest available subtype the dice allow (family 2x>=6 before couple
    2x>=5 before students 2x>=4), consuming k dice each; with 5 dice one die is left over; with dice of 5
    the family does not qualify."""
    events, after = ai_attracts(advanced_apartment(boutiques, penalty))

    [moved] = of(events, TenantsMovedIn)
    assert sorted(moved.tenants) == sorted(tenants)
    assert sorted(plot(after, "4A").tenants) == sorted(tenants)
    value = 5 if penalty else 6
    dice = 4 + boutiques
    assert detail(events, "attract").reason == (
        f"4A: {dice} dice as 6{value - 6:+d} = {value}: hardest tenants first → {len(tenants)} tenant(s)"
    )


APARTMENT = {"value": 6, "dice": 5, "room": 5}
"""The AI's apartment of :func:`advanced_apartment` with one boutique: 5 dice, all sixes, room for 5 tenants."""


def test_the_ai_turn_takes_the_tenants_hardest_first_chooses() -> None:
    """The public choice (:func:`hardest_first`, given the game's catalogue) is the one the AI's turn makes."""
    available = {"students": 5, "professional_couple": 1, "family": 1}

    events, _ = ai_attracts(set_available(advanced_apartment(1), **available))

    chosen, rolls = hardest_first(CAT.kinds, available, **APARTMENT, chance=Chance(b"unused", 1), seat=AI)
    assert (chosen, rolls) == (("family", "professional_couple"), ())
    assert of(events, TenantsMovedIn) == [TenantsMovedIn(seat=AI, plot="4A", tenants=tuple(sorted(chosen)))]


@pytest.mark.parametrize(("couple_rent", "first"), [(300, "family"), (700, "professional_couple")])
def test_advanced_ai_breaks_a_requirement_tie_by_the_highest_rent(couple_rent: int, first: str) -> None:
    """§11.4 step 4: same (t, k) -> the higher rent first; no die is rolled. A test catalogue makes the couple as
    hard as the family (2x>=6): at rent 300 the family (500) comes first, at 700 the couple; then the other."""
    family = V1.tenant_subtypes["family"]
    cat = v1_with_subtypes(professional_couple={"requirement": family.requirement, "rent": couple_rent})
    available = {"students": 5, "professional_couple": 1, "family": 1}

    chosen, rolls = hardest_first(cat.kinds, available, **APARTMENT, chance=Chance(b"rent-tie", 1), seat=AI)

    assert rolls == ()
    assert chosen == (first, ({"family", "professional_couple"} - {first}).pop())


def test_advanced_ai_breaks_a_full_tie_with_the_die_in_t3_order() -> None:
    """§11.4 step 4: same (t, k) and rent -> the die (§11.7) among the tied subtypes in T3 order (couple before
    family, whatever order the available counts come in). One token of each: the die picks the first, the other
    follows; both are picked over the chance versions."""
    family = V1.tenant_subtypes["family"]
    cat = v1_with_subtypes(professional_couple={"requirement": family.requirement, "rent": family.rent})
    available = {"family": 1, "professional_couple": 1, "students": 5}
    tied = ("professional_couple", "family")

    seen: set[str] = set()
    for version in range(1, 20):
        chosen, rolls = hardest_first(cat.kinds, available, **APARTMENT, chance=Chance(b"die-tie", version), seat=AI)
        [die] = rolls
        assert (die.seat, die.purpose, die.candidates) == (AI, "tenant subtype", tied)
        [face] = die.faces
        assert die.chosen == tied[0 if face <= 3 else 1]
        assert chosen == (die.chosen, *(k for k in tied if k != die.chosen))
        seen.add(die.chosen)
    assert seen == set(tied)


def test_before_any_card_the_ai_adds_no_advertising_but_still_reports_it() -> None:
    """§11.4 step 5, Q-AIADS: every round, even without buildings; 0 before any card is resolved."""
    state = replace(solo(), advertising_spent=1)

    events, after = ai_attracts(state)

    assert of(events, AiAdvertised) == [AiAdvertised(seat=AI, tokens=0, card=None)]
    assert after.advertising_spent == 1


@pytest.mark.parametrize(("card", "tokens"), [("AI-I-06", 2), ("AI-I-04", 0), ("AI-III-06", 3)])
def test_the_ai_adds_the_advertising_icon_of_its_last_resolved_card(card: str, tokens: int) -> None:
    """§11.4 step 5: the icon of the most recently resolved card (T15) joins the round's advertising spent
    (here on top of 1 token committed by the human), with or without buildings."""
    state = ai_board(replace(solo(), advertising_spent=1), last_card=card, discard=("AI-I-01", card))

    events, after = ai_attracts(state)

    assert of(events, AiAdvertised) == [AiAdvertised(seat=AI, tokens=tokens, card=card)]
    assert after.advertising_spent == 1 + tokens


def test_the_ai_never_collects_rent() -> None:
    """§11.2: the AI's full apartment (5 homes, rent 1.5M for a human) pays it nothing."""
    state = built(solo(), ("3I", "apartment", ("home",) * 5))

    events, after = ai_attracts(state)

    assert of(events, AttractionStarted) == []
    assert of(events, RentCollected)[0] == RentCollected(seat=AI, amount=0)
    assert after.seats[AI].cash == 2000
