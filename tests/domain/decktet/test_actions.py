"""§2.4 free actions: developing deeds (R4.2a-e), trading (R4.3, D9), income choices (R9.1c) and preferences
(R9.1a); and R4.1: free actions any number of times, in any order."""

from __future__ import annotations

import pytest

from domain.decktet.commands import Buy, Choose, Deed, Develop, Prefer, Sell, Trade
from domain.decktet.errors import ChoicesFirst, DevelopmentBlocked, NotADeed, SameSuitTrade
from domain.decktet.events import DeedCompleted, DeedDeveloped, IncomeChosen, PreferenceSet, Traded
from domain.decktet.state import DecktetState, Placed
from domain.kernel import InvalidValue

from .builders import act, arrange, column, fresh_turn, started, supply


def game(**options: bool) -> DecktetState:
    return fresh_turn(started(**options)[1], 0)


def test_r4_2_develop_moves_tokens_of_the_cards_suits_onto_the_deed() -> None:
    state = arrange(game(), 0, columns={3: column(("9VY", supply()))}, supply_=supply(V=3, Y=1, M=2))
    events, after = act(state, 0, Develop(card="9VY", suit="V", count=2))
    assert events == [DeedDeveloped(seat=0, card="9VY", suit="V", count=2)]
    assert after.seats[0].columns[3][0].tokens == supply(V=2) and after.seats[0].supply == supply(V=1, Y=1, M=2)
    with pytest.raises(DevelopmentBlocked):
        act(state, 0, Develop(card="9VY", suit="M"))


def test_r4_2a_r4_2b_the_completion_cost_is_the_price_and_never_exceeded() -> None:
    state = arrange(game(), 0, columns={0: column(("3MV", supply(M=1)))}, supply_=supply(M=5, V=5))
    with pytest.raises(DevelopmentBlocked):
        act(state, 0, Develop(card="3MV", suit="V", count=3))
    events, _ = act(state, 0, Develop(card="3MV", suit="V", count=2))
    assert isinstance(events[-1], DeedCompleted)


def test_r4_2c_a_step_that_would_make_completion_impossible_is_illegal() -> None:
    """The Pact (9, Moons and Suns): a 9th Moons token would leave no room for the Suns it needs."""
    state = arrange(game(), 0, columns={0: column(("9MS", supply(M=8)))}, supply_=supply(M=5, S=5))
    with pytest.raises(DevelopmentBlocked):
        act(state, 0, Develop(card="9MS", suit="M"))
    events, _ = act(state, 0, Develop(card="9MS", suit="S"))
    assert events[-1] == DeedCompleted(seat=0, card="9MS", district="a")


def test_r4_2c_d5_completion_needs_each_suit_at_least_once() -> None:
    state = arrange(game(), 0, columns={0: column(("TMVK", supply(M=5, V=4)))}, supply_=supply(M=5, K=5))
    with pytest.raises(DevelopmentBlocked):
        act(state, 0, Develop(card="TMVK", suit="M"))
    events, _ = act(state, 0, Develop(card="TMVK", suit="K"))
    assert isinstance(events[-1], DeedCompleted)


def test_r4_2d_a_completed_deed_returns_its_tokens_and_stays_in_place_developed() -> None:
    state = arrange(game(), 0, columns={0: column("5ML", ("7ML", supply(M=3, L=3)), )}, supply_=supply(L=2))
    _, after = act(state, 0, Develop(card="7ML", suit="L"))
    assert after.seats[0].columns[0] == (Placed("5ML"), Placed("7ML"))
    assert after.seats[0].supply == supply(L=1)


def test_r4_2e_a_deed_may_be_bought_developed_and_completed_in_the_same_turn() -> None:
    state = arrange(game(), 0, hand=("2SY", "3MV", "4MS"), supply_=supply(M=2, V=3))
    d = next(i for i, c in enumerate(state.districts) if c == "0")
    _, state = act(state, 0, Deed(card="3MV", district="abcde"[d]))
    _, state = act(state, 0, Develop(card="3MV", suit="M"))
    events, state = act(state, 0, Develop(card="3MV", suit="V", count=2))
    assert isinstance(events[-1], DeedCompleted) and not state.seats[0].columns[d][0].deed


def test_r4_3_trade_three_of_a_suit_for_one_of_another_repeatedly() -> None:
    state = arrange(game(), 0, supply_=supply(Y=6))
    events, state = act(state, 0, Trade(give="Y", take="M"))
    assert events == [Traded(seat=0, give="Y", given=3, take="M", taken=1)]
    _, state = act(state, 0, Trade(give="y", take="s"))
    assert state.seats[0].supply == supply(M=1, S=1)


def test_r4_3_d9_a_trade_for_the_same_suit_is_refused() -> None:
    state = arrange(game(), 0, supply_=supply(Y=6))
    with pytest.raises(SameSuitTrade):
        act(state, 0, Trade(give="Y", take="Y"))
    with pytest.raises(InvalidValue):
        act(state, 0, Trade(give="Y", take="Q"))


def test_r4_1_r2_2_free_actions_before_between_and_after_the_card_play_and_sale_tokens_spent_later() -> None:
    state = arrange(game(), 0, hand=("2SY", "6MV", "3MV"), supply_=supply(M=1, V=3),
                    columns={0: column(("4MS", supply(M=1)))})
    _, state = act(state, 0, Trade(give="V", take="S"))
    _, state = act(state, 0, Sell(card="2SY"))  # gains 1 Suns and 1 Wyrms
    _, state = act(state, 0, Develop(card="4MS", suit="S", count=2))
    _, state = act(state, 0, Develop(card="4MS", suit="M"))
    assert state.seats[0].columns[0] == (Placed("4MS"),)


def test_r9_1c_choices_come_first_and_only_for_the_deeds_awaiting_them() -> None:
    state = arrange(game(), 0, columns={0: column(("7VY", supply()))}, supply_=supply(V=6))
    from msgspec.structs import replace

    state = replace(state, choices=("7VY",))
    with pytest.raises(ChoicesFirst):
        act(state, 0, Trade(give="V", take="M"))
    with pytest.raises(InvalidValue):
        act(state, 0, Choose(card="7VY", suit="M"))
    with pytest.raises(NotADeed):
        act(state, 0, Choose(card="9VY", suit="V"))
    events, state = act(state, 0, Choose(card="7VY", suit="Y"))
    assert events == [IncomeChosen(seat=0, card="7VY", suit="Y", count=1)] and state.choices == ()
    assert state.seats[0].supply == supply(V=6, Y=1)


def test_r9_1a_a_preference_is_a_free_action_on_ones_own_deed_in_its_suits() -> None:
    state = arrange(game(), 0, columns={0: column(("7VY", supply()), )})
    events, after = act(state, 0, Prefer(card="7VY", suit="V"))
    assert events == [PreferenceSet(seat=0, card="7VY", suit="V")]
    assert after.seats[0].columns[0][0].preference == "V" and after.plays == 0
    with pytest.raises(InvalidValue):
        act(state, 0, Prefer(card="7VY", suit="M"))
    with pytest.raises(NotADeed):
        act(arrange(state, 0, columns={0: column("7VY")}), 0, Prefer(card="7VY", suit="V"))


def test_r4_5_buying_is_a_card_play_and_not_a_free_action() -> None:
    state = arrange(game(), 0, hand=("2SY", "3MV", "4MS"), supply_=supply(M=3, V=3, S=3))
    d = "abcde"[state.districts.index("0")]
    _, state = act(state, 0, Buy(card="3MV", district=d, payment={"M": 1, "V": 2}))
    assert state.plays == 1
