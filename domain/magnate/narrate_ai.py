"""The AI's part of the story (§11): its cards, its decisions and why, its tie-break dice and its levels.

An :class:`~domain.magnate.events.AiDecided` of a game played since the reasons became phrases carries its
reason as one (``why``) and is told in the reader's language; an older one carries only its English ``reason``,
told as it was recorded. Mixed into :class:`domain.magnate.narrate.Narrator`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.kernel.phrases import Listing, Phrase, Term, say, seat, term

from .catalog import Catalog
from .events import (
    AiAdvertised,
    AiCardDrawn,
    AiCardResolved,
    AiDecided,
    AiDeckReshuffled,
    AiDieRolled,
    AiHoldingsChanged,
    AiLevelRaised,
)

ROMAN = ("I", "II", "III", "IV", "V", "VI")


def roman(level: int) -> str:
    return ROMAN[level - 1] if 1 <= level <= len(ROMAN) else str(level)


class AiTeller:
    """Tells the AI's events; :attr:`depth` is where a seat's doings sit (1 in the bid, 2 in phases 2-4)."""

    cat: Catalog

    def __init__(self) -> None:
        self.depth = 1

    def ai_handlers(self) -> dict[type[Any], Callable[[Any], list[tuple[int, Phrase | None]]]]:
        return {
            AiCardDrawn: lambda e: [(self.depth, say("{seat} draws AI card {card} (level {level})", seat=seat(e.seat),
                                                     card=e.card, level=roman(e.level)))],
            AiDecided: self._decided,
            AiDieRolled: self._die_rolled,
            AiLevelRaised: self._level_raised,
            AiDeckReshuffled: lambda e: [(self.depth, say(
                "{seat} reshuffles its {n} discarded level {level} cards into a new deck", seat=seat(e.seat),
                n=len(e.cards), level=roman(e.level)))],
            AiAdvertised: lambda e: [(self.depth, say(
                "{seat}'s card {card} adds {n} to the round's advertising spent", seat=seat(e.seat), card=e.card or "",
                n=e.tokens))] if e.tokens else [],
            AiHoldingsChanged: lambda e: [],  # the AI board's bookkeeping: the buy, build or sale was told
            AiCardResolved: lambda e: [],  # the card goes to the discard pile
        }

    def _decided(self, e: AiDecided) -> list[tuple[int, Phrase | None]]:
        if e.why is not None:
            return [(self.depth, say("{seat} decides: {why}", seat=seat(e.seat), why=e.why))]
        return [(self.depth, say("{seat} decides: {reason}", seat=seat(e.seat), reason=e.reason))]

    def _level_raised(self, e: AiLevelRaised) -> list[tuple[int, Phrase | None]]:
        who, level = seat(e.seat), roman(e.level)
        if e.reason == "its deck is empty":
            line = say("{seat} rises to level {level}: its deck is empty", seat=who, level=level)
        elif e.reason == "it sold a plot":
            line = say("{seat} rises to level {level}: it sold a plot", seat=who, level=level)
        else:
            line = say("{seat} rises to level {level}: {reason}", seat=who, level=level, reason=e.reason)
        return [(self.depth, line)]

    def _die_rolled(self, e: AiDieRolled) -> list[tuple[int, Phrase | None]]:
        rolled = " ".join(str(face) for face in e.faces)
        if e.purpose == "building type":
            line = say("{seat} rolls a tie-break die for the building type among {candidates}: {faces} → {chosen}",
                       seat=seat(e.seat), candidates=Listing(tuple(self._type(t) for t in e.candidates)), faces=rolled,
                       chosen=self._type(e.chosen))
        elif e.purpose == "plot to buy":
            line = say("{seat} rolls a tie-break die for the plot to buy among {candidates}: {faces} → {chosen}",
                       seat=seat(e.seat), candidates=Listing(tuple(e.candidates)), faces=rolled, chosen=e.chosen)
        else:
            line = say("{seat} rolls a tie-break die for the {purpose} among {candidates}: {faces} → {chosen}",
                       seat=seat(e.seat), purpose=e.purpose, candidates=Listing(tuple(e.candidates)), faces=rolled,
                       chosen=e.chosen)
        return [(self.depth, line)]

    def _type(self, key: str) -> Term | str:
        held = self.cat.tenant_types.get(key)
        return term(held.name) if held is not None else key
