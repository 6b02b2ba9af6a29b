"""The narrator's line for the computer's reasons (``AiDecided``): the seat, then what it does and why. Part of
:mod:`.narrate`."""

from __future__ import annotations

from domain.kernel.narration import PhraseLines
from domain.kernel.phrases import say, seat

from .events import AiDecided


def ai_lines(e: AiDecided) -> PhraseLines:
    """``{seat} {action}``: the seat's name carries its level; the action is the computer's phrase (the English
    words of a log written before the reasons were phrases)."""
    return [(1, say("{seat} {action}", seat=seat(e.seat), action=e.reason if e.reason is not None
                    else e.explanation))]
