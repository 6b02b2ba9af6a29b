"""§16: every worked example reproduces the spec's numbers (one test each, citing 16.x)."""

from __future__ import annotations

from domain.kernel import SYSTEM
from domain.master_of_economy.bidding import tokens_available
from domain.master_of_economy.commands import (
    BuyPacket,
    CountBallots,
    Embezzle,
    ExchangePacket,
    Pass,
    PickManager,
    PlaceBid,
    PlaceReceipts,
    ResolveMarket,
    ScoreAc,
)
from domain.master_of_economy.cursor import tiebreak_picker
from domain.master_of_economy.dividends import most_dividend
from domain.master_of_economy.elections import count as count_ballots
from domain.master_of_economy.ending import _distribute, final_results, team_ranks
from domain.master_of_economy.events import (
    AcScored,
    CashDistributed,
    Embezzled,
    Exported,
    ExportFailed,
    HoldingsSold,
    LocalDeal,
    ManagerElected,
    OrderSet,
    PacketBought,
    PacketExchanged,
)
from domain.master_of_economy.holders import index, price
from domain.master_of_economy.meeting import embezzle, most_embezzled, redemptions
from domain.master_of_economy.state import Meeting, Step

from .builders import (
    CAT,
    act,
    at,
    bids,
    cash,
    corp,
    game,
    goods,
    held_goods,
    of,
    order,
    packets,
    player,
    resolve,
)

# A, B, C, D of the manual's examples are blue, yellow, green, red (seats 0-3 manage them).
A, B, C, D = "blue", "yellow", "green", "red"


def test_16_1_construction_materials_trade() -> None:
    """16.1 (table 15.3): B, A, C, D; C sells on 1, 2, 6; A on 3, 4; B on 5 with an IMPORT bid; D two IMPORTs."""
    state = order(game(), B, A, C, D)
    for key in (A, B, C, D):
        state = corp(state, key, goods=goods(materials=3))
    state = at(state, Step.BIDS, number=4)
    before = {k: cash(state, k) for k in (A, B, C, D)}
    placed = {B: [5, 0], A: [3, 4], C: [1, 2, 6], D: [0, 0]}
    for key in (B, A, C, D):  # in action order, each corporation's bids in one submission (ME-T-7)
        seat = state.corps[index(state, key)].manager
        for field in placed[key]:
            _, state = act(state, seat, PlaceBid(commodity="materials", field=field))
        _, state = act(state, seat, Pass())
    assert state.step == Step.RESOLVE
    events, state = act(state, SYSTEM, ResolveMarket())
    deals = [(e.buyer, e.seller, e.field, e.price) for e in of(events, LocalDeal)]
    assert deals == [(B, C, 1, 1), (D, C, 2, 1), (D, A, 3, 1)]  # Step A: no points, d stays at 7
    assert [(e.corporation, e.field, e.price, e.points, e.demand) for e in of(events, Exported)] == [
        (A, 4, 1, 1, 6), (B, 5, 2, 1, 5)]
    assert [(e.corporation, e.field) for e in of(events, ExportFailed)] == [(C, 6)]  # 5 < 6: fails, no fine
    delta = {k: cash(state, k) - before[k] for k in (A, B, C, D)}
    assert delta == {A: 2, B: 1, C: 2, D: -2}
    assert {k: held_goods(state, k)[0] for k in (A, B, C, D)} == {A: 1, B: 3, C: 1, D: 5}
    assert {k: state.corps[index(state, k)].points for k in (A, B, C, D)} == {A: 1, B: 1, C: 0, D: 0}
    assert all(row.demand == 0 and row.stage == 0 for row in state.rows)  # d back at rest (7 when next opened)


def test_16_2_share_prices() -> None:
    """16.2 (table 15.4)."""
    points = [0, 8, 9, 11, 15, 16, 17, 18, 24, 25, 27, 30]
    assert [CAT.price(p) for p in points] == [1, 1, 2, 2, 2, 2, 3, 3, 3, 4, 4, 4]


def test_16_3_share_trading_and_bonus() -> None:
    """16.3: at 15 points (price 2) an 8-packet costs 16 and the manager gets 2 whatever the size; exchanging a
    4-packet for the 8-packet costs 8 and also pays the bonus."""
    state = order(game(), A, B, C, D)
    state = corp(state, B, points=15, cash=40)
    state = at(state, Step.BANK_TRADE, number=5)  # A (seat 0) buys B's shares
    events, after = act(state, 0, BuyPacket(corporation=B, packet=8))
    bought = of(events, PacketBought)[0]
    assert (bought.cost, bought.bonus_to, bought.bonus) == (16, "seat:1", 2)
    assert after.players[1].cash == state.players[1].cash + 2
    state = packets(state, B, seat_1=(10,), corp_blue=(4,))
    events, after = act(state, 0, ExchangePacket(corporation=B, give=4, take=8))
    exchanged = of(events, PacketExchanged)[0]
    assert (exchanged.amount, exchanged.bonus_to, exchanged.bonus) == (8, "seat:1", 2)
    assert cash(after, A) == cash(state, A) - 8


def test_16_4_embezzlement() -> None:
    """16.4: 11 points and 5 EUR: 1 at most, costing 3 (1 to the manager, 2 to the bank), 10 points after; none at
    9 points; 18 points and 8 EUR: the points allow 1, the cash 2, so 1."""
    state = corp(game(), A, points=11, cash=5)
    a = index(state, A)
    assert most_embezzled(state, a) == 1
    event = embezzle(state, a, 1)[0]
    assert isinstance(event, Embezzled) and (event.amount, event.cost, event.points) == (1, 2, 1)
    _, after = act(at(state, Step.EMBEZZLE, number=10), 0, Embezzle(amount=1))
    assert cash(after, A) == 2 and after.corps[a].points == 10 and after.players[0].cash == state.players[0].cash + 1
    assert most_embezzled(corp(state, A, points=9, cash=50), a) == 0
    assert most_embezzled(corp(state, A, points=18, cash=8), a) == 1


def test_16_5_dividend_eligibility() -> None:
    """16.5: 25 EUR, 18 shares outstanding (10 + 1 with the manager, 2 with a player, 5 with a corporation), 2
    credits: the reserve is 12, so 30 are needed: no vote."""
    state = corp(game(), A, cash=25, credits=2)
    state = packets(state, A, seat_0=(10, 1), seat_1=(2,), corp_green=(5,))
    assert most_dividend(state, index(state, A)) == 0
    assert most_dividend(corp(state, A, cash=30), index(state, A)) == 1


def test_16_6_redemption() -> None:
    """16.6: at 15 points (price 2) a 10-packet costs 10 x 2 + 2 = 22 and a 1-packet 1 x 2 + 2 = 4, to the holder."""
    state = corp(game(), A, points=15, cash=30)
    state = packets(state, A, seat_0=(10,), seat_1=(1,), seat_2=(3,))
    costs = {(p, r): cost for p, r, cost in redemptions(state, index(state, A))}
    assert costs[(10, 10)] == 22 and costs[(1, 1)] == 4


def test_16_7_election() -> None:
    """16.7: 26 votes each; the largest holder, corporation C (13, managed by player 1), picks."""
    p1, p2, p4 = 0, 1, 3
    state = order(game(), A, B, C, D)
    state = packets(state, A, seat_0=(10, 2), seat_1=(7,), seat_2=(1,), seat_3=(6,), corp_yellow=(4,),
                    corp_green=(8, 5), corp_red=(9,))
    state = corp(corp(corp(state, B, manager=p4), C, manager=p1), D, manager=p2)
    # ballots: player 1 votes own shares and C's for player 1; player 2 own and D's for player 2; player 3 for
    # player 1; player 4 own and B's for player 2 (lines: own first, then managed corporations in catalog order)
    state = at(state, Step.BALLOT_COUNT, number=10, target=0, meeting=Meeting(candidates=(p1, p2)),
               sealed=((p1, p1), (p2, p2), (p1,), (p2, p2)))
    counted = count_ballots(state)
    assert dict(counted[0].votes) == {p1: 26, p2: 26} and counted[0].tied == (p1, p2)
    events, after = act(state, SYSTEM, CountBallots())
    assert after.step == Step.TIEBREAK and after.meeting.tied == (p1, p2)
    assert tiebreak_picker(after) == ("corp:green", p1)
    events, after = act(after, p1, PickManager(seat=p1))
    assert of(events, ManagerElected)[0] == ManagerElected(corporation=A, seat=p1, picked_by="corp:green")
    # the second case: 10 + 2 against 9 + 3: the holder of the 10-packet picks
    state = packets(state, A, seat_0=(10, 2), seat_1=(9, 3))
    assert tiebreak_picker(state)[1] == p1


def test_16_8_end_of_game_liquidation() -> None:
    """16.8: B's 4 shares of A at 27 points bring 16; A's 68 EUR: 2 a share, then 3 a packet, 1 to the manager."""
    from domain.master_of_economy.ending import finish
    from domain.master_of_economy.folding import evolve
    from domain.master_of_economy.recorder import Recorder

    state = corp(game(), A, points=27, cash=68)
    state = packets(state, A, seat_0=(10, 2), seat_1=(7,), seat_2=(1,), seat_3=(6,), corp_yellow=(4,))
    rec = Recorder(state, evolve)
    finish(rec)
    sold = [e for e in of(rec.events, HoldingsSold) if e.of == A]
    assert sold == [HoldingsSold(corporation=B, of=A, packets=(4,), value=16)]
    paid = next(e for e in of(rec.events, CashDistributed) if e.corporation == A)
    assert (paid.per_share, paid.per_packet, paid.remainder) == (2, 3, 1)
    manager = state.corps[index(state, A)].manager
    assert dict(paid.payments) == {0: 30 + (manager == 0), 1: 17 + (manager == 1), 2: 5 + (manager == 2),
                                   3: 15 + (manager == 3)}
    assert _distribute(rec.state, index(state, A)).per_share == 0  # nothing left


def test_16_9_final_share_values() -> None:
    """16.9: A at 27 points (price 4): 12 shares are worth 48, 7 are 28, 1 is 4 and 6 are 24."""
    state = corp(game(), A, points=27)
    state = packets(state, A, seat_0=(10, 2), seat_1=(7,), seat_2=(1,), seat_3=(6,))
    for key in (B, C, D):
        state = packets(state, key)  # only A's shares count here
    state = player(player(player(player(state, 0, cash=0), 1, cash=0), 2, cash=0), 3, cash=0)
    assert [value for _, _, value, _ in final_results(state)] == [48, 28, 4, 24]


def test_16_10_additional_corporation_tokens() -> None:
    """16.10 (3 players): 2, 2, 0 give the AC 4; next time those are locked, 1, 1, 1 give 3: 7 in all; the price
    rises from 1 to 2 at 9 points."""
    state = game(3, additional_corporation=True)
    ac = next(i for i, c in enumerate(state.corps) if c.automated)
    state = at(state, Step.AC_SCORE, number=4, sealed=((2,), (2,), (0,)))
    events, state = act(state, SYSTEM, ScoreAc())
    assert of(events, AcScored)[0].gained == 4 and state.corps[ac].points == 4
    assert [p.locked for p in state.players] == [2, 2, 0]
    assert tokens_available(state, 0) == (0, 1) and tokens_available(state, 2) == (1, 2)
    state = at(state, Step.AC_SCORE, number=9, sealed=((1,), (1,), (1,)))
    events, state = act(state, SYSTEM, ScoreAc())
    assert state.corps[ac].points == 7 and price(state, ac) == 1
    assert CAT.price(8) == 1 and CAT.price(9) == 2


def test_16_11_two_vs_two() -> None:
    """16.11: 96 + 89 = 185 beats 106 + 77 = 183: player 1, player 2, player 3, player 4."""
    ranks = team_ranks({0: 96, 1: 89, 2: 106, 3: 77}, ((0, 1), (2, 3)))
    assert ranks == {0: 1, 1: 2, 2: 3, 3: 4}


def test_16_12_receipts() -> None:
    """16.12: A, B, C; 1 token on A, 2 on B, 0 on C; C gets 1 as the last: 1, 2, 1: B, A, C."""
    state = order(game(3), A, B, C)
    state = at(state, Step.RECEIPTS, number=11, target=0)
    for seat in range(3):
        state = player(state, seat, receipts=2)
    placements = {0: (1, 0, 0), 1: (0, 2, 0), 2: (0, 0, 0)}  # seat -> tokens on A, B, C
    events: list[object] = []
    for target in range(3):
        for seat in (0, 1, 2):  # the managers of A, B, C in turn
            if state.players[seat].receipts:  # a player without tokens is not asked
                new, state = act(state, seat, PlaceReceipts(count=placements[seat][target]))
                events += new
    ordered = of(events, OrderSet)[0]
    assert ordered == OrderSet(order=(B, A, C), reason="receipts", receipts=(2, 1, 1))
    assert [state.corps[c].key for c in state.order] == [B, A, C]


def test_16_13_demand_cap() -> None:
    """16.13: ships, players on fields 1-7, no IMPORT bids: all 7 export in the basic game (after field 6 d = 7);
    with the variant ME-X-4 stops after field 6 and field 7 fails."""
    state = order(game(4), A, B, C, D)
    for key in (A, B, C, D):
        state = corp(state, key, goods=goods(ships=2))
    state = bids(state, "ships", f1=A, f2=B, f3=C, f4=D, f5=A, f6=B, f7=C)
    events, _ = resolve(state)
    assert [e.field for e in of(events, Exported)] == [1, 2, 3, 4, 5, 6, 7]
    state = order(game(3, additional_corporation=True), A, B, C)
    for key in (A, B, C):
        state = corp(state, key, goods=goods(ships=3))
    state = bids(state, "ships", f1=A, f2=B, f3=C, f4=A, f5=B, f6=C, f7=A)
    events, _ = resolve(state)
    assert [e.field for e in of(events, Exported)] == [1, 2, 3, 4, 5, 6]
    assert [e.field for e in of(events, ExportFailed)] == [7]
