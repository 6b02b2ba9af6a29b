"""The log told in sentences: what a game's narrator gives the services (the history panel, the demo).

A narrator is a fold over the events a viewer may see (a game with hidden information tells each viewer the
story of its own redacted log): it reads one event at a time, in log order, and gives the lines that tell it.

A game's narrator tells each line as a :class:`~domain.kernel.phrases.Phrase` (a message key and its arguments,
in no language): the services render it in the reader's language. :class:`LineNarrator` is the narrator made of
one teller per event type. (A teller may still give :data:`Part` pieces, English text or ``(seat,)`` where a seat
is named, which :func:`spell` writes out; the games move to phrases.)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

import msgspec

from .phrases import Phrase, say


class Named(msgspec.Struct, frozen=True):
    """Where a line names a seat: ``text[start:end]``, counted in UTF-16 code units (as a JavaScript string
    is indexed), so the page can put the name it shows in its headers there."""

    seat: int
    start: int
    end: int


class Told(msgspec.Struct, frozen=True):
    """One line of the story: ``text`` at indentation ``depth``, telling the event at ``version``."""

    version: int
    event: str
    """The event's type tag (``magnate.ai_decided``), so a reader can pick lines out."""
    depth: int
    text: str
    seats: tuple[Named, ...] = ()
    """Where ``text`` names a seat, left to right."""
    phrase: Phrase | None = None
    """The line in no language (a message key and its arguments): the services render ``text`` and ``seats``
    from it in the reader's language. A narrator that gives phrases leaves ``text`` empty."""


class Narrator(Protocol):
    """Tells a game's events one at a time, in log order (it names things from what it was told before)."""

    def tell(self, version: int, tag: str, event: Any) -> list[Told]:
        """The lines of the event at ``version`` (type tag ``tag``)."""
        ...


def utf16_length(text: str) -> int:
    """The length of ``text`` in UTF-16 code units (a JavaScript string's ``length``)."""
    return len(text.encode("utf-16-le")) // 2


Part = str | tuple[int]
"""A piece of a line: text, or ``(seat,)`` where a seat is named."""

Lines = list[tuple[int, list[Part]]]
"""The lines telling one event in English: ``(depth, parts)`` each (the old way)."""

PhraseLines = list[tuple[int, Phrase]]
"""The lines telling one event: ``(depth, phrase)`` each."""

Teller = Callable[[Any], Sequence[tuple[int, Sequence[Part] | Phrase]]]
"""Tells one event: its :data:`PhraseLines` (or :data:`Lines`)."""


def seat_phrase(seat: int) -> Phrase:
    """A seat no player has named: "Player 2" in the reader's language."""
    return say("Player {number}", number=seat + 1)


def _append(text: str, piece: str) -> str:
    return text + piece


def spell(
    parts: Sequence[Part], name: Callable[[int], str], join: Callable[[str, str], str] = _append
) -> tuple[str, tuple[Named, ...]]:
    """The text of a line, each seat written as ``name(seat)``, and where in it each seat is named (UTF-16 code
    units, left to right); ``join(text, piece)`` adds a text piece (plain concatenation by default)."""
    text, named = "", []
    for part in parts:
        if isinstance(part, tuple):
            seat_name = name(part[0])
            start = utf16_length(text)
            text += seat_name
            named.append(Named(part[0], start, start + utf16_length(seat_name)))
        else:
            text = join(text, part)
    return text, tuple(named)


class LineNarrator:
    """A narrator told by one teller per event type (an event without one tells nothing). A teller's phrase is
    kept as it is (the reader's language names the seats); a teller's parts are written in English, a seat
    named with its player's name when given, "Player 2" otherwise. A game sets :attr:`tellers` and may override
    :meth:`join`."""

    def __init__(self, names: Mapping[int, str] | None = None) -> None:
        self.names = dict(names or {})
        self.tellers: Mapping[type, Teller] = {}

    def tell(self, version: int, tag: str, event: Any) -> list[Told]:
        teller = self.tellers.get(type(event))
        if teller is None:
            return []
        told = []
        for depth, line in teller(event):
            if isinstance(line, Phrase):
                told.append(Told(version, tag, depth, "", (), line))
            else:
                text, named = spell(line, self.seat_name, self.join)
                told.append(Told(version, tag, depth, text, named))
        return told

    def seat_name(self, seat: int) -> str:
        return self.names.get(seat) or f"Player {seat + 1}"

    def join(self, text: str, piece: str) -> str:
        """``text`` followed by the text ``piece`` (a game may tidy the seam)."""
        return text + piece
