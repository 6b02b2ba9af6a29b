"""The AI's decks and levels (spec §11.1, §11.5 steps 1, 4 and 5; T14): how it starts, which card it draws,
when its level rises and what happens to a resolved card. Situations: :mod:`.ai_situations`."""

from __future__ import annotations

from typing import Any

import pytest
from msgspec.structs import replace

from domain.kernel import SYSTEM
from domain.magnate.commands import Consult, PassBid, TakeAiTurn
from domain.magnate.events import AiCardDrawn, AiCardResolved, AiDecided, AiDeckReshuffled, AiLevelRaised, LandBought
from domain.magnate.state import Phase

from .ai_situations import AI, CAT, HUMAN, ai_action, ai_board, card_decision, of, ready, recorded, solo
from .builders import advance, in_actions, run, started


def test_the_ai_starts_with_2000k_no_advertising_level_i_and_its_four_decks() -> None:
    """§11.1 steps 2-6, T14: 2,000K, no advertising tokens, level I, one deck per level (9/6/6/8 cards, each
    holding exactly its level's cards), empty rows and discard pile, no card resolved yet."""
    state = started(2, ai=True)
    ai = state.ai
    assert ai is not None and ai.seat == AI
    assert state.seats[AI].kind == "ai" and state.seats[AI].company == CAT.setup.ai_company.key
    assert (state.seats[AI].cash, state.seats[AI].advertising) == (2000, 0)
    assert (state.seats[HUMAN].cash, state.seats[HUMAN].advertising) == (2000, 4)
    assert ai.level == 1
    assert [len(deck) for deck in ai.decks] == [9, 6, 6, 8]
    for level, deck in enumerate(ai.decks, start=1):
        assert {CAT.ai_cards[c].level for c in deck} == {level}
    assert sorted(c for deck in ai.decks for c in deck) == sorted(CAT.ai_cards)
    assert (ai.discard, ai.last_card, ai.bottom_row, ai.top_row) == ((), None, (), ())


@pytest.mark.parametrize(("humans", "board"), [(1, 2), (2, 3), (3, 4), (4, 5)])
def test_the_ai_counts_as_a_seat_so_solo_uses_the_two_player_board(humans: int, board: int) -> None:
    """§11.1 step 1: the board is chosen for the seats including the AI: solo -> the 2-player board (6 'for
    sale' markers, 4/4/1/1 starting tenants); 2 humans + AI -> the 3-player board (8 markers)."""
    state = started(humans + 1, ai=True)
    spec = CAT.board(board)
    assert sum(p.for_sale for p in state.plots) == spec.setup_for_sale
    assert dict(zip(CAT.type_order, state.available, strict=True)) == spec.start_tenants


@pytest.mark.parametrize("version", range(1, 9))
def test_the_first_ai_action_is_the_first_action_card_buy_land(version: int) -> None:
    """§11.1 step 3, §11.5 step 5: "first AI action" is the top card of level I, whatever the chance source
    says, and it buys land (the setup put 'for sale' markers on the board)."""
    state = in_actions(started(2, ai=True), first_player=AI)

    events, after = run(state, SYSTEM, TakeAiTurn(), version=version)

    assert of(events, AiCardDrawn) == [AiCardDrawn(seat=AI, card="AI-I-01", level=1)]
    assert recorded(card_decision(events)) == AiDecided(
        seat=AI, card="AI-I-01", action="buy", reason="AI-I-01: Buy land")
    [bought] = of(events, LandBought)
    assert (bought.seat, bought.price) == (AI, 0)
    assert after.ai is not None and after.ai.last_card == "AI-I-01"


@pytest.mark.parametrize("seed", [b"first-1", b"first-2", b"first-3", b"first-4"])
def test_in_a_real_game_the_ais_first_card_is_the_first_action_card(seed: bytes) -> None:
    """§11.5 step 5 through a real round 1: the human passes the bid and consults; the AI's first card is
    AI-I-01 and its first action buys land."""
    state = started(2, ai=True, seed=seed)
    events: list[Any] = []
    while not of(events, AiCardDrawn):
        more, state = advance(state)
        events += more
        if not of(events, AiCardDrawn):
            more, state = run(state, HUMAN, PassBid() if state.phase == Phase.BIDDING else Consult())
            events += more
    assert of(events, AiCardDrawn)[0].card == "AI-I-01"
    assert card_decision(events).action == "buy"


def test_the_card_is_discarded_and_becomes_the_most_recently_resolved() -> None:
    """§11.5 step 4."""
    state = ai_board(ready(solo()), discard=("AI-I-01",), last_card="AI-I-01")

    events, after = ai_action(state, "AI-I-06")

    assert of(events, AiCardResolved) == [AiCardResolved(seat=AI, card="AI-I-06")]
    assert after.ai is not None
    assert (after.ai.discard, after.ai.last_card) == (("AI-I-01", "AI-I-06"), "AI-I-06")
    assert "AI-I-06" not in after.ai.decks[0]


def test_an_empty_deck_raises_the_level_and_the_ai_draws_from_the_next_deck() -> None:
    """§11.5 step 1: level I empty -> level II, then draw from level II."""
    full = started(2, ai=True).ai
    assert full is not None
    state = ai_board(in_actions(solo(), first_player=AI), decks=((), *full.decks[1:]))

    events, after = run(state, SYSTEM, TakeAiTurn())

    assert of(events, AiLevelRaised) == [AiLevelRaised(seat=AI, level=2, reason="its deck is empty")]
    [drawn] = of(events, AiCardDrawn)
    assert drawn.level == 2 and CAT.ai_cards[drawn.card].level == 2
    assert after.ai is not None and after.ai.level == 2


def test_the_level_keeps_rising_past_empty_decks() -> None:
    """§11.5 step 1 "repeat if that is empty too": levels I and II empty -> II, III, then draw from III."""
    full = started(2, ai=True).ai
    assert full is not None
    state = ai_board(in_actions(solo(), first_player=AI), decks=((), (), *full.decks[2:]))

    events, _ = run(state, SYSTEM, TakeAiTurn())

    assert [e.level for e in of(events, AiLevelRaised)] == [2, 3]
    assert of(events, AiCardDrawn)[0].level == 3


def test_at_level_iv_an_empty_deck_is_rebuilt_from_the_level_iv_discards() -> None:
    """§11.5 step 1: level IV empty -> its cards from the (mixed) discard pile form a new level IV deck; the
    lower-level discards stay; the level does not change."""
    full = started(2, ai=True).ai
    assert full is not None
    discard = ("AI-I-01", "AI-IV-02", "AI-II-03", "AI-IV-05")
    state = ai_board(ready(solo()), level=4, decks=(*full.decks[:3], ()), discard=discard)

    events, after = run(in_actions(state, first_player=AI), SYSTEM, TakeAiTurn())

    assert of(events, AiDeckReshuffled) == [AiDeckReshuffled(seat=AI, level=4, cards=("AI-IV-02", "AI-IV-05"))]
    assert of(events, AiLevelRaised) == []
    [drawn] = of(events, AiCardDrawn)
    assert drawn.level == 4 and drawn.card in ("AI-IV-02", "AI-IV-05")
    assert after.ai is not None
    assert after.ai.decks[3] == tuple(c for c in ("AI-IV-02", "AI-IV-05") if c != drawn.card)
    assert after.ai.discard == ("AI-I-01", "AI-II-03", drawn.card)


def test_a_sale_raises_the_level_and_the_next_card_comes_from_the_new_deck() -> None:
    """§11.6 Sell step 4: after a sale the level rises even though the old deck still has cards; the next
    draw comes from the new level's deck."""
    state = ai_board(ready(replace(solo(), land_price=9)), level=2)
    full = started(2, ai=True).ai
    assert full is not None
    state = ai_board(state, decks=(full.decks[0], ("AI-II-04", "AI-II-05"), *full.decks[2:]))
    state = in_actions(state, first_player=AI)
    for version in range(1, 40):
        events, after = run(state, SYSTEM, TakeAiTurn(), version=version)
        if of(events, AiCardDrawn)[0].card == "AI-II-04":
            break
    else:
        pytest.fail("no chance version drew AI-II-04")
    assert card_decision(events).action == "sell"
    assert of(events, AiLevelRaised) == [AiLevelRaised(seat=AI, level=3, reason="it sold a plot")]
    assert after.ai is not None and after.ai.decks[1] == ("AI-II-05",)

    events, _ = run(in_actions(after, first_player=AI), SYSTEM, TakeAiTurn())

    [drawn] = of(events, AiCardDrawn)
    assert drawn.level == 3 and drawn.card.startswith("AI-III-")


def test_a_sale_at_level_iv_keeps_level_iv() -> None:
    """§11.6 Sell step 4: "if level < IV"."""
    state = ready(solo())

    events, after = ai_action(state, "AI-IV-07")

    assert card_decision(events).action == "sell"
    assert of(events, AiLevelRaised) == []
    assert after.ai is not None and after.ai.level == 4
