"""The engine's advice to a seat: its legal options ranked, best first, each with its reason.

A game offers it as :attr:`~domain.kernel.game.GameModule.advise` (``advise(state, seat) -> Advice``). Advice is
pure and deterministic and decides on the seat's view only: where the engine samples the worlds the seat cannot
tell apart, its randomness comes from what the seat can see (:func:`view_seed`), never from the game's seed (that
fixes the hidden cards). Advice is not a move: nothing of it enters the log.
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec

from .phrases import Phrase, plain


class Reason(msgspec.Struct, frozen=True):
    """Why an option is advised, language-neutral: a message key and its arguments (each game renders it)."""

    key: str
    args: dict[str, str | int] = msgspec.field(default_factory=dict)
    phrase: Phrase | None = None
    """The reason in no language (a message key and its arguments), rendered in the reader's language."""


class AdviceOption(msgspec.Struct, frozen=True):
    """One option: ``command`` is a legal player command of the seat, exactly what it may submit."""

    command: Any
    why: Reason
    score: int
    """What the engine ranked by (higher is better; no floats in rules)."""


class Advice(msgspec.Struct, frozen=True):
    """The seat's options, best first; empty when the seat has nothing to decide."""

    options: tuple[AdviceOption, ...] = ()

    @property
    def best(self) -> AdviceOption | None:
        return self.options[0] if self.options else None


NO_ADVICE = Advice()


def ranked(options: list[AdviceOption] | tuple[AdviceOption, ...]) -> Advice:
    """Options ordered best first (by score, stable: ties keep the engine's order)."""
    return Advice(options=tuple(sorted(options, key=lambda o: -o.score)))


def render(templates: dict[str, str], reason: Reason) -> str:
    """A reason in English words: its phrase when it has one (the services render it in the reader's language),
    else its key's template filled with its arguments (``"Buy {lot}"``); an unknown key is written as itself."""
    if reason.phrase is not None:
        return plain(reason.phrase)
    template = templates.get(reason.key)
    if template is None:
        return reason.key
    try:
        return template.format(**reason.args)
    except (KeyError, IndexError, ValueError):
        return template


def view_seed(view: msgspec.Struct, *salt: object) -> int:
    """A seed drawn from what a seat sees (its view, plus e.g. the version): the same for every state the seat
    cannot tell apart, and telling nothing of the game's own seed."""
    digest = hashlib.sha256(msgspec.json.encode(view))
    for part in salt:
        digest.update(repr(part).encode())
    return int.from_bytes(digest.digest()[:8], "big")
