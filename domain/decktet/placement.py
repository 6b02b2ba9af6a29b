"""Placement in districts (R5): where a card may go, bought outright or as a deed.

A card joins the end of the seat's own column (R5.1) and must share a suit with the card it is placed next to:
the district card while the column is empty (any card may start a column beside the Excuse, R5.3), else the
last card of the column, deed or developed (R5.2). A seat with an incomplete deed in a district places nothing
more there until the deed is complete (R5.4). In the three-player Y a seat builds only in its own districts
(V4.2).
"""

from __future__ import annotations

from domain.kernel.phrases import Phrase, say, term

from .cards import CardInfo, info
from .state import DecktetState


def placement_error(state: DecktetState, seat: int, card: CardInfo, district: int) -> Phrase | None:
    """Why ``card`` may not go into ``seat``'s column of ``district``, or None if it may."""
    if seat not in state.builders[district]:
        return say("you do not build in this district")
    column = state.seats[seat].columns[district]
    if any(p.deed for p in column):
        return say("your deed in this district is not complete")
    neighbour = info(state.variant.dataset, column[-1].card if column else state.districts[district])
    if not column and not neighbour.suits:
        return None
    if not set(card.suits) & set(neighbour.suits):
        return say("no suit matches {card}", card=term(neighbour.name))
    return None


def legal_districts(state: DecktetState, seat: int, card: CardInfo) -> list[int]:
    """The districts ``card`` may go into now."""
    return [d for d in range(len(state.districts)) if placement_error(state, seat, card, d) is None]
