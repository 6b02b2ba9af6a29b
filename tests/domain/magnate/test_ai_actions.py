"""How the AI chooses its action from the card it drew (spec §11.5 steps 2-3): single, land price and crash
cards, the card's default when an action is impossible, Consult when the default is impossible too; each
choice explained in the card's AiDecided. Situations: :mod:`.ai_situations`."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from domain.magnate.events import AiDecided, Consulted, LandBought, PlotSold

from .ai_situations import AI, ai_action, card_decision, for_sale, of, ready, recorded, solo, unbuilt
from .builders import plot


@pytest.mark.parametrize(
    ("card", "changes", "action", "reason"),
    [
        ("AI-I-04", {}, "build", "AI-I-04: Build"),
        ("AI-I-02", {}, "buy", "AI-I-02: Buy land"),
        ("AI-I-09", {}, "consult", "AI-I-09: Consult"),
        ("AI-I-07", {"land_price": 5}, "build", "AI-I-07: land price 500K ≥ 500K → Build"),
        ("AI-I-07", {"land_price": 4}, "buy", "AI-I-07: land price 300K < 500K → Buy land"),
        ("AI-III-01", {"land_price": 11}, "sell", "AI-III-01: land price 1.1M ≥ 1.1M → Sell"),
        ("AI-III-01", {"land_price": 10}, "build", "AI-III-01: land price 1M < 1.1M → Build"),
        ("AI-II-06", {"crash": 7}, "build", "AI-II-06: crash marker 7 ≥ 7 → Build"),
        ("AI-II-06", {"crash": 6}, "sell", "AI-II-06: crash marker 6 < 7 → Sell"),
        ("AI-IV-01", {"crash": 5}, "build", "AI-IV-01: crash marker 5 ≥ 5 → Build"),
        ("AI-IV-01", {"crash": 4}, "sell", "AI-IV-01: crash marker 4 < 5 → Sell"),
    ],
)
def test_the_card_chooses_the_action_single_land_price_or_crash_threshold(
    card: str, changes: dict[str, int], action: str, reason: str
) -> None:
    """§11.5 step 2: a single card names its action; a land price / crash card takes the top action when the
    land price / crash marker is at least the threshold (≥, boundary included), else the bottom action."""
    state = ready(replace(solo(), **changes))

    events, _ = ai_action(state, card)

    assert recorded(card_decision(events)) == AiDecided(seat=AI, card=card, action=action, reason=reason)


def test_an_impossible_action_falls_back_to_the_cards_default() -> None:
    """§11.5 step 3: AI-I-05 says Build; with an empty bottom row the AI takes its default, Buy land."""
    state = for_sale(solo(), "3I")

    events, _ = ai_action(state, "AI-I-05")

    assert recorded(card_decision(events)) == AiDecided(
        seat=AI, card="AI-I-05", action="buy", reason="AI-I-05: Build; Build is impossible → default Buy land"
    )
    assert [e.plot for e in of(events, LandBought)] == ["3I"]


def test_when_the_default_is_impossible_too_the_ai_consults() -> None:
    """§11.5 step 3: AI-I-05 (Build, default Buy land) with no unbuilt AI plot and no 'for sale' plot ->
    Consult: it receives the land price."""
    state = replace(solo(), land_price=7)

    events, after = ai_action(state, "AI-I-05")

    assert recorded(card_decision(events)) == AiDecided(
        seat=AI,
        card="AI-I-05",
        action="consult",
        reason="AI-I-05: Build; Build is impossible → default Buy land is impossible too → Consult",
    )
    assert of(events, Consulted) == [Consulted(seat=AI, amount=700)]
    assert after.seats[AI].cash == 2700


def test_the_ai_never_sells_unbuilt_plots_so_selling_without_buildings_is_impossible() -> None:
    """§11.6 Sell "impossible if the top row is empty": AI-IV-07 (Sell, default Consult) with only an unbuilt
    plot -> Consult."""
    state = unbuilt(solo(), "3G")

    events, after = ai_action(state, "AI-IV-07")

    assert card_decision(events).action == "consult"
    assert of(events, PlotSold) == []
    assert plot(after, "3G").owner == AI


def test_the_ai_never_buys_at_double_price_so_buying_without_for_sale_plots_is_impossible() -> None:
    """§11.6 Buy "the AI never uses the 2x option": it owns 3G, whose neighbours are free, but no plot is for
    sale: AI-I-03 (Buy land, default Consult) -> Consult."""
    state = unbuilt(solo(), "3G")

    events, _ = ai_action(state, "AI-I-03")

    assert card_decision(events).action == "consult"
    assert of(events, LandBought) == []
