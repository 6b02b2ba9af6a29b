"""The log told in sentences: what a game's narrator gives the services (the history panel, the demo).

A narrator is a fold over the events a viewer may see (a game with hidden information tells each viewer the
story of its own redacted log): it reads one event at a time, in log order, and gives the lines that tell it.
"""

from __future__ import annotations

from typing import Any, Protocol

import msgspec


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


class Narrator(Protocol):
    """Tells a game's events one at a time, in log order (it names things from what it was told before)."""

    def tell(self, version: int, tag: str, event: Any) -> list[Told]:
        """The lines of the event at ``version`` (type tag ``tag``)."""
        ...


def utf16_length(text: str) -> int:
    """The length of ``text`` in UTF-16 code units (a JavaScript string's ``length``)."""
    return len(text.encode("utf-16-le")) // 2
