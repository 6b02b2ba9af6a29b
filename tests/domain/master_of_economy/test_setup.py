"""§0.4, §1-§3: conventions, components, setup and the game's structure (ME-G-*, ME-S-*)."""

from __future__ import annotations

import pytest

from domain.kernel import SYSTEM, Chance, InvalidValue, NothingPending, NotYourTurn
from domain.master_of_economy.catalog import catalog
from domain.master_of_economy.commands import BidForOrder, PickCorporation, RevealStartBids, StartGame
from domain.master_of_economy.decider import step
from domain.master_of_economy.errors import AlreadyChosen, NoSuchThing
from domain.master_of_economy.events import (
    CorporationPicked,
    CorporationsFormed,
    OrderSet,
    StartBidSealed,
    StartBidsRevealed,
)
from domain.master_of_economy.flow import KIND, MEETING, PRODUCE, TRADE
from domain.master_of_economy.holders import BANK, index, seat_holder
from domain.master_of_economy.pending import pending
from domain.master_of_economy.state import State, Step
from domain.master_of_economy.variant import GameOptions

from .builders import CAT, KEYS, act, game, of, started


def test_me_s_1_players_pick_different_corporations_in_seat_order() -> None:
    """ME-S-1: 2-4 players, each a different corporation, in seat order; unpicked ones do not take part."""
    _, state = step(State(), SYSTEM, StartGame(options=GameOptions(players=3), seed_commitment="c"), Chance(b"s", 1))
    assert state.step == Step.PICK and pending(state).seats == (0,)
    with pytest.raises(NotYourTurn):
        act(state, 1, PickCorporation(corporation="red"))
    _, state = act(state, 0, PickCorporation(corporation="red"))
    with pytest.raises(NoSuchThing):
        act(state, 1, PickCorporation(corporation="red"))
    _, state = act(state, 1, PickCorporation(corporation="blue"))
    events, state = act(state, 2, PickCorporation(corporation="green"))
    assert of(events, CorporationsFormed)[0].corporations == ("blue", "green", "red")  # catalog order
    assert [c.key for c in state.corps] == ["blue", "green", "red"]
    with pytest.raises(InvalidValue):
        step(State(), SYSTEM, StartGame(options=GameOptions(players=4, additional_corporation=True),
                                        seed_commitment="c"), Chance(b"s", 1))


def test_me_s_1_the_service_may_assign_the_corporations_by_a_seeded_draw() -> None:
    """ME-S-1 (random assignment) and ME-G-4: the draw is seeded, so the same seed assigns the same way."""
    events, state = started(4, seed=b"x", assignment="random")
    picks = of(events, CorporationPicked)
    assert all(p.drawn for p in picks) and sorted(p.corporation for p in picks) == sorted(KEYS)
    again, _ = started(4, seed=b"x", assignment="random")
    assert of(again, CorporationPicked) == picks
    assert state.step == Step.INVEST


def test_me_s_2_seats_are_the_join_order() -> None:
    """ME-S-2: seats are fixed; the players' share trading goes round them (ME-H-6) and picks follow them."""
    state = game(4)
    assert [p.corporation for p in state.players] == KEYS  # seat i picked in turn


def test_me_s_3_to_6_and_s_11_what_everyone_starts_with() -> None:
    """ME-S-3: the 10-packet and a receipts token, 0 EUR; ME-S-4: 25 EUR and 3 construction materials; ME-S-5: the
    bank holds 1-9; ME-S-6: 0 points; ME-S-11: empty receipts spaces."""
    state = game(4)
    start = CAT.rules.start
    for seat, p in enumerate(state.players):
        assert (p.cash, p.receipts) == (start.player_cash, start.receipts)
        c = state.corps[index(state, p.corporation or "")]
        assert c.packets[9] == seat_holder(seat) and all(h == BANK for h in c.packets[:9])
        assert c.manager == seat
    for c in state.corps:
        assert (c.cash, c.goods[0], sum(c.goods), sum(c.factories), c.credits, c.points, c.receipts) == (
            25, 3, 3, 0, 0, 0, 0)


def test_me_s_7_the_clock_starts_at_stage_1_investments() -> None:
    """ME-S-7."""
    state = game(2)
    assert (state.stage, state.number, state.step) == (1, 1, Step.INVEST)


def test_me_s_8_demand_markers_start_on_their_boxes() -> None:
    """ME-S-8: every row's demand starts at N + 1 when it is resolved (table 15.3)."""
    assert [c.demand_start for c in CAT.commodities] == [len(c.fields) + 1 for c in CAT.commodities]


def test_me_s_9_random_start_order_is_a_seeded_permutation() -> None:
    """ME-S-9 (random): a permutation of the player-run corporations, the same for the same seed."""
    events, _ = started(4, seed=b"y")
    order = of(events, OrderSet)[0]
    assert order.reason == "random" and sorted(order.order) == sorted(KEYS)
    assert of(started(4, seed=b"y")[0], OrderSet) == [order]


def test_me_s_9_auction_sealed_bids_ranked_highest_first_ties_drawn() -> None:
    """ME-S-9 (auction): every player seals one bid at once; revealed together; highest first; equal bids in a
    seeded order; nothing is paid now (ME-E-7 subtracts the bid at the end)."""
    _, state = started(3, start_order="auction")
    assert state.step == Step.AUCTION and pending(state).seats == (0, 1, 2)
    with pytest.raises(NothingPending):
        act(state, SYSTEM, RevealStartBids())
    events, state = act(state, 1, BidForOrder(amount=5))
    assert events[0] == StartBidSealed(seat=1, amount=5) and pending(state).seats == (0, 2)
    with pytest.raises(AlreadyChosen):
        act(state, 1, BidForOrder(amount=6))
    _, state = act(state, 2, BidForOrder(amount=2))
    _, state = act(state, 0, BidForOrder(amount=2))
    assert state.step == Step.AUCTION_REVEAL and pending(state).system == RevealStartBids()
    events, state = act(state, SYSTEM, RevealStartBids(), seed=b"tie")
    revealed = of(events, StartBidsRevealed)[0]
    assert revealed.bids == (2, 5, 2) and sorted(revealed.draws) == [0, 2]
    order = of(events, OrderSet)[0].order
    assert order[0] == "yellow" and set(order[1:]) == {"blue", "green"}
    assert [p.start_bid for p in state.players] == [2, 5, 2]
    assert all(p.cash == 0 for p in state.players)


def test_me_s_10_player_cash_may_be_hidden() -> None:
    """ME-S-10: a table option, recorded in the first event."""
    state = game(2, player_cash_hidden=True)
    assert state.variant.player_cash_hidden


def test_me_g_1_money_is_whole_euros() -> None:
    """ME-G-1: every amount is an integer (prices, bonuses, the data)."""
    for c in CAT.commodities:
        assert all(isinstance(p, int) for p in (*c.exports, *c.locals, c.import_price))
    assert all(isinstance(b.price, int) for b in CAT.rules.price)


def test_me_g_2_the_bank_never_runs_out() -> None:
    """ME-G-2: the bank pays whatever is due; its balance may go as low as it likes."""
    state = game(4)
    assert state.bank == -4 * 25  # it paid every treasury and holds no note count


def test_me_g_3_corporations_are_public() -> None:
    """ME-G-3: a corporation's cash, goods and packets are in every viewer's view."""
    from domain.kernel import PUBLIC
    from domain.master_of_economy.view import view

    state = game(2, player_cash_hidden=True)
    shown = view(state, PUBLIC)
    assert shown.corps[0].cash == 25 and shown.corps[0].packets == state.corps[0].packets
    assert shown.players[0].cash is None


def test_me_g_4_randomness_only_from_the_seed() -> None:
    """ME-G-4: the same seed gives the same draws (assignment, AC, order)."""
    a, _ = started(2, seed=b"z", assignment="random", additional_corporation=True)
    b, _ = started(2, seed=b"z", assignment="random", additional_corporation=True)
    assert a == b


def test_me_g_5_and_g_6_ten_phases_and_the_trade_numbering() -> None:
    """ME-G-5: the ten phases; ME-G-6: trade phases 2s - 1 and 2s."""
    from domain.master_of_economy.bidding import trade_phase

    assert [KIND[n] for n in (3, 4, 8, 9, 10)] == [PRODUCE, TRADE, PRODUCE, TRADE, MEETING]
    state = game(2)
    assert [trade_phase(state.__class__(stage=s, number=n)) for s in (1, 2, 3, 4) for n in (4, 9)] == list(
        range(1, 9))


def test_me_g_7_and_g_8_phases_run_in_action_order_by_the_manager() -> None:
    """ME-G-7: investments are sequential turns in action order; ME-G-8: the manager decides."""
    state = game(4)
    first = state.corps[state.order[0]]
    assert pending(state).seats == (first.manager,)


def test_me_g_9_points_stay_on_the_track() -> None:
    """ME-G-9: points are kept between 0 and the top of the track (30)."""
    assert (CAT.rules.game.min_points, CAT.rules.game.max_points) == (0, 30)


def test_me_g_10_share_price_is_a_function_of_points() -> None:
    """ME-G-10."""
    from domain.master_of_economy.holders import price

    state = game(2)
    assert price(state, 0) == catalog().price(state.corps[0].points) == 1

