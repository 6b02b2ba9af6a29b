"""The computer player of Decktet Magnate: ``plan_turn`` decides a whole turn for a seat the options gave it.

It decides from what that seat may know (its hand, the public board, the sizes of the other hands); the decider
records its plan (``AiTurnPlanned``) and then applies each action as the seat's own. ``easy`` plays the plan its
rules of thumb rate best (:mod:`.heuristic`); ``medium`` and ``hard`` search sampled futures of the worlds the
seat cannot tell apart (:mod:`.search`), with the budgets of :data:`BUDGETS`. docs/AI.md ("Decktet Magnate") says
how, and how strong each level is.
"""

from __future__ import annotations

import msgspec

from domain.kernel import Chance
from domain.kernel.phrases import Phrase, plain, say, say_n

from ..commands import Prefer, TurnAction
from ..state import DecktetState
from .evaluation import WIN
from .explain import explain, percent
from .heuristic import heuristic_plan
from .information import canonical
from .search import Budget, search_plan
from .stream import Stream


class Plan(msgspec.Struct, frozen=True):
    """A turn's actions in order (the end of the turn follows them) and why, in words."""

    actions: tuple[TurnAction, ...]
    reason: Phrase
    """Why, in no language (told in the reader's)."""

    @property
    def explanation(self) -> str:
        """The reason in English (for the CLI and tests)."""
        return plain(self.reason)


BUDGETS = {
    "medium": Budget(plans=3, futures=16, horizon=2),
    "hard": Budget(plans=6, futures=60, horizon=4),
}
"""What the searching levels may think about: the best plans by the rules of thumb, the sampled futures shared
among them, and the turns each future plays out (a count, never a time: the decision is pure)."""


def plan_turn(state: DecktetState, seat: int, level: str, chance: Chance) -> Plan:
    """The turn the computer plays for ``seat`` at ``level``."""
    budget = BUDGETS.get(level)
    if budget is None:
        plan, value = heuristic_plan(state, seat)
        reason = say("By its rules of thumb this leaves it an estimated {chance}% chance to win.",
                     chance=percent(value, WIN))
    else:
        plan, found = search_plan(state, seat, budget, Stream.of(chance))
        odds = percent(found.rating, WIN)
        reason = (say("It compared {plans} over {futures} (the unseen cards dealt anew, the dice rolled, {horizon}); "
                      "this one came out best, with an estimated {chance}% chance to win.",
                      plans=say_n("{n} plan", "{n} plans", "n", n=found.plans),
                      futures=say_n("{n} sampled future", "{n} sampled futures", "n", n=found.futures),
                      horizon=say_n("{n} turn ahead", "{n} turns ahead", "n", n=budget.horizon), chance=odds)
                  if found.futures else
                  say("It saw one sensible plan, with an estimated {chance}% chance to win.", chance=odds))
    public = tuple(a for a in plan.actions if not isinstance(a, Prefer))
    return Plan(plan.actions, explain(canonical(state, seat), plan.state, seat, public, reason))
