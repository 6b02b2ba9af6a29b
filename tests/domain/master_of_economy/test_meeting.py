"""§9, the shareholders meeting (ME-H-1..7)."""

from __future__ import annotations

import pytest

from domain.kernel import SYSTEM, InvalidValue
from domain.master_of_economy.commands import (
    BuyPacket,
    CountBallots,
    CountVotes,
    Embezzle,
    Pass,
    ProposeDividend,
    Redeem,
    SellPacket,
    Stand,
    VoteDividends,
    VoteManager,
)
from domain.master_of_economy.cursor import player_trade_order
from domain.master_of_economy.errors import LimitReached, NotAllowed
from domain.master_of_economy.events import (
    BallotsCounted,
    BoardBonusPaid,
    CandidacyDeclared,
    DividendCounted,
    DividendPaid,
    Embezzled,
    ManagerChanged,
    ManagerElected,
    PacketBought,
    Redeemed,
)
from domain.master_of_economy.flow import begin_phase
from domain.master_of_economy.folding import evolve
from domain.master_of_economy.legal import legal_commands
from domain.master_of_economy.pending import pending
from domain.master_of_economy.recorder import Recorder
from domain.master_of_economy.state import Meeting, Step

from .builders import act, at, cash, corp, factories, game, of, order, packets, player, settled

A, B, C, D = "blue", "yellow", "green", "red"


def test_me_h_1_board_bonus_by_factories() -> None:
    """ME-H-1: 1-5 factories 1, 6-10 2, 11-15 3, 16+ 5, none for 0; a manager of two collects twice."""
    state = order(game(3), A, B, C)
    state = corp(corp(corp(state, A, factories=factories(quarry=5, coal_mine=1)), B, factories=factories(
        quarry=5, coal_mine=5, ore_mine=5, power_plant=1)), C, manager=0, factories=factories(quarry=1))
    rec = Recorder(at(state, Step.PLAYER_TRADE, number=9), evolve)
    begin_phase(rec, 10)
    assert of(rec.events, BoardBonusPaid) == [BoardBonusPaid(corporation=A, seat=0, amount=2),
                                              BoardBonusPaid(corporation=B, seat=1, amount=5),
                                              BoardBonusPaid(corporation=C, seat=0, amount=1)]


def test_me_h_2_embezzlement_limits() -> None:
    """ME-H-2: the price may not fall and 1 + price per euro must be affordable; each euro costs a point."""
    state = at(corp(order(game(2), A, B), A, points=12, cash=20), Step.EMBEZZLE, number=10)
    with pytest.raises(InvalidValue):
        act(state, 0, Embezzle(amount=4))  # 12 -> 8 would lower the price
    events, state = act(state, 0, Embezzle(amount=3))
    assert of(events, Embezzled)[0] == Embezzled(corporation=A, seat=0, amount=3, cost=6, points=3)
    assert state.corps[0].points == 9 and cash(state, A) == 11


def dividend_table() -> object:
    """A: 40 EUR; 20 shares out (seat 0: 10, seat 1: 7, corporation B (seat 1's): 3); no credit."""
    state = order(game(2), A, B)
    state = packets(corp(state, A, cash=40), A, seat_0=(10,), seat_1=(7,), corp_yellow=(3,))
    return at(state, Step.PROPOSE, number=10, target=0)


def test_me_h_3_proposals_votes_and_payment() -> None:
    """ME-H-3: proposals in seat order from the manager; sealed ballots, one line per holder and proposal plus the
    manager's voice; highest first, more than half passes; paid to every holder (corporations too)."""
    state = dividend_table()
    assert pending(state).seats == (0,)
    with pytest.raises(InvalidValue):
        act(state, 0, ProposeDividend(per_share=3))  # 20 x 3 > 40
    _, state = act(state, 0, ProposeDividend(per_share=2))
    _, state = act(state, 1, ProposeDividend(per_share=1))
    assert state.step == Step.VOTE and pending(state).seats == (0, 1)
    from domain.master_of_economy.ballots import dividend_lines
    assert dividend_lines(state, 0) == (("seat:0", 2), ("seat:0", 1), ("chair", 2), ("chair", 1))
    assert dividend_lines(state, 1) == (("seat:1", 2), ("seat:1", 1), ("corp:yellow", 2), ("corp:yellow", 1))
    _, state = act(state, 0, VoteDividends(yes=(1, 3)))  # no to 2, yes to 1
    _, state = act(state, 1, VoteDividends(yes=(0, 1, 2, 3)))  # yes to both
    assert state.step == Step.VOTE_COUNT and pending(state).system == CountVotes()
    events, state = act(state, SYSTEM, CountVotes())
    counted = of(events, DividendCounted)[0]
    assert counted.yes == ((2, 10), (1, 20)) and counted.passed == 1 and not counted.chair  # 10 of 20: not more
    paid = of(events, DividendPaid)[0]
    assert dict(paid.payments) == {"seat:0": 10, "seat:1": 7, "corp:yellow": 3} and cash(state, A) == 20


def test_me_h_3_the_manager_decides_an_exact_half() -> None:
    """ME-H-3.4: exactly half: the manager's own yes/no decides (even without shares)."""
    state = dividend_table()
    _, state = act(state, 0, ProposeDividend(per_share=2))
    _, state = act(state, 1, Pass())
    _, state = act(state, 0, VoteDividends(yes=(1,)))  # own 10 shares no, chair yes
    _, state = act(state, 1, VoteDividends(yes=(0, 1)))  # 10 yes
    events, _ = act(state, SYSTEM, CountVotes())
    assert of(events, DividendCounted)[0].passed == 2 and of(events, DividendCounted)[0].chair


def test_me_h_3_nobody_proposes_no_vote() -> None:
    """ME-H-3.2: if nobody proposes there is no dividend."""
    state = dividend_table()
    _, state = act(state, 0, Pass())
    _, state = act(state, 1, Pass())
    assert (state.step, state.target) == (Step.PROPOSE, 1)  # no vote on A; B (25 EUR, 10 shares out) is next


def test_me_h_4_redemption() -> None:
    """ME-H-4: one packet (or part) from any holder without consent, r x price + price to the holder; a partial
    redemption needs the bank's smaller packet; never the last player holding."""
    state = order(game(2), A, B)
    state = packets(corp(state, A, cash=30, points=15), A, seat_0=(10,), seat_1=(5,))
    state = at(state, Step.REDEEM, number=10)
    events, after = act(state, 0, Redeem(packet=5, shares=2))  # packet 3 is in the bank
    assert of(events, Redeemed)[0] == Redeemed(corporation=A, holder="seat:1", packet=5, shares=2, amount=6,
                                               returned=3)
    assert after.corps[0].packets[2] == "seat:1" and after.corps[0].packets[4] == "bank"
    assert after.players[1].cash == state.players[1].cash + 6
    lone = packets(state, A, seat_0=(10,))
    with pytest.raises(NotAllowed):
        act(lone, 0, Redeem(packet=10, shares=10))  # the last player holding


def electing(**meeting: object) -> object:
    state = order(game(3), A, B, C)
    state = packets(state, A, seat_0=(10,), seat_1=(9,), seat_2=(1,))
    return at(state, Step.STAND, number=10, target=0, **meeting)


def test_me_h_5_candidates_ballots_and_the_winner() -> None:
    """ME-H-5: the largest player holders cannot decline; others may stand; sealed ballots; most votes wins."""
    from domain.master_of_economy.flow import election_target

    rec = Recorder(at(electing(), Step.REDEEM, number=10), evolve)
    election_target(rec, 0)
    assert of(rec.events, CandidacyDeclared) == [CandidacyDeclared(corporation=A, seat=0, stands=True, forced=True)]
    state = rec.state
    assert pending(state).seats == (1, 2)
    _, state = act(state, 1, Stand())
    _, state = act(state, 2, Pass())
    assert state.step == Step.BALLOT and state.meeting.candidates == (0, 1)
    _, state = act(state, 0, VoteManager(choices=(0,)))
    _, state = act(state, 1, VoteManager(choices=(1,)))
    _, state = act(state, 2, VoteManager(choices=(1,)))
    events, state = act(state, SYSTEM, CountBallots())
    assert of(events, BallotsCounted)[0].votes == ((0, 10), (1, 10)) and state.step == Step.TIEBREAK
    assert pending(state).seats == (0,)  # the 10-packet's holder picks


def test_me_h_5_a_single_candidate_is_elected_without_a_vote() -> None:
    """ME-H-5.3: with one candidate there is nothing to vote on."""
    state = electing(meeting=Meeting(candidates=(0,)))
    _, state = act(state, 1, Pass())
    events, state = act(state, 2, Pass())
    assert of(events, ManagerElected)[0] == ManagerElected(corporation=A, seat=0)


def test_me_h_6_players_trade_counter_clockwise_from_the_last_corporations_manager() -> None:
    """ME-H-6.1-2: from the manager of the last corporation, then the previous seat; round 3 only for players who
    manage nothing next stage."""
    state = at(order(game(4), A, B, C, D), Step.PLAYER_TRADE, number=10)
    assert player_trade_order(state) == (3, 2, 1, 0)
    state = corp(corp(state, C, elected=3), D, manager=3)  # seat 2 will manage nothing
    assert player_trade_order(at(state, Step.PLAYER_TRADE, number=10, round_=3)) == (2,)


def test_me_h_6_limits_bonus_and_no_orphans() -> None:
    """ME-H-6.4-6: a manager-to-be makes at most one purchase and one sale; the bonus goes to the manager unless
    the buyer is the manager; a sale may not leave no player holding."""
    state = player(player(at(order(game(2), A, B), Step.PLAYER_TRADE, number=10), 1, cash=50), 0, cash=50)
    events, state = act(state, 1, BuyPacket(corporation=A, packet=9))  # seat 1 is first (B's manager)
    assert of(events, PacketBought)[0].bonus_to == "seat:0"
    events, state = act(state, 0, BuyPacket(corporation=A, packet=8))  # its own: no bonus
    assert of(events, PacketBought)[0].bonus_to is None
    with pytest.raises(LimitReached):
        act(state, 1, BuyPacket(corporation=A, packet=7))
    with pytest.raises(NotAllowed):
        act(state, 1, SellPacket(corporation=B, packet=10))  # seat 1 is B's only player holder


def test_me_h_7_the_election_takes_effect_when_the_meeting_ends() -> None:
    """ME-H-7, ME-H-5.4: the current manager stays until then."""
    state = corp(at(order(game(2), A, B), Step.PLAYER_TRADE, number=10), A, elected=1)
    assert state.corps[0].manager == 0
    events, state = settled(state)
    while state.step == Step.PLAYER_TRADE:
        events, state = act(state, pending(state).seats[0], Pass())
    assert ManagerChanged(corporation=A, seat=1, previous=0) in events
    assert state.corps[0].manager == 1


def test_legal_ballots_cover_every_choice() -> None:
    """ME-H-5.2: each line votes a candidate or abstains."""
    state = at(electing(meeting=Meeting(candidates=(0, 1))), Step.BALLOT, number=10)
    choices = {t.command.choices for t in legal_commands(state, 1) if isinstance(t.command, VoteManager)}
    assert choices == {(0,), (1,), (-1,)}
