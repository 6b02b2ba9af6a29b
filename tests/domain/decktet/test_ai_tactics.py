"""Situations where the right play is plain to a person, and the computer (easy and medium) plays it.

Every column is filled by hand, so where a card may go is decided by the last card of each column (R5.2), not by
the districts dealt: seat 0 is on turn with the hand, tokens and columns each test gives it.
"""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from domain.decktet.ai import Plan, plan_turn
from domain.decktet.commands import Buy, Choose, Deed, Develop, Sell
from domain.decktet.state import DecktetState
from domain.kernel import Chance

from .builders import arrange, column, fresh_turn, started, supply

LEVELS = ["easy", "medium"]


def table(mine: dict[int, tuple[object, ...]], theirs: dict[int, tuple[object, ...]], hand: tuple[str, ...],
          tokens: tuple[int, ...]) -> DecktetState:
    """Seat 0 on turn in a game just begun, with ``hand``, ``tokens`` and the columns given (card ids; a deed as
    ``(card, tokens)``)."""
    state = fresh_turn(started(b"tactics")[1], 0)
    state = arrange(state, 1, columns={d: column(*cards) for d, cards in theirs.items()},  # type: ignore[arg-type]
                    supply_=supply(M=1, S=1))
    return arrange(state, 0, hand=hand, supply_=tokens,
                   columns={d: column(*cards) for d, cards in mine.items()})  # type: ignore[arg-type]


def plans(state: DecktetState) -> dict[str, Plan]:
    return {level: plan_turn(state, 0, level, Chance(b"tactics", n)) for n, level in enumerate(LEVELS)}


def test_it_buys_the_card_that_takes_a_district_from_the_other_player() -> None:
    """The Discovery (5, Suns and Waves) fits after The Lunatic in a, where it turns 6 to 8 into 11 to 8; after The
    Pact in c, where it only adds to a lead of 9; or after The Desert in d, where it leaves 7 to 9."""
    state = table(mine={0: ("6MV",), 1: ("9LK",), 2: ("9MS",), 3: ("2SY",), 4: ("3LY",)},
                  theirs={0: ("8VL",), 1: ("2MK",), 3: ("9VY",), 4: ("8YK",)},
                  hand=("5SV", "2VL", "4YK"), tokens=supply(S=3, V=2))
    for level, plan in plans(state).items():
        assert Buy(card="5SV", district="a", payment={"S": 3, "V": 2}) in plan.actions, level
        assert "takes control of a from its opponent (11 to 8)" in plan.explanation


def test_it_completes_a_deed_that_wins_its_district() -> None:
    """The Pact (9, Moons and Suns) has 7 of its 9 tokens; two more complete it and win b (9 to 8)."""
    state = table(mine={0: ("9LK",), 1: (("9MS", supply(M=4, S=3)),), 2: ("8VL",), 3: ("6SY",), 4: ("7ML",)},
                  theirs={0: ("5YK",), 1: ("8MS",), 2: ("3MV",), 3: ("4MS",), 4: ("2MK",)},
                  hand=("2SY", "3SK", "4VL"), tokens=supply(M=1, S=1, K=1))
    for level, plan in plans(state).items():
        assert sum(a.count for a in plan.actions if isinstance(a, Develop) and a.card == "9MS") == 2, level
        assert "completes The Pact (9, Moons and Suns) with 2 tokens: it takes control of b" in plan.explanation


def test_it_takes_its_deeds_income_in_the_suit_that_completes_it() -> None:
    """The Diplomat (8, Moons and Suns) holds 6 Moons and lacks its Suns: the roll's income from it is a Suns."""
    state = table(mine={0: ("9LK",), 1: (("8MS", supply(M=6)),)}, theirs={0: ("5YK",), 1: ("7SK",)},
                  hand=("2SY", "3SK", "4VL"), tokens=supply(M=1, L=1))
    state = replace(state, choices=("8MS",))
    for level, plan in plans(state).items():
        assert plan.actions[0] == Choose(card="8MS", suit="S"), level


def test_on_the_last_turn_of_the_game_it_takes_no_deed_it_cannot_complete() -> None:
    """The draw pile is exhausted and this is the game's last turn (R6.4): a deed would be lost (R7.1), so it
    sells, which also keeps its tokens for the tie-breakers (R7.5)."""
    state = table(mine={0: ("9LK",), 2: ("8MS",)}, theirs={0: ("5YK",), 1: ("7SK",)},
                  hand=("7VY", "9VY"), tokens=supply(V=1, Y=1))
    state = replace(state, exhausted=True, turns_left=1)
    for level, plan in plans(state).items():
        assert not any(isinstance(a, Deed) for a in plan.actions), (level, plan.actions)
        assert any(isinstance(a, Sell) for a in plan.actions)


@pytest.mark.parametrize("level", LEVELS)
def test_with_nothing_to_place_it_sells_its_least_valuable_card(level: str) -> None:
    """No column takes a card of its hand and it can pay for none: it sells The Origin (2), not The Darkness (9) or
    The Mill (8); each sells for two tokens."""
    state = table(mine={d: ("2MK",) for d in range(5)}, theirs={d: ("3LY",) for d in range(5)},
                  hand=("2VL", "9VY", "8VL"), tokens=supply())
    plan = plan_turn(state, 0, level, Chance(b"sell", 1))
    assert [a for a in plan.actions if isinstance(a, Sell | Buy | Deed)] == [Sell(card="2VL")]
