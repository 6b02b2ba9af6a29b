"""§3.2: the move notation and every example in its table."""

from __future__ import annotations

import pytest

from domain.decktet.commands import Buy, Choose, Deed, Develop, Prefer, Sell, Trade
from domain.decktet.notation import format_payment, format_turn, parse_action, parse_payment, parse_turn
from domain.kernel import InvalidValue


@pytest.mark.parametrize(
    ("text", "actions"),
    [
        ("B:8MS@a+M3+S5", [Buy(card="8MS", district="a", payment={"M": 3, "S": 5})]),
        ("D:9VY@d", [Deed(card="9VY", district="d")]),
        ("S:2SY", [Sell(card="2SY")]),
        ("A:9VY+V2+Y", [Develop(card="9VY", suit="V", count=2), Develop(card="9VY", suit="Y", count=1)]),
        ("T:Y3+M", [Trade(give="Y", take="M")]),
        ("P:9VY+V", [Prefer(card="9VY", suit="V")]),
        ("C:9VY+Y", [Choose(card="9VY", suit="Y")]),
    ],
)
def test_s3_2_each_action_example(text: str, actions: list[object]) -> None:
    assert parse_action(text) == actions
    assert format_turn(tuple(actions)) == text  # type: ignore[arg-type]


def test_s3_2_case_and_spaces_do_not_matter() -> None:
    assert parse_action(" b : 8ms @ A + m3 + s5 ") == [Buy(card="8MS", district="a", payment={"M": 3, "S": 5})]


def test_s3_2_a_payment_adds_repeated_letters_and_is_rewritten_in_suit_order() -> None:
    assert parse_payment("M+S4+M2+S") == {"M": 3, "S": 5}
    assert format_payment({"S": 5, "M": 3}) == "M3+S5"
    assert format_payment({"M": 10}) == "M8+M2"


def test_s3_2_the_whole_turn_example() -> None:
    text = "C:7VY+Y, T:K3+S, B:4MS@b+M+S3, A:9LK+L2"
    actions = parse_turn(text)
    assert actions == (Choose(card="7VY", suit="Y"), Trade(give="K", take="S"),
                       Buy(card="4MS", district="b", payment={"M": 1, "S": 3}), Develop(card="9LK", suit="L", count=2))
    assert format_turn(actions) == text


def test_s3_2_the_public_moves_list_drops_the_prefer_actions() -> None:
    actions = parse_turn("P:9VY+V, S:2SY, P:7VY+Y")
    assert format_turn(actions, public=True) == "S:2SY"
    assert format_turn(actions) == "P:9VY+V, S:2SY, P:7VY+Y"


def test_s3_2_the_copy_digit_of_mega() -> None:
    assert parse_action("B:8MS2@a+M3+S5")[0] == Buy(card="8MS2", district="a", payment={"M": 3, "S": 5})


@pytest.mark.parametrize("text", ["X:2SY", "B:8MS+M3", "T:Y2+M", "T:Y3+M3+S", "A:9VY+Q", "B:8MS@a+M9", "S"])
def test_s3_2_malformed_actions_are_refused(text: str) -> None:
    with pytest.raises(InvalidValue):
        parse_action(text)
