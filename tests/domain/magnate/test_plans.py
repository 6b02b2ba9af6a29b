"""Magnate's planned moves (issue #29): what each plan plays for the seat, when, and when its scope is over."""

from __future__ import annotations

import msgspec
import pytest

from domain.kernel import Seat
from domain.kernel.plans import PlanRefused
from domain.magnate import GAME
from domain.magnate.commands import PassBid, PlaceBid
from domain.magnate.plans import PLANS, BidUpTo, MagnatePlan, PassAuctions
from domain.magnate.state import Phase

from .builders import in_actions, run, set_cash, started


def on_turn(state) -> int:  # type: ignore[no-untyped-def]
    seats = GAME.pending(state).seats
    assert len(seats) == 1
    return seats[0]


def test_the_plans_are_offered_and_fixed_to_the_next_auction() -> None:
    state = started(3)
    assert state.phase == Phase.BIDDING and state.round == 1
    offers = PLANS.offered(state, Seat(1))
    assert [o.kind for o in offers] == ["magnate.pass_auctions", "magnate.bid_up_to"]
    limit = offers[1].fields[0]
    assert (limit.name, limit.minimum, limit.step) == ("limit", 100, 100) and limit.maximum >= 100
    with pytest.raises(PlanRefused):
        PLANS.fix(state, Seat(1), BidUpTo(limit=150))
    assert PLANS.describe(PassAuctions(round=3)).args == {"round": 3}
    assert PLANS.fix(state, Seat(1), PassAuctions(round=7)) == PassAuctions(round=1), "the client's round is ignored"
    assert PLANS.fix(state, Seat(1), PassAuctions(every_round=True)) == PassAuctions(every_round=True, round=0)
    later = in_actions(state)
    assert PLANS.fix(later, Seat(1), BidUpTo(limit=500)) == BidUpTo(limit=500, round=2), "this round's auction is over"


def test_a_plan_is_decoded_from_the_clients_json_and_refuses_unknown_fields() -> None:
    decoded = msgspec.json.decode(b'{"type": "magnate.bid_up_to", "limit": 300}', type=MagnatePlan)
    assert decoded == BidUpTo(limit=300)
    with pytest.raises(msgspec.ValidationError):
        msgspec.json.decode(b'{"type": "magnate.bid_up_to", "limit": 300, "x": 1}', type=MagnatePlan)
    with pytest.raises(PlanRefused):
        PLANS.fix(started(2), Seat(0), PassBid())


def test_pass_auctions_passes_only_at_the_seats_turn_and_only_in_its_round() -> None:
    state = started(3)
    seat = on_turn(state)
    other = (seat + 1) % 3
    plan = PLANS.fix(state, Seat(other), PassAuctions())
    assert PLANS.planned(state, Seat(other), plan) is None, "not its turn yet"
    assert PLANS.planned(state, Seat(seat), PLANS.fix(state, Seat(seat), PassAuctions())) == PassBid()
    _, state = run(state, seat, PlaceBid(amount=100))
    assert on_turn(state) == other
    assert PLANS.planned(state, Seat(other), plan) == PassBid()
    assert not PLANS.expired(state, plan)
    assert PLANS.planned(state, Seat(other), PassAuctions(round=2)) is None, "another round's plan waits"
    assert PLANS.expired(in_actions(state), plan), "the round's auction is over"
    assert not PLANS.expired(in_actions(state), PassAuctions(every_round=True))


def test_bid_up_to_raises_by_the_lowest_bid_within_the_limit_then_passes() -> None:
    state = started(2)
    seat = on_turn(state)
    plan = PLANS.fix(state, Seat(seat), BidUpTo(limit=200))
    assert PLANS.planned(state, Seat(seat), plan) == PlaceBid(amount=100)
    _, state = run(state, seat, PlaceBid(amount=100))
    _, state = run(state, 1 - seat, PlaceBid(amount=200))
    assert PLANS.planned(state, Seat(seat), plan) == PassBid(), "300K is over the limit"
    poor = set_cash(started(2), seat, 0)
    assert PLANS.planned(poor, Seat(seat), BidUpTo(limit=900, round=1)) == PassBid(), "no bid within its cash"


def test_every_command_a_plan_makes_is_accepted_by_the_rules() -> None:
    state = started(4)
    for _ in range(4):
        if state.phase != Phase.BIDDING:
            break
        seat = on_turn(state)
        command = PLANS.planned(state, Seat(seat), BidUpTo(limit=300, round=1))
        assert command is not None
        _, state = run(state, seat, command)
    assert state.phase != Phase.BIDDING or state.auction is not None
