"""The medium and hard computer: Monte Carlo search over the worlds its seat cannot tell apart (ISMCTS).

The seat's information set is every arrangement of the cards it has not seen (the other hands and the draw
pile) and of the others' preferences; the future adds the dice and the draws. One **sampled future** is a
determinisation of that set (:func:`~.information.determinise`) with its own stream of dice and draws: the plan
is played, its turn ends (the rules' own draw and next roll), the next ``horizon`` turns are played by
:mod:`.playout`'s quick player for every seat, and the position reached is rated by :mod:`.evaluation`.

The tree's root holds the seat's best plans by the easy computer's rating (:mod:`.heuristic`). Its children are
compared by **sequential halving** on **common sampled futures**: every round, each surviving plan meets the same
fresh futures (the same hidden cards, the same dice while the plays agree), so two plans differ by what they do,
not by luck; the better half survives to the next round, with as many futures again. The budget is a count of
simulated futures, never a time, and every number is an integer: the result depends only on the state the seat
sees and the decision's chance source.
"""

from __future__ import annotations

import msgspec

from ..folding import evolve
from ..plays import plays_allowed
from ..recorder import Recorder
from ..state import DecktetState, Phase
from ..turn import end_turn
from .candidate import Candidate
from .evaluation import WIN, evaluate
from .heuristic import finish, ranked
from .information import canonical, determinise
from .playout import playout_turn
from .stream import Stream

BASE_WORK = 5
"""Districts times card plays a turn on the base table."""


class Budget(msgspec.Struct, frozen=True):
    """How hard a level thinks: plans at the root, sampled futures in all, turns played in each future."""

    plans: int
    futures: int
    """Sampled futures on the base table (five districts, one card play a turn); a larger table, whose turns
    take longer to imagine, gets proportionally fewer (:meth:`scaled`)."""
    horizon: int

    def scaled(self, state: DecktetState) -> Budget:
        """This budget on ``state``'s table: Mega's nine districts and two card plays a turn (V2) cost about
        three and a half times the base game's per future, the Y's seven districts (V4) about one and a half."""
        work = len(state.districts) * plays_allowed(state)
        return msgspec.structs.replace(self, futures=max(self.plans, self.futures * BASE_WORK // work))


class Searched(msgspec.Struct, frozen=True):
    """What the search found: the plan's index among the root's, its mean rating, the futures simulated."""

    index: int
    rating: int
    futures: int
    plans: int


def search_plan(state: DecktetState, seat: int, budget: Budget, stream: Stream) -> tuple[Candidate, Searched]:
    """The plan the search prefers for ``seat`` on ``state`` (reading only what ``seat`` may know)."""
    budget = budget.scaled(state)
    view = canonical(state, seat)
    best_plans = ranked(view, seat)[: budget.plans]
    options = [finish(plan, seat) for _, plan in best_plans]
    if len(options) == 1:
        return options[0], Searched(0, best_plans[0][0], 0, 1)
    survivors = list(range(len(options)))
    totals = [0] * len(options)
    samples = simulated = 0
    rounds = (len(options) - 1).bit_length()
    for _ in range(rounds):
        per_plan = max(1, budget.futures // (rounds * len(survivors)))
        for _ in range(per_plan):
            world = stream.next64()
            for i in survivors:
                totals[i] += imagine(options[i].state, seat, world, budget.horizon)
            samples += 1
            simulated += len(survivors)
        survivors.sort(key=lambda i: (-totals[i], i))
        if len(survivors) > 1:
            survivors = survivors[: (len(survivors) + 1) // 2]
    best = survivors[0]
    return options[best], Searched(best, totals[best] // max(samples, 1), simulated, len(options))


def imagine(planned: DecktetState, seat: int, world: int, horizon: int) -> int:
    """One sampled future after ``seat``'s planned actions (``planned``): its rating for ``seat``."""
    stream = Stream(world)
    state = _ended(determinise(planned, seat, stream), seat, stream)
    for _ in range(horizon):
        if state.phase != Phase.PLAYING:
            break
        active = state.active
        state = _ended(playout_turn(state, active).state, active, stream)
    return evaluate(state, seat)


def _ended(state: DecktetState, seat: int, stream: Stream) -> DecktetState:
    """The end of ``seat``'s turn (R2.1, R6, R9.2): its draw, then the next roll, or the final scoring."""
    rec = Recorder(state, evolve)
    end_turn(rec, seat, stream)
    return rec.state


__all__ = ["WIN", "Budget", "Searched", "imagine", "search_plan"]
