"""The AI selling (spec §11.6 Sell, T16) and its liquidation at the crash (§11.8, Q-AILIQ): which plot, its
value with the difficulty modifier and the zero floor. Situations: :mod:`.ai_situations`."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from domain.kernel import SYSTEM
from domain.magnate.commands import ProcessMarket
from domain.magnate.events import AiHoldingsChanged, MarketCrashed, PlotLiquidated, PlotSold

from .ai_situations import AI, CAT, HUMAN, ai_action, built, detail, of, solo, unbuilt
from .builders import in_market, plot, run, set_plot


@pytest.mark.parametrize(
    ("difficulty", "value", "amount", "words"),
    [
        ("digital_assistant", 2, 1000, "3-1 (difficulty) = 2 × 500K = 1M"),
        ("generalised_ai", 3, 1500, "3+0 (difficulty) = 3 × 500K = 1.5M"),
        ("robot_overlord", 4, 2000, "3+1 (difficulty) = 4 × 500K = 2M"),
        ("the_singularity", 5, 2500, "3+2 (difficulty) = 5 × 500K = 2.5M"),
    ],
)
def test_the_ai_sells_its_leftmost_built_plot_with_the_difficulty_modifier(
    difficulty: str, value: int, amount: int, words: str
) -> None:
    """§11.6 Sell steps 1-3, T16: the leftmost top-row plot (3I before 1A, whatever the coordinates); plot
    value 1 + 1 + 1 home = 3, plus the difficulty modifier, x land price 500K. The plot becomes unowned,
    building and tenants stay, the sale counts on the plots-sold track, the top row closes the gap."""
    state = replace(solo(difficulty=difficulty), land_price=5)
    state = built(state, ("3I", "house", ("home",)), ("1A", "house", ()))

    events, after = ai_action(state, "AI-IV-07")

    assert of(events, PlotSold) == [PlotSold(seat=AI, plot="3I", value=value, amount=amount)]
    assert detail(events, "sell").reason == f"3I: value {words}"
    assert of(events, AiHoldingsChanged) == [AiHoldingsChanged(seat=AI, bottom_row=(), top_row=("1A",))]
    assert after.seats[AI].cash == 2000 + amount
    assert after.plots_sold == 1
    assert (plot(after, "3I").owner, plot(after, "3I").building, plot(after, "3I").tenants) == (
        None,
        "house",
        ("home",),
    )


def test_an_ai_sale_value_is_floored_at_zero_and_still_counts_as_a_sale() -> None:
    """§11.6 Sell step 2: an empty house next to the airport (Home -1) is worth 1 + 1 - 1 = 1; the digital
    assistant's -1 makes 0: it receives nothing, the plot is sold anyway and counts on the track. A value
    that would go below 0 (an empty house with two home penalties: 0 - 1) is also 0."""
    state = replace(solo(difficulty="digital_assistant"), land_price=5)
    state = set_plot(state, "2H", building="industrial_unit", tenants=("industry",))  # Home -1 on 2E
    state = built(state, ("2B", "house", ()), ("2E", "house", ()))

    events, after = ai_action(state, "AI-IV-07")
    assert of(events, PlotSold) == [PlotSold(seat=AI, plot="2B", value=0, amount=0)]
    assert after.plots_sold == 1 and plot(after, "2B").owner is None

    events, after = ai_action(after, "AI-IV-03")
    assert of(events, PlotSold) == [PlotSold(seat=AI, plot="2E", value=0, amount=0)]
    assert after.plots_sold == 2
    assert after.seats[AI].cash == 2000


@pytest.mark.parametrize(
    ("difficulty", "value"),
    [("digital_assistant", 0), ("generalised_ai", 0), ("robot_overlord", 0), ("the_singularity", 1)],
)
def test_the_difficulty_modifier_is_added_before_the_zero_floor(difficulty: str, value: int) -> None:
    """T16 "added to the §7.5 value before the zero floor": an empty house on 2E next to the airport, a small
    factory and a chemical plant (three distinct Home -1 sources, advanced game) is worth 1 + 1 - 3 = -1;
    The Singularity's +2 makes 1 (not 0 + 2)."""
    state = replace(solo(advanced=True, difficulty=difficulty), land_price=5)
    state = set_plot(state, "2H", building="industrial_park", tenants=("chemical_plant", "small_factory"))
    state = built(state, ("2E", "house", ()))

    events, _ = ai_action(state, "AI-IV-07")

    assert of(events, PlotSold) == [PlotSold(seat=AI, plot="2E", value=value, amount=500 * value)]


@pytest.mark.parametrize(
    ("difficulty", "built_value", "unbuilt_value"),
    [("digital_assistant", 2, 0), ("generalised_ai", 3, 1), ("robot_overlord", 4, 2), ("the_singularity", 5, 3)],
)
def test_ai_liquidation_at_the_crash_applies_the_difficulty_modifier(
    difficulty: str, built_value: int, unbuilt_value: int
) -> None:
    """§11.8, Q-AILIQ: at the crash every AI plot, built (top row) or not (bottom row), is sold with the
    difficulty modifier; the human's identical house (3G, value 3) is not modified."""
    state = solo(difficulty=difficulty)
    state = unbuilt(built(state, ("3I", "house", ("home",))), "1A")
    state = set_plot(state, "3G", owner=HUMAN, building="house", tenants=("home",))
    state = in_market(state, land_price=20, crash=0, risk_deck=(), risk_discard=("R01", "R02"))

    events, _ = run(state, SYSTEM, ProcessMarket())

    [crashed] = of(events, MarketCrashed)
    price = CAT.price(crashed.land_price)
    assert sorted((e.seat, e.plot, e.value, e.amount) for e in of(events, PlotLiquidated)) == [
        (HUMAN, "3G", 3, 3 * price),
        (AI, "1A", unbuilt_value, unbuilt_value * price),
        (AI, "3I", built_value, built_value * price),
    ]
