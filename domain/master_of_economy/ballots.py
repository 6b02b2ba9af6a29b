"""Who votes what at the shareholders meeting (ME-H-3.3, ME-H-5.2): every holder of the corporation's shares votes
all of them; a player votes their own, a holding corporation's are voted by its current manager. A seat's ballot
has one line per holder it votes for (its own shares first, then the corporations it manages, in catalog order),
and for dividends one line per holder and proposal, plus the manager's own voice for an exact tie (``chair``)."""

from __future__ import annotations

from .cursor import target_corp
from .holders import controller, holders, seat_holder, shares
from .state import State

CHAIR = "chair"


def controlled(state: State, seat: int) -> tuple[str, ...]:
    """The holders of the target corporation's shares that ``seat`` votes for."""
    corp = state.corps[target_corp(state)]
    mine = [h for h in holders(corp) if controller(state, h) == seat]
    own = seat_holder(seat)
    return tuple(sorted(mine, key=lambda h: (h != own, [c.key for c in state.corps].index(h[5:]) if h != own else 0)))


def proposals(state: State) -> tuple[int, ...]:
    """The distinct proposals, highest first (the order they are voted on, ME-H-3.4)."""
    return tuple(sorted(set(state.meeting.proposals), reverse=True))


def dividend_lines(state: State, seat: int) -> tuple[tuple[str, int], ...]:
    """(holder or ``chair``, dividend) of each line of ``seat``'s dividend ballot."""
    lines = [(h, k) for h in controlled(state, seat) for k in proposals(state)]
    if state.corps[target_corp(state)].manager == seat:
        lines += [(CHAIR, k) for k in proposals(state)]
    return tuple(lines)


def election_lines(state: State, seat: int) -> tuple[str, ...]:
    return controlled(state, seat)


def voters(state: State, dividend: bool) -> tuple[int, ...]:
    return tuple(s for s in range(len(state.players))
                 if (dividend_lines(state, s) if dividend else election_lines(state, s)))


def weight(state: State, holder: str) -> int:
    return shares(state.corps[target_corp(state)], holder)
