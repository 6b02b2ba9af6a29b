"""The engine's advice to a person's seat (issue #26): the searching computer (``medium``) deciding for the seat.

The rules of thumb list the seat's whole-turn plans (:mod:`.heuristic`); the best :data:`BUDGET` ``plans`` of them
are each played out over the same sampled futures (half the medium search's total, each) of the worlds the
seat cannot tell apart (:mod:`.search`'s ``imagine``: the unseen cards dealt anew, the dice rolled, two turns
ahead), and ranked by their mean rating (an estimated chance to win, on the scale of :data:`~.evaluation.WIN`).
Each option is the whole turn as one :class:`~..commands.PlayTurn` (its actions, then the end of the turn), so
following the advice plays the turn the medium computer would. The futures are drawn from a digest of the seat's
own view, never from the game's seed.
"""

from __future__ import annotations

from domain.kernel import Seat
from domain.kernel.advice import NO_ADVICE, Advice, AdviceOption, Reason, ranked, render, view_seed
from domain.kernel.phrases import Phrase, say, say_n

from ..commands import PlayTurn
from ..legal import legal_commands
from ..notation import format_turn
from ..state import DecktetState
from ..view import view
from .evaluation import WIN
from .explain import percent
from .heuristic import finish
from .heuristic import ranked as ranked_plans
from .information import canonical
from .search import Budget, imagine
from .stream import Stream

BUDGET = Budget(plans=3, futures=16, horizon=2)
"""The medium computer's budget: every one of the ``plans`` best plans is played out in each sampled future."""

TEMPLATES = {
    "decktet.turn": "Play {turn}: an estimated {chance}% chance to win over {futures} sampled futures.",
    "decktet.only": "Play {turn}: the one sensible turn ({chance}% estimated chance to win).",
}


def advise(state: DecktetState, seat: Seat) -> Advice:
    """``seat``'s turns ranked, best first (no options unless it is the seat's turn)."""
    if not legal_commands(state, seat):
        return NO_ADVICE
    seen = canonical(state, seat)
    plans = [finish(plan, seat) for _, plan in ranked_plans(seen, seat)[: BUDGET.plans]]
    futures = BUDGET.scaled(seen).futures // 2 if len(plans) > 1 else 0
    stream = Stream(view_seed(view(state, seat), "decktet-advice"))
    totals = [0] * len(plans)
    for _ in range(futures):
        world = stream.next64()
        for i, plan in enumerate(plans):
            totals[i] += imagine(plan.state, seat, world, BUDGET.horizon)
    options = []
    for i, plan in enumerate(plans):
        rating = totals[i] // futures if futures else imagine(plan.state, seat, stream.next64(), 0)
        turn = format_turn(plan.actions, public=True)
        chance = percent(rating, WIN)
        args: dict[str, str | int] = {"turn": turn or "no action", "chance": chance, "futures": futures}
        key = "decktet.turn" if futures else "decktet.only"
        why = Reason(key, args, _phrase(turn, chance, futures))
        options.append(AdviceOption(command=PlayTurn(actions=plan.actions), why=why, score=rating))
    return ranked(options)


def _phrase(turn: str, chance: int, futures: int) -> Phrase:
    """The reason in no language (the turn in the game's notation: letters and codes, not words)."""
    if futures and turn:
        return say_n("Play {turn}: an estimated {chance}% chance to win over {n} sampled future.",
                     "Play {turn}: an estimated {chance}% chance to win over {n} sampled futures.", "n",
                     turn=turn, chance=chance, n=futures)
    if futures:
        return say_n("End the turn at once: an estimated {chance}% chance to win over {n} sampled future.",
                     "End the turn at once: an estimated {chance}% chance to win over {n} sampled futures.", "n",
                     chance=chance, n=futures)
    if turn:
        return say("Play {turn}: the one sensible turn ({chance}% estimated chance to win).", turn=turn, chance=chance)
    return say("End the turn at once: the one sensible turn ({chance}% estimated chance to win).", chance=chance)


def advice_text(reason: Reason) -> str:
    """A Decktet reason in English."""
    return render(TEMPLATES, reason)
