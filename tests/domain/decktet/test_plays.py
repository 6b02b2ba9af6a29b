"""§2.4 card plays (R4.4-R4.7) and §2.5 placement (R5.1-R5.6), with the prices of V1 (Courts), V5 (original
Aces) and V7 (Pawns under the Court rules)."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from domain.decktet.commands import Buy, Deed, Develop, Sell
from domain.decktet.errors import CannotAfford, CardPlaysUsed, IllegalPlacement, NotInHand, WrongPayment
from domain.decktet.events import CardSold, DeedBought, PropertyBought
from domain.decktet.state import DecktetState, Placed

from .builders import act, arrange, column, fresh_turn, started, supply


def table(districts: tuple[str, ...] = ("PMYK", "PVLY", "0", "PMSL", "PSVK"), **options: bool) -> DecktetState:
    state = fresh_turn(started(**options)[1], 0)
    return replace(state, districts=districts)


def test_r4_5_the_diplomat_is_paid_with_eight_tokens_of_its_suits_each_at_least_once() -> None:
    state = arrange(table(), 0, hand=("8MS", "2SY", "3MV"), supply_=supply(M=7, S=5))
    for payment in ({"M": 3, "S": 5}, {"M": 7, "S": 1}):
        events, after = act(state, 0, Buy(card="8MS", district="c", payment=payment))
        assert events == [PropertyBought(seat=0, card="8MS", district="c", payment=supply(**payment))]
        assert after.seats[0].columns[2] == (Placed("8MS"),) and "8MS" not in after.seats[0].hand
    for wrong in ({"M": 8}, {"M": 3, "S": 4}, {"M": 3, "S": 4, "V": 1}):
        with pytest.raises(WrongPayment):
            act(state, 0, Buy(card="8MS", district="c", payment=wrong))
    with pytest.raises(CannotAfford):
        act(arrange(state, 0, supply_=supply(M=7)), 0, Buy(card="8MS", district="c", payment={"M": 7, "S": 1}))


def test_r4_5_r8_1_an_ace_costs_three_of_its_suit_and_v5_an_original_ace_one() -> None:
    state = arrange(table(), 0, hand=("1M", "2SY", "3MV"), supply_=supply(M=3))
    assert act(state, 0, Buy(card="1M", district="a", payment={"M": 3}))[0]
    with pytest.raises(WrongPayment):
        act(state, 0, Buy(card="1M", district="a", payment={"M": 1}))
    original = arrange(table(original_aces=True), 0, hand=("1M", "2SY", "3MV"), supply_=supply(M=3))
    assert act(original, 0, Buy(card="1M", district="a", payment={"M": 1}))[0]


def test_v1_a_court_costs_ten_in_its_three_suits_deeds_for_three_and_sells_for_three() -> None:
    state = arrange(table(), 0, hand=("TMVK", "2SY", "3MV"), supply_=supply(M=4, V=3, K=3))
    assert act(state, 0, Buy(card="TMVK", district="a", payment={"M": 4, "V": 3, "K": 3}))[0]
    with pytest.raises(WrongPayment):
        act(state, 0, Buy(card="TMVK", district="a", payment={"M": 4, "V": 6}))
    events, _ = act(state, 0, Deed(card="TMVK", district="a"))
    assert events == [DeedBought(seat=0, card="TMVK", district="a", payment=supply(M=1, V=1, K=1))]
    assert act(state, 0, Sell(card="TMVK"))[0] == [CardSold(seat=0, card="TMVK", tokens=supply(M=1, V=1, K=1))]


def test_v7_a_pawn_in_the_deck_follows_the_court_rules() -> None:
    state = table(("TMVK", "TMLY", "0", "TSLK", "TSVY"), courtpawns=True)
    state = arrange(state, 0, hand=("PMYK", "2SY", "3MV"), supply_=supply(M=8, Y=1, K=1))
    assert act(state, 0, Buy(card="PMYK", district="a", payment={"M": 8, "Y": 1, "K": 1}))[0]
    assert act(state, 0, Sell(card="PMYK"))[0] == [CardSold(seat=0, card="PMYK", tokens=supply(M=1, Y=1, K=1))]


def test_r4_6_a_deed_costs_one_token_of_each_suit_which_does_not_count_towards_completion() -> None:
    state = arrange(table(), 0, hand=("9VY", "2SY", "3MV"), supply_=supply(V=1, Y=1))
    events, after = act(state, 0, Deed(card="9VY", district="b"))
    assert events == [DeedBought(seat=0, card="9VY", district="b", payment=supply(V=1, Y=1))]
    assert after.seats[0].columns[1] == (Placed("9VY", deed=True),) and after.seats[0].supply == supply()
    with pytest.raises(CannotAfford):
        act(arrange(state, 0, supply_=supply(V=1)), 0, Deed(card="9VY", district="b"))


def test_r4_6_d7_a_deed_on_a_rank_two_card_is_legal() -> None:
    state = arrange(table(), 0, hand=("2SY", "3MV", "4MS"), supply_=supply(S=1, Y=1))
    assert act(state, 0, Deed(card="2SY", district="c"))[0]


def test_r4_7_a_sale_gives_one_token_per_suit_and_an_ace_two_of_its_suit() -> None:
    state = arrange(table(), 0, hand=("2SY", "1K", "3MV"), supply_=supply())
    events, after = act(state, 0, Sell(card="2SY"))
    assert events == [CardSold(seat=0, card="2SY", tokens=supply(S=1, Y=1))]
    assert after.discard[-1] == "2SY" and after.seats[0].supply == supply(S=1, Y=1)
    assert act(state, 0, Sell(card="1K"))[0] == [CardSold(seat=0, card="1K", tokens=supply(K=2))]
    original = arrange(table(original_aces=True), 0, hand=("2SY", "1K", "3MV"))
    assert act(original, 0, Sell(card="1K"))[0] == [CardSold(seat=0, card="1K", tokens=supply(K=1))]


def test_r4_4_a_card_play_takes_a_card_from_the_hand_and_one_is_allowed_per_turn() -> None:
    state = arrange(table(), 0, hand=("2SY", "1K", "3MV"))
    with pytest.raises(NotInHand):
        act(state, 0, Sell(card="9VY"))
    _, state = act(state, 0, Sell(card="2SY"))
    with pytest.raises(CardPlaysUsed):
        act(state, 0, Sell(card="1K"))


def test_v2_5_mega_takes_exactly_two_card_plays_of_any_kind() -> None:
    state = fresh_turn(started(mega=True)[1], 0)
    hand = state.seats[0].hand
    _, state = act(state, 0, Sell(card=hand[0]))
    _, state = act(state, 0, Sell(card=hand[1]))
    with pytest.raises(CardPlaysUsed):
        act(state, 0, Sell(card=hand[2]))


def test_r5_1_r5_2_a_column_starts_next_to_a_pawn_sharing_a_suit_then_follows_its_last_card() -> None:
    state = arrange(table(), 0, hand=("5ML", "4VL", "7SK"), supply_=supply(M=9, L=9, V=9, S=9, K=9))
    with pytest.raises(IllegalPlacement, match="no suit matches The Watchman"):
        act(state, 0, Buy(card="4VL", district="a", payment={"V": 2, "L": 2}))
    _, state = act(state, 0, Buy(card="5ML", district="a", payment={"M": 1, "L": 4}))
    state = fresh_turn(state, 0)
    with pytest.raises(IllegalPlacement, match="The Forest"):
        act(state, 0, Buy(card="7SK", district="a", payment={"S": 2, "K": 5}))


def test_r5_6_the_example_the_forest_then_the_sailor_beside_the_watchman() -> None:
    state = arrange(table(), 0, hand=("5ML", "4VL", "2VL"), supply_=supply(M=9, L=9, V=9))
    _, state = act(state, 0, Buy(card="5ML", district="a", payment={"M": 1, "L": 4}))
    _, state = act(fresh_turn(state, 0), 0, Buy(card="4VL", district="a", payment={"V": 2, "L": 2}))
    assert [p.card for p in state.seats[0].columns[0]] == ["5ML", "4VL"]


def test_r5_2_the_last_card_may_be_a_deed_or_a_completed_deed() -> None:
    state = arrange(table(), 0, hand=("4VL", "2SY", "3MV"), columns={0: column("5ML")}, supply_=supply(V=2, L=2))
    assert act(state, 0, Buy(card="4VL", district="a", payment={"V": 2, "L": 2}))[0]


def test_r5_3_anything_may_start_a_column_beside_the_excuse_and_later_cards_follow_the_chain() -> None:
    state = arrange(table(), 0, hand=("1K", "2SY", "3MV"), supply_=supply(K=3, S=1, Y=1, M=3, V=3))
    _, state = act(state, 0, Buy(card="1K", district="c", payment={"K": 3}))
    with pytest.raises(IllegalPlacement):
        act(fresh_turn(state, 0), 0, Buy(card="3MV", district="c", payment={"M": 1, "V": 2}))


def test_r5_4_one_deed_per_district_blocks_only_its_owner_until_complete() -> None:
    state = arrange(table(), 0, hand=("4MS", "2SY", "3MV"), columns={2: column(("9MS", supply()))},
                    supply_=supply(M=9, S=9))
    with pytest.raises(IllegalPlacement, match="deed"):
        act(state, 0, Buy(card="4MS", district="c", payment={"M": 2, "S": 2}))
    assert act(state, 0, Deed(card="4MS", district="d"))[0]  # deeds in several districts at once
    opponent = arrange(fresh_turn(state, 1), 1, hand=("4MS", "2SY", "3MV"), supply_=supply(M=9, S=9))
    assert act(opponent, 1, Buy(card="4MS", district="c", payment={"M": 2, "S": 2}))[0]
    _, state = act(state, 0, Develop(card="9MS", suit="M", count=8))
    _, state = act(state, 0, Develop(card="9MS", suit="S"))
    assert act(state, 0, Buy(card="4MS", district="c", payment={"M": 1, "S": 3}))[0]


def test_r5_5_cards_never_move_and_completion_keeps_the_position() -> None:
    state = arrange(table(), 0, columns={2: column("1M", ("3MV", supply(M=1, V=1)), )}, supply_=supply(V=1))
    _, state = act(state, 0, Develop(card="3MV", suit="V"))
    assert [p.card for p in state.seats[0].columns[2]] == ["1M", "3MV"]


def test_v4_2_in_the_y_a_seat_builds_only_in_its_own_five_districts() -> None:
    state = fresh_turn(started(three=True)[1], 0)
    far = next(d for d, b in enumerate(state.builders) if 0 not in b)
    state = replace(state, districts=tuple("01" if d == far else c for d, c in enumerate(state.districts)))
    state = arrange(state, 0, hand=("1M1", "2SY1", "3MV1"), supply_=supply(M=3))
    with pytest.raises(IllegalPlacement, match="do not build"):
        act(state, 0, Buy(card="1M1", district="abcdefg"[far], payment={"M": 3}))
