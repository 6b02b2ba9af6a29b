"""§2.2 the turn (R2.1-R2.3) and §2.11's procedure: the roll made at once for the next seat (R9.2) and a whole
turn as one atomic submission (R9.4); whose turn it is, and who may issue which command."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from domain.decktet.commands import Buy, Choose, Develop, EndTurn, PlayTurn, RevealSeed, Sell, StartGame, Trade
from domain.decktet.decider import step
from domain.decktet.errors import CardPlayMissing, ChoicesFirst, WrongPayment
from domain.decktet.events import DiceRolled, IncomePaid, TurnEnded, TurnStarted
from domain.decktet.notation import parse_turn
from domain.decktet.state import DecktetState, Placed
from domain.decktet.variant import GameOptions
from domain.kernel import SYSTEM, ActorNotAllowed, Chance, GameAlreadyOver, NotYourTurn, WrongPhase

from .builders import act, arrange, column, dice, fresh_turn, started, supply


def test_r2_1_roll_then_actions_then_draw_and_the_next_seat_rolls_at_once_r9_2() -> None:
    _, state = started()
    state = fresh_turn(state, 0)
    _, state = act(state, 0, Sell(card=state.seats[0].hand[0]))
    events, after = act(state, 0, EndTurn(), 0, *dice(6, 2))
    kinds = [type(e).__name__ for e in events]
    assert kinds[:4] == ["CardsDrawn", "TurnEnded", "TurnStarted", "DiceRolled"]
    assert events[2] == TurnStarted(seat=1, turn=state.turn + 1) and after.active == 1 and after.plays == 0
    assert after.roll is not None and after.roll.dice == (6, 2)


def test_r2_3_the_turn_cannot_end_without_its_card_play() -> None:
    state = fresh_turn(started()[1], 0)
    with pytest.raises(CardPlayMissing):
        act(state, 0, EndTurn())


def test_r9_1c_the_turn_cannot_end_with_income_choices_pending() -> None:
    state = fresh_turn(started()[1], 0)
    state = arrange(state, 0, columns={0: column(("7VY", supply()))})
    state = replace(state, choices=("7VY",), plays=1)
    with pytest.raises(ChoicesFirst):
        act(state, 0, EndTurn())


def test_only_the_active_seat_acts_and_only_the_system_starts_or_reveals() -> None:
    _, state = started()
    other = 1 - state.active
    with pytest.raises(NotYourTurn):
        act(state, other, Sell(card=state.seats[other].hand[0]))
    with pytest.raises(ActorNotAllowed):
        step(state, SYSTEM, EndTurn(), Chance(b"x", 1))
    with pytest.raises(ActorNotAllowed):
        step(state, state.active, RevealSeed(seed="00"), Chance(b"x", 1))  # type: ignore[arg-type]
    with pytest.raises(WrongPhase):
        step(state, SYSTEM, StartGame(options=GameOptions(), seed_commitment="c"), Chance(b"x", 1))
    with pytest.raises(WrongPhase):
        step(DecktetState(), 0, EndTurn(), Chance(b"x", 1))  # type: ignore[arg-type]


def game_to_turn() -> DecktetState:
    """The whole-turn example of §3.2: Cave deed choice, a trade, The Mountain into b, Leaves on the Merchant."""
    state = fresh_turn(started()[1], 0)
    state = replace(state, districts=("PMSL", "PMSL", "0", "PSVK", "PVLY"))
    state = arrange(state, 0, hand=("4MS", "2SY", "3MV"), supply_=supply(M=1, K=3, S=2, L=2),
                    columns={0: column(("7VY", supply())), 3: column(("9LK", supply(L=1, K=1)))})
    return replace(state, choices=("7VY",))


def test_r9_4_a_whole_turn_is_applied_in_order_then_ended() -> None:
    state = game_to_turn()
    command = PlayTurn(actions=parse_turn("C:7VY+Y, T:K3+S, B:4MS@b+M+S3, A:9LK+L2"))
    events, after = act(state, 0, command, 0, *dice(3, 2))
    assert any(isinstance(e, TurnEnded) for e in events) and after.active == 1
    assert after.seats[0].columns[1] == (Placed("4MS"),)
    assert after.seats[0].columns[3][0].tokens == supply(L=3, K=1)


def test_r9_4_a_whole_turn_is_all_or_nothing_and_each_action_checked_in_sequence() -> None:
    state = game_to_turn()
    with pytest.raises(ChoicesFirst):  # choices must come first
        act(state, 0, PlayTurn(actions=(Trade(give="K", take="S"), Choose(card="7VY", suit="Y"))))
    with pytest.raises(WrongPayment):  # the buy needs the Suns the trade has not been made for: nothing applies
        act(state, 0, PlayTurn(actions=parse_turn("C:7VY+Y, B:4MS@b+M+S4")))
    with pytest.raises(CardPlayMissing):
        act(state, 0, PlayTurn(actions=(Choose(card="7VY", suit="Y"), Develop(card="9LK", suit="L"))))


def test_r9_3_d11_the_first_roll_taxes_and_pays_like_any_other() -> None:
    """In Mega a player may start with two tokens of a suit; a tax on it on the first roll takes one away."""
    from domain.decktet.events import GameStarted, Taxed

    seen_tax = seen_ten = False
    for i in range(400):
        events, _ = started(f"first{i}".encode(), mega=True)
        game = events[0]
        assert isinstance(game, GameStarted)
        roll = next(e for e in events if isinstance(e, DiceRolled))
        for code in roll.taxed:
            holders = [s for s, held in enumerate(game.supplies) if held["MSVLYK".index(code)] > 1]
            assert [e.seat for e in events if isinstance(e, Taxed) and e.suit == code] == holders
            seen_tax = seen_tax or bool(holders)
        if max(roll.dice) == 10:
            assert sum(1 for e in events if isinstance(e, IncomePaid)) == 2
            seen_ten = True
        if seen_tax and seen_ten:
            return
    pytest.fail("no first-roll tax on a doubled suit and no first roll of 10 in 400 seeds")


def test_nothing_is_accepted_after_the_end() -> None:
    from domain.decktet.state import Phase

    state = replace(fresh_turn(started()[1], 0), phase=Phase.ENDED)
    with pytest.raises(GameAlreadyOver):
        act(state, 0, EndTurn())


def test_buy_is_accepted_with_suit_codes_in_either_case() -> None:
    state = arrange(fresh_turn(started()[1], 0), 0, hand=("1M", "2SY", "3MV"), supply_=supply(M=3))
    d = "abcde"[state.districts.index("0")]
    assert act(state, 0, Buy(card="1M", district=d.upper(), payment={"m": 3}))[0]
