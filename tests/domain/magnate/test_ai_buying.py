"""The AI buying land (spec §11.6 Buy, Q-AIARROWS): bonus arrows, the plot it picks, the die between tied
plots, where the marker goes; and that it never pays (§11.2). Situations: :mod:`.ai_situations`."""

from __future__ import annotations

import pytest

from domain.kernel import SYSTEM
from domain.magnate.ai import actions as ai_actions
from domain.magnate.commands import PassBid, TakeAiTurn
from domain.magnate.events import AiDieRolled, AiHoldingsChanged, BuildingBuilt, FirstPlayerDecided, LandBought

from .ai_situations import AI, HUMAN, ai_action, ai_board, detail, for_sale, of, solo, unbuilt
from .builders import in_bidding, plot, run, set_cash, set_plot


@pytest.mark.parametrize(
    ("name", "tenants", "arrows"),
    [
        ("1A", {}, 2),  # train station on D and E: one source, Home +1 and Office +1
        ("2B", {}, 1),  # airport: Office +1 counts, Home -1 ignored
        ("2E", {}, 3),  # airport (Office +1) and airport car park (Retail +1, Industry +1)
        ("3B", {}, 2),  # woods (Home +1) and car park (Retail +1)
        ("3I", {}, 0),
        ("1A", {"1B": ("retail_unit", ("retail", "retail"))}, 3),  # retail tenants: Office +1
        ("1A", {"1B": ("industrial_unit", ("industry",))}, 2),  # industry tenants: Home -1, ignored
        ("3I", {"3E": ("retail_unit", ("retail",)), "3H": ("retail_unit", ("retail",))}, 1),  # one source
    ],
)
def test_bonus_arrows_count_distinct_bonus_pairs_of_features_and_tenants_ignoring_penalties(
    name: str, tenants: dict[str, tuple[str, tuple[str, ...]]], arrows: int
) -> None:
    """§11.6 Buy step 1, Q-AIARROWS: distinct (source kind, building type) pairs with a +1 effect among the
    adjacent features and tenants; duplicates count once, penalties are ignored."""
    state = solo()
    for other, (building, kinds) in tenants.items():
        state = set_plot(state, other, building=building, tenants=kinds)
    assert ai_actions.bonus_arrows(state, name) == arrows


@pytest.mark.parametrize(
    ("tenants", "arrows"),
    [
        (("convenience_store",), 2),  # Home +1, Office +1
        (("chemical_plant",), 0),  # three penalties, ignored
        (("restaurant", "restaurant"), 1),  # one subtype: one source
        (("restaurant", "boutique"), 1),  # the boutique confers nothing
    ],
)
def test_in_the_advanced_game_tenant_subtypes_are_the_sources_of_bonus_arrows(
    tenants: tuple[str, ...], arrows: int
) -> None:
    """§11.6 Buy step 1 with §6.3: in the advanced game a tenant source is its subtype (T3 effects)."""
    state = set_plot(solo(advanced=True), "3H", building="shopping_mall", tenants=tenants)
    assert ai_actions.bonus_arrows(state, "3I") == arrows


def test_the_ai_buys_the_for_sale_plot_with_the_most_bonus_arrows_free() -> None:
    """§11.6 Buy steps 1-3: 2E (3 arrows) beats 1G (2), 2B (1) and 3I (0); the AI pays nothing (even with no
    cash), keeps the marker in its bottom row, and explains the choice."""
    state = set_cash(for_sale(solo(), "1G", "2B", "2E", "3I"), AI, 0)

    events, after = ai_action(state, "AI-I-02")

    assert of(events, LandBought) == [LandBought(seat=AI, plot="2E", price=0, adjacent=False)]
    assert detail(events, "buy").reason == "2E: 3 bonus arrow(s), the most"
    assert of(events, AiHoldingsChanged) == [AiHoldingsChanged(seat=AI, bottom_row=("2E",), top_row=())]
    assert of(events, AiDieRolled) == []
    assert (plot(after, "2E").owner, plot(after, "2E").for_sale) == (AI, False)
    assert after.seats[AI].cash == 0


def test_an_ai_tie_between_three_plots_is_broken_by_the_die_in_coordinate_order() -> None:
    """§11.6 Buy step 2, §11.7, A18: 3B, 1G and 1A tie at 2 arrows (2B has 1); the candidates are in
    coordinate order (1A, 1G, 3B) whatever order the markers came in; the die maps 1-2 / 3-4 / 5-6 (face 3
    -> the second); every face is seen over the chance versions, and the reason names the tie."""
    state = for_sale(solo(), "3B", "1G", "1A", "2B")
    table = {1: "1A", 2: "1A", 3: "1G", 4: "1G", 5: "3B", 6: "3B"}

    seen: set[int] = set()
    for version in range(1, 40):
        events, after = ai_action(state, "AI-I-02", version=version)
        [die] = of(events, AiDieRolled)
        assert (die.purpose, die.candidates) == ("plot to buy", ("1A", "1G", "3B"))
        [face] = die.faces
        assert die.chosen == table[face]
        assert [e.plot for e in of(events, LandBought)] == [table[face]]
        assert [n for n in ("1A", "1G", "3B") if plot(after, n).owner == AI] == [table[face]]
        assert detail(events, "buy").reason == f"{table[face]}: 2 bonus arrow(s), the most of 3 tied plots"
        seen.add(face)
    assert seen == set(table)


def test_a_bought_marker_goes_to_the_leftmost_empty_bottom_slot_and_slots_are_not_compacted() -> None:
    """§11.6 Buy step 3, Build step 4: building on 3G empties slot 0 (3H stays in slot 1); the next purchase
    fills slot 0; with no empty slot a new slot is added on the right."""
    state = unbuilt(solo(), "3G", "3H")
    events, state = ai_action(state, "AI-I-04")
    assert state.ai is not None and state.ai.bottom_row == (None, "3H")

    events, state = ai_action(for_sale(state, "3I"), "AI-I-02")
    assert of(events, AiHoldingsChanged)[0].bottom_row == ("3I", "3H")

    events, state = ai_action(for_sale(state, "4A"), "AI-I-02")
    assert state.ai is not None and state.ai.bottom_row == ("3I", "3H", "4A")


def test_the_ai_never_pays_for_land_buildings_or_the_first_player_marker() -> None:
    """§11.2: with no cash at all the AI buys land, builds a shopping mall and wins an auction; every
    payment it makes is 0 and its cash stays 0 (and it holds no advertising tokens)."""
    state = ai_board(set_cash(for_sale(solo(), "3A"), AI, 0), level=3)
    events, state = ai_action(state, "AI-III-02")
    assert [(e.plot, e.price) for e in of(events, LandBought)] == [("3A", 0)]
    events, state = ai_action(state, "AI-III-06")
    assert [(e.building, e.cost) for e in of(events, BuildingBuilt)] == [("shopping_mall", 0)]
    _, state = run(in_bidding(state, opener=AI), SYSTEM, TakeAiTurn())
    events, state = run(state, HUMAN, PassBid())
    assert of(events, FirstPlayerDecided) == [FirstPlayerDecided(seat=AI, paid=0)]
    assert (state.seats[AI].cash, state.seats[AI].advertising) == (0, 0)
