"""ME-H-5, the shareholders meeting's step 5: the election of the manager for the next stage. The players holding
the most shares (players only) are candidates and cannot decline; every other player stands or declines (public,
in any order). With one candidate there is nothing to vote on. Otherwise every voter casts a sealed ballot (each
holder's votes to one candidate, or abstaining); :class:`~.commands.CountBallots` reveals them; on a tie the holder
with the most shares (then the largest packet) picks among the tied, through its controller."""

from __future__ import annotations

from msgspec.structs import replace

from domain.kernel import InvalidValue
from domain.kernel.phrases import say

from .ballots import election_lines, weight
from .cursor import target_corp, tiebreak_picker
from .errors import AlreadyChosen, NotAllowed
from .events import BallotsCounted, CandidacyDeclared, ManagerChanged, ManagerElected, ManagerVoteCast
from .holders import index, player_holders, shares, with_corp
from .state import State

ABSTAIN = -1


def forced(state: State) -> tuple[int, ...]:
    """The players holding the most shares of the target corporation (ME-H-5.1)."""
    corp = state.corps[target_corp(state)]
    counts = {s: shares(corp, f"seat:{s}") for s in player_holders(corp)}
    most = max(counts.values(), default=0)
    return tuple(s for s, n in counts.items() if n == most and n > 0)


def undecided(state: State) -> tuple[int, ...]:
    decided = set(state.meeting.candidates) | set(state.meeting.declined)
    return tuple(s for s in range(len(state.players)) if s not in decided)


def declare(state: State, seat: int, stands: bool) -> list[CandidacyDeclared]:
    if seat not in undecided(state):
        raise AlreadyChosen(phrase=say("you have already declared"))
    return [CandidacyDeclared(corporation=state.corps[target_corp(state)].key, seat=seat, stands=stands)]


def vote(state: State, seat: int, choices: tuple[int, ...]) -> list[ManagerVoteCast]:
    if state.sealed[seat] is not None:
        raise AlreadyChosen(phrase=say("your ballot is already cast"))
    lines = election_lines(state, seat)
    if len(choices) != len(lines):
        raise InvalidValue(phrase=say("one choice per ballot line ({n})", n=len(lines)), field="choices")
    allowed = {*state.meeting.candidates, ABSTAIN}
    if any(c not in allowed for c in choices):
        raise InvalidValue(phrase=say("each choice is a candidate's seat or -1 (abstain)"), field="choices",
                           candidates=list(state.meeting.candidates))
    return [ManagerVoteCast(seat=seat, choices=tuple(choices))]


def count(state: State) -> list[BallotsCounted | ManagerElected]:
    corp = state.corps[target_corp(state)]
    votes = dict.fromkeys(state.meeting.candidates, 0)
    for seat, ballot in enumerate(state.sealed):
        for holder, choice in zip(election_lines(state, seat), ballot or (), strict=False):
            if choice != ABSTAIN:
                votes[choice] += weight(state, holder)
    most = max(votes.values())
    tied = tuple(s for s, v in votes.items() if v == most)
    out: list[BallotsCounted | ManagerElected] = [
        BallotsCounted(corporation=corp.key, ballots=state.sealed, votes=tuple(votes.items()), tied=tied)]
    if len(tied) == 1:
        out.append(ManagerElected(corporation=corp.key, seat=tied[0]))
    return out


def pick(state: State, seat: int, winner: int) -> list[ManagerElected]:
    if winner not in state.meeting.tied:
        raise NotAllowed(phrase=say("pick one of the tied candidates"), tied=list(state.meeting.tied))
    holder, _ = tiebreak_picker(state)
    return [ManagerElected(corporation=state.corps[target_corp(state)].key, seat=winner, picked_by=holder)]


def changes(state: State) -> list[ManagerChanged]:
    """ME-H-7: the elections take effect at the end of the meeting."""
    return [ManagerChanged(corporation=corp.key, seat=corp.elected, previous=corp.manager)
            for corp in (state.corps[c] for c in state.order)
            if corp.elected is not None and corp.elected != corp.manager]


def apply_candidacy_declared(state: State, event: CandidacyDeclared) -> State:
    m = state.meeting
    meeting = (replace(m, candidates=(*m.candidates, event.seat)) if event.stands
               else replace(m, declined=(*m.declined, event.seat)))
    return replace(state, meeting=meeting)


def apply_manager_vote_cast(state: State, event: ManagerVoteCast) -> State:
    sealed = list(state.sealed)
    sealed[event.seat] = event.choices if event.choices is not None else ()
    return replace(state, sealed=tuple(sealed))


def apply_ballots_counted(state: State, event: BallotsCounted) -> State:
    return replace(state, meeting=replace(state.meeting, tied=event.tied))


def apply_manager_elected(state: State, event: ManagerElected) -> State:
    return replace(with_corp(state, index(state, event.corporation), elected=event.seat), done=True)


def apply_manager_changed(state: State, event: ManagerChanged) -> State:
    return with_corp(state, index(state, event.corporation), manager=event.seat)


