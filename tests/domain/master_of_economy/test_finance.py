"""§8, financial operations (ME-F-1..3)."""

from __future__ import annotations

import pytest

from domain.master_of_economy.commands import BuyPacket, ExchangePacket, Pass, RepayCredits, SellPacket, TakeCredit
from domain.master_of_economy.errors import CannotAfford, LimitReached, NotAllowed
from domain.master_of_economy.events import CreditsRepaid, CreditTaken, InterestPaid, PacketBought, PacketSold
from domain.master_of_economy.pending import pending
from domain.master_of_economy.state import Step

from .builders import act, at, cash, corp, game, of, order, packets, settled

A, B, C = "blue", "yellow", "green"


def test_me_f_1_interest_then_optional_repayment() -> None:
    """ME-F-1: from stage 2, 1 EUR per credit, one payment each; then any number repaid at 5 each."""
    state = corp(order(game(2), A, B), A, cash=20, credits=2)
    events, state = settled(at(state, Step.INTEREST, number=5, stage=2))
    assert of(events, InterestPaid) == [InterestPaid(corporation=A, amount=1)] * 2 and cash(state, A) == 18
    assert pending(state).seats == (0,)
    events, state = act(state, 0, RepayCredits(count=2))
    assert of(events, CreditsRepaid) == [CreditsRepaid(corporation=A, count=2, amount=10)]
    assert state.corps[0].credits == 0 and state.step == Step.BANK_TRADE


def test_me_f_1_no_interest_step_in_stage_1() -> None:
    """ME-F-1: skipped in stage 1."""
    from domain.master_of_economy.flow import begin_phase
    from domain.master_of_economy.folding import evolve
    from domain.master_of_economy.recorder import Recorder

    rec = Recorder(at(order(game(2), A, B), Step.CREDIT, number=4), evolve)
    begin_phase(rec, 5)
    assert rec.state.step == Step.BANK_TRADE


def test_me_f_1_no_repayment_after_a_missed_interest_payment() -> None:
    """ME-F-1: only once all the interest is paid."""
    from domain.master_of_economy.finance import most_repaid

    state = corp(order(game(2), A, B), A, cash=0, credits=1)
    _, state = settled(at(state, Step.INTEREST, number=5, stage=2))
    assert state.corps[0].interest_missed == 1 and most_repaid(state, 0) == 0


def test_me_f_2_corporations_trade_with_the_bank_twice_round() -> None:
    """ME-F-2: two rounds in action order, one transaction or a pass per turn, at most one purchase and one sale;
    never its own shares; cash needed."""
    state = corp(corp(order(game(2), A, B), A, cash=30), B, cash=30)
    state = at(state, Step.BANK_TRADE, number=5)
    with pytest.raises(NotAllowed):
        act(state, 0, BuyPacket(corporation=A, packet=1))
    events, state = act(state, 0, BuyPacket(corporation=B, packet=9))
    assert of(events, PacketBought)[0].cost == 9 and pending(state).seats == (1,)
    _, state = act(state, 1, Pass())
    assert state.round == 2 and pending(state).seats == (0,)
    with pytest.raises(LimitReached):
        act(state, 0, BuyPacket(corporation=B, packet=1))
    events, state = act(state, 0, SellPacket(corporation=B, packet=9))
    assert of(events, PacketSold)[0].value == 9
    state2 = corp(at(order(game(2), A, B), Step.BANK_TRADE, number=5), A, cash=3)
    with pytest.raises(CannotAfford):
        act(state2, 0, BuyPacket(corporation=B, packet=5))


def test_me_f_2_exchanges_count_as_purchase_or_sale() -> None:
    """ME-F-2: a larger packet is a purchase (pays the difference, bonus), a smaller one a sale."""
    state = packets(corp(at(order(game(2), A, B), Step.BANK_TRADE, number=5), A, cash=30), B, seat_1=(10,),
                    corp_blue=(3,))
    _, state = act(state, 0, ExchangePacket(corporation=B, give=3, take=1))
    assert state.corps[0].cash == 32 and state.trades[0] == (0, 1)


def test_me_f_3_one_credit_of_5_at_most_two() -> None:
    """ME-F-3."""
    state = corp(at(order(game(2), A, B), Step.CREDIT, number=5), A, credits=1)
    events, state = act(state, 0, TakeCredit())
    assert of(events, CreditTaken) == [CreditTaken(corporation=A, amount=5)] and state.corps[0].credits == 2
    state = corp(at(order(game(2), A, B), Step.CREDIT, number=5), A, credits=2)
    _, state = settled(state)
    assert pending(state).seats == (1,)  # A cannot take a third: not asked
    with pytest.raises(LimitReached):
        from domain.master_of_economy.finance import take_credit
        take_credit(state, 0)
