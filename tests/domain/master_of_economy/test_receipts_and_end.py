"""§10 the next action sequence (ME-N-*), §11 the end (ME-E-*) and §13 2 vs. 2 (ME-W-*)."""

from __future__ import annotations

from domain.kernel import SYSTEM
from domain.master_of_economy.commands import PlaceReceipts, ScoreAc
from domain.master_of_economy.cursor import receipts_order
from domain.master_of_economy.ending import over, plain_ranks, team_ranks
from domain.master_of_economy.events import (
    CashDistributed,
    CreditsSettled,
    GameEnded,
    HoldingsSold,
    OrderSet,
    ReceiptsGiven,
    StageBegan,
)
from domain.master_of_economy.flow import begin_phase
from domain.master_of_economy.folding import evolve
from domain.master_of_economy.pending import pending
from domain.master_of_economy.recorder import Recorder
from domain.master_of_economy.state import Step

from .builders import act, at, corp, game, of, order, packets, player, resolve

A, B, C, D = "blue", "yellow", "green", "red"


def test_me_n_1_every_player_receives_a_token_they_carry_over() -> None:
    """ME-N-1."""
    state = player(at(order(game(2), A, B), Step.PLAYER_TRADE, number=10), 0, receipts=2)
    rec = Recorder(state, evolve)
    begin_phase(rec, 11)
    assert of(rec.events, ReceiptsGiven) == [ReceiptsGiven(count=1)]
    assert [p.receipts for p in rec.state.players] == [3, 2]


def test_me_n_2_managers_in_order_then_the_others_in_seat_order_once_each() -> None:
    """ME-N-2: managers of positions 1, 2, ... (a manager of two once), then players without a corporation."""
    state = order(game(4), C, A, B, D)
    state = corp(state, D, manager=2)  # seat 2 manages C and D; seat 3 manages nothing
    assert receipts_order(state) == (2, 0, 1, 3)


def test_me_n_3_to_n_5_the_last_gets_one_more_ties_keep_order_tokens_leave() -> None:
    """ME-N-3: +1 for the last; ME-N-4: most first, ties in current order; ME-N-5: the tokens are removed and the
    next stage begins."""
    state = order(game(2), A, B)
    state = at(state, Step.RECEIPTS, number=11, target=0, stage=1)
    state = player(player(state, 0, receipts=1), 1, receipts=1)
    events: list[object] = []
    for seat, count in ((0, 0), (1, 1), (0, 1)):  # on A: seat 0 none, seat 1 one; on B: seat 0 one
        new, state = act(state, seat, PlaceReceipts(count=count))
        events += new
    assert of(events, OrderSet)[0] == OrderSet(order=(B, A), reason="receipts", receipts=(2, 1))
    assert of(events, StageBegan) == [StageBegan(stage=2)]
    assert all(c.receipts == 0 for c in state.corps) and state.number == 1


def test_me_e_1_the_end_condition() -> None:
    """ME-E-1: 25 points after a trade phase, or stage 4's second trade phase."""
    state = order(game(2), A, B)
    assert not over(at(state, Step.RESOLVE, number=4, stage=1))
    assert over(at(corp(state, A, points=25), Step.RESOLVE, number=4, stage=1))
    assert over(at(state, Step.RESOLVE, number=9, stage=4))
    assert not over(at(state, Step.RESOLVE, number=4, stage=4))


def test_me_e_1_the_game_ends_when_the_trade_phase_is_over() -> None:
    """ME-E-1: the phase in progress is completed and no further phase is played."""
    state = corp(order(game(2), A, B), A, points=25)
    events, state = resolve(state)
    assert of(events, GameEnded) and state.step == Step.ENDED and pending(state).finished


def test_me_e_1_the_ac_counts_unless_the_option_says_not() -> None:
    """ME-E-1 (``ac_triggers_end``)."""
    for option in (True, False):
        state = game(2, additional_corporation=True, ac_triggers_end=option)
        ac = next(c.key for c in state.corps if c.automated)
        state = at(corp(state, ac, points=24), Step.AC_SCORE, number=4, sealed=((3,), (0,)))
        _, state = act(state, SYSTEM, ScoreAc())
        assert (state.step == Step.ENDED) == option


def ending(**changes: object) -> tuple[list[object], object]:
    state = order(game(4), A, B, C, D)
    for key, value in changes.items():
        state = corp(state, key, **value)  # type: ignore[arg-type]
    state = corp(state, A, points=25)
    return resolve(state)


def test_me_e_2_corporations_sell_their_holdings_factories_and_goods_worth_nothing() -> None:
    """ME-E-2."""
    state = order(game(4), A, B, C, D)
    state = packets(state, B, seat_1=(10,), corp_blue=(3,))
    events, state = resolve(corp(state, A, points=25))
    assert HoldingsSold(corporation=A, of=B, packets=(3,), value=3) in of(events, HoldingsSold)


def test_me_e_3_credits_settled_at_6_or_what_the_cash_allows() -> None:
    """ME-E-3."""
    events, _ = ending(blue={"credits": 2, "cash": 20}, yellow={"credits": 2, "cash": 7})
    settled = {e.corporation: e for e in of(events, CreditsSettled)}
    assert settled[A].amount == 12 and settled[B].amount == 7


def test_me_e_4_and_e_5_cash_to_the_player_shareholders_the_ac_pays_nothing() -> None:
    """ME-E-4: per share, per packet, the remainder to the last manager; ME-E-5: the AC has no treasury."""
    events, state = ending(blue={"cash": 27})
    paid = next(e for e in of(events, CashDistributed) if e.corporation == A)
    assert (paid.per_share, paid.per_packet, paid.remainder) == (2, 7, 0)
    assert all(c.cash == 0 for c in state.corps)
    _, state = resolve(corp(order(game(2, additional_corporation=True), A, B), A, points=25))
    assert next(c for c in state.corps if c.automated).cash == 0


def test_me_e_6_to_e_8_final_results_and_ranks() -> None:
    """ME-E-6: packets at the final price + cash; ME-E-7: minus the auction bid; ME-E-8: the highest wins, ties
    share."""
    state = order(game(2), A, B)
    state = player(player(state, 0, cash=10, start_bid=4), 1, cash=3)
    events, state = resolve(corp(corp(state, A, points=25, cash=0), B, cash=0))
    results = {r.seat: r for r in of(events, GameEnded)[0].results}
    assert (results[0].shares, results[0].bid, results[0].result) == (40, 4, 46)
    assert results[1].result == 3 + 10
    assert plain_ranks({0: 5, 1: 5, 2: 3}) == {0: 1, 1: 1, 2: 3}


def test_me_w_1_to_w_3_teams() -> None:
    """ME-W-1: fixed teams of two (seats 1+2 against 3+4); ME-W-2: the higher sum wins, ranked best first within
    each team; ME-W-3: equal sums, the best individual result's team wins; shared across teams, nobody does."""
    state = game(4, teams=True)
    assert state.variant.teams == ((0, 1), (2, 3))
    assert team_ranks({0: 90, 1: 90, 2: 100, 3: 80}, ((0, 1), (2, 3))) == {2: 1, 3: 2, 0: 3, 1: 3}
    assert team_ranks({0: 100, 1: 80, 2: 100, 3: 80}, ((0, 1), (2, 3))) == {0: 1, 1: 1, 2: 1, 3: 1}
    events, _ = resolve(corp(order(state, A, B, C, D), A, points=25))
    ended = of(events, GameEnded)[0]
    assert len(ended.teams) == 2 and sum(ended.teams) == sum(r.result for r in ended.results)
