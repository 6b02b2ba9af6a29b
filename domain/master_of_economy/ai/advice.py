"""The engine's advice to a person's seat (issue #26): the ``shrewd`` computer deciding for the seat.

Its first move is the advice; the ``basic`` computer's first move comes next when it differs, then every other
legal command (each template's own command) in the order ``legal_commands`` lists them. The computer reads only
what the seat may know (:func:`~.decide_for`), and the little randomness it uses is drawn from a digest of the
seat's own view, never from the game's seed.
"""

from __future__ import annotations

from domain.kernel import Chance, Seat, tag_of
from domain.kernel.advice import NO_ADVICE, Advice, AdviceOption, Reason, ranked, view_seed
from domain.kernel.phrases import Phrase, plain, say

from ..legal import legal_commands
from ..playing import may_act
from ..state import State, Step
from ..view import view
from . import decide_for

SHREWD, BASIC, OTHER = 2, 1, 0


def advise(state: State, seat: Seat) -> Advice:
    """``seat``'s moves ranked, best first (none unless the game waits for the seat)."""
    if state.step == Step.ENDED or not may_act(state, seat):
        return NO_ADVICE
    templates = legal_commands(state, seat)
    if not templates:
        return NO_ADVICE
    seed = view_seed(view(state, seat), "moe-advice").to_bytes(8, "big")
    options: list[AdviceOption] = []
    for level, key, score in (("shrewd", "moe.shrewd", SHREWD), ("basic", "moe.basic", BASIC)):
        decision = decide_for(state, seat, level, Chance(seed, 0))
        if decision.moves and all(o.command != decision.moves[0] for o in options):
            options.append(AdviceOption(command=decision.moves[0], score=score, why=_reason(
                key, decision.reason, tag_of(decision.moves[0]))))
    for template in templates:
        if all(o.command != template.command for o in options):
            options.append(AdviceOption(command=template.command, score=OTHER,
                                        why=_reason("moe.legal", None, tag_of(template.command))))
    return ranked(options)


def _reason(key: str, action: Phrase | None, move: str) -> Reason:
    """The reason ``key`` for a move (its type tag ``move``) that the computer at a level would make (``action``:
    what it does and why), as a phrase; ``args`` keep the English detail and the move's tag."""
    if key == "moe.shrewd" and action is not None:
        phrase = say("The shrewd computer in your place {action}", action=action)
    elif key == "moe.basic" and action is not None:
        phrase = say("The careful beginner's move: it {action}", action=action)
    else:
        phrase = say("Another legal move ({move}).", move=move)
    return Reason(key, {"detail": plain(action) if action is not None else "", "move": move}, phrase)


def advice_text(reason: Reason) -> str:
    """A Master of Economy reason in English."""
    return plain(reason.phrase) if reason.phrase is not None else reason.key
