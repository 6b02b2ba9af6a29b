"""§7: the trade phase (ME-T-*): the market board, placing bids in action order, and the resolution of each row."""

from __future__ import annotations

import pytest

from domain.kernel import SYSTEM, InvalidValue
from domain.master_of_economy.commands import BidSpec, Pass, PlaceBid, PlaceBids, ResolveMarket
from domain.master_of_economy.errors import LimitReached, NotAllowed
from domain.master_of_economy.events import (
    BidPlaced,
    Exported,
    ExportFailed,
    ImportBought,
    LocalDeal,
    PurchaseDeferred,
    PurchaseDropped,
    ReceiptsDiscarded,
    RowOpened,
    SaleFined,
    TurnPassed,
)
from domain.master_of_economy.holders import index
from domain.master_of_economy.pending import pending
from domain.master_of_economy.state import Step
from domain.master_of_economy.tables import ZERO_ONE

from .builders import CAT, GOODS, act, at, bids, cash, corp, game, goods, held_goods, of, order, player, resolve

A, B, C, D = "blue", "yellow", "green", "red"


def trading(players: int = 4, **options: object) -> object:
    state = order(game(players, **options), *[A, B, C, D][:players])
    return at(state, Step.BIDS, number=4)


def test_me_t_1_rows_resolve_top_to_bottom() -> None:
    """ME-T-1, ME-T-11: construction materials, coal, iron ore, energy, steel, ships; each row finished first."""
    assert GOODS == ["materials", "coal", "ore", "energy", "steel", "ships"]
    state = corp(corp(order(game(2), A, B), A, goods=goods(coal=1, ships=1)), B, cash=30)
    state = bids(bids(state, "ships", f1=A), "coal", imports=(B,), f1=A)
    events, _ = resolve(state)
    assert [e.commodity for e in of(events, RowOpened)] == ["coal", "ships"]
    # cash gained in an upper row can be spent in a lower one: the local deal paid A before its ships sold
    assert events.index(of(events, LocalDeal)[0]) < events.index(of(events, Exported)[0])


def test_me_t_2_and_t_3_the_board() -> None:
    """ME-T-2: an IMPORT price, N export fields rising to the right, the start box at N + 1, the highlighted
    column 6; ME-T-3: a 0/1 field pays 0 on export and 1 on the local market."""
    for c in CAT.commodities:
        assert list(c.exports) == sorted(c.exports) and c.demand_start == len(c.fields) + 1
        assert len(c.fields) >= CAT.rules.trade.highlighted_field
    materials = CAT.commodities[0]
    assert materials.fields[0] == ZERO_ONE and (materials.exports[0], materials.locals[0]) == (0, 1)


def test_me_t_3_a_0_1_export_scores_but_pays_nothing() -> None:
    """ME-T-3."""
    state = corp(order(game(2), A, B), A, goods=goods(materials=1))
    events, state = resolve(bids(state, "materials", f1=A))
    sold = of(events, Exported)[0]
    assert (sold.price, sold.points) == (0, 1)


def test_me_t_4_demand_falls_with_each_export_and_stops_exports() -> None:
    """ME-T-4: d starts at N + 1; an export from field f succeeds while d >= f and lowers d."""
    state = order(game(4), A, B, C, D)
    for key in (A, B, C, D):
        state = corp(state, key, goods=goods(coal=2))
    state = bids(state, "coal", f1=A, f2=B, f3=C, f4=D, f5=A, f6=B, f7=C, f8=D)
    events, _ = resolve(state)
    assert [e.demand for e in of(events, Exported)] == [8, 7, 6, 5, 4]  # d = 9 - exports; field 6 > d = 4
    assert [e.field for e in of(events, ExportFailed)] == [6, 7, 8]


def test_me_t_5_the_import_price_is_above_every_field() -> None:
    """ME-T-5."""
    assert all(max(c.locals) < c.import_price for c in CAT.commodities)


def test_me_t_6_six_bids_a_seventh_for_a_receipts_token() -> None:
    """ME-T-6."""
    state = trading(2)
    for _ in range(6):
        _, state = act(state, 0, PlaceBid(commodity="coal", field=0))
    state = player(state, 0, receipts=0)
    with pytest.raises(LimitReached):
        act(state, 0, PlaceBid(commodity="coal", field=0))
    state = player(state, 0, receipts=1)
    events, state = act(state, 0, PlaceBid(commodity="coal", field=0))
    assert isinstance(events[0], ReceiptsDiscarded) and state.players[0].receipts == 0
    # seven bids: nothing more to choose, the turn passes by itself
    assert pending(state).seats == (1,)


def test_me_t_7_bids_in_action_order_one_submission_zero_allowed() -> None:
    """ME-T-7: in action order; all at once (PlaceBids) or bid by bid until a pass; nothing moves afterwards."""
    state = trading(2)
    assert pending(state).seats == (0,)
    events, state = act(state, 0, PlaceBids(bids=(BidSpec(commodity="coal", field=1),
                                                   BidSpec(commodity="coal", field=0))))
    assert [type(e) for e in events[:3]] == [BidPlaced, BidPlaced, TurnPassed]
    assert pending(state).seats == (1,)
    _, state = act(state, 1, PlaceBids(bids=()))  # zero bids is a submission too
    assert state.step == Step.RESOLVE and pending(state).system == ResolveMarket()


def test_me_t_8_any_number_of_import_bids_share_a_field() -> None:
    """ME-T-8."""
    state = trading(2)
    _, state = act(state, 0, PlaceBids(bids=(BidSpec(commodity="ore", field=0),) * 3))
    _, state = act(state, 1, PlaceBid(commodity="ore", field=0))
    assert state.rows[2].imports == (index(state, A),) * 3 + (index(state, B),)


def test_me_t_9_one_bid_per_export_field() -> None:
    """ME-T-9: at most one marker per export field, whoever owns it."""
    state = trading(2)
    _, state = act(state, 0, PlaceBids(bids=(BidSpec(commodity="steel", field=2),)))
    with pytest.raises(NotAllowed):
        act(state, 1, PlaceBid(commodity="steel", field=2))
    with pytest.raises(InvalidValue):
        act(state, 1, PlaceBid(commodity="steel", field=11))


def test_me_t_10_no_goods_or_cash_needed_to_bid_both_sides_allowed() -> None:
    """ME-T-10."""
    state = corp(trading(2), A, cash=0, goods=goods())
    events, _ = act(state, 0, PlaceBids(bids=(BidSpec(commodity="ships", field=3), BidSpec(commodity="ships",
                                                                                         field=0))))
    assert len(of(events, BidPlaced)) == 2


def test_me_t_12_step_a_local_deals_leftmost_other_seller() -> None:
    """ME-T-12: buyers in action order take the leftmost seller bid of another corporation; no point, d unmoved;
    a corporation never deals with itself (its purchase waits for Step C)."""
    state = order(game(3), A, B, C)
    state = corp(corp(corp(state, A, goods=goods(coal=2)), B, goods=goods(coal=1)), C, cash=20)
    state = bids(state, "coal", imports=(A, C), f1=A, f2=B)
    events, state = resolve(state)
    assert [(e.buyer, e.seller, e.field, e.price) for e in of(events, LocalDeal)] == [(A, B, 2, 1), (C, A, 1, 1)]
    assert not of(events, Exported) and state.corps[index(state, A)].points == 0
    # own bids only: deferred to Step C
    state = corp(order(game(2), A, B), A, goods=goods(coal=1), cash=10)
    events, _ = resolve(bids(state, "coal", imports=(A,), f1=A))
    assert of(events, PurchaseDeferred) and of(events, ImportBought) and of(events, Exported)


def test_me_t_12_a_seller_without_goods_is_fined_and_the_buyer_tries_the_next() -> None:
    """ME-T-12 (with ME-T-15): the seller is fined 1 and its bid removed; the same buyer meets the next seller."""
    state = order(game(3), A, B, C)
    state = corp(corp(state, B, goods=goods()), C, goods=goods(ore=1))
    state = bids(state, "ore", imports=(A,), f1=B, f3=C)
    events, state = resolve(state)
    assert of(events, SaleFined) == [SaleFined(corporation=B, commodity="ore", field=1, fine=1)]
    assert of(events, LocalDeal)[0].seller == C and of(events, LocalDeal)[0].price == 2


def test_me_t_12_a_full_buyer_drops_its_bid_and_the_seller_stays() -> None:
    """ME-T-12: a buyer with 10 units drops its bid; the seller's bid stays and exports in Step B."""
    state = order(game(2), A, B)
    state = corp(corp(state, A, goods=goods(coal=10)), B, goods=goods(coal=1))
    events, _ = resolve(bids(state, "coal", imports=(A,), f1=B))
    assert of(events, PurchaseDropped)[0].reason == "full" and of(events, Exported)[0].corporation == B


def test_me_t_13_step_b_exports_left_to_right() -> None:
    """ME-T-13: the cube to the supply, the price from the bank, +1 point, d - 1; without goods a fine (d
    unmoved); once d < f every bid to the right fails without a fine."""
    state = order(game(2), A, B)
    state = corp(corp(state, A, goods=goods(ships=1), cash=5), B, goods=goods())
    events, state = resolve(bids(state, "ships", f3=A, f4=B))
    assert of(events, Exported)[0] == Exported(corporation=A, commodity="ships", field=3, price=3, points=1,
                                               demand=12)
    assert of(events, SaleFined)[0].corporation == B
    assert cash(state, A) == 8 and held_goods(state, A)[5] == 0


def test_me_t_14_step_c_purchases_abroad_at_the_import_price() -> None:
    """ME-T-14: in buyer order, at the import price to the bank; dropped when full or the supply is empty."""
    state = corp(order(game(2), A, B), A, cash=20)
    events, state = resolve(bids(state, "steel", imports=(A, A)))
    assert [e.price for e in of(events, ImportBought)] == [7, 7] and held_goods(state, A)[4] == 2
    state = corp(corp(order(game(2), A, B), A, cash=20, goods=goods(ships=10)), B, goods=goods(ships=1))
    events, _ = resolve(bids(state, "ships", imports=(A,)))
    assert of(events, PurchaseDropped)[0].reason == "full"
    state = corp(corp(order(game(2), A, B), A, cash=20, goods=goods(ships=10)), B, cash=20, goods=goods(ships=1))
    events, _ = resolve(bids(state, "ships", imports=(B,)))  # 11 usable ships, all in warehouses
    assert of(events, PurchaseDropped)[0].reason == "supply"


def test_me_t_15_fines_waived_without_cash() -> None:
    """ME-T-15: 1 to the bank; waived for a corporation with no cash; never for a lack of demand."""
    state = corp(order(game(2), A, B), A, cash=0, goods=goods())
    events, state = resolve(bids(state, "coal", f1=A))
    assert of(events, SaleFined)[0].fine == 0 and cash(state, A) == 0


def test_me_t_16_end_of_trade_resets_the_board() -> None:
    """ME-T-16: bids back to their owners, demand back to the start boxes; then the next phase."""
    state = corp(order(game(2), A, B), A, goods=goods(coal=1))
    _, state = resolve(bids(state, "coal", f1=A, f8=B))
    assert all(all(e is None for e in row.exports) and not row.imports for row in state.rows)
    assert state.number == 5


def test_pass_ends_the_corporations_bids() -> None:
    """ME-T-7: after a pass nothing may be added."""
    state = trading(2)
    _, state = act(state, 0, Pass())
    assert pending(state).seats == (1,)
    _, state = act(state, 1, Pass())
    _, state = act(state, SYSTEM, ResolveMarket())
    assert state.number == 5
