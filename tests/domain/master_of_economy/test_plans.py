"""Master of Economy's planned moves (issue #29): "pass whenever my turn comes in this phase" passes through the
seat's legal Pass only, within the phase it was set in, and expires with it."""

from __future__ import annotations

from domain.kernel import Seat
from domain.master_of_economy import GAME
from domain.master_of_economy.commands import Pass
from domain.master_of_economy.plans import PLANS, PassPhase
from domain.master_of_economy.state import Step

from .builders import act, at, game


def on_turn(state) -> int:  # type: ignore[no-untyped-def]
    seats = GAME.pending(state).seats
    assert seats, GAME.pending(state)
    return seats[0]


def test_the_plan_is_fixed_to_the_phase_it_is_set_in() -> None:
    state = at(game(2), Step.INVEST, number=1, stage=1)
    assert [o.kind for o in PLANS.offered(state, Seat(0))] == ["master_of_economy.pass_phase"]
    assert PLANS.fix(state, Seat(0), PassPhase(stage=9, phase=9)) == PassPhase(stage=1, phase=1)
    assert PLANS.describe(PassPhase(stage=1, phase=1)).args["phase"] == 1


def test_it_passes_at_the_seats_turn_in_its_phase_only() -> None:
    state = at(game(2), Step.INVEST, number=1, stage=1)
    seat = on_turn(state)
    plan = PLANS.fix(state, Seat(seat), PassPhase())
    assert PLANS.planned(state, Seat(seat), plan) == Pass()
    assert PLANS.planned(state, Seat(1 - seat), PLANS.fix(state, Seat(1 - seat), PassPhase())) is None, "not its turn"
    _, after = act(state, seat, Pass())
    assert not PLANS.expired(after, plan) or (after.stage, after.number) != (1, 1)
    later = at(state, Step.PROCURE, number=2, stage=1)
    assert PLANS.planned(later, Seat(on_turn(later)), plan) is None and PLANS.expired(later, plan)


def test_no_pass_where_the_rules_offer_none() -> None:
    state = at(game(2), Step.AUCTION, number=1, stage=1)  # a sealed choice: no pass among its moves
    plan = PassPhase(stage=1, phase=1)
    assert GAME.pending(state).seats
    for seat in GAME.pending(state).seats:
        assert PLANS.planned(state, Seat(seat), plan) is None, "a sealed choice is never passed for"
