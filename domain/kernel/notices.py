"""What a seat is told: a notice is a projection of a game's events (never stored in the log itself).

The services derive notices with :func:`notices_between` from the state before and after a run of events and
the events themselves. Two kinds hold for every game and come from ``pending``: ``your_turn`` (a seat may act
now and could not before) and ``game_over``. A game adds its own (Magnate: ``outbid``, ``market``) through
``GameModule.tell``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from .game import Pending
from .phrases import Phrase

YOUR_TURN = "your_turn"
GAME_OVER = "game_over"


class Notice(msgspec.Struct, frozen=True):
    """``seat`` should be told ``kind`` (in words: ``phrase``, rendered in the recipient's language) about the event
    at ``version``."""

    seat: int
    kind: str
    version: int
    text: str = ""
    """The English words of a notice made before the catalogs (kept while a game's notices move to ``phrase``)."""
    phrase: Phrase | None = None


Teller = Callable[[Any, Sequence[tuple[int, Any]], Any], list[Notice]]
"""``tell(before, events, after)``: a game's own notices for ``events`` (version, event) between two states."""


def turn_notices(before: Pending, after: Pending, version: int) -> list[Notice]:
    """``your_turn`` for every seat that may act after and could not before; ``game_over`` for every seat when the
    game has just ended (``version``: the last event's)."""
    if after.finished and not before.finished:
        return []  # the caller adds one game_over per seat: it knows how many seats there are
    waiting = set(before.seats)
    return [Notice(int(seat), YOUR_TURN, version) for seat in after.seats if seat not in waiting]
