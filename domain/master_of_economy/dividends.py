"""ME-H-3, the shareholders meeting's step 3: dividends. A corporation whose cash covers one euro per outstanding
share plus the credit reserve takes proposals (players in seat order from the manager, one amount each or a
pass), then sealed ballots from every voter at once; :class:`~.commands.CountVotes` reveals them, takes the
proposals from the highest down and pays the first that passes."""

from __future__ import annotations

from msgspec.structs import replace

from domain.kernel import InvalidValue
from domain.kernel.phrases import say

from .ballots import CHAIR, dividend_lines, proposals, weight
from .cursor import target_corp
from .errors import AlreadyChosen, NotAllowed
from .events import DividendCounted, DividendPaid, DividendProposed, DividendVoteCast
from .holders import cat_of, corp_holder, holders, outstanding, shares, transfer
from .state import State
from .wording import euros


def reserve(state: State, corp: int) -> int:
    return cat_of(state).rules.credits.reserve * state.corps[corp].credits


def most_dividend(state: State, corp: int) -> int:
    """The highest dividend per share the corporation may pay (0: none; ME-H-3.1-2)."""
    held = state.corps[corp]
    s = outstanding(held)
    if s <= 0:
        return 0
    most = (held.cash - reserve(state, corp)) // s
    return most if most >= cat_of(state).rules.dividends.min_per_share else 0


def propose(state: State, seat: int, per_share: int) -> list[DividendProposed]:
    corp = target_corp(state)
    most = most_dividend(state, corp)
    least = cat_of(state).rules.dividends.min_per_share
    if not least <= per_share <= most:
        raise InvalidValue(phrase=say("a dividend is {least} to {most} per share", least=euros(least),
                                      most=euros(most)), field="per_share", most=most)
    if per_share in state.meeting.proposals:
        raise NotAllowed(phrase=say("{amount} per share is already proposed", amount=euros(per_share)))
    return [DividendProposed(corporation=state.corps[corp].key, seat=seat, per_share=per_share)]


def vote(state: State, seat: int, yes: tuple[int, ...]) -> list[DividendVoteCast]:
    if state.sealed[seat] is not None:
        raise AlreadyChosen(phrase=say("your ballot is already cast"))
    lines = dividend_lines(state, seat)
    if len(set(yes)) != len(yes) or any(not 0 <= i < len(lines) for i in yes):
        raise InvalidValue(phrase=say("yes lists distinct lines 0 to {most}", most=len(lines) - 1), field="yes")
    return [DividendVoteCast(seat=seat, yes=tuple(sorted(yes)))]


def count(state: State) -> list[DividendCounted | DividendPaid]:
    """ME-H-3.4: more than half of the outstanding shares pass a proposal; at exactly half the manager decides."""
    corp = target_corp(state)
    held = state.corps[corp]
    total = outstanding(held)
    ballots = state.sealed
    tallies: list[tuple[int, int]] = []
    passed: int | None = None
    chair = False
    for k in proposals(state):
        votes, chair_yes = 0, False
        for seat, ballot in enumerate(ballots):
            lines = dividend_lines(state, seat)
            for i in ballot or ():
                holder, amount = lines[i]
                if amount != k:
                    continue
                if holder == CHAIR:
                    chair_yes = True
                else:
                    votes += weight(state, holder)
        tallies.append((k, votes))
        if 2 * votes > total or (2 * votes == total and chair_yes):
            passed, chair = k, 2 * votes == total
            break
    out: list[DividendCounted | DividendPaid] = [
        DividendCounted(corporation=held.key, ballots=ballots, yes=tuple(tallies), passed=passed, chair=chair)]
    if passed is not None:
        payments = tuple((h, passed * shares(held, h)) for h in holders(held))
        out.append(DividendPaid(corporation=held.key, per_share=passed, payments=payments))
    return out


def apply_dividend_proposed(state: State, event: DividendProposed) -> State:
    meeting = replace(state.meeting, proposals=(*state.meeting.proposals, event.per_share))
    return replace(state, meeting=meeting, done=True)


def apply_dividend_vote_cast(state: State, event: DividendVoteCast) -> State:
    sealed = list(state.sealed)
    sealed[event.seat] = event.yes if event.yes is not None else ()
    return replace(state, sealed=tuple(sealed))


def apply_dividend_counted(state: State, event: DividendCounted) -> State:
    return state


def apply_dividend_paid(state: State, event: DividendPaid) -> State:
    payer = corp_holder(event.corporation)
    for holder, amount in event.payments:
        state = transfer(state, payer, holder, amount)
    return state


