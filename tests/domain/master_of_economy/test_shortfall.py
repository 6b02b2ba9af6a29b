"""§14.1, the shortfall procedure (ME-X-1..3), in trade and for interest."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from domain.kernel import WrongPhase
from domain.master_of_economy.commands import CoverShortfall, Pass, SellForShortfall
from domain.master_of_economy.events import (
    FactorySold,
    ImportBought,
    InterestPaid,
    InterestUnpaid,
    LocalDeal,
    PurchaseDropped,
    ShortfallArose,
    ShortfallCovered,
)
from domain.master_of_economy.legal import legal_commands
from domain.master_of_economy.pending import pending
from domain.master_of_economy.state import Step
from domain.master_of_economy.variant import Variant

from .builders import act, at, bids, cash, corp, factories, game, goods, of, order, player, resolve, settled

A, B = "blue", "yellow"


def short_buyer(**changes: object) -> object:
    """A (seat 0) must pay 5 for coal abroad with 2 EUR."""
    state = corp(order(game(2), A, B), A, **{"cash": 2, **changes})
    return bids(state, "coal", imports=(A,))


def test_me_x_1_the_manager_may_give_then_the_purchase_goes_through() -> None:
    """ME-X-1.1: a gift of 0 to min(shortfall, personal cash); enough, and the purchase is made."""
    state = player(short_buyer(), 0, cash=10)
    events, state = resolve(state)
    assert of(events, ShortfallArose) == [ShortfallArose(corporation=A, due=5, reason="import")]
    assert pending(state).seats == (0,)
    template = legal_commands(state, 0)[0]
    assert template.command == CoverShortfall(amount=3) and template.params[0].maximum == 3
    with pytest.raises(WrongPhase):
        act(state, 0, Pass())
    events, state = act(state, 0, CoverShortfall(amount=3))
    assert of(events, ShortfallCovered)[0].amount == 3 and of(events, ImportBought)
    assert state.players[0].cash == 7 and cash(state, A) == 0 and state.shortfall is None


def test_me_x_1_still_short_a_factory_must_be_sold_for_2() -> None:
    """ME-X-1.2: with one factory type the sale is automatic; 2 EUR even if not enough; ME-X-1.3: still short, the
    purchase is cancelled and the money raised stays."""
    state = short_buyer(factories=factories(quarry=1))
    events, state = resolve(state)  # the manager has no cash: nothing to ask
    assert of(events, FactorySold) == [FactorySold(corporation=A, factory="quarry", value=2, forced=True)]
    assert of(events, PurchaseDropped)[0].reason == "cash" and cash(state, A) == 4


def test_me_x_1_the_manager_picks_which_factory_to_sell() -> None:
    """ME-X-1.2: the manager's choice among the types it owns."""
    state = short_buyer(cash=3, factories=factories(quarry=1, power_plant=1))
    _, state = resolve(state)
    assert {t.command for t in legal_commands(state, 0)} == {SellForShortfall(factory="quarry"),
                                                           SellForShortfall(factory="power_plant")}
    events, state = act(state, 0, SellForShortfall(factory="power_plant"))
    assert of(events, FactorySold)[0].factory == "power_plant" and of(events, ImportBought)
    assert state.corps[0].factories == factories(quarry=1)


def test_me_x_1_in_a_local_deal_the_sellers_bid_stays() -> None:
    """ME-X-1.3 with ME-T-12: a buyer still short drops its bid; the seller's bid stays for export."""
    state = corp(corp(order(game(2), A, B), A, cash=0), B, goods=goods(ships=1))
    events, _ = resolve(bids(state, "ships", imports=(A,), f4=B))
    assert of(events, PurchaseDropped)[0].reason == "cash" and not of(events, LocalDeal)
    assert of(events, ShortfallArose)[0].reason == "local"


def test_me_x_1_interest() -> None:
    """ME-X-1 with ME-F-1: interest is a payment the procedure covers; still short, it goes unpaid."""
    state = corp(order(game(2), A, B), A, cash=0, credits=2)
    events, state = settled(at(state, Step.INTEREST, number=5, stage=2))
    assert [type(e) for e in events if isinstance(e, InterestPaid | InterestUnpaid)] == [InterestUnpaid] * 2
    state = player(corp(order(game(2), A, B), A, cash=0, credits=1), 0, cash=4)
    _, state = settled(at(state, Step.INTEREST, number=5, stage=2))
    assert pending(state).seats == (0,) and state.shortfall is not None
    events, state = act(state, 0, CoverShortfall(amount=1))
    assert of(events, InterestPaid)


def test_me_x_2_one_forced_sale_per_shortfall() -> None:
    """ME-X-2: each shortfall allows one forced sale; several shortfalls, several sales."""
    state = short_buyer(cash=0, factories=factories(quarry=3))
    state = bids(state, "coal", imports=(A, A))
    events, state = resolve(state)
    assert len(of(events, FactorySold)) == 2 and len(of(events, PurchaseDropped)) == 2
    assert state.corps[0].factories == factories(quarry=1)


def test_me_x_3_no_shortfall_procedure_for_fines() -> None:
    """ME-X-3: an unaffordable fine is waived, without a gift or a sale."""
    state = player(corp(order(game(2), A, B), A, cash=0, goods=goods(), factories=factories(quarry=2)), 0, cash=9)
    events, _ = resolve(bids(state, "coal", f1=A))
    assert not of(events, ShortfallArose) and not of(events, FactorySold)


def test_me_x_1_with_hidden_cash_the_manager_is_always_asked() -> None:
    """ME-S-10 with ME-X-1.1: asking only managers with money would tell the table they have some."""
    state = replace(short_buyer(), variant=Variant(players=2, player_cash_hidden=True))
    _, state = resolve(state)
    assert pending(state).seats == (0,)
    assert legal_commands(state, 0)[0].command == CoverShortfall(amount=0)
