"""The easy computer: rules of thumb, looking one turn ahead.

It lists its plans (:mod:`.plans`: the suit each paying deed gives, then every card play, developing its deeds in
a few ways) and plays the one whose resulting position :mod:`.evaluation` rates best, which is where its rules of
thumb live: value in a district counts for as much as it changes who controls it (a wide lead needs no more, a
lost cause gets none, a close district most), deeds count more as tokens go on them, tokens and income count for
what they may still buy, and a card in hand for where it may still go. Then it trades away a pile of tokens tax
threatens for a suit it needs, and sets each deed's private preference to the suit it needs most (:mod:`.purse`).
"""

from __future__ import annotations

from ..board import deeds
from ..cards import info, suit_codes
from ..commands import Prefer, Trade
from ..state import DecktetState
from .candidate import Candidate
from .evaluation import DEFAULT, Weights, evaluate
from .information import canonical
from .plans import plans
from .purse import best_suit, needs, surplus_trade


def ranked(state: DecktetState, seat: int, weights: Weights = DEFAULT) -> list[tuple[int, Candidate]]:
    """``seat``'s plans on ``state`` with their evaluation, best first (ties in the order they were listed)."""
    def score(s: DecktetState) -> int:
        return evaluate(s, seat, weights)

    options = plans(state, seat, score)
    scored = [(score(plan.state), -i, plan) for i, plan in enumerate(options)]
    scored.sort(key=lambda t: (t[0], t[1]), reverse=True)
    return [(value, plan) for value, _, plan in scored]


def heuristic_plan(state: DecktetState, seat: int, weights: Weights = DEFAULT) -> tuple[Candidate, int]:
    """The easy computer's plan for ``seat`` (from what it may know) and its evaluation."""
    value, best = ranked(canonical(state, seat), seat, weights)[0]
    return finish(best, seat), value


def finish(plan: Candidate, seat: int) -> Candidate:
    """The free actions that close a turn: a trade out of a pile tax threatens, then the deeds' preferences."""
    codes = suit_codes(plan.state.variant.dataset)
    trade = surplus_trade(plan.state, seat)
    if trade is not None:
        plan = plan.then(seat, Trade(give=codes[trade[0]], take=codes[trade[1]])) or plan
    held = plan.state.seats[seat]
    need = needs(plan.state, seat)
    for _, placed in deeds(held):
        suits = info(plan.state.variant.dataset, placed.card).suits
        if len(suits) < 2:
            continue
        want = codes[best_suit(suits, held.supply, need)]
        if want != placed.preference:
            plan = plan.then(seat, Prefer(card=placed.card, suit=want)) or plan
    return plan
