"""Master of Economy's planned moves (issue #29): "pass whenever my turn comes in this phase", played for the seat
through its legal ``Pass`` (ending a turn of investments, procurement, bids, the financial operations, the share
trading, or declining to stand for manager), never where the rules offer no pass (a sealed choice, a shortfall).
The phase is fixed when the plan is set: the plan expires when the next phase begins."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from domain.kernel import Seat
from domain.kernel.phrases import Phrase, say
from domain.kernel.plans import Plan, PlanKinds, PlanOffer, PlanRefused

from .commands import Pass
from .legal import legal_commands
from .narrate import PHASES
from .state import State, Step

Number = Annotated[int, msgspec.Meta(ge=0, le=1000)]


class PassPhase(Plan, frozen=True, tag="master_of_economy.pass_phase"):
    """Pass whenever the seat's turn comes in the phase it was set in."""

    stage: Number = 0
    phase: Number = 0
    """The stage and the phase the plan covers (fixed by the server when the plan is set)."""


MoePlan = PassPhase


def _in_phase(state: State) -> bool:
    return state.step not in (Step.SETUP, Step.ENDED) and 1 <= state.number <= 10


def offered(state: State, seat: Seat) -> tuple[PlanOffer, ...]:
    if not _in_phase(state) or not 0 <= seat < len(state.players):
        return ()
    return (PlanOffer(kind="master_of_economy.pass_phase",
                      title=say("Pass whenever my turn comes in this phase ({name})", name=PHASES[state.number])),)


def fix(state: State, seat: Seat, plan: Any) -> PassPhase:
    if not isinstance(plan, PassPhase) or not offered(state, seat):
        raise PlanRefused(phrase=say("no planned move can be set in this game now"))
    return PassPhase(stage=state.stage, phase=state.number)


def planned(state: State, seat: Seat, plan: Any) -> Pass | None:
    if not isinstance(plan, PassPhase) or (state.stage, state.number) != (plan.stage, plan.phase):
        return None
    if any(isinstance(t.command, Pass) for t in legal_commands(state, seat)):  # empty unless the seat may act
        return Pass()
    return None


def expired(state: State, plan: Any) -> bool:
    return state.step == Step.ENDED or (state.stage, state.number) != (plan.stage, plan.phase)


def describe(plan: Any) -> Phrase:
    return say("Pass whenever my turn comes in phase {phase} of stage {stage} ({name})", phase=plan.phase,
               stage=plan.stage, name=PHASES[plan.phase])


PLANS: PlanKinds[State] = PlanKinds(plan_type=MoePlan, offered=offered, fix=fix, planned=planned, expired=expired,
                                    describe=describe)
