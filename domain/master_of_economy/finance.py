"""§8, Financial operations (phase 5), steps 1 and 3: interest and repayment (ME-F-1), taking credits (ME-F-3).
Step 2, the corporations' share trading, is :mod:`.shares`'."""

from __future__ import annotations

from msgspec.structs import replace

from domain.kernel import InvalidValue
from domain.kernel.phrases import Phrase, say

from .errors import LimitReached
from .events import CreditsRepaid, CreditTaken, InterestPaid, InterestUnpaid
from .holders import cat_of, corp_holder, index, transfer, with_corp
from .recorder import Recorder
from .shortfall import Paid, end, pay
from .state import State


def pay_interest(rec: Recorder, corp: int) -> bool:
    """ME-F-1: each credit's interest, one payment at a time (resumable); True while a shortfall waits."""
    interest = cat_of(rec.state).rules.credits.interest
    while True:
        held = rec.state.corps[corp]
        if held.interest_paid + held.interest_missed >= held.credits:
            return False
        paid = pay(rec, corp, interest, "interest")
        if paid == Paid.WAIT:
            return True
        if paid == Paid.OK:
            rec.emit(InterestPaid(corporation=held.key, amount=interest))
        else:
            rec.emit(InterestUnpaid(corporation=held.key))


def most_repaid(state: State, corp: int) -> int:
    """ME-F-1: credits the corporation may repay now (none while an interest payment was missed)."""
    held = state.corps[corp]
    if held.interest_missed:
        return 0
    return min(held.credits, held.cash // cat_of(state).rules.credits.repayment)


def repay(state: State, corp: int, count: int) -> list[CreditsRepaid]:
    most = most_repaid(state, corp)
    if not 1 <= count <= most:
        raise InvalidValue(phrase=say("the corporation may repay 1 to {most} credits",
                                      most=most), field="count", most=most)
    amount = count * cat_of(state).rules.credits.repayment
    return [CreditsRepaid(corporation=state.corps[corp].key, count=count, amount=amount)]


def credit_refusal(state: State, corp: int) -> Phrase | None:
    rules = cat_of(state).rules.credits
    if state.corps[corp].credits >= rules.max_held:
        return say("at most {n} credits (ME-F-3)", n=rules.max_held)
    if sum(c.credits for c in state.corps) >= rules.tokens:
        return say("no credit token left")
    return None


def take_credit(state: State, corp: int) -> list[CreditTaken]:
    refusal = credit_refusal(state, corp)
    if refusal is not None:
        raise LimitReached(phrase=refusal)
    return [CreditTaken(corporation=state.corps[corp].key, amount=cat_of(state).rules.credits.cash)]


def apply_interest_paid(state: State, event: InterestPaid) -> State:
    corp = index(state, event.corporation)
    state = transfer(end(state), corp_holder(event.corporation), "bank", event.amount)
    return with_corp(state, corp, interest_paid=state.corps[corp].interest_paid + 1)


def apply_interest_unpaid(state: State, event: InterestUnpaid) -> State:
    corp = index(state, event.corporation)
    return with_corp(end(state), corp, interest_missed=state.corps[corp].interest_missed + 1)


def apply_credits_repaid(state: State, event: CreditsRepaid) -> State:
    corp = index(state, event.corporation)
    state = transfer(state, corp_holder(event.corporation), "bank", event.amount)
    return replace(with_corp(state, corp, credits=state.corps[corp].credits - event.count), done=True)


def apply_credit_taken(state: State, event: CreditTaken) -> State:
    corp = index(state, event.corporation)
    state = transfer(state, "bank", corp_holder(event.corporation), event.amount)
    return replace(with_corp(state, corp, credits=state.corps[corp].credits + 1), done=True)


